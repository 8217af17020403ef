#include "errors.h"

namespace probe {

const char* errorCode(cudaError_t status)
{
    switch (status) {
        case cudaErrorSystemNotReady: // NVSwitch systems: the fabric manager is not running or not ready
            return "system_not_ready";
        case cudaErrorDevicesUnavailable: // busy, or compute mode exclusive-process / prohibited
            return "devices_unavailable";
        case cudaErrorECCUncorrectable:
            return "ecc_uncorrectable";
        case cudaErrorMemoryAllocation:
            return "out_of_memory";
        // Sticky errors: the context is lost and the GPU may need a reset.
        case cudaErrorIllegalAddress:
        case cudaErrorLaunchFailure:
        case cudaErrorHardwareStackError:
        case cudaErrorIllegalInstruction:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorLaunchTimeout:
            return "gpu_fault";
        case cudaErrorNvlinkUncorrectable:
            return "nvlink_error";
        case cudaErrorNoKernelImageForDevice:
        case cudaErrorInvalidPtx:
        case cudaErrorUnsupportedPtxVersion:
        case cudaErrorJitCompilerNotFound:
            return "no_kernel_image";
        case cudaErrorInsufficientDriver:
            return "driver_too_old";
        default:
            return "internal";
    }
}

} // namespace probe
