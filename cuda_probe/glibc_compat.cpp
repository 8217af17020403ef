// The probe is copied to machines older than the one that built it. Ubuntu 22.04's glibc is 2.35, while the static
// libstdc++ of GCC 12 calls arc4random (glibc 2.36) for std::random_device: defining it here keeps the probe's
// newest glibc symbol version at 2.34 (Ubuntu 22.04, RHEL 9, Amazon Linux 2023 and later). `gpuplan probe` reads
// that floor from the binary and builds the probe on the machine itself where its glibc is older.
#include <cerrno>
#include <cstdint>
#include <cstdlib>

// <cstdint> has brought in glibc's <features.h>; a remote build on a system without getrandom needs no shim.
#if defined(__GLIBC__) && __has_include(<sys/random.h>)
#include <sys/random.h>

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
