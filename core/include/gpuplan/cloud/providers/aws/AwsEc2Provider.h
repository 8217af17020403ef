#pragma once

#include "gpuplan/cloud/CloudProvider.h"

#include <memory>

namespace gpuplan::core {

/// AWS EC2 over the Query API (XML, SigV4).
std::unique_ptr<CloudProvider> makeAwsEc2Provider(ProviderContext context);

} // namespace gpuplan::core
