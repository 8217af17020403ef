#pragma once

#include "gpuplan/cloud/CloudProvider.h"

#include <memory>

namespace gpuplan::core {

/// Tencent Cloud CVM over API 3.0 (JSON, TC3-HMAC-SHA256).
std::unique_ptr<CloudProvider> makeTencentCvmProvider(ProviderContext context);

} // namespace gpuplan::core
