// Linux calls Swift cannot make itself: perf_event_open goes through the variadic syscall(2),
// and its ioctls through the variadic ioctl(2). Header-only; nothing to link.
#if defined(__linux__)
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/// A counter of user-space instructions retired by the calling thread and the threads it
/// starts afterwards, stopped. Returns the descriptor, or -errno (ENOENT where the machine has
/// no hardware counter, as virtual machines often have none).
static inline int loadgen_instruction_counter_open(void) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.inherit = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    return fd < 0 ? -errno : (int)fd;
}

static inline int loadgen_instruction_counter_start(int fd) {
    if (ioctl(fd, PERF_EVENT_IOC_RESET, 0) != 0) return -errno;
    return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) == 0 ? 0 : -errno;
}

/// Stops the counter and returns what it counted (with inherited threads), or -1.
static inline int64_t loadgen_instruction_counter_stop(int fd) {
    ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    uint64_t value = 0;
    return read(fd, &value, sizeof value) == sizeof value ? (int64_t)value : -1;
}
#endif
