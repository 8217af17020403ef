#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

#include <memory>

namespace gpuplan::core {

/// Tencent Cloud CVM over API 3.0 (JSON, TC3-HMAC-SHA256).
std::unique_ptr<CloudProvider> makeTencentCvmProvider(ProviderContext context);
/// What Tencent Cloud is and lacks (ProviderRegistry).
const ProviderDescriptor& tencentDescriptor();

} // namespace gpuplan::core
