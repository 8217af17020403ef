#include "gpuplan/cloud/ProviderRegistry.h"

#include "gpuplan/cloud/providers/aws/AwsEc2Provider.h"
#include "gpuplan/cloud/providers/tencent/TencentCvmProvider.h"

#include <algorithm>

namespace gpuplan::core {

void ProviderRegistry::add(std::string id, ProviderFactory factory)
{
    std::erase_if(m_factories, [&](const auto& entry) { return entry.first == id; });
    m_factories.emplace_back(std::move(id), std::move(factory));
}

Result<std::unique_ptr<CloudProvider>> ProviderRegistry::create(std::string_view id, ProviderContext context) const
{
    for (const auto& [known, factory] : m_factories) {
        if (known == id) {
            if (!context.endpoint.empty()) {
                if (Status ok = checkEndpoint(context.endpoint); !ok) {
                    return ok.error();
                }
            }
            return factory(std::move(context));
        }
    }
    std::string list;
    for (const std::string& known : ids()) {
        list += (list.empty() ? "" : ", ") + known;
    }
    return Error{ErrorCode::UnknownProvider,
                 "launching is not available for this provider (it is for: " + list + ")",
                 std::string(id)};
}

std::vector<std::string> ProviderRegistry::ids() const
{
    std::vector<std::string> out;
    for (const auto& entry : m_factories) {
        out.push_back(entry.first);
    }
    return out;
}

bool ProviderRegistry::has(std::string_view id) const
{
    return std::any_of(m_factories.begin(), m_factories.end(), [&](const auto& e) { return e.first == id; });
}

// Adding a provider: its folder under providers/, and one add() here.
const ProviderRegistry& ProviderRegistry::builtIn()
{
    static const ProviderRegistry registry = [] {
        ProviderRegistry r;
        r.add("aws", makeAwsEc2Provider);
        r.add("tencent", makeTencentCvmProvider);
        return r;
    }();
    return registry;
}

} // namespace gpuplan::core
