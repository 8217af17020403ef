#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

#include <memory>
#include <vector>

namespace gpuplan::core {

/// Azure Virtual Machines over Azure Resource Manager (JSON REST, an Entra ID app's client-credentials token). The
/// key is the app's client_id (id) and client_secret (secret); settings carry tenant_id and the optional
/// subscription_id (without it, the one enabled subscription the app can see). Everything it creates lives in the
/// resource group "gpuplanner-<region>"; an instance's id is its VM name, the launch's client token.
std::unique_ptr<CloudProvider> makeAzureVmProvider(ProviderContext context);
/// What Microsoft Azure is and lacks (ProviderRegistry); its managedJobs is azureMlDescriptor().
const ProviderDescriptor& azureDescriptor();
/// The Azure credential's fields: tenant_id, client_id, client_secret, the optional subscription_id and the optional
/// ml_workspace ("<resource group>/<workspace name>" of an Azure Machine Learning workspace, for managed jobs).
std::vector<CredentialFieldSpec> azureCredentialFields();

/// Azure Machine Learning command jobs (AzureMlJobs.cpp): a ManagedJobService over ARM with the same credential; the
/// workspace is the credential's ml_workspace, a job's id its name (the launch's client token).
std::unique_ptr<CloudProvider> makeAzureMlJobs(ProviderContext context);
/// What Azure Machine Learning is and lacks: id "azure", kind Job.
const ProviderDescriptor& azureMlDescriptor();

} // namespace gpuplan::core
