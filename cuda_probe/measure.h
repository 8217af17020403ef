// Inventory and measurements of one GPU.
#pragma once

#include "probe.h"

namespace probe {

// Fills `gpu` for CUDA device `index` (of `deviceCount`). Never throws: failures land in gpu.error*.
// Reports each finished measurement to progress.h, so an abnormal end keeps it.
void measureGpu(int index, int deviceCount, const Options& options, GpuReport& gpu);
// The NVML handle of CUDA device `index` (nullptr without NVML), for the burn-in.
void* nvmlHandleFor(int index);

} // namespace probe
