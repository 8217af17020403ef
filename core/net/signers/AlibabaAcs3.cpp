#include "gpuplan/net/signers/AlibabaAcs3.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>
#include <vector>

#include "Canonical.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

namespace gpuplan::core {

namespace {

using canonical::canonicalQuery;

constexpr std::string_view algorithm = "ACS3-HMAC-SHA256";

std::string newNonce()
{
    return toHex(randomBytes(16));
}

} // namespace

Result<SigningSteps> signAlibabaAcs3(HttpRequest& request, const AccessKey& key, TimePoint at, const std::string& nonce)
{
    Result<Url> url = parseUrl(request.url);
    if (!url) {
        return url.error();
    }
    const std::string signatureNonce = nonce.empty() ? newNonce() : nonce;
    if (signatureNonce.empty()) {
        return Error{ErrorCode::Crypto,
                     Reason{"error.signer.no_random_bytes", {{"field", "x-acs-signature-nonce"}}},
                     "ACS3-HMAC-SHA256"};
    }

    const std::string payloadHash = sha256Hex(request.body);
    std::erase_if(request.headers, [](const HttpHeader& h) { return lowered(h.name) == "authorization"; });
    if (!request.header("host")) {
        request.setHeader("host", url->authority());
    }
    request.setHeader("x-acs-date", extendedIsoTime(at));
    request.setHeader("x-acs-signature-nonce", signatureNonce);
    request.setHeader("x-acs-content-sha256", payloadHash);
    if (!key.sessionToken.empty()) {
        // STS credentials: the token is an x-acs-* header, so it is signed like the rest.
        request.setHeader("x-acs-security-token", key.sessionToken);
    }

    // Signed: host, content-type when present, and every x-acs-* header, lower case, sorted
    // (https://www.alibabacloud.com/help/en/sdk/product-overview/v3-request-structure-and-signature).
    std::vector<std::pair<std::string, std::string>> headers;
    for (const HttpHeader& h : request.headers) {
        std::string name = lowered(h.name);
        if (name == "host" || name == "content-type" || name.starts_with("x-acs-")) {
            headers.emplace_back(std::move(name), trimmed(h.value));
        }
    }
    std::stable_sort(headers.begin(), headers.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string canonicalHeaders;
    std::string signedHeaders;
    for (const auto& [name, value] : headers) {
        canonicalHeaders += name + ':' + value + '\n';
        signedHeaders += (signedHeaders.empty() ? "" : ";") + name;
    }

    // The path goes in as it is on the wire (already encoded); RPC-style APIs use "/".
    SigningSteps steps;
    steps.canonicalRequest = request.method + '\n' + url->path + '\n' + canonicalQuery(url->query) + '\n'
                             + canonicalHeaders + '\n' + signedHeaders + '\n' + payloadHash;
    steps.stringToSign = std::string(algorithm) + '\n' + sha256Hex(steps.canonicalRequest);
    // V3 keys the HMAC with the raw secret (unlike V2's secret + "&").
    steps.signature = toHex(hmacSha256(key.secret, steps.stringToSign));
    if (steps.signature.empty()) {
        return Error{
            ErrorCode::Crypto, Reason{"error.signer.hmac_failed", {{"algorithm", "HMAC-SHA256"}}}, "ACS3-HMAC-SHA256"};
    }
    steps.authorization = std::string(algorithm) + " Credential=" + key.id + ",SignedHeaders=" + signedHeaders
                          + ",Signature=" + steps.signature;
    request.setHeader("Authorization", steps.authorization);
    return steps;
}

Result<std::string> signAlibabaRpcV2(const std::string& method,
                                     std::map<std::string, std::string> params,
                                     const AccessKey& key,
                                     TimePoint at,
                                     const std::string& nonce,
                                     SigningSteps* steps)
{
    if (method.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.signer.no_method", {}}, "alibaba_rpc_signature_v2"};
    }
    const std::string signatureNonce = nonce.empty() ? newNonce() : nonce;
    if (signatureNonce.empty()) {
        return Error{ErrorCode::Crypto,
                     Reason{"error.signer.no_random_bytes", {{"field", "SignatureNonce"}}},
                     "alibaba_rpc_signature_v2"};
    }
    // The common parameters (https://help.aliyun.com/zh/sdk/product-overview/rpc-mechanism); try_emplace keeps
    // any the caller set.
    params.try_emplace("AccessKeyId", key.id);
    params.try_emplace("Format", "JSON");
    params.try_emplace("SignatureMethod", "HMAC-SHA1");
    params.try_emplace("SignatureNonce", signatureNonce);
    params.try_emplace("SignatureVersion", "1.0");
    params.try_emplace("Timestamp", extendedIsoTime(at));
    if (!key.sessionToken.empty()) {
        params.try_emplace("SecurityToken", key.sessionToken);
    }
    params.erase("Signature");

    // Sorted by encoded name: RFC 3986 encoding keeps letters, digits and "-_.~", which sort the same before and
    // after encoding, but a name with other bytes may not, so sort what is signed.
    std::vector<std::pair<std::string, std::string>> encoded;
    encoded.reserve(params.size());
    for (const auto& [name, value] : params) {
        encoded.emplace_back(uriEncode(name), uriEncode(value));
    }
    std::sort(encoded.begin(), encoded.end());
    std::string query;
    for (const auto& [name, value] : encoded) {
        query += (query.empty() ? "" : "&") + name + '=' + value;
    }

    // StringToSign = METHOD & encode("/") & encode(query): the query is encoded a second time.
    SigningSteps computed;
    computed.canonicalRequest = query;
    computed.stringToSign = method + "&" + uriEncode("/") + "&" + uriEncode(query);
    std::string hmacKey = key.secret + "&";
    computed.signature = base64(hmacSha1(hmacKey, computed.stringToSign));
    wipe(hmacKey);
    if (computed.signature.empty()) {
        return Error{ErrorCode::Crypto,
                     Reason{"error.signer.hmac_failed", {{"algorithm", "HMAC-SHA1"}}},
                     "alibaba_rpc_signature_v2"};
    }
    const std::string signedQuery = query + "&Signature=" + uriEncode(computed.signature);
    if (steps) {
        *steps = std::move(computed);
    }
    return signedQuery;
}

} // namespace gpuplan::core
