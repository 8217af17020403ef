#pragma once

#include "gpuplan/net/signers/Signing.h"

namespace gpuplan::core {

/// Huawei Cloud AK/SK, SDK-HMAC-SHA256 (https://support.huaweicloud.com/devg-apisign/api-sign-algorithm-005.html).
/// Adds Host (when missing), X-Sdk-Date and Authorization; signs every header the request then has (the SDK
/// sends and signs X-Project-Id, which the caller sets). The canonical URI ends with '/'. InvalidArgument
/// when the URL cannot be parsed.
Result<SigningSteps> signHuaweiSdkHmac(HttpRequest& request, const AccessKey& key, TimePoint at);

} // namespace gpuplan::core
