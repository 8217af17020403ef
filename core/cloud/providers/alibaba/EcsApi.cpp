// Alibaba Cloud's RPC OpenAPI for ECS and VPC as GPU Planner uses it: each action's request, its documented JSON
// answer's parser, and the error mapping with its advice. Longer than 600 lines on purpose: it is one wire format,
// and the builders, parsers and codes they share are read and checked against the SDK together.

#include "gpuplan/cloud/providers/alibaba/EcsApi.h"

#include "gpuplan/cloud/JsonAnswer.h"
#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include <nlohmann/json.hpp>

namespace gpuplan::core::alibaba {

namespace {

using json_answer::text;
using nlohmann::json;

std::string trim(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::string upper(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
    return text;
}

Call ecs(std::string action, bool safeToRetry)
{
    return Call{Product::Ecs, std::move(action), {}, safeToRetry};
}

Call vpc(std::string action, bool safeToRetry)
{
    return Call{Product::Vpc, std::move(action), {}, safeToRetry};
}

void add(Call& call, std::string name, std::string value)
{
    call.params.emplace_back(std::move(name), std::move(value));
}

constexpr const char* kProvider = "alibaba";

// A wrapped list, as ECS writes them: object[outer][inner] is an array ("Images": {"Image": [...]}). An absent outer
// object is an error when `required`; an absent or null inner list reads as empty.
Result<json>
wrappedList(const JsonAnswer& answer, const json& object, const char* outer, const char* inner, bool required)
{
    const std::string field = std::string(outer) + "." + inner;
    const json& wrapper = json_answer::member(object, outer);
    if (wrapper.is_null()) {
        if (required) {
            return answer.refused("error.answer.missing", {{"field", outer}});
        }
        return json::array();
    }
    if (!wrapper.is_object()) {
        return answer.refused("error.answer.not_list", {{"field", field}});
    }
    const json& list = json_answer::member(wrapper, inner);
    if (list.is_null()) {
        return json::array();
    }
    if (!list.is_array()) {
        return answer.refused("error.answer.not_list", {{"field", field}});
    }
    return list;
}

const char* chargeType(LaunchPricing pricing)
{
    return pricing == LaunchPricing::Subscription ? "PrePaid" : "PostPaid";
}

// IPv4 "a.b.c.d/n" -> (address, prefix length).
std::optional<std::pair<std::uint32_t, int>> parseCidr(const std::string& cidr)
{
    unsigned a = 0, b = 0, c = 0, d = 0;
    int prefix = -1;
    char tail = 0;
    if (std::sscanf(cidr.c_str(), "%u.%u.%u.%u/%d%c", &a, &b, &c, &d, &prefix, &tail) != 5 || a > 255 || b > 255
        || c > 255 || d > 255 || prefix < 0 || prefix > 32) {
        return std::nullopt;
    }
    const std::uint32_t address = (a << 24) | (b << 16) | (c << 8) | d;
    const std::uint32_t mask = prefix == 0 ? 0 : ~std::uint32_t(0) << (32 - prefix);
    return std::pair(address & mask, prefix);
}

std::string cidrText(std::uint32_t address, int prefix)
{
    return std::to_string(address >> 24) + "." + std::to_string((address >> 16) & 255) + "."
           + std::to_string((address >> 8) & 255) + "." + std::to_string(address & 255) + "/" + std::to_string(prefix);
}

} // namespace

const char* productName(Product product)
{
    return product == Product::Vpc ? "vpc" : "ecs";
}

std::string_view productVersion(Product product)
{
    return product == Product::Vpc ? kVpcVersion : kEcsVersion;
}

std::optional<std::string> Call::param(std::string_view name) const
{
    for (const auto& [key, value] : params) {
        if (key == name) {
            return value;
        }
    }
    return std::nullopt;
}

std::string host(Product product, const std::string& region)
{
    // source: @alicloud/ecs20140526 and @alicloud/vpc20160428 dist/client.js, _endpointMap (the public regions
    // among its entries; the rest are internal or finance clouds); else OpenApiUtil.getEndpointRules "regional".
    if (region == "cn-hangzhou") {
        return product == Product::Ecs ? "ecs-cn-hangzhou.aliyuncs.com" : "vpc.aliyuncs.com";
    }
    if (region == "cn-wuhan" || region == "cn-zhangbei") {
        return std::string(productName(product)) + ".aliyuncs.com";
    }
    return std::string(productName(product)) + "." + region + ".aliyuncs.com";
}

std::string baseUrl(Product product, const std::string& region, const std::string& endpoint)
{
    if (!endpoint.empty()) {
        return endpoint.ends_with("/") ? endpoint : endpoint + "/";
    }
    return "https://" + host(product, region) + "/";
}

std::string queryString(const Call& call)
{
    std::string query;
    for (const auto& [name, value] : call.params) {
        query += (query.empty() ? "" : "&") + uriEncode(name) + "=" + uriEncode(value);
    }
    return query;
}

HttpRequest buildRequest(const std::string& base, const Call& call)
{
    // openapi-core doRequest for style RPC: method POST, pathname "/", the query from OpenApiUtil.query, no body
    // (so no content-type), headers x-acs-version, x-acs-action and accept: application/json; the signer adds host,
    // x-acs-date, x-acs-signature-nonce and x-acs-content-sha256 (of the empty body) and signs them.
    HttpRequest request;
    request.method = "POST";
    const std::string query = queryString(call);
    request.url = query.empty() ? base : base + "?" + query;
    request.headers.push_back({"x-acs-action", call.action});
    request.headers.push_back({"x-acs-version", std::string(productVersion(call.product))});
    request.headers.push_back({"accept", "application/json"});
    request.safeToRetry = call.safeToRetry;
    return request;
}

Result<std::string> keyPairName(const std::string& sshPublicKey)
{
    Result<std::string> id = publicKeyId(sshPublicKey);
    if (!id) {
        return id.error();
    }
    return "gpuplanner-" + *id;
}

std::string securityGroupName(const std::string& cidr)
{
    std::string name = "gpuplanner-ssh-";
    for (char c : cidr) {
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
    }
    return name;
}

std::string vSwitchName(const std::string& zone)
{
    return "gpuplanner-" + zone;
}

std::string instanceName(const std::string& clientToken)
{
    std::string shortToken;
    for (char c : clientToken) {
        if (std::isalnum(static_cast<unsigned char>(c)) && shortToken.size() < 8) {
            shortToken += c;
        }
    }
    return "gpuplanner-" + shortToken;
}

std::string derivedClientToken(const std::string& clientToken, const std::string& what)
{
    return "gp-" + sha256Hex(clientToken + "|" + what).substr(0, 32);
}

std::string autoReleaseTime(std::int64_t unixSeconds)
{
    const std::int64_t minute = unixSeconds - unixSeconds % 60;
    return extendedIsoTime(std::chrono::system_clock::from_time_t(static_cast<std::time_t>(minute)));
}

std::optional<std::string> freeVSwitchCidr(const std::string& vpcCidr, const std::vector<std::string>& taken)
{
    const auto vpcBlock = parseCidr(vpcCidr);
    if (!vpcBlock) {
        return std::nullopt;
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> used; // [first, last]
    for (const std::string& block : taken) {
        const auto parsed = parseCidr(block);
        if (!parsed) {
            return std::nullopt;
        }
        const std::uint64_t size = std::uint64_t(1) << (32 - parsed->second);
        used.emplace_back(parsed->first, static_cast<std::uint32_t>(parsed->first + size - 1));
    }
    const int prefix = std::max(24, vpcBlock->second);
    const std::uint64_t step = std::uint64_t(1) << (32 - prefix);
    const std::uint64_t end = std::uint64_t(vpcBlock->first) + (std::uint64_t(1) << (32 - vpcBlock->second));
    for (std::uint64_t first = vpcBlock->first; first < end; first += step) {
        const std::uint64_t last = first + step - 1;
        const bool overlaps = std::any_of(
            used.begin(), used.end(), [&](const auto& range) { return first <= range.second && range.first <= last; });
        if (!overlaps) {
            return cidrText(static_cast<std::uint32_t>(first), prefix);
        }
    }
    return std::nullopt;
}

Call describeImagesCall(const std::string& region, const std::string& instanceType)
{
    // DescribeImages: public (system) Linux x86_64 images that can boot this type.
    Call call = ecs("DescribeImages", true);
    add(call, "RegionId", region);
    add(call, "ImageOwnerAlias", "system");
    add(call, "OSType", "linux");
    add(call, "Architecture", "x86_64");
    if (!instanceType.empty()) {
        add(call, "InstanceType", instanceType);
    }
    add(call, "Status", "Available");
    add(call, "PageSize", std::to_string(kPageSize));
    return call;
}

Call describeKeyPairsCall(const std::string& region, const std::string& keyName)
{
    Call call = ecs("DescribeKeyPairs", true);
    add(call, "RegionId", region);
    add(call, "KeyPairName", keyName);
    return call;
}

Call importKeyPairCall(const std::string& region, const std::string& keyName, const std::string& sshPublicKey)
{
    // Not retried: a second import of the same name fails with KeyPair.AlreadyExist, which the provider handles by
    // describing again.
    Call call = ecs("ImportKeyPair", false);
    add(call, "RegionId", region);
    add(call, "KeyPairName", keyName);
    add(call, "PublicKeyBody", trim(sshPublicKey));
    return call;
}

Call describeOurVpcCall(const std::string& region)
{
    Call call = vpc("DescribeVpcs", true);
    add(call, "RegionId", region);
    add(call, "VpcName", std::string(kVpcName)); // wire: the name we give our VPC
    return call;
}

Call describeDefaultVpcCall(const std::string& region)
{
    Call call = vpc("DescribeVpcs", true);
    add(call, "RegionId", region);
    add(call, "IsDefault", "true");
    return call;
}

Call createVpcCall(const std::string& region, const std::string& clientToken)
{
    Call call = vpc("CreateVpc", true);
    add(call, "RegionId", region);
    add(call, "VpcName", std::string(kVpcName)); // wire: the VPC's name, stored in the user's account
    add(call, "CidrBlock", std::string(kVpcCidr));
    add(call, "Description", "GPU Planner network"); // wire: stored in the user's account
    add(call, "ClientToken", clientToken);
    return call;
}

Call describeSecurityGroupsCall(const std::string& region, const std::string& vpcId, const std::string& groupName)
{
    Call call = ecs("DescribeSecurityGroups", true);
    add(call, "RegionId", region);
    if (!vpcId.empty()) {
        add(call, "VpcId", vpcId);
    }
    add(call, "SecurityGroupName", groupName);
    return call;
}

Call createSecurityGroupCall(const std::string& region,
                             const std::string& vpcId,
                             const std::string& groupName,
                             const std::string& cidr,
                             const std::string& clientToken)
{
    Call call = ecs("CreateSecurityGroup", true);
    add(call, "RegionId", region);
    add(call, "VpcId", vpcId);
    add(call, "SecurityGroupName", groupName);
    add(call, "Description", "GPU Planner: SSH from " + cidr); // wire: stored in the user's account
    add(call, "SecurityGroupType", "normal");
    add(call, "ClientToken", clientToken);
    return call;
}

Call describeSecurityGroupAttributeCall(const std::string& region, const std::string& groupId)
{
    Call call = ecs("DescribeSecurityGroupAttribute", true);
    add(call, "RegionId", region);
    add(call, "SecurityGroupId", groupId);
    add(call, "Direction", "ingress");
    return call;
}

Call authorizeSshCall(const std::string& region, const std::string& groupId, const std::string& cidr)
{
    // Adding a rule that already exists succeeds without a second copy, so a resend is harmless.
    Call call = ecs("AuthorizeSecurityGroup", true);
    add(call, "RegionId", region);
    add(call, "SecurityGroupId", groupId);
    add(call, "Permissions.1.IpProtocol", "TCP");
    add(call, "Permissions.1.PortRange", "22/22");
    add(call, "Permissions.1.SourceCidrIp", cidr);
    add(call, "Permissions.1.Policy", "accept");
    add(call, "Permissions.1.Description", "SSH for GPU Planner"); // wire: the rule's description, in the account
    return call;
}

Call availableResourceCall(const std::string& region, const std::string& instanceType, LaunchPricing pricing)
{
    // "若参数DestinationResource取值为InstanceType，则必须传入参数IoOptimized和InstanceType"
    // (DescribeAvailableResource).
    Call call = ecs("DescribeAvailableResource", true);
    add(call, "RegionId", region);
    add(call, "DestinationResource", "InstanceType");
    add(call, "InstanceType", instanceType);
    add(call, "IoOptimized", "optimized");
    add(call, "InstanceChargeType", chargeType(pricing));
    if (pricing == LaunchPricing::Spot) {
        add(call, "SpotStrategy", "SpotAsPriceGo");
    }
    add(call, "ResourceType", "instance");
    return call;
}

Call describeVSwitchesCall(const std::string& region, const std::string& vpcId, const std::string& zone)
{
    Call call = vpc("DescribeVSwitches", true);
    add(call, "RegionId", region);
    add(call, "VpcId", vpcId);
    if (!zone.empty()) {
        add(call, "ZoneId", zone);
    }
    add(call, "PageSize", "50"); // "最大值为50"
    return call;
}

Call createVSwitchCall(const std::string& region,
                       const std::string& vpcId,
                       const std::string& zone,
                       const std::string& cidr,
                       const std::string& clientToken)
{
    Call call = vpc("CreateVSwitch", true);
    add(call, "RegionId", region);
    add(call, "VpcId", vpcId);
    add(call, "ZoneId", zone);
    add(call, "CidrBlock", cidr);
    add(call, "VSwitchName", vSwitchName(zone)); // wire: the vSwitch's name, stored in the user's account
    add(call, "ClientToken", clientToken);
    return call;
}

Result<Call> runInstancesCall(const LaunchRequest& request,
                              const std::string& zone,
                              const std::string& imageId,
                              const std::string& keyPair,
                              const std::string& groupId,
                              const std::string& vSwitchId,
                              std::int64_t now)
{
    const std::string where = "RunInstances";
    if (request.clientToken.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.alibaba.no_client_token", {}}, where};
    }
    const bool ascii = std::all_of(request.clientToken.begin(), request.clientToken.end(), [](char c) {
        return static_cast<unsigned char>(c) >= 0x21 && static_cast<unsigned char>(c) < 0x7f;
    });
    if (request.clientToken.size() > kMaxClientTokenBytes || !ascii) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.alibaba.client_token_invalid", {}}, where};
    }
    if (request.pricing == LaunchPricing::Subscription && request.subscriptionMonths <= 0) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.alibaba.prepaid_needs_months", {}}, where};
    }
    if (request.userData.size() > kMaxUserDataBytes) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.alibaba.user_data_too_big", {{"bytes", std::to_string(request.userData.size())}}},
                     where};
    }
    const bool postPaid = request.pricing != LaunchPricing::Subscription;
    if (request.terminateAt > 0 && postPaid && request.terminateAt < now + kMinAutoReleaseAheadSeconds) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.alibaba.release_too_soon", {}}, where};
    }

    Call call = ecs("RunInstances", true); // ClientToken: a resend returns the first launch's instance
    add(call, "RegionId", request.region);
    add(call, "ZoneId", zone);
    add(call, "InstanceType", request.instanceType);
    add(call, "ImageId", imageId);
    if (!groupId.empty()) {
        add(call, "SecurityGroupId", groupId);
    }
    if (!vSwitchId.empty()) {
        add(call, "VSwitchId", vSwitchId);
    }
    if (!keyPair.empty()) {
        add(call, "KeyPairName", keyPair);
    }
    add(call, "InstanceName", instanceName(request.clientToken)); // wire: the instance's name in the console
    if (!request.userData.empty()) {
        add(call, "UserData", base64(request.userData));
    }
    add(call, "ClientToken", request.clientToken);
    add(call, "Amount", "1");
    // A public IP: InternetMaxBandwidthOut > 0 assigns one, paid by traffic.
    add(call, "InternetChargeType", "PayByTraffic");
    add(call, "InternetMaxBandwidthOut", std::to_string(kMaxBandwidthOutMbps));
    int tag = 1;
    const auto addTag = [&](const std::string& key, const std::string& value) {
        add(call, "Tag." + std::to_string(tag) + ".Key", key);
        add(call, "Tag." + std::to_string(tag) + ".Value", value);
        ++tag;
    };
    addTag(std::string(kOwnerTagKey), request.clientToken);
    for (const auto& [key, value] : request.tags) {
        if (key != kOwnerTagKey) {
            addTag(key, value);
        }
    }
    add(call, "InstanceChargeType", chargeType(request.pricing));
    if (request.pricing == LaunchPricing::Subscription) {
        add(call, "Period", std::to_string(request.subscriptionMonths));
        add(call, "PeriodUnit", "Month");
        add(call, "AutoRenew", request.autoRenew ? "true" : "false");
    }
    if (request.pricing == LaunchPricing::Spot) {
        // SpotDuration is left out: its default, 1, keeps the instance for its first hour whatever the market does
        // ("1: Alibaba Cloud guarantees that the instance runs for 1 hour after creation"), and 0 gives that up for
        // no documented saving; DescribePrice quotes the same default.
        if (request.spotPriceLimit > 0) {
            // "支持最大3位小数": rounded to 3 decimals, then written as the SDK writes the number (0.97, not 0.970).
            add(call, "SpotStrategy", "SpotWithPriceLimit");
            add(call, "SpotPriceLimit", spotPriceText(std::round(request.spotPriceLimit * 1000) / 1000));
        } else {
            add(call, "SpotStrategy", "SpotAsPriceGo");
        }
    }
    if (request.terminateAt > 0 && postPaid) {
        // "按量付费实例的自动释放时间 ... 格式为：yyyy-MM-ddTHH:mm:ssZ"; prepaid instances take none.
        add(call, "AutoReleaseTime", autoReleaseTime(request.terminateAt));
    }
    if (request.dryRun) {
        add(call, "DryRun", "true");
    }
    return call;
}

Call describeInstanceCall(const std::string& region, const std::string& instanceId)
{
    Call call = ecs("DescribeInstances", true);
    add(call, "RegionId", region);
    add(call, "InstanceIds", json::array({instanceId}).dump()); // a JSON array in a string (DescribeInstancesRequest)
    return call;
}

Call listOursCall(const std::string& region, const std::string& nextToken)
{
    Call call = ecs("DescribeInstances", true);
    add(call, "RegionId", region);
    add(call, "Tag.1.Key", std::string(kOwnerTagKey));
    add(call, "MaxResults", std::to_string(kPageSize));
    if (!nextToken.empty()) {
        add(call, "NextToken", nextToken);
    }
    return call;
}

Call deleteInstanceCall(const std::string& region, const std::string& instanceId)
{
    // InstanceId is a repeat list (DeleteInstancesRequest instanceId: string[] -> InstanceId.1); Force releases a
    // Running instance without stopping it first.
    Call call = ecs("DeleteInstances", true);
    add(call, "RegionId", region);
    add(call, "InstanceId.1", instanceId);
    add(call, "Force", "true");
    return call;
}

Call describePriceCall(const std::string& region,
                       const std::string& instanceType,
                       const std::string& zone,
                       const std::string& imageId,
                       LaunchPricing pricing,
                       int months)
{
    Call call = ecs("DescribePrice", true);
    add(call, "RegionId", region);
    add(call, "ResourceType", "instance");
    add(call, "InstanceType", instanceType);
    if (!zone.empty()) {
        add(call, "ZoneId", zone);
    }
    if (!imageId.empty()) {
        add(call, "ImageId", imageId);
    }
    add(call, "InternetChargeType", "PayByTraffic");
    add(call, "InternetMaxBandwidthOut", std::to_string(kMaxBandwidthOutMbps));
    if (pricing == LaunchPricing::Subscription) {
        add(call, "PriceUnit", "Month");
        add(call, "Period", std::to_string(std::max(1, months)));
    } else {
        add(call, "PriceUnit", "Hour");
        add(call, "Period", "1");
        if (pricing == LaunchPricing::Spot) {
            add(call, "SpotStrategy", "SpotAsPriceGo"); // SpotStrategy counts only with PriceUnit Hour, Period 1
        }
    }
    return call;
}

// ---- Parsers.

Result<std::vector<Image>> parseDescribeImages(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeImages"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = wrappedList(answer, *doc, "Images", "Image", true);
    if (!list) {
        return list.error();
    }
    std::vector<Image> images;
    for (const json& item : *list) {
        Image image{text(item, "ImageId"),
                    text(item, "ImageName"),
                    text(item, "Description"),
                    text(item, "CreationTime"),
                    text(item, "Status")};
        if (!image.imageId.empty()) {
            images.push_back(std::move(image));
        }
    }
    return images;
}

std::optional<Image> newestGpuImage(const std::vector<Image>& images)
{
    const auto mentionsDriver = [](const Image& image) {
        const std::string text = image.name + " " + image.description;
        const std::string up = upper(text);
        return up.find("GPU") != std::string::npos || up.find("NVIDIA") != std::string::npos
               || up.find("CUDA") != std::string::npos || text.find("驱动") != std::string::npos;
    };
    std::optional<Image> best;
    for (const Image& image : images) {
        if (image.status == "Available" && mentionsDriver(image)
            && (!best || image.creationTime > best->creationTime)) {
            best = image;
        }
    }
    return best;
}

Result<std::vector<std::string>> parseDescribeKeyPairs(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeKeyPairs"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = wrappedList(answer, *doc, "KeyPairs", "KeyPair", true);
    if (!list) {
        return list.error();
    }
    std::vector<std::string> names;
    for (const json& item : *list) {
        if (std::string name = text(item, "KeyPairName"); !name.empty()) {
            names.push_back(std::move(name));
        }
    }
    return names;
}

namespace {

// A string field a create action's answer must carry.
Result<std::string> requiredString(std::string_view body, const std::string& action, const char* field)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    return answer.requiredText(*doc, field);
}

} // namespace

Result<std::string> parseImportKeyPair(std::string_view body)
{
    return requiredString(body, "ImportKeyPair", "KeyPairName");
}

Result<std::vector<Vpc>> parseDescribeVpcs(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeVpcs"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = wrappedList(answer, *doc, "Vpcs", "Vpc", true);
    if (!list) {
        return list.error();
    }
    std::vector<Vpc> vpcs;
    for (const json& item : *list) {
        Vpc v{text(item, "VpcId"),
              text(item, "VpcName"),
              text(item, "CidrBlock"),
              item.is_object() && item.value("IsDefault", json(false)).is_boolean() && item.value("IsDefault", false),
              text(item, "Status")};
        if (!v.vpcId.empty()) {
            vpcs.push_back(std::move(v));
        }
    }
    return vpcs;
}

Result<std::string> parseCreateVpc(std::string_view body)
{
    return requiredString(body, "CreateVpc", "VpcId");
}

Result<std::vector<SecurityGroup>> parseDescribeSecurityGroups(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeSecurityGroups"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = wrappedList(answer, *doc, "SecurityGroups", "SecurityGroup", true);
    if (!list) {
        return list.error();
    }
    std::vector<SecurityGroup> groups;
    for (const json& item : *list) {
        SecurityGroup group{text(item, "SecurityGroupId"), text(item, "SecurityGroupName"), text(item, "VpcId")};
        if (!group.groupId.empty()) {
            groups.push_back(std::move(group));
        }
    }
    return groups;
}

Result<std::string> parseCreateSecurityGroup(std::string_view body)
{
    return requiredString(body, "CreateSecurityGroup", "SecurityGroupId");
}

Result<std::vector<Permission>> parseSecurityGroupPermissions(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeSecurityGroupAttribute"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = wrappedList(answer, *doc, "Permissions", "Permission", true);
    if (!list) {
        return list.error();
    }
    std::vector<Permission> rules;
    for (const json& item : *list) {
        rules.push_back(Permission{text(item, "IpProtocol"),
                                   text(item, "PortRange"),
                                   text(item, "SourceCidrIp"),
                                   text(item, "Policy"),
                                   text(item, "Direction")});
    }
    return rules;
}

bool allowsSshFrom(const std::vector<Permission>& rules, const std::string& cidr)
{
    // PortRange: "开始端口/结束端口", "-1/-1" for all ports of ICMP, GRE and ALL.
    const auto opensPort22 = [](const std::string& range) {
        const std::size_t slash = range.find('/');
        if (slash == std::string::npos) {
            return false;
        }
        const std::string from = range.substr(0, slash);
        const std::string to = range.substr(slash + 1);
        if (from == "-1" && to == "-1") {
            return true;
        }
        const auto digits = [](const std::string& s) {
            return !s.empty() && s.size() < 6 && std::all_of(s.begin(), s.end(), ::isdigit);
        };
        return digits(from) && digits(to) && std::stoi(from) <= 22 && std::stoi(to) >= 22;
    };
    return std::any_of(rules.begin(), rules.end(), [&](const Permission& p) {
        const std::string protocol = upper(p.ipProtocol);
        const bool inbound = p.direction.empty() || p.direction == "ingress";
        return inbound && upper(p.policy) == "ACCEPT" && p.sourceCidrIp == cidr
               && (protocol == "ALL" || (protocol == "TCP" && opensPort22(p.portRange)));
    });
}

Result<std::vector<std::string>> parseAvailableZones(std::string_view body, const std::string& instanceType)
{
    const JsonAnswer answer{kProvider, "DescribeAvailableResource"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    // An answer without AvailableZones: no zone has the type (the API leaves the list out then).
    Result<json> zones = wrappedList(answer, *doc, "AvailableZones", "AvailableZone", false);
    if (!zones) {
        return zones.error();
    }
    const auto inStock = [](const std::string& category) {
        return category == "WithStock" || category == "ClosedWithStock";
    };
    std::vector<std::string> out;
    for (const json& zone : *zones) {
        const std::string id = text(zone, "ZoneId");
        if (id.empty() || text(zone, "Status") != "Available" || std::find(out.begin(), out.end(), id) != out.end()) {
            continue;
        }
        Result<json> resources = wrappedList(answer, zone, "AvailableResources", "AvailableResource", false);
        if (!resources) {
            return resources.error();
        }
        bool offered = false;
        for (const json& resource : *resources) {
            if (text(resource, "Type") != "InstanceType") {
                continue;
            }
            Result<json> supported = wrappedList(answer, resource, "SupportedResources", "SupportedResource", false);
            if (!supported) {
                return supported.error();
            }
            for (const json& item : *supported) {
                if ((instanceType.empty() || text(item, "Value") == instanceType) && text(item, "Status") == "Available"
                    && inStock(text(item, "StatusCategory"))) {
                    offered = true;
                }
            }
        }
        if (offered) {
            out.push_back(id);
        }
    }
    return out;
}

Result<std::vector<VSwitch>> parseDescribeVSwitches(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeVSwitches"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = wrappedList(answer, *doc, "VSwitches", "VSwitch", true);
    if (!list) {
        return list.error();
    }
    std::vector<VSwitch> out;
    for (const json& item : *list) {
        VSwitch v{text(item, "VSwitchId"),
                  text(item, "VSwitchName"),
                  text(item, "ZoneId"),
                  text(item, "CidrBlock"),
                  text(item, "Status")};
        if (!v.vSwitchId.empty()) {
            out.push_back(std::move(v));
        }
    }
    return out;
}

Result<std::string> parseCreateVSwitch(std::string_view body)
{
    return requiredString(body, "CreateVSwitch", "VSwitchId");
}

Result<std::vector<std::string>> parseRunInstances(std::string_view body)
{
    const JsonAnswer answer{kProvider, "RunInstances"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = wrappedList(answer, *doc, "InstanceIdSets", "InstanceIdSet", false);
    if (!list) {
        return list.error();
    }
    std::vector<std::string> ids;
    for (const json& id : *list) {
        if (id.is_string()) {
            ids.push_back(id.get<std::string>());
        }
    }
    return ids;
}

std::optional<std::int64_t> parseEcsTime(std::string_view text)
{
    // ECS writes most times to the minute ("2017-12-10T04:04Z"); parseIsoSeconds wants the seconds.
    if (text.size() == 17 && text[10] == 'T' && text[16] == 'Z') {
        return parseIsoSeconds(std::string(text.substr(0, 16)) + ":00Z");
    }
    return parseIsoSeconds(text);
}

InstanceState stateFromEcs(std::string_view status)
{
    if (status == "Running") {
        return InstanceState::Running;
    }
    if (status == "Stopping") {
        return InstanceState::Stopping;
    }
    if (status == "Stopped") {
        return InstanceState::Stopped;
    }
    return InstanceState::Pending; // Pending, Starting, and states we do not know
}

Result<InstancesPage> parseDescribeInstances(std::string_view body, const std::string& region)
{
    const JsonAnswer answer{kProvider, "DescribeInstances"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = wrappedList(answer, *doc, "Instances", "Instance", true);
    if (!list) {
        return list.error();
    }
    InstancesPage page;
    page.nextToken = text(*doc, "NextToken");
    for (const json& item : *list) {
        EcsInstance instance;
        RemoteInstance& r = instance.remote;
        r.instanceId = text(item, "InstanceId");
        if (r.instanceId.empty()) {
            return answer.refused("error.alibaba.answer_instance_without_id");
        }
        r.providerState = text(item, "Status");
        r.state = stateFromEcs(r.providerState);
        r.region = region;
        r.instanceType = text(item, "InstanceType");
        r.zone = text(item, "ZoneId");
        r.launchedAt = parseEcsTime(text(item, "CreationTime"));
        Result<json> publicIps = wrappedList(answer, item, "PublicIpAddress", "IpAddress", false);
        if (publicIps && !publicIps->empty() && (*publicIps)[0].is_string()) {
            r.publicIp = (*publicIps)[0].get<std::string>();
        }
        if (r.publicIp.empty() && item.contains("EipAddress")) {
            r.publicIp = text(item["EipAddress"], "IpAddress");
        }
        instance.chargeType = text(item, "InstanceChargeType");
        const std::string spot = text(item, "SpotStrategy");
        const bool isSpot = spot == "SpotWithPriceLimit" || spot == "SpotAsPriceGo";
        r.pricingMode = instance.chargeType == "PostPaid" ? (isSpot ? "spot" : "on_demand") : "";
        instance.expiredTime = text(item, "ExpiredTime");
        instance.expiresAt = parseEcsTime(instance.expiredTime);
        Result<json> tags = wrappedList(answer, item, "Tags", "Tag", false);
        if (tags) {
            for (const json& tag : *tags) {
                if (text(tag, "TagKey") == kOwnerTagKey) {
                    r.clientToken = text(tag, "TagValue");
                }
            }
        }
        Result<json> locks = wrappedList(answer, item, "OperationLocks", "LockReason", false);
        if (locks) {
            for (const json& lock : *locks) {
                if (upper(text(lock, "LockReason")) == "RECYCLING") { // "recycling" (spot reclaim)
                    instance.recycling = true;
                }
            }
        }
        if (instance.recycling && (r.state == InstanceState::Running || r.state == InstanceState::Pending)) {
            // A reclaimed spot instance is on its way out: RemoteInstance has no field for why, so its state says it.
            r.state = InstanceState::Stopping;
            r.providerState += " (Recycling)";
        }
        page.instances.push_back(std::move(instance));
    }
    return page;
}

Status parseEmptyAnswer(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    if (Result<std::string> requestId = answer.requiredText(*doc, "RequestId"); !requestId) {
        return requestId.error();
    }
    return Ok{};
}

// ---- Errors.

std::optional<ApiError> responseError(std::string_view body)
{
    json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || text(doc, "Code").empty()) {
        return std::nullopt;
    }
    return ApiError{text(doc, "Code"), text(doc, "Message"), text(doc, "RequestId")};
}

std::string ramAction(const ErrorContext& context)
{
    return std::string(productName(context.product)) + ":" + context.action;
}

std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context)
{
    const std::string where = std::string(productName(context.product)) + " " + context.action
                              + (context.region.empty() ? "" : " in " + context.region);
    const bool ok = response.status >= 200 && response.status < 300;
    std::optional<ApiError> apiError = ok ? std::nullopt : responseError(response.body);
    if (!apiError) {
        if (!ok) {
            return Error{ErrorCode::HttpStatus,
                         Reason{"error.alibaba.http_status",
                                {{"status", std::to_string(response.status)}, {"action", context.action}}},
                         where,
                         response.status};
        }
        Result<json> answer = JsonAnswer{kProvider, context.action}.document(response.body);
        if (!answer) {
            Error error = answer.error();
            error.httpStatus = response.status;
            return error;
        }
        return std::nullopt;
    }

    const std::string& code = apiError->code;
    Reason reason{{}, {{"code", code}}};
    const auto addParam = [&reason](const char* name, const std::string& value) {
        if (!value.empty()) {
            reason.params[name] = value;
        }
    };
    addParam("said", apiError->message);
    addParam("request_id", apiError->requestId);
    const auto is = [&code](std::initializer_list<const char*> codes) {
        return std::any_of(codes.begin(), codes.end(), [&code](const char* c) { return code == c; });
    };
    ErrorCode mapped = ErrorCode::ProviderRefused;

    // source: the error tables of RunInstances, CreateSecurityGroup, DeleteInstances (AlibabaCloudDocs/ecs
    // cn.zh-CN/API参考) and the common error codes (返回结果, 公共错误码); tests/data/cloud/alibaba/README.md.
    if (is({"OperationDenied.NoStock",
            "Zone.NotOnSale",
            "Zone.NotOpen",
            "InvalidInstanceType.ZoneNotSupported",
            "InstanceType.Offline",
            "InvalidResourceType.NotSupported",
            "ResourceNotAvailable"})
        || code.starts_with("OperationDenied.NoStock")) {
        mapped = ErrorCode::InsufficientCapacity;
        reason.key = "error.alibaba.no_capacity";
        addParam("instance_type", context.instanceType);
        addParam("zone", context.zone);
    } else if (is({"InvalidInstanceType.ValueNotSupported",
                   "InvalidInstanceType.ValueUnauthorized",
                   "InvalidInstanceType.NotSupported"})) {
        reason.key = "error.alibaba.type_not_offered";
        addParam("instance_type", context.instanceType);
        addParam("region", context.region);
    } else if (code.starts_with("QuotaExceed")) {
        mapped = ErrorCode::QuotaExceeded;
        reason.key = "error.alibaba.quota";
        addParam("instance_type", context.instanceType);
        addParam("region", context.region);
    } else if (code.starts_with("RealNameAuthentication") || code == "InvalidAccountStatus.NotRealName") {
        reason.key = "error.alibaba.real_name";
    } else if (is({"InvalidAccountStatus.NotEnoughBalance",
                   "Account.Arrearage",
                   "InsufficientBalance",
                   "InvalidPayMethod",
                   "PaymentMethodNotFound",
                   "InvalidAccountStatus.Arrearage"})) {
        reason.key = "error.alibaba.balance";
    } else if (code == "InvalidSpotPriceLimit.LowerThanPublicPrice") {
        reason.key = "error.alibaba.spot_price_too_low";
        addParam("instance_type", context.instanceType);
    } else if (code.starts_with("InvalidSpot")) {
        reason.key = "error.alibaba.spot_refused";
        addParam("instance_type", context.instanceType);
    } else if (is({"InvalidAccessKeyId.NotFound",
                   "InvalidAccessKeyId.Inactive",
                   "InvalidAccessKeyId",
                   "SignatureDoesNotMatch",
                   "IncompleteSignature",
                   "InvalidSecurityToken.Expired",
                   "InvalidSecurityToken.Malformed",
                   "InvalidSecurityToken.MismatchWithAccessKey"})) {
        mapped = ErrorCode::Credentials;
        reason.key = "error.alibaba.key_refused";
    } else if (code.starts_with("InvalidTimeStamp")) {
        mapped = ErrorCode::ClockSkew;
        reason.key = "error.alibaba.clock_skew";
    } else if (is({"Forbidden", "Forbbiden", "NoPermission", "InvalidUser.PassRoleForbidden"})
               || ((code.starts_with("Forbidden.") || code.starts_with("Forbbiden."))
                   && code != "Forbidden.RiskControl")) {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.alibaba.permission_missing";
        addParam("ram_action", ramAction(context));
        addParam("policy", context.product == Product::Vpc ? "AliyunVPCFullAccess" : "AliyunECSFullAccess");
    } else if (code.starts_with("Throttling")) {
        mapped = ErrorCode::Throttled;
        reason.key = "error.alibaba.throttled";
        addParam("action", context.action);
    } else if (code.ends_with(".NotFound") || code.starts_with("NotFound") || code.ends_with("NotFound")) {
        mapped = ErrorCode::NotFound;
        reason.key = "error.alibaba.not_found";
        addParam("action", context.action);
    } else if (is({"InternalError", "UnknownError", "ServiceUnavailable", "ServiceUnavailable.Temporary"})
               || response.status >= 500) {
        // Kept as ProviderRefused with the code and the 5xx status: the Launcher treats the outcome as unknown.
        reason.key = "error.alibaba.server_error";
        addParam("action", context.action);
    } else {
        reason.key = "error.alibaba.refused";
        addParam("action", context.action);
    }
    return Error{mapped, std::move(reason), where, response.status, code};
}

} // namespace gpuplan::core::alibaba
