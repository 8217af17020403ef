#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

#include <memory>

namespace gpuplan::core {

/// Azure Virtual Machines over Azure Resource Manager (JSON REST, an Entra ID app's client-credentials token). The
/// key is the app's client_id (id) and client_secret (secret); settings carry tenant_id and the optional
/// subscription_id (without it, the one enabled subscription the app can see). Everything it creates lives in the
/// resource group "gpuplanner-<region>"; an instance's id is its VM name, the launch's client token.
std::unique_ptr<CloudProvider> makeAzureVmProvider(ProviderContext context);
/// What Microsoft Azure is and lacks (ProviderRegistry).
const ProviderDescriptor& azureDescriptor();

} // namespace gpuplan::core
