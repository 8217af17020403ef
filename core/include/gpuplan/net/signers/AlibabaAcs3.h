#pragma once

#include "gpuplan/net/signers/Signing.h"

#include <map>

namespace gpuplan::core {

/// Alibaba Cloud V3, ACS3-HMAC-SHA256
/// (https://help.aliyun.com/zh/sdk/product-overview/v3-request-structure-and-signature). Adds host, x-acs-date,
/// x-acs-signature-nonce (`nonce`; a random one when empty), x-acs-content-sha256 and Authorization; signs host,
/// content-type when present, and every x-acs-* header. The caller sets x-acs-action and x-acs-version. InvalidArgument
/// when the URL cannot be parsed.
Result<SigningSteps>
signAlibabaAcs3(HttpRequest& request, const AccessKey& key, TimePoint at, const std::string& nonce = {});

/// The older RPC signature V2, HMAC-SHA1 (https://help.aliyun.com/zh/sdk/product-overview/rpc-mechanism).
/// `params` are the business parameters; the common ones (AccessKeyId, SignatureMethod, SignatureNonce,
/// SignatureVersion, Timestamp, Format) are added unless present. Returns the full query string, with
/// Signature, to append to the endpoint; `steps` (when given) gets the string to sign and the signature.
Result<std::string> signAlibabaRpcV2(const std::string& method,
                                     std::map<std::string, std::string> params,
                                     const AccessKey& key,
                                     TimePoint at,
                                     const std::string& nonce = {},
                                     SigningSteps* steps = nullptr);

} // namespace gpuplan::core
