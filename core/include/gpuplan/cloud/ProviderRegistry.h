#pragma once

#include "gpuplan/cloud/CloudProvider.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::core {

using ProviderFactory = std::function<std::unique_ptr<CloudProvider>(ProviderContext)>;

/// The providers that can launch, by id. Adding one is one add() in builtIn(); no other provider changes.
class ProviderRegistry
{
public:
    void add(std::string id, ProviderFactory factory);
    /// UnknownProvider naming the known ids when `id` is not one; InvalidArgument from checkEndpoint.
    Result<std::unique_ptr<CloudProvider>> create(std::string_view id, ProviderContext context) const;
    std::vector<std::string> ids() const;
    bool has(std::string_view id) const;

    /// aws and tencent.
    static const ProviderRegistry& builtIn();

private:
    std::vector<std::pair<std::string, ProviderFactory>> m_factories;
};

} // namespace gpuplan::core
