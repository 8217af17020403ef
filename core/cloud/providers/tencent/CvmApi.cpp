// Tencent Cloud API 3.0 for CVM and VPC as GPU Planner uses it: each action's request, its documented JSON
// answer's parser, and the error mapping with its advice. Longer than 600 lines on purpose: it is one wire format,
// and the builders, parsers and codes they share are read and checked against the SDK together (TestCvmWire).

#include "gpuplan/cloud/providers/tencent/CvmApi.h"

#include "gpuplan/cloud/JsonAnswer.h"
#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

#include <algorithm>
#include <cctype>
#include <ctime>

namespace gpuplan::core::cvm {

namespace {

using json_answer::text;
using nlohmann::json;

json filter(const std::string& name, const std::string& value)
{
    return json{{"Name", name}, {"Values", json::array({value})}};
}

std::string trim(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::string chargeType(LaunchPricing pricing)
{
    switch (pricing) {
        case LaunchPricing::Spot:
            return "SPOTPAID";
        case LaunchPricing::Subscription:
            return "PREPAID";
        case LaunchPricing::OnDemand:
            break;
    }
    return "POSTPAID_BY_HOUR";
}

constexpr const char* kProvider = "tencent";

// The Response object of a body, or the Error saying why there is none.
Result<json> responseOf(std::string_view body, const JsonAnswer& answer)
{
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    const json& response = json_answer::member(*doc, "Response");
    if (response.is_null()) {
        return answer.refused("error.answer.missing", {{"field", "Response"}});
    }
    if (!response.is_object()) {
        return answer.refused("error.answer.invalid", {{"field", "Response"}, {"found", response.type_name()}});
    }
    return response;
}

// A Response's array field; an absent or null one reads as empty unless `required` (the API marks many as "可能返回
// null").
Result<json> arrayField(const json& response, const char* name, const JsonAnswer& answer, bool required)
{
    if (!required && json_answer::member(response, name).is_null()) {
        return json::array();
    }
    return answer.list(response, name);
}

} // namespace

const char* serviceName(Service service)
{
    return service == Service::Vpc ? "vpc" : "cvm";
}

std::string baseUrl(Service service, const std::string& endpoint)
{
    if (!endpoint.empty()) {
        return endpoint.ends_with("/") ? endpoint : endpoint + "/";
    }
    return std::string("https://") + serviceName(service) + ".tencentcloudapi.com/";
}

std::string body(const Call& call)
{
    // Compact and UTF-8, as the SDK's JSON.stringify: the signature covers these exact bytes. Text from outside
    // (a key file's comment in Latin-1) may not be UTF-8: it is sent with U+FFFD in place of the bad bytes, as
    // JSON.stringify would send a lone surrogate, instead of throwing out of the launch.
    return call.params.dump(-1, ' ', false, json::error_handler_t::replace);
}

HttpRequest buildRequest(const std::string& url, const Call& call, const std::string& region)
{
    HttpRequest request;
    request.method = "POST";
    request.url = url;
    request.headers.push_back({"Content-Type", std::string(kContentType)});
    request.headers.push_back({"X-TC-Action", call.action});
    request.headers.push_back({"X-TC-Version", std::string(call.service == Service::Vpc ? kVpcVersion : kCvmVersion)});
    if (!region.empty()) {
        request.headers.push_back({"X-TC-Region", region});
    }
    request.body = body(call);
    request.safeToRetry = call.safeToRetry;
    return request;
}

Result<std::string> keyPairName(const std::string& sshPublicKey)
{
    Result<std::string> id = publicKeyId(sshPublicKey);
    if (!id) {
        return id.error();
    }
    return "gpuplanner_" + *id; // CVM key names take letters, digits and underscores
}

std::string securityGroupName(const std::string& cidr)
{
    std::string name = "gpuplanner-ssh-";
    for (char c : cidr) {
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
    }
    return name;
}

std::string actionTime(std::int64_t unixSeconds)
{
    return extendedIsoTime(std::chrono::system_clock::from_time_t(static_cast<std::time_t>(unixSeconds)));
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

Call describeImagesCall(const std::string& instanceType)
{
    // Filters image-type and platform, and InstanceType ("实例类型，如 SA5.MEDIUM2"), which leaves the images that
    // can boot on it (DescribeImages, https://cloud.tencent.com/document/api/213/15715).
    Call call{Service::Cvm, "DescribeImages", json::object(), true};
    call.params["Filters"] = json::array({filter("image-type", "PUBLIC_IMAGE"), filter("platform", "Ubuntu")});
    call.params["Limit"] = kPageLimit;
    if (!instanceType.empty()) {
        call.params["InstanceType"] = instanceType;
    }
    return call;
}

Call describeKeyPairsCall(const std::string& keyName)
{
    Call call{Service::Cvm, "DescribeKeyPairs", json::object(), true};
    call.params["Filters"] = json::array({filter("key-name", keyName)});
    return call;
}

Call importKeyPairCall(const std::string& keyName, const std::string& sshPublicKey)
{
    // Not retried: a second ImportKeyPair of the same name fails with InvalidKeyPairName.Duplicate, which the
    // provider handles by describing again.
    Call call{Service::Cvm, "ImportKeyPair", json::object(), false};
    call.params["KeyName"] = keyName;
    call.params["ProjectId"] = 0;
    call.params["PublicKey"] = trim(sshPublicKey);
    return call;
}

Call describeSecurityGroupsCall(const std::string& groupName)
{
    Call call{Service::Vpc, "DescribeSecurityGroups", json::object(), true};
    call.params["Filters"] = json::array({filter("security-group-name", groupName)});
    return call;
}

Call createSecurityGroupCall(const std::string& groupName, const std::string& cidr)
{
    Call call{Service::Vpc, "CreateSecurityGroup", json::object(), false};
    call.params["GroupName"] = groupName;
    call.params["GroupDescription"] = "GPU Planner: SSH from " + cidr; // wire: stored in the user's account
    return call;
}

Call describeSecurityGroupPoliciesCall(const std::string& groupId)
{
    Call call{Service::Vpc, "DescribeSecurityGroupPolicies", json::object(), true};
    call.params["SecurityGroupId"] = groupId;
    return call;
}

Call authorizeSshCall(const std::string& groupId, const std::string& cidr)
{
    Call call{Service::Vpc, "CreateSecurityGroupPolicies", json::object(), false};
    call.params["SecurityGroupId"] = groupId;
    // wire: the rule's description, stored in the user's account
    call.params["SecurityGroupPolicySet"] = json{{"Ingress",
                                                  json::array({json{{"Protocol", "TCP"},
                                                                    {"Port", "22"},
                                                                    {"CidrBlock", cidr},
                                                                    {"Action", "ACCEPT"},
                                                                    {"PolicyDescription", "SSH for GPU Planner"}}})}};
    return call;
}

Call allowEgressCall(const std::string& groupId)
{
    Call call{Service::Vpc, "CreateSecurityGroupPolicies", json::object(), false};
    call.params["SecurityGroupId"] = groupId;
    // wire: the rule's description, stored in the user's account
    call.params["SecurityGroupPolicySet"] =
        json{{"Egress",
              json::array({json{{"Protocol", "ALL"},
                                {"CidrBlock", "0.0.0.0/0"},
                                {"Action", "ACCEPT"},
                                {"PolicyDescription", "outbound for GPU Planner (packages, probe)"}}})}};
    return call;
}

Result<Call> runInstancesCall(const LaunchRequest& request,
                              const std::string& zone,
                              const std::string& imageId,
                              const std::string& keyId,
                              const std::string& groupId,
                              std::int64_t now)
{
    const std::string where = "RunInstances";
    if (request.clientToken.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cvm.no_client_token", {}}, where};
    }
    if (request.clientToken.size() > kMaxClientTokenBytes) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cvm.client_token_too_long", {}}, where};
    }
    if (request.pricing == LaunchPricing::Subscription && request.subscriptionMonths <= 0) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cvm.prepaid_needs_months", {}}, where};
    }
    const std::string userData = request.userData.empty() ? std::string() : base64(request.userData);
    if (userData.size() > kMaxUserDataBytes) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.cvm.user_data_too_big", {{"bytes", std::to_string(userData.size())}}},
                     where};
    }

    Call call{Service::Cvm, "RunInstances", json::object(), true};
    json& p = call.params;
    p["Placement"] = json{{"Zone", zone}};
    p["ImageId"] = imageId;
    p["InstanceType"] = request.instanceType;
    p["InstanceCount"] = 1;
    p["InstanceChargeType"] = chargeType(request.pricing);
    if (request.pricing == LaunchPricing::Subscription) {
        // RenewFlag default is NOTIFY_AND_MANUAL_RENEW; NOTIFY_AND_AUTO_RENEW renews monthly while the balance lasts.
        p["InstanceChargePrepaid"] =
            json{{"Period", request.subscriptionMonths},
                 {"RenewFlag", request.autoRenew ? "NOTIFY_AND_AUTO_RENEW" : "NOTIFY_AND_MANUAL_RENEW"}};
    }
    // SPOTPAID without InstanceMarketOptions: "若指定实例的付费模式为竞价付费但没有传递该参数时，默认按当前固定折扣价格
    // 出价" (RunInstances, InstanceMarketOptions). SpotOptions.MaxPrice ("竞价出价", a string) is required once the
    // options are given, so they are sent only with the user's own limit.
    if (request.pricing == LaunchPricing::Spot && request.spotPriceLimit > 0) {
        p["InstanceMarketOptions"] =
            json{{"MarketType", "spot"},
                 {"SpotOptions",
                  json{{"MaxPrice", spotPriceText(request.spotPriceLimit)}, {"SpotInstanceType", "one-time"}}}};
    }
    if (!keyId.empty()) {
        p["LoginSettings"] = json{{"KeyIds", json::array({keyId})}};
    }
    if (!groupId.empty()) {
        p["SecurityGroupIds"] = json::array({groupId});
    }
    if (!userData.empty()) {
        p["UserData"] = userData;
    }
    p["ClientToken"] = request.clientToken;
    json tags = json::array({json{{"Key", std::string(kOwnerTagKey)}, {"Value", request.clientToken}}});
    for (const auto& [key, value] : request.tags) {
        if (key != kOwnerTagKey) {
            tags.push_back(json{{"Key", key}, {"Value", value}});
        }
    }
    // CVM shows InstanceName as the instance's name; there is no "Name" tag convention as on EC2.
    p["TagSpecification"] = json::array({json{{"ResourceType", "instance"}, {"Tags", tags}}});
    p["InstanceName"] = instanceName(request.clientToken);
    p["InternetAccessible"] = json{{"InternetChargeType", "TRAFFIC_POSTPAID_BY_HOUR"},
                                   {"InternetMaxBandwidthOut", kMaxBandwidthOutMbps},
                                   {"PublicIpAssigned", true}};
    if (request.terminateAt > 0 && request.pricing != LaunchPricing::Subscription) {
        // ActionTimer: "执行时间，按照ISO8601标准表示，并且使用UTC时间。格式为 YYYY-MM-DDThh:mm:ssZ ...
        // 执行时间必须大于当前 时间5分钟" (cvm_models ActionTimer;
        // https://cloud.tencent.com/document/api/213/15753#ActionTimer).
        if (request.terminateAt < now + 5 * 60) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.cvm.terminate_too_soon", {}}, where};
        }
        p["ActionTimer"] = json{{"TimerAction", "TerminateInstances"}, {"ActionTime", actionTime(request.terminateAt)}};
    }
    if (request.dryRun) {
        p["DryRun"] = true;
    }
    return call;
}

Call describeInstanceCall(const std::string& instanceId)
{
    Call call{Service::Cvm, "DescribeInstances", json::object(), true};
    call.params["InstanceIds"] = json::array({instanceId});
    return call;
}

Call listOursCall(int offset)
{
    Call call{Service::Cvm, "DescribeInstances", json::object(), true};
    call.params["Filters"] = json::array({filter("tag-key", std::string(kOwnerTagKey))});
    call.params["Offset"] = offset;
    call.params["Limit"] = kPageLimit;
    return call;
}

Call terminateCall(const std::string& instanceId)
{
    Call call{Service::Cvm, "TerminateInstances", json::object(), true};
    call.params["InstanceIds"] = json::array({instanceId});
    return call;
}

Call zoneConfigCall(const std::vector<std::string>& instanceTypes, LaunchPricing pricing)
{
    Call call{Service::Cvm, "DescribeZoneInstanceConfigInfos", json::object(), true};
    call.params["Filters"] = json::array({json{{"Name", "instance-type"}, {"Values", instanceTypes}},
                                          filter("instance-charge-type", chargeType(pricing))});
    return call;
}

Call inquiryPriceCall(const std::string& instanceType,
                      const std::string& zone,
                      const std::string& imageId,
                      LaunchPricing pricing,
                      int months)
{
    Call call{Service::Cvm, "InquiryPriceRunInstances", json::object(), true};
    json& p = call.params;
    p["Placement"] = json{{"Zone", zone}};
    p["ImageId"] = imageId;
    p["InstanceType"] = instanceType;
    p["InstanceChargeType"] = chargeType(pricing);
    if (pricing == LaunchPricing::Subscription) {
        p["InstanceChargePrepaid"] = json{{"Period", months}, {"RenewFlag", "NOTIFY_AND_MANUAL_RENEW"}};
    }
    return call;
}

// ---- Parsers.

Result<std::vector<Image>> parseDescribeImages(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeImages"};
    Result<json> response = responseOf(body, answer);
    if (!response) {
        return response.error();
    }
    Result<json> set = arrayField(*response, "ImageSet", answer, true);
    if (!set) {
        return set.error();
    }
    std::vector<Image> images;
    for (const json& item : *set) {
        Image image{text(item, "ImageId"),
                    text(item, "ImageName"),
                    text(item, "ImageDescription"),
                    text(item, "CreatedTime"),
                    text(item, "ImageState"),
                    text(item, "Platform")};
        if (!image.imageId.empty()) {
            images.push_back(std::move(image));
        }
    }
    return images;
}

std::optional<Image> newestGpuImage(const std::vector<Image>& images)
{
    auto mentionsDriver = [](const Image& image) {
        std::string text = image.name + " " + image.description;
        std::string upper;
        for (char c : text) {
            upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        return upper.find("GPU") != std::string::npos || upper.find("NVIDIA") != std::string::npos
               || upper.find("CUDA") != std::string::npos || text.find("驱动") != std::string::npos;
    };
    std::optional<Image> best;
    for (const Image& image : images) {
        if (image.state == "NORMAL" && mentionsDriver(image) && (!best || image.createdTime > best->createdTime)) {
            best = image;
        }
    }
    return best;
}

Result<std::vector<KeyPair>> parseDescribeKeyPairs(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeKeyPairs"};
    Result<json> response = responseOf(body, answer);
    if (!response) {
        return response.error();
    }
    Result<json> set = arrayField(*response, "KeyPairSet", answer, true);
    if (!set) {
        return set.error();
    }
    std::vector<KeyPair> keys;
    for (const json& item : *set) {
        KeyPair key{text(item, "KeyId"), text(item, "KeyName")};
        if (!key.keyId.empty()) {
            keys.push_back(std::move(key));
        }
    }
    return keys;
}

Result<std::string> parseImportKeyPair(std::string_view body)
{
    const JsonAnswer answer{kProvider, "ImportKeyPair"};
    Result<json> response = responseOf(body, answer);
    if (!response) {
        return response.error();
    }
    std::string keyId = text(*response, "KeyId");
    if (keyId.empty()) {
        return answer.refused("error.answer.missing", {{"field", "KeyId"}});
    }
    return keyId;
}

Result<std::vector<SecurityGroup>> parseDescribeSecurityGroups(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeSecurityGroups"};
    Result<json> response = responseOf(body, answer);
    if (!response) {
        return response.error();
    }
    Result<json> set = arrayField(*response, "SecurityGroupSet", answer, true);
    if (!set) {
        return set.error();
    }
    std::vector<SecurityGroup> groups;
    for (const json& item : *set) {
        SecurityGroup group{text(item, "SecurityGroupId"), text(item, "SecurityGroupName")};
        if (!group.groupId.empty()) {
            groups.push_back(std::move(group));
        }
    }
    return groups;
}

Result<std::string> parseCreateSecurityGroup(std::string_view body)
{
    const JsonAnswer answer{kProvider, "CreateSecurityGroup"};
    Result<json> response = responseOf(body, answer);
    if (!response) {
        return response.error();
    }
    const json group = response->contains("SecurityGroup") ? (*response)["SecurityGroup"] : json();
    std::string groupId = text(group, "SecurityGroupId");
    if (groupId.empty()) {
        return answer.refused("error.answer.missing", {{"field", "SecurityGroup.SecurityGroupId"}});
    }
    return groupId;
}

Result<SecurityGroupPolicies> parseDescribeSecurityGroupPolicies(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeSecurityGroupPolicies"};
    Result<json> response = responseOf(body, answer);
    if (!response) {
        return response.error();
    }
    if (!response->contains("SecurityGroupPolicySet") || !(*response)["SecurityGroupPolicySet"].is_object()) {
        return answer.refused("error.answer.missing", {{"field", "SecurityGroupPolicySet"}});
    }
    const json& set = (*response)["SecurityGroupPolicySet"];
    SecurityGroupPolicies out;
    for (const auto& [name, policies] : {std::pair{"Ingress", &out.ingress}, std::pair{"Egress", &out.egress}}) {
        Result<json> list = arrayField(set, name, answer, false);
        if (!list) {
            return list.error();
        }
        for (const json& item : *list) {
            policies->push_back(SecurityGroupPolicy{
                text(item, "Protocol"), text(item, "Port"), text(item, "CidrBlock"), text(item, "Action")});
        }
    }
    return out;
}

bool allowsSshFrom(const std::vector<SecurityGroupPolicy>& ingress, const std::string& cidr)
{
    const auto upper = [](std::string text) {
        std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
        return text;
    };
    // Port: "ALL", one port, a range "20-30", or a list "22,80" (CreateSecurityGroupPolicies, SecurityGroupPolicy).
    const auto opensPort22 = [&](const std::string& port) {
        if (port.empty() || upper(port) == "ALL") {
            return true;
        }
        std::size_t start = 0;
        while (start <= port.size()) {
            const std::size_t comma = std::min(port.find(',', start), port.size());
            const std::string part = trim(port.substr(start, comma - start));
            const std::size_t dash = part.find('-');
            const std::string from = dash == std::string::npos ? part : part.substr(0, dash);
            const std::string to = dash == std::string::npos ? part : part.substr(dash + 1);
            const bool digits = !from.empty() && !to.empty() && from.size() < 6 && to.size() < 6
                                && std::all_of(from.begin(), from.end(), ::isdigit)
                                && std::all_of(to.begin(), to.end(), ::isdigit);
            if (digits && std::stoi(from) <= 22 && std::stoi(to) >= 22) {
                return true;
            }
            start = comma + 1;
        }
        return false;
    };
    return std::any_of(ingress.begin(), ingress.end(), [&](const SecurityGroupPolicy& p) {
        const std::string protocol = upper(p.protocol);
        return upper(p.action) == "ACCEPT" && p.cidrBlock == cidr
               && (protocol == "ALL" || (protocol == "TCP" && opensPort22(p.port)));
    });
}

Status parseEmptyAnswer(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> response = responseOf(body, answer);
    if (!response) {
        return response.error();
    }
    if (text(*response, "RequestId").empty()) {
        return answer.refused("error.answer.missing", {{"field", "RequestId"}});
    }
    return Ok{};
}

Result<std::vector<std::string>> parseRunInstances(std::string_view body)
{
    const JsonAnswer answer{kProvider, "RunInstances"};
    Result<json> response = responseOf(body, answer);
    if (!response) {
        return response.error();
    }
    Result<json> set = arrayField(*response, "InstanceIdSet", answer, false);
    if (!set) {
        return set.error();
    }
    std::vector<std::string> ids;
    for (const json& id : *set) {
        if (id.is_string()) {
            ids.push_back(id.get<std::string>());
        }
    }
    return ids;
}

Result<InstancesPage> parseDescribeInstances(std::string_view body, const std::string& region)
{
    const JsonAnswer answer{kProvider, "DescribeInstances"};
    Result<json> response = responseOf(body, answer);
    if (!response) {
        return response.error();
    }
    Result<json> set = arrayField(*response, "InstanceSet", answer, true);
    if (!set) {
        return set.error();
    }
    InstancesPage page;
    if (response->contains("TotalCount") && (*response)["TotalCount"].is_number_integer()) {
        page.totalCount = (*response)["TotalCount"].get<int>();
    }
    for (const json& item : *set) {
        RemoteInstance instance;
        instance.instanceId = text(item, "InstanceId");
        if (instance.instanceId.empty()) {
            return answer.refused("error.cvm.answer_instance_without_id");
        }
        instance.providerState = text(item, "InstanceState");
        instance.state = stateFromCvm(instance.providerState);
        instance.region = region;
        instance.instanceType = text(item, "InstanceType");
        instance.zone = text(item.value("Placement", json::object()), "Zone");
        const json ips = item.value("PublicIpAddresses", json());
        if (ips.is_array() && !ips.empty() && ips[0].is_string()) {
            instance.publicIp = ips[0].get<std::string>();
        }
        instance.launchedAt = parseIsoSeconds(text(item, "CreatedTime"));
        // InstanceChargeType: POSTPAID_BY_HOUR, SPOTPAID, PREPAID (whose period, monthly or yearly, is not listed).
        const std::string charge = text(item, "InstanceChargeType");
        instance.pricingMode = charge == "POSTPAID_BY_HOUR" ? "on_demand" : charge == "SPOTPAID" ? "spot" : "";
        const json tags = item.value("Tags", json());
        if (tags.is_array()) {
            for (const json& tag : tags) {
                if (text(tag, "Key") == kOwnerTagKey) {
                    instance.clientToken = text(tag, "Value");
                }
            }
        }
        page.instances.push_back(std::move(instance));
    }
    return page;
}

Result<std::vector<std::string>> parseZoneConfig(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DescribeZoneInstanceConfigInfos"};
    Result<json> response = responseOf(body, answer);
    if (!response) {
        return response.error();
    }
    Result<json> set = arrayField(*response, "InstanceTypeQuotaSet", answer, true);
    if (!set) {
        return set.error();
    }
    std::vector<std::string> zones;
    for (const json& item : *set) {
        const std::string zone = text(item, "Zone");
        if (text(item, "Status") == "SELL" && !zone.empty()
            && std::find(zones.begin(), zones.end(), zone) == zones.end()) {
            zones.push_back(zone);
        }
    }
    return zones;
}

InstanceState stateFromCvm(std::string_view name)
{
    if (name == "RUNNING") {
        return InstanceState::Running;
    }
    if (name == "STOPPED") {
        return InstanceState::Stopped;
    }
    if (name == "STOPPING" || name == "SHUTDOWN" || name == "TERMINATING") {
        return InstanceState::Stopping;
    }
    if (name == "LAUNCH_FAILED") {
        return InstanceState::Failed;
    }
    return InstanceState::Pending; // PENDING, STARTING, REBOOTING and states we do not know
}

// ---- Errors.

std::optional<ApiError> responseError(std::string_view body)
{
    json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("Response") || !doc["Response"].is_object()) {
        return std::nullopt;
    }
    const json& response = doc["Response"];
    if (!response.contains("Error") || !response["Error"].is_object()) {
        return std::nullopt;
    }
    return ApiError{text(response["Error"], "Code"), text(response["Error"], "Message"), text(response, "RequestId")};
}

std::string camAction(const ErrorContext& context)
{
    return std::string(serviceName(context.service)) + ":" + context.action;
}

std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context)
{
    const std::string where = std::string(serviceName(context.service)) + " " + context.action
                              + (context.region.empty() ? "" : " in " + context.region);
    std::optional<ApiError> apiError = responseError(response.body);
    if (!apiError) {
        if (response.status < 200 || response.status >= 300) {
            Error error{ErrorCode::HttpStatus,
                        Reason{"error.cvm.http_status",
                               {{"status", std::to_string(response.status)}, {"action", context.action}}},
                        where,
                        response.status};
            return error;
        }
        Result<json> ok = responseOf(response.body, JsonAnswer{kProvider, context.action});
        if (!ok) {
            Error error = ok.error();
            error.httpStatus = response.status;
            return error;
        }
        return std::nullopt;
    }

    const std::string& code = apiError->code;
    // Tencent's code, its message ("said") and the RequestId, worded after the advice; an empty instance type or
    // zone is left out (the wording then says "this instance type", "this zone").
    Reason reason{{}, {{"code", code}}};
    const auto add = [&reason](const char* name, const std::string& value) {
        if (!value.empty()) {
            reason.params[name] = value;
        }
    };
    add("said", apiError->message);
    add("request_id", apiError->requestId);
    ErrorCode mapped = ErrorCode::ProviderRefused;

    if (code.starts_with("ResourceInsufficient") || code.starts_with("ResourcesSoldOut")
        || code == "ResourceUnavailable.InstanceType" || code == "InvalidParameterValue.InsufficientOffering") {
        mapped = ErrorCode::InsufficientCapacity;
        reason.key = "error.cvm.no_capacity";
        add("instance_type", context.instanceType);
        add("zone", context.zone);
    } else if (code.starts_with("LimitExceeded") || code == "InstancesQuotaLimitExceeded") {
        mapped = ErrorCode::QuotaExceeded;
        reason.key = "error.cvm.account_quota";
        if (code == "LimitExceeded.InstanceQuota" || code == "InstancesQuotaLimitExceeded") {
            reason.key = "error.cvm.instance_quota";
            add("zone", context.zone);
        } else if (code == "LimitExceeded.SpotQuota" || code == "LimitExceeded.UserSpotQuota") {
            reason.key = "error.cvm.spot_quota";
        } else if (code == "LimitExceeded.PrepayQuota") {
            reason.key = "error.cvm.prepaid_quota";
        }
        add("instance_type", context.instanceType);
    } else if (code.starts_with("UnauthorizedOperation") || code == "AuthFailure.UnauthorizedOperation") {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.cvm.permission_missing";
        add("cam_action", camAction(context));
    } else if (code == "AuthFailure.SignatureExpire") {
        mapped = ErrorCode::ClockSkew;
        reason.key = "error.cvm.clock_skew";
    } else if (code.starts_with("AuthFailure")) {
        mapped = ErrorCode::Credentials;
        reason.key = "error.cvm.key_refused";
    } else if (code.starts_with("RequestLimitExceeded")) {
        mapped = ErrorCode::Throttled;
        reason.key = "error.cvm.throttled";
        add("action", context.action);
    } else if (code.ends_with(".NotFound") || code.starts_with("ResourceNotFound")) {
        mapped = ErrorCode::NotFound;
        reason.key = "error.cvm.not_found";
        add("action", context.action);
    } else {
        reason.key = "error.cvm.refused";
        add("action", context.action);
    }
    Error error{mapped, std::move(reason), where, response.status, code};
    return error;
}

} // namespace gpuplan::core::cvm
