#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

#include <memory>

namespace gpuplan::core {

/// AWS EC2 over the Query API (XML, SigV4).
std::unique_ptr<CloudProvider> makeAwsEc2Provider(ProviderContext context);
/// What AWS is and lacks (ProviderRegistry).
const ProviderDescriptor& awsDescriptor();

} // namespace gpuplan::core
