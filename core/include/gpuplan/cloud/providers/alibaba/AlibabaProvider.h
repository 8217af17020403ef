#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

#include <memory>

namespace gpuplan::core {

/// Alibaba Cloud ECS (and VPC for the network) over the RPC OpenAPI, signed with ACS3-HMAC-SHA256.
std::unique_ptr<CloudProvider> makeAlibabaEcsProvider(ProviderContext context);
/// What Alibaba Cloud is and lacks (ProviderRegistry).
const ProviderDescriptor& alibabaDescriptor();

} // namespace gpuplan::core
