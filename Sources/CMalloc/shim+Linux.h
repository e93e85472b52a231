// glibc's malloc statistics (mallinfo2, mallopt), which the Glibc module does not export.
// Used when jemalloc is not the allocator: test binaries, which the thread sanitizer needs on
// glibc's malloc.
#if defined(__linux__)
#include <malloc.h>
#endif
