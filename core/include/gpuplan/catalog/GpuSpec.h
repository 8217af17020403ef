#pragma once

#include "gpuplan/catalog/Source.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// Dense (non-sparse) datasheet peaks in TFLOPS. An absent value means the GPU has no such
/// unit or the datasheet does not state it: unknown stays unknown.
struct PeakTflops
{
    std::optional<double> fp32;
    std::optional<double> tf32;
    std::optional<double> fp16;
    std::optional<double> bf16;
    std::optional<double> fp8;

    bool operator==(const PeakTflops&) const = default;
};

enum class Confidence
{
    High,   // read straight off the vendor's datasheet
    Medium, // derived from the datasheet (e.g. sparse / 2)
    Low,    // third-party figures, no vendor datasheet
};

/// One accelerator model with its datasheet figures and their source.
struct GpuSpec
{
    std::string id;                   // stable key used by offers, e.g. "a100-sxm4-40gb"
    std::string name;                 // display name, e.g. "A100 40GB SXM4"
    std::vector<std::string> aliases; // other names users type, e.g. "a100-80gb"; matched ignoring case
    std::string vendor;
    std::string architecture;
    std::string computeCapability; // "8.0"; empty for non-CUDA accelerators
    double memoryGb = 0;
    std::string memoryType;
    std::optional<double> memoryBandwidthGBs;
    PeakTflops peak;
    std::string interconnect;
    std::optional<double> tdpWatts;
    Confidence confidence = Confidence::High;
    std::string notes;
    Source source;
};

const char* confidenceName(Confidence confidence);
std::optional<Confidence> parseConfidence(std::string_view name);

} // namespace gpuplan::core
