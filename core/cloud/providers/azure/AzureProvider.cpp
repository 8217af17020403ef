#include "gpuplan/cloud/providers/azure/AzureProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& azureDescriptor()
{
    static const ProviderDescriptor descriptor{"azure", "Microsoft Azure", "微软 Azure", {}, {}};
    return descriptor;
}

} // namespace gpuplan::core
