// gpuplan-probe: prints exactly one JSON document on stdout, whatever happens (schema: README.md here).
// This first version reports the CUDA device count or the error; the full probe is a later step.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

namespace {

std::string jsonEscaped(const char* text)
{
    std::string out;
    for (const char* p = text; p && *p; ++p) {
        const unsigned char c = static_cast<unsigned char>(*p);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
            out += buffer;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

} // namespace

int main()
{
    int runtimeVersion = 0;
    cudaRuntimeGetVersion(&runtimeVersion);
    int driverVersion = 0;
    cudaDriverGetVersion(&driverVersion); // 0 when no driver is installed

    int deviceCount = 0;
    const cudaError_t status = cudaGetDeviceCount(&deviceCount);
    std::printf("{\"schema\": \"gpuplan-probe/0\", \"cuda_runtime_version\": %d, \"cuda_driver_version\": %d, ",
                runtimeVersion,
                driverVersion);
    if (status == cudaSuccess) {
        std::printf("\"ok\": true, \"device_count\": %d}\n", deviceCount);
        return 0;
    }
    std::printf("\"ok\": false, \"device_count\": 0, \"error\": {\"code\": \"%s\", \"message\": \"%s\"}}\n",
                jsonEscaped(cudaGetErrorName(status)).c_str(),
                jsonEscaped(cudaGetErrorString(status)).c_str());
    return 1;
}
