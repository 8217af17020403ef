// Stable error codes for CUDA failures, shared by the top-level document and every GPU's own `error`.
#pragma once

#include <cuda_runtime.h>

namespace probe {

// The schema's code for a CUDA error (README.md, error.code): e.g. system_not_ready, gpu_fault, internal.
const char* errorCode(cudaError_t status);

} // namespace probe
