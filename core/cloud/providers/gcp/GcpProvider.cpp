#include "gpuplan/cloud/providers/gcp/GcpProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& gcpDescriptor()
{
    static const ProviderDescriptor descriptor{"gcp", "Google Cloud", "谷歌云", {}, {}};
    return descriptor;
}

} // namespace gpuplan::core
