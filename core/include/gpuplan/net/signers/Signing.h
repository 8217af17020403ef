#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/net/Http.h"

#include <chrono>
#include <string>

namespace gpuplan::core {

/// An access key pair (AWS, Tencent, Alibaba, Huawei). `sessionToken` only for temporary credentials.
/// Every copy wipes its secret and token when it dies (OPENSSL_cleanse): the pages, jobs and providers that pass
/// it along by value leave nothing behind in freed memory. It never reaches a log, file or message.
struct AccessKey
{
    std::string id;
    std::string secret;
    std::string sessionToken;
    ~AccessKey();
};

/// What a signer computed, for the published-vector tests and the debug log. Holds no secret.
struct SigningSteps
{
    std::string canonicalRequest;
    std::string stringToSign;
    std::string signature;
    std::string authorization; // the Authorization header's value
};

using TimePoint = std::chrono::system_clock::time_point;

} // namespace gpuplan::core
