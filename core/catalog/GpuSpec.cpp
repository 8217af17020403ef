#include "gpuplan/catalog/GpuSpec.h"

namespace gpuplan::core {

const char* confidenceName(Confidence confidence)
{
    switch (confidence) {
        case Confidence::High:
            return "high";
        case Confidence::Medium:
            return "medium";
        case Confidence::Low:
            return "low";
    }
    return "?";
}

} // namespace gpuplan::core
