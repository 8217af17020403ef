// PLACEHOLDER: replaced by the provider's implementation.
#include "gpuplan/cloud/providers/aws/AwsEc2Provider.h"

namespace gpuplan::core {

std::unique_ptr<CloudProvider> makeAwsEc2Provider(ProviderContext)
{
    return nullptr;
}

} // namespace gpuplan::core
