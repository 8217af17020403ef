#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// The providers GPU Planner knows, by id, in a fixed order. Adding one is its folder under
/// core/cloud/providers/ and one add() in builtIn(); no other provider, and no front end, changes.
class ProviderRegistry
{
public:
    /// Replaces a descriptor with the same id.
    void add(ProviderDescriptor descriptor);
    /// UnknownProvider naming the ids that can launch when `id` is not one of them; InvalidArgument from
    /// checkEndpoint.
    /// With LaunchKind::Job, the cloud's managed job service (ProviderDescriptor::managedJobs): UnknownProvider
    /// "error.cloud.no_managed_jobs" {provider, services} naming the clouds that have one when `id` has none.
    Result<std::unique_ptr<CloudProvider>>
    create(std::string_view id, ProviderContext context, LaunchKind kind = LaunchKind::Instance) const;
    /// nullptr when `id` is not known.
    const ProviderDescriptor* find(std::string_view id) const;
    const std::vector<ProviderDescriptor>& all() const { return m_descriptors; }
    /// The ids of the providers that can launch, in order.
    std::vector<std::string> ids() const;
    /// Whether `id` can launch.
    bool has(std::string_view id) const;

    /// aws, tencent, alibaba, huawei, gcp, azure, lambda, paperspace (those that cannot launch yet say so).
    static const ProviderRegistry& builtIn();

private:
    std::vector<ProviderDescriptor> m_descriptors;
};

} // namespace gpuplan::core
