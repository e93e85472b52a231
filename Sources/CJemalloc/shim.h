// Debian's jemalloc is built without a symbol prefix: linking it replaces malloc for the
// whole process, so jemalloc's statistics cover every allocation Swift makes. Homebrew's, on
// macOS, keeps jemalloc's default prefix there (`je_mallctl`, with `mallctl` a macro for it).
#include <jemalloc/jemalloc.h>

// The executable refers to this so that the linker keeps the library: it names `mallctl` as C
// sees it, prefixed or not (Swift does not see the macro).
static inline void *loadgen_jemalloc_anchor(void) { return (void *)&mallctl; }
