// The probe is copied to machines older than the one that built it (Debian 12, glibc 2.36). Two things keep it
// running there; `gpuplan probe` reads the resulting floor from the binary and builds the probe on the machine
// itself where its glibc is older still.
//
// 1. Always: the static libstdc++ of GCC 12 calls arc4random (glibc 2.36) for std::random_device. Defining it here
//    keeps a plain link at glibc 2.34 (Ubuntu 22.04, RHEL 9, Amazon Linux 2023).
// 2. With PROBE_GLIBC_FLOOR (CMakeLists.txt links against cuda_probe/glibc-floor/make-stubs.sh's stand-ins, which
//    record the symbol versions of that glibc): fallbacks for what that glibc lacks, and the start-up difference
//    below. Without them the link fails with "undefined reference" -- the stand-ins only export what glibc
//    PROBE_GLIBC_FLOOR had.
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

// <cstdint> has brought in glibc's <features.h>; a remote build on a system without getrandom needs no shim.
#if defined(__GLIBC__) && __has_include(<sys/random.h>)
#include <sys/random.h>

#ifdef PROBE_GLIBC_FLOOR
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// getrandom and getentropy arrived in glibc 2.25 (the system call in Linux 3.17); libstdc++ uses them for
// std::random_device. Without the system call (CentOS 7's 3.10 kernel) /dev/urandom answers.
extern "C" ssize_t getrandom(void* buffer, size_t length, unsigned int flags)
{
    const long got = syscall(SYS_getrandom, buffer, length, flags);
    if (got >= 0 || errno != ENOSYS)
        return got;
    const int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    const ssize_t read_bytes = read(fd, buffer, length);
    close(fd);
    return read_bytes;
}

extern "C" int getentropy(void* buffer, size_t length)
{
    if (length > 256) {
        errno = EIO;
        return -1;
    }
    auto* bytes = static_cast<unsigned char*>(buffer);
    while (length > 0) {
        const ssize_t got = getrandom(bytes, length, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        bytes += got;
        length -= static_cast<size_t>(got);
    }
    return 0;
}

// stat and friends became functions of their own in glibc 2.33; before, the headers turned them into calls of
// __xstat (version 1 is struct stat's layout on x86-64, the only layout there).
extern "C" {
int __xstat(int version, const char* path, struct stat* buffer);
int __lxstat(int version, const char* path, struct stat* buffer);
int __fxstat(int version, int fd, struct stat* buffer);
int __fxstatat(int version, int dirfd, const char* path, struct stat* buffer, int flags);

int stat(const char* path, struct stat* buffer) noexcept
{
    return __xstat(1, path, buffer);
}
int lstat(const char* path, struct stat* buffer) noexcept
{
    return __lxstat(1, path, buffer);
}
int fstat(int fd, struct stat* buffer) noexcept
{
    return __fxstat(1, fd, buffer);
}
int fstatat(int dirfd, const char* path, struct stat* buffer, int flags) noexcept
{
    return __fxstatat(1, dirfd, path, buffer, flags);
}
// struct stat64 is struct stat on x86-64; libstdc++ calls these.
int stat64(const char* path, struct stat64* buffer) noexcept
{
    return __xstat(1, path, reinterpret_cast<struct stat*>(buffer));
}
int lstat64(const char* path, struct stat64* buffer) noexcept
{
    return __lxstat(1, path, reinterpret_cast<struct stat*>(buffer));
}
int fstat64(int fd, struct stat64* buffer) noexcept
{
    return __fxstat(1, fd, reinterpret_cast<struct stat*>(buffer));
}
}

// glibc 2.30's condition wait against a chosen clock, which std::condition_variable::wait_until uses for
// steady_clock. Before it, waits ran against CLOCK_REALTIME: turn the deadline into one (a wall-clock jump during the
// wait moves it, as it did with every glibc before 2.30).
extern "C" int pthread_cond_clockwait(pthread_cond_t* condition,
                                      pthread_mutex_t* mutex,
                                      clockid_t clock,
                                      const struct timespec* deadline)
{
    if (clock == CLOCK_REALTIME)
        return pthread_cond_timedwait(condition, mutex, deadline);
    if (clock != CLOCK_MONOTONIC)
        return EINVAL;
    timespec now_clock{};
    timespec now_real{};
    clock_gettime(clock, &now_clock);
    clock_gettime(CLOCK_REALTIME, &now_real);
    long long nanoseconds = (static_cast<long long>(deadline->tv_sec) - now_clock.tv_sec) * 1000000000LL
                            + (deadline->tv_nsec - now_clock.tv_nsec) + now_real.tv_nsec;
    timespec real_deadline{};
    real_deadline.tv_sec = now_real.tv_sec + static_cast<time_t>(nanoseconds / 1000000000LL);
    nanoseconds %= 1000000000LL;
    if (nanoseconds < 0) {
        nanoseconds += 1000000000LL;
        --real_deadline.tv_sec;
    }
    real_deadline.tv_nsec = static_cast<long>(nanoseconds);
    return pthread_cond_timedwait(condition, mutex, &real_deadline);
}

// glibc 2.32's hint that lets libstdc++ skip atomic reference counts in single-threaded programs; 0 ("maybe
// threads") is always correct.
extern "C" {
char __libc_single_threaded = 0;
}

// glibc 2.34's crt1.o passes no init function to __libc_start_main: the new glibc runs the program's constructors
// itself, an older one runs only the init function it is given -- without it no static constructor (libstdc++,
// cudart, ours) would run. So hand it one, as pre-2.34 crt1.o did (__libc_csu_init); every glibc calls it instead
// of running the constructors itself. The link wraps __libc_start_main (-Wl,--wrap=__libc_start_main).
extern "C" {
using InitFunction = void (*)(int, char**, char**);
extern InitFunction __init_array_start[] __attribute__((visibility("hidden")));
extern InitFunction __init_array_end[] __attribute__((visibility("hidden")));
void _init(void);
int __real___libc_start_main(int (*main)(int, char**, char**),
                             int argc,
                             char** argv,
                             InitFunction init,
                             void (*fini)(void),
                             void (*rtld_fini)(void),
                             void* stack_end);

static void probe_run_constructors(int argc, char** argv, char** envp)
{
    _init();
    for (InitFunction* function = __init_array_start; function != __init_array_end; ++function)
        (*function)(argc, argv, envp);
}

int __wrap___libc_start_main(int (*main)(int, char**, char**),
                             int argc,
                             char** argv,
                             InitFunction init,
                             void (*fini)(void),
                             void (*rtld_fini)(void),
                             void* stack_end)
{
    if (init == nullptr)
        init = probe_run_constructors;
    return __real___libc_start_main(main, argc, argv, init, fini, rtld_fini, stack_end);
}
}
#endif // PROBE_GLIBC_FLOOR

extern "C" std::uint32_t arc4random(void)
{
    std::uint32_t value = 0;
    for (;;) {
        const ssize_t got = getrandom(&value, sizeof value, 0);
        if (got == static_cast<ssize_t>(sizeof value))
            return value;
        if (got < 0 && errno != EINTR)
            std::abort();
    }
}
#endif
