#include "gpuplan/net/signers/AwsSigV4.h"

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

constexpr std::string_view algorithm = "AWS4-HMAC-SHA256";

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// "Trim leading and trailing spaces and convert sequential spaces to a single space"
// (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html, CanonicalHeaders); tabs and
// line breaks count as spaces so that a folded value cannot break the canonical request's lines.
std::string trimmedValue(std::string_view value)
{
    std::string out;
    out.reserve(value.size());
    bool pendingSpace = false;
    for (char c : value) {
        if (isSpace(c)) {
            pendingSpace = !out.empty();
            continue;
        }
        if (pendingSpace) {
            out += ' ';
            pendingSpace = false;
        }
        out += c;
    }
    return out;
}

// The path as the server sees it, encoded once more: AWS asks non-S3 services for each segment "URI-encoded
// twice", i.e. the already percent-encoded wire path is encoded again, after RFC 3986 section 5.2.4 dot-segment
// removal and with empty segments dropped (what the suite's *-normalized cases expect). S3 signs its path as
// sent, encoded once and not normalised.
std::string canonicalUri(const std::string& path, bool s3)
{
    if (s3) {
        return uriEncode(uriDecode(path), true);
    }
    std::vector<std::string_view> segments;
    const std::string_view text(path);
    bool trailingSlash = false;
    for (std::size_t start = 0;;) {
        const std::size_t slash = text.find('/', start);
        const bool last = slash == std::string_view::npos;
        const std::string_view segment = text.substr(start, last ? std::string_view::npos : slash - start);
        if (segment == "..") {
            if (!segments.empty()) {
                segments.pop_back();
            }
            trailingSlash = last;
        } else if (segment.empty() || segment == ".") {
            trailingSlash = last;
        } else {
            segments.push_back(segment);
            trailingSlash = false;
        }
        if (last) {
            break;
        }
        start = slash + 1;
    }
    std::string out;
    for (std::string_view segment : segments) {
        out += '/';
        out += uriEncode(segment);
    }
    if (out.empty() || trailingSlash) {
        out += '/';
    }
    return out;
}

void removeHeader(HttpRequest& request, std::string_view name)
{
    std::erase_if(request.headers, [&](const HttpHeader& h) { return lowered(h.name) == name; });
}

} // namespace

Result<SigningSteps> signAwsV4(HttpRequest& request, const AccessKey& key, const AwsSigV4Scope& scope, TimePoint at)
{
    Result<Url> url = parseUrl(request.url);
    if (!url) {
        return url.error();
    }

    const std::string amzDate = basicIsoTime(at);
    const std::string date = basicIsoDate(at);
    const std::string payloadHash = sha256Hex(request.body);

    // A request signed again (a retry) must not sign its old signature.
    removeHeader(request, "authorization");
    if (!request.header("host")) {
        request.setHeader("Host", url->authority());
    }
    request.setHeader("X-Amz-Date", amzDate);
    if (!key.sessionToken.empty()) {
        request.setHeader("X-Amz-Security-Token", key.sessionToken);
    }
    if (scope.signPayloadHeader) {
        request.setHeader("X-Amz-Content-Sha256", payloadHash);
    }

    // Values of repeated headers keep their order and join with ','; std::map sorts the names bytewise.
    std::map<std::string, std::vector<std::string>> headers;
    for (const HttpHeader& h : request.headers) {
        headers[lowered(h.name)].push_back(trimmedValue(h.value));
    }
    std::string canonicalHeaders;
    std::string signedHeaders;
    for (const auto& [name, values] : headers) {
        canonicalHeaders += name + ':';
        for (std::size_t i = 0; i < values.size(); ++i) {
            canonicalHeaders += (i ? "," : "") + values[i];
        }
        canonicalHeaders += '\n';
        signedHeaders += (signedHeaders.empty() ? "" : ";") + name;
    }

    SigningSteps steps;
    steps.canonicalRequest = request.method + '\n' + canonicalUri(url->path, scope.service == "s3") + '\n'
                             + canonicalQuery(url->query) + '\n' + canonicalHeaders + '\n' + signedHeaders + '\n'
                             + payloadHash;

    const std::string credentialScope = date + '/' + scope.region + '/' + scope.service + "/aws4_request";
    steps.stringToSign =
        std::string(algorithm) + '\n' + amzDate + '\n' + credentialScope + '\n' + sha256Hex(steps.canonicalRequest);

    // The derived keys are as good as the secret for a day; wipe them like it.
    std::string secretKey = "AWS4" + key.secret;
    std::string dateKey = hmacSha256(secretKey, date);
    std::string regionKey = hmacSha256(dateKey, scope.region);
    std::string serviceKey = hmacSha256(regionKey, scope.service);
    std::string signingKey = hmacSha256(serviceKey, "aws4_request");
    steps.signature = toHex(hmacSha256(signingKey, steps.stringToSign));
    for (std::string* k : {&secretKey, &dateKey, &regionKey, &serviceKey, &signingKey}) {
        wipe(*k);
    }
    if (steps.signature.empty()) {
        return Error{
            ErrorCode::Crypto, Reason{"error.signer.hmac_failed", {{"algorithm", "HMAC-SHA256"}}}, "AWS SigV4"};
    }

    steps.authorization = std::string(algorithm) + " Credential=" + key.id + '/' + credentialScope
                          + ", SignedHeaders=" + signedHeaders + ", Signature=" + steps.signature;
    request.setHeader("Authorization", steps.authorization);
    return steps;
}

} // namespace gpuplan::core
