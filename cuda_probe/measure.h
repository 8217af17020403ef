// Inventory and measurements of one GPU.
#pragma once

#include "probe.h"

namespace probe {

// Fills `gpu` for CUDA device `index` (of `deviceCount`). Never throws: failures land in gpu.error*.
void measureGpu(int index, int deviceCount, const Options& options, GpuReport& gpu);

} // namespace probe
