#include "gpuplan/net/signers/HuaweiSdkHmac.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "Canonical.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

namespace gpuplan::core {

namespace {

using canonical::canonicalQuery;

constexpr std::string_view algorithm = "SDK-HMAC-SHA256";
constexpr std::string_view unsignedPayload = "UNSIGNED-PAYLOAD";

// Each segment decoded and encoded once (RFC 3986), and a '/' at the end even when the URL has none: the
// signing guide's example (https://support.huaweicloud.com/devg-apisign/api-sign-algorithm-005.html).
std::string canonicalUri(std::string_view path)
{
    std::string out;
    for (std::size_t start = 0;;) {
        const std::size_t slash = path.find('/', start);
        const bool last = slash == std::string_view::npos;
        out += uriEncode(uriDecode(path.substr(start, last ? std::string_view::npos : slash - start)));
        if (last) {
            break;
        }
        out += '/';
        start = slash + 1;
    }
    if (out.empty() || out.back() != '/') {
        out += '/';
    }
    return out;
}

} // namespace

Result<SigningSteps> signHuaweiSdkHmac(HttpRequest& request, const AccessKey& key, TimePoint at)
{
    Result<Url> url = parseUrl(request.url);
    if (!url) {
        return url.error();
    }

    std::erase_if(request.headers, [](const HttpHeader& h) { return lowered(h.name) == "authorization"; });
    if (!request.header("host")) {
        request.setHeader("Host", url->authority());
    }
    const std::string sdkDate = basicIsoTime(at);
    request.setHeader("X-Sdk-Date", sdkDate);
    if (!key.sessionToken.empty()) {
        // Temporary AK/SK from IAM: the security token is a header, sent and signed with the rest.
        request.setHeader("X-Security-Token", key.sessionToken);
    }

    // Every header the request has, as the SDK signs them: names lower case and sorted, values trimmed; the last
    // of a repeated name wins, as in the SDK's header object.
    std::map<std::string, std::string> headers;
    for (const HttpHeader& h : request.headers) {
        headers[lowered(h.name)] = trimmed(h.value);
    }
    std::string canonicalHeaders;
    std::string signedHeaders;
    for (const auto& [name, value] : headers) {
        canonicalHeaders += name + ':' + value + '\n';
        signedHeaders += (signedHeaders.empty() ? "" : ";") + name;
    }

    // X-Sdk-Content-Sha256: UNSIGNED-PAYLOAD leaves a large body out of the signature.
    const auto contentSha = headers.find("x-sdk-content-sha256");
    const std::string payloadHash = contentSha != headers.end() && contentSha->second == unsignedPayload
                                        ? std::string(unsignedPayload)
                                        : sha256Hex(request.body);

    SigningSteps steps;
    steps.canonicalRequest = request.method + '\n' + canonicalUri(url->path) + '\n' + canonicalQuery(url->query) + '\n'
                             + canonicalHeaders + '\n' + signedHeaders + '\n' + payloadHash;
    steps.stringToSign = std::string(algorithm) + '\n' + sdkDate + '\n' + sha256Hex(steps.canonicalRequest);
    steps.signature = toHex(hmacSha256(key.secret, steps.stringToSign));
    if (steps.signature.empty()) {
        return Error{
            ErrorCode::Crypto, Reason{"error.signer.hmac_failed", {{"algorithm", "HMAC-SHA256"}}}, "SDK-HMAC-SHA256"};
    }
    steps.authorization = std::string(algorithm) + " Access=" + key.id + ", SignedHeaders=" + signedHeaders
                          + ", Signature=" + steps.signature;
    request.setHeader("Authorization", steps.authorization);
    return steps;
}

} // namespace gpuplan::core
