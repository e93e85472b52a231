// Darwin declarations Host's +Darwin files use whose headers the SDK's Darwin module may leave
// out (libproc.h, crt_externs.h and mach-o/dyld.h are not in every SDK's module map): included
// here, as Swift's own benchmark suite reaches proc_pid_rusage through a C target. Header-only.
#if defined(__APPLE__)
#include <crt_externs.h>      // _NSGetEnviron
#include <libproc.h>          // proc_pid_rusage, proc_pidinfo, proc_bsdinfo (sys/proc_info.h)
#include <mach-o/dyld.h>      // _NSGetExecutablePath
#include <malloc/malloc.h>    // malloc_zone_statistics
#include <sys/resource.h>     // rusage_info_v4, RUSAGE_INFO_V4
#include <sys/sysctl.h>       // sysctlbyname
#endif
