#pragma once

#include "gpuplan/net/signers/Signing.h"

namespace gpuplan::core {

struct AwsSigV4Scope
{
    std::string region;  // "us-east-1"
    std::string service; // "ec2", "pricing"
    /// Also sign x-amz-content-sha256 (S3 style); EC2's Query API does not need it.
    bool signPayloadHeader = false;
};

/// AWS Signature Version 4
/// (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html). Adds Host (when
/// missing), X-Amz-Date, X-Amz-Security-Token (with a session token) and Authorization to `request`, signing every
/// header it then has. InvalidArgument when the URL cannot be parsed.
Result<SigningSteps> signAwsV4(HttpRequest& request, const AccessKey& key, const AwsSigV4Scope& scope, TimePoint at);

} // namespace gpuplan::core
