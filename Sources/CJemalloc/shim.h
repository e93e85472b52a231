// Debian's jemalloc is built without a symbol prefix: linking it replaces malloc for the
// whole process, so jemalloc's statistics cover every allocation Swift makes.
#include <jemalloc/jemalloc.h>
