#include "gpuplan/net/signers/TencentTc3.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "Canonical.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

namespace gpuplan::core {

namespace {

constexpr std::string_view algorithm = "TC3-HMAC-SHA256";
constexpr std::string_view signedHeaders = "content-type;host";

} // namespace

Result<SigningSteps>
signTencentTc3(HttpRequest& request, const AccessKey& key, const std::string& service, TimePoint at)
{
    Result<Url> url = parseUrl(request.url);
    if (!url) {
        return url.error();
    }
    const std::optional<std::string> contentType = request.header("content-type");
    if (!contentType) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.signer.tc3_no_content_type", {}}, url->host};
    }

    if (!request.header("host")) {
        request.setHeader("Host", url->authority());
    }
    const std::string timestamp = std::to_string(unixSeconds(at));
    request.setHeader("X-TC-Timestamp", timestamp);
    if (!key.sessionToken.empty()) {
        // Temporary credentials travel in X-TC-Token, which is not signed
        // (https://cloud.tencent.com/document/api/213/15692, 公共参数).
        request.setHeader("X-TC-Token", key.sessionToken);
    }

    // The official SDKs sign exactly content-type and host, values trimmed but kept in their case
    // (tencentcloud-sdk-nodejs common/sign.ts); the doc's example does the same. The query goes in as sent: for a
    // POST it is empty, and the doc takes a GET's query string as it is on the wire.
    SigningSteps steps;
    steps.canonicalRequest = request.method + '\n' + url->path + '\n' + url->query + '\n' + "content-type:"
                             + trimmed(*contentType) + '\n' + "host:" + trimmed(*request.header("host")) + '\n' + '\n'
                             + std::string(signedHeaders) + '\n' + sha256Hex(request.body);

    // The scope's date is the UTC date of the timestamp; a local date fails near midnight (the doc warns).
    const std::string date = extendedIsoDate(at);
    const std::string credentialScope = date + '/' + service + "/tc3_request";
    steps.stringToSign =
        std::string(algorithm) + '\n' + timestamp + '\n' + credentialScope + '\n' + sha256Hex(steps.canonicalRequest);

    std::string secretKey = "TC3" + key.secret;
    std::string dateKey = hmacSha256(secretKey, date);
    std::string serviceKey = hmacSha256(dateKey, service);
    std::string signingKey = hmacSha256(serviceKey, "tc3_request");
    steps.signature = toHex(hmacSha256(signingKey, steps.stringToSign));
    for (std::string* k : {&secretKey, &dateKey, &serviceKey, &signingKey}) {
        wipe(*k);
    }
    if (steps.signature.empty()) {
        return Error{
            ErrorCode::Crypto, Reason{"error.signer.hmac_failed", {{"algorithm", "HMAC-SHA256"}}}, "TC3-HMAC-SHA256"};
    }

    steps.authorization = std::string(algorithm) + " Credential=" + key.id + '/' + credentialScope
                          + ", SignedHeaders=" + std::string(signedHeaders) + ", Signature=" + steps.signature;
    request.setHeader("Authorization", steps.authorization);
    return steps;
}

} // namespace gpuplan::core
