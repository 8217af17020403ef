// PLACEHOLDER: replaced by the provider's implementation.
#include "gpuplan/cloud/providers/tencent/TencentCvmProvider.h"

namespace gpuplan::core {

std::unique_ptr<CloudProvider> makeTencentCvmProvider(ProviderContext)
{
    return nullptr;
}

} // namespace gpuplan::core
