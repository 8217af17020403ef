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

std::optional<Confidence> parseConfidence(std::string_view name)
{
    for (Confidence confidence : {Confidence::High, Confidence::Medium, Confidence::Low}) {
        if (name == confidenceName(confidence)) {
            return confidence;
        }
    }
    return std::nullopt;
}

} // namespace gpuplan::core
