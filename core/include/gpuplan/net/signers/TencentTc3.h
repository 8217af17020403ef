#pragma once

#include "gpuplan/net/signers/Signing.h"

namespace gpuplan::core {

/// Tencent Cloud API 3.0, TC3-HMAC-SHA256 (https://cloud.tencent.com/document/api/213/30654).
/// `service` is the product ("cvm"). Adds Host (when missing), X-TC-Timestamp and Authorization; signs
/// content-type and host, as the official SDK does. The caller sets X-TC-Action, X-TC-Version, X-TC-Region
/// and Content-Type. InvalidArgument when the URL cannot be parsed.
Result<SigningSteps>
signTencentTc3(HttpRequest& request, const AccessKey& key, const std::string& service, TimePoint at);

} // namespace gpuplan::core
