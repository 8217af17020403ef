#include "gpuplan/cloud/PublicAddress.h"

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/core/Text.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace gpuplan::core {

namespace {

std::string trimmed(std::string text)
{
    const auto notSpace = [](unsigned char c) { return !std::isspace(c); };
    text.erase(text.begin(), std::find_if(text.begin(), text.end(), notSpace));
    text.erase(std::find_if(text.rbegin(), text.rend(), notSpace).base(), text.end());
    return text;
}

} // namespace

std::string checkIpUrl()
{
    if (const char* url = std::getenv("GPUPLAN_CHECKIP_URL"); url && *url) {
        return url;
    }
    return "https://checkip.amazonaws.com/";
}

Result<std::string> publicAddressCidr(HttpTransport& http, const std::string& url)
{
    if (Status ok = checkEndpoint(url); !ok) {
        return ok.error();
    }
    HttpRequest request;
    request.url = url;
    request.safeToRetry = true;
    Result<HttpResponse> response = http.send(request);
    if (!response) {
        return response.error();
    }
    if (response->status != 200) {
        return Error{ErrorCode::HttpStatus,
                     Reason{"error.cloud.address_http_status", {{"status", std::to_string(response->status)}}},
                     url,
                     response->status};
    }
    const std::string address = trimmed(response->body);
    in_addr v4{};
    in6_addr v6{};
    if (inet_pton(AF_INET, address.c_str(), &v4) == 1) {
        return address + "/32";
    }
    if (inet_pton(AF_INET6, address.c_str(), &v6) == 1) {
        return address + "/128";
    }
    return Error{ErrorCode::ProviderRefused,
                 Reason{"error.cloud.address_not_ip", {{"bytes", std::to_string(response->body.size())}}},
                 url};
}

std::string sshSourceCidrOf(std::string_view text)
{
    std::string out = trimmed(text);
    if (out.empty() || out.find('/') != std::string::npos) {
        return out;
    }
    unsigned char address[16];
    if (inet_pton(AF_INET, out.c_str(), address) == 1) {
        return out + "/32";
    }
    if (inet_pton(AF_INET6, out.c_str(), address) == 1) {
        return out + "/128";
    }
    return out;
}

Status checkSshSourceCidr(const std::string& cidr, bool ipv4Only)
{
    const std::size_t slash = cidr.find('/');
    const std::string address = cidr.substr(0, slash);
    const std::string bits = slash == std::string::npos ? "" : cidr.substr(slash + 1);
    in_addr v4{};
    in6_addr v6{};
    const bool isV4 = inet_pton(AF_INET, address.c_str(), &v4) == 1;
    const bool isV6 = !isV4 && inet_pton(AF_INET6, address.c_str(), &v6) == 1;
    const int maxBits = isV4 ? 32 : 128;
    const bool bitsOk = !bits.empty() && bits.size() <= 3 && std::all_of(bits.begin(), bits.end(), ::isdigit)
                        && std::stoi(bits) <= maxBits;
    if ((!isV4 && !isV6) || !bitsOk) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.cidr_invalid", {}}, cidr};
    }
    if (ipv4Only && !isV4) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.cidr_not_ipv4", {}}, cidr};
    }
    if (std::stoi(bits) == 0) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.cidr_whole_internet", {}}, cidr};
    }
    return Ok{};
}

std::string endpointOverride(const std::string& provider)
{
    std::string name = "GPUPLAN_ENDPOINT_";
    for (char c : provider) {
        name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    const char* value = std::getenv(name.c_str());
    return value ? std::string(value) : std::string();
}

} // namespace gpuplan::core
