#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

#include <memory>
#include <string>

namespace gpuplan::core {

/// Huawei Cloud ECS over its REST APIs (JSON, SDK-HMAC-SHA256). A region's project id is the credential's
/// project_id setting for it (ProviderContext::settings, huawei::parseProjectIdSetting: "region:id,..." or one bare
/// id), else asked of IAM (Keystone, GET /v3/projects?name=<region>) once per region and kept, as the SDK's
/// BasicCredentials does when it has no project id.
std::unique_ptr<CloudProvider> makeHuaweiEcsProvider(ProviderContext context);
/// What Huawei Cloud is and lacks (ProviderRegistry).
const ProviderDescriptor& huaweiDescriptor();

} // namespace gpuplan::core
