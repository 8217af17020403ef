#include "gpuplan/cloud/ProviderRegistry.h"

#include "gpuplan/cloud/providers/alibaba/AlibabaProvider.h"
#include "gpuplan/cloud/providers/aws/AwsEc2Provider.h"
#include "gpuplan/cloud/providers/azure/AzureProvider.h"
#include "gpuplan/cloud/providers/gcp/GcpProvider.h"
#include "gpuplan/cloud/providers/huawei/HuaweiProvider.h"
#include "gpuplan/cloud/providers/lambda/LambdaProvider.h"
#include "gpuplan/cloud/providers/paperspace/PaperspaceProvider.h"
#include "gpuplan/cloud/providers/tencent/TencentCvmProvider.h"

#include <algorithm>

namespace gpuplan::core {

void ProviderRegistry::add(ProviderDescriptor descriptor)
{
    std::erase_if(m_descriptors, [&](const ProviderDescriptor& d) { return d.id == descriptor.id; });
    m_descriptors.push_back(std::move(descriptor));
}

const ProviderDescriptor* ProviderRegistry::find(std::string_view id) const
{
    for (const ProviderDescriptor& d : m_descriptors) {
        if (d.id == id) {
            return &d;
        }
    }
    return nullptr;
}

Result<std::unique_ptr<CloudProvider>>
ProviderRegistry::create(std::string_view id, ProviderContext context, LaunchKind kind) const
{
    const ProviderDescriptor* descriptor = find(id);
    if (kind == LaunchKind::Job) {
        if (descriptor && descriptor->managedJobs && descriptor->managedJobs->canLaunch()) {
            if (!context.endpoint.empty()) {
                if (Status ok = checkEndpoint(context.endpoint); !ok) {
                    return ok.error();
                }
            }
            return descriptor->managedJobs->make(std::move(context));
        }
        std::string services;
        for (const ProviderDescriptor& d : m_descriptors) {
            if (d.managedJobs && d.managedJobs->canLaunch()) {
                services += (services.empty() ? "" : ",") + d.id;
            }
        }
        return Error{ErrorCode::UnknownProvider,
                     Reason{"error.cloud.no_managed_jobs", {{"provider", std::string(id)}, {"services", services}}},
                     std::string(id)};
    }
    if (descriptor && descriptor->canLaunch()) {
        if (!context.endpoint.empty()) {
            if (Status ok = checkEndpoint(context.endpoint); !ok) {
                return ok.error();
            }
        }
        return descriptor->make(std::move(context));
    }
    std::string list;
    for (const std::string& known : ids()) {
        list += (list.empty() ? "" : ",") + known;
    }
    return Error{
        ErrorCode::UnknownProvider, Reason{"error.cloud.launch_unavailable", {{"launchable", list}}}, std::string(id)};
}

std::vector<std::string> ProviderRegistry::ids() const
{
    std::vector<std::string> out;
    for (const ProviderDescriptor& d : m_descriptors) {
        if (d.canLaunch()) {
            out.push_back(d.id);
        }
    }
    return out;
}

bool ProviderRegistry::has(std::string_view id) const
{
    const ProviderDescriptor* d = find(id);
    return d && d->canLaunch();
}

// Adding a provider: its folder under providers/, and one add() here.
const ProviderRegistry& ProviderRegistry::builtIn()
{
    static const ProviderRegistry registry = [] {
        ProviderRegistry r;
        r.add(awsDescriptor());
        r.add(tencentDescriptor());
        r.add(alibabaDescriptor());
        r.add(huaweiDescriptor());
        r.add(gcpDescriptor());
        r.add(azureDescriptor());
        r.add(lambdaDescriptor());
        r.add(paperspaceDescriptor());
        return r;
    }();
    return registry;
}

} // namespace gpuplan::core
