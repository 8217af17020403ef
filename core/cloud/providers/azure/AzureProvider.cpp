#include "gpuplan/cloud/providers/azure/AzureProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& azureDescriptor()
{
    static const ProviderDescriptor descriptor{
        "azure",
        "Microsoft Azure",
        "微软 Azure",
        {{"tenant_id", "Tenant ID", CredentialFieldKind::Plain},
         {"client_id", "Client (application) ID", CredentialFieldKind::KeyId},
         {"client_secret", "Client secret", CredentialFieldKind::Secret},
         {"subscription_id", "Subscription ID", CredentialFieldKind::Plain, false}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
