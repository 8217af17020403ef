#include "gpuplan/cloud/providers/azure/AzureProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& azureDescriptor()
{
    static const ProviderDescriptor descriptor{
        "azure",
        "Microsoft Azure", // wire: the provider\'s name, a proper noun (data)
        "微软 Azure",
        {{"tenant_id", CredentialFieldKind::Plain},
         {"client_id", CredentialFieldKind::KeyId},
         {"client_secret", CredentialFieldKind::Secret},
         {"subscription_id", CredentialFieldKind::Plain, false}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
