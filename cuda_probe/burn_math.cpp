// The burn's arithmetic, kept apart from the CUDA code so that the unit tests build it with the host compiler alone.
#include "burn.h"

#include <algorithm>
#include <cmath>

namespace probe::burn {

Windows windows(const std::vector<double>& perSecondTflops)
{
    std::vector<double> v;
    for (double x : perSecondTflops)
        if (std::isfinite(x))
            v.push_back(x);
    Windows w;
    if (v.empty())
        return w;
    const size_t n = v.size();
    const size_t width = std::max<size_t>(1, static_cast<size_t>(std::ceil(0.1 * static_cast<double>(n) - 1e-9)));
    auto mean = [&](size_t from) {
        double sum = 0;
        for (size_t i = from; i < from + width; ++i)
            sum += v[i];
        return sum / static_cast<double>(width);
    };
    w.first = mean(0);
    w.last = mean(n - width);
    w.min = w.first;
    for (size_t from = 1; from + width <= n; ++from)
        w.min = std::min(w.min, mean(from));
    return w;
}

int outputBuffers(size_t freeBytes, size_t bytesPerOutput, size_t reservedBytes, double fraction, int cap)
{
    if (bytesPerOutput == 0 || cap < 1)
        return 1;
    const double room = static_cast<double>(freeBytes) * fraction - static_cast<double>(reservedBytes);
    const double fits = std::floor(room / static_cast<double>(bytesPerOutput));
    return static_cast<int>(std::clamp(fits, 1.0, static_cast<double>(cap)));
}

} // namespace probe::burn
