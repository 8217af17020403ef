// Huawei Cloud's ECS, VPC, IMS and IAM REST calls as GPU Planner uses them: each operation's request, its documented
// JSON answer's parser, and the error mapping with its advice. Longer than 600 lines on purpose: it is one wire
// format, and the builders, parsers and codes they share are read and checked against the SDK together.

#include "gpuplan/cloud/providers/huawei/EcsApi.h"

#include "gpuplan/cloud/JsonAnswer.h"
#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"
#include "gpuplan/prices/PriceAnswers.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <ctime>

namespace gpuplan::core::huawei {

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

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

bool contains(const std::string& text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

constexpr const char* kProvider = "huawei";

int integer(const json& object, const char* name)
{
    if (!object.is_object() || !object.contains(name)) {
        return 0;
    }
    const json& value = object[name];
    if (value.is_number_integer()) {
        return value.get<int>();
    }
    if (value.is_string()) {
        int out = 0;
        const std::string s = value.get<std::string>();
        std::from_chars(s.data(), s.data() + s.size(), out);
        return out;
    }
    return 0;
}

// A list at `name` that the API may leave out (absent or null: empty).
Result<json> optionalList(const JsonAnswer& answer, const json& doc, const char* name)
{
    return json_answer::member(doc, name).is_null() ? Result<json>(json::array()) : answer.list(doc, name);
}

// An object at `name`, required.
Result<json> objectOf(const JsonAnswer& answer, const json& doc, const char* name)
{
    const json& value = json_answer::member(doc, name);
    if (!value.is_object()) {
        return answer.refused("error.answer.missing", {{"field", name}});
    }
    return value;
}

// "a.b.c.d/n" as a 32-bit address and prefix length.
std::optional<std::pair<std::uint32_t, int>> parseCidr(const std::string& cidr)
{
    const std::size_t slash = cidr.find('/');
    if (slash == std::string::npos) {
        return std::nullopt;
    }
    std::array<unsigned, 4> parts{};
    std::size_t at = 0;
    for (int i = 0; i < 4; ++i) {
        const std::size_t end = i < 3 ? cidr.find('.', at) : slash;
        if (end == std::string::npos || end > slash || end == at) {
            return std::nullopt;
        }
        auto [ptr, ec] = std::from_chars(cidr.data() + at, cidr.data() + end, parts[i]);
        if (ec != std::errc() || ptr != cidr.data() + end || parts[i] > 255) {
            return std::nullopt;
        }
        at = end + 1;
    }
    int prefix = -1;
    auto [ptr, ec] = std::from_chars(cidr.data() + slash + 1, cidr.data() + cidr.size(), prefix);
    if (ec != std::errc() || ptr != cidr.data() + cidr.size() || prefix < 0 || prefix > 32) {
        return std::nullopt;
    }
    const std::uint32_t address = (parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3];
    const std::uint32_t mask = prefix == 0 ? 0 : ~std::uint32_t(0) << (32 - prefix);
    return std::pair{address & mask, prefix};
}

std::string dotted(std::uint32_t address)
{
    return std::to_string(address >> 24) + "." + std::to_string((address >> 16) & 255) + "."
           + std::to_string((address >> 8) & 255) + "." + std::to_string(address & 255);
}

Call call(Service service, const char* action, const char* method, std::string path, bool safe)
{
    Call c;
    c.service = service;
    c.action = action;
    c.method = method;
    c.path = std::move(path);
    c.safeToRetry = safe;
    return c;
}

// Characters, as the tag limits count them ("unicode字符"): UTF-8 bytes that do not continue a sequence.
std::size_t utf8Length(const std::string& text)
{
    return std::count_if(
        text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

std::string segment(const std::string& value)
{
    return uriEncode(value);
}

} // namespace

const char* serviceName(Service service)
{
    switch (service) {
        case Service::Vpc:
            return "vpc";
        case Service::Ims:
            return "ims";
        case Service::Iam:
            return "iam";
        case Service::Bss:
            return "bss";
        case Service::Ecs:
            break;
    }
    return "ecs";
}

std::string baseUrl(Service service, const std::string& region, const std::string& endpoint)
{
    if (!endpoint.empty()) {
        return endpoint.ends_with("/") ? endpoint.substr(0, endpoint.size() - 1) : endpoint;
    }
    if (service == Service::Bss) {
        return "https://bss.myhuaweicloud.com"; // source: BSS is global (https://developer.huaweicloud.com/endpoint)
    }
    // source: https://developer.huaweicloud.com/endpoint (地区和终端节点): <service>.<region>.myhuaweicloud.com
    return std::string("https://") + serviceName(service) + "." + region + ".myhuaweicloud.com";
}

std::string body(const Call& call)
{
    if (call.body.is_null()) {
        return {};
    }
    // Compact and UTF-8, as the SDK's JSON.stringify: the signature covers these bytes. Text that is not UTF-8 (a
    // key comment in Latin-1) goes with U+FFFD in place of the bad bytes instead of throwing out of the launch.
    return call.body.dump(-1, ' ', false, json::error_handler_t::replace);
}

HttpRequest
buildRequest(const Call& call, const std::string& region, const std::string& endpoint, const std::string& projectId)
{
    HttpRequest request;
    request.method = call.method;
    std::string url = baseUrl(call.service, region, endpoint) + call.path;
    for (std::size_t i = 0; i < call.query.size(); ++i) {
        url += (i == 0 ? "?" : "&") + uriEncode(call.query[i].first) + "=" + uriEncode(call.query[i].second);
    }
    request.url = std::move(url);
    request.body = body(call);
    // On every request, GETs too, as the SDK sends and signs it (each operation declares contentType
    // "application/json"; HcClient.buildRequest makes it a header that AKSKSigner signs).
    request.headers.push_back({"Content-Type", std::string(kContentType)});
    if (!projectId.empty() && call.service != Service::Iam && call.service != Service::Bss) {
        request.headers.push_back({"X-Project-Id", projectId});
    }
    for (const HttpHeader& header : call.headers) {
        request.headers.push_back(header);
    }
    request.safeToRetry = call.safeToRetry;
    return request;
}

Result<std::string> keyPairName(const std::string& sshPublicKey)
{
    Result<std::string> id = publicKeyId(sshPublicKey);
    if (!id) {
        return id.error();
    }
    return "gpuplanner-" + *id; // wire: the key pair's name in the user's account
}

std::string securityGroupName(const std::string& cidr)
{
    std::string name = "gpuplanner-ssh-"; // wire: the group's name in the user's account
    for (char c : cidr) {
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
    }
    return name;
}

std::string instanceName(const std::string& clientToken)
{
    std::string shortToken;
    for (char c : clientToken) {
        if (std::isalnum(static_cast<unsigned char>(c)) && shortToken.size() < 8) {
            shortToken += c;
        }
    }
    return "gpuplanner-" + shortToken; // wire: the server's name in the user's account
}

std::string subnetName(const std::string& zone)
{
    return "gpuplanner-" + zone; // wire: the subnet's name in the user's account
}

std::string autoTerminateTime(std::int64_t unixSeconds)
{
    // "如果秒（ss）取值不是 00，则自动取为当前分钟（mm）开始时": sent with :00, as Huawei reads it.
    unixSeconds -= unixSeconds % 60;
    return extendedIsoTime(std::chrono::system_clock::from_time_t(static_cast<std::time_t>(unixSeconds)));
}

std::optional<std::string> firstFreeSubnet(const std::string& vpcCidr, const std::vector<std::string>& usedCidrs)
{
    const auto vpc = parseCidr(vpcCidr);
    if (!vpc || vpc->second > 24) {
        return std::nullopt;
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> used; // [first, last]
    for (const std::string& cidr : usedCidrs) {
        if (const auto range = parseCidr(cidr)) {
            const std::uint32_t size =
                range->second == 0 ? 0xFFFFFFFFu : (std::uint32_t(1) << (32 - range->second)) - 1;
            used.emplace_back(range->first, range->first + size);
        }
    }
    const std::uint64_t count = std::uint64_t(1) << (24 - vpc->second);
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint32_t first = vpc->first + std::uint32_t(i << 8);
        const std::uint32_t last = first + 255;
        const bool overlaps =
            std::any_of(used.begin(), used.end(), [&](const auto& r) { return r.first <= last && first <= r.second; });
        if (!overlaps) {
            return dotted(first) + "/24";
        }
    }
    return std::nullopt;
}

std::string gatewayOf(const std::string& subnetCidr)
{
    const auto range = parseCidr(subnetCidr);
    return range ? dotted(range->first + 1) : std::string();
}

// ---- Calls.

Call listProjectsCall(const std::string& region)
{
    // source: KeystoneListProjects, https://support.huaweicloud.com/api-iam/iam_06_0001.html; the SDK's
    // IamService.getProjectId asks the same when BasicCredentials has no project id.
    Call c = call(Service::Iam, "KeystoneListProjects", "GET", "/v3/projects", true);
    c.query = {{"name", region}};
    return c;
}

Call showAccessKeyCall(const std::string& accessKeyId)
{
    // source: ShowPermanentAccessKey, https://support.huaweicloud.com/api-iam/iam_03_0002.html
    return call(
        Service::Iam, "ShowPermanentAccessKey", "GET", "/v3.0/OS-CREDENTIAL/credentials/" + segment(accessKeyId), true);
}

Call listZonesCall(const std::string& projectId)
{
    return call(Service::Ecs, "NovaListAvailabilityZones", "GET", "/v2.1/" + projectId + "/os-availability-zone", true);
}

Call listFlavorsCall(const std::string& projectId, const std::string& zone)
{
    Call c = call(Service::Ecs, "ListFlavors", "GET", "/v1/" + projectId + "/cloudservers/flavors", true);
    if (!zone.empty()) {
        c.query = {{"availability_zone", zone}};
    }
    return c;
}

Call listImagesCall(const std::string& flavorId)
{
    // source: IMS ListImages, https://support.huaweicloud.com/api-ims/ims_03_0602.html: __imagetype gold = public
    // images; flavor_id leaves those that can run on the flavor.
    Call c = call(Service::Ims, "ListImages", "GET", "/v2/cloudimages", true);
    c.query = {{"__imagetype", "gold"}, {"__os_type", "Linux"}, {"status", "active"}, {"limit", "100"}};
    if (!flavorId.empty()) {
        c.query.emplace_back("flavor_id", flavorId);
    }
    return c;
}

Call showKeyPairCall(const std::string& projectId, const std::string& name)
{
    return call(Service::Ecs, "NovaShowKeypair", "GET", "/v2.1/" + projectId + "/os-keypairs/" + segment(name), true);
}

Call createKeyPairCall(const std::string& projectId, const std::string& name, const std::string& sshPublicKey)
{
    // Not retried: a second import of the name answers 409, which the provider handles by asking for it again.
    Call c = call(Service::Ecs, "NovaCreateKeypair", "POST", "/v2.1/" + projectId + "/os-keypairs", false);
    c.body = json{{"keypair", {{"name", name}, {"public_key", trim(sshPublicKey)}}}};
    return c;
}

Call listVpcsCall(const std::string& projectId)
{
    // No limit: "limit ... 默认值2000" (ListVpcs), more VPCs than a project's quota allows.
    return call(Service::Vpc, "ListVpcs", "GET", "/v1/" + projectId + "/vpcs", true);
}

Call showVpcCall(const std::string& projectId, const std::string& vpcId)
{
    return call(Service::Vpc, "ShowVpc", "GET", "/v1/" + projectId + "/vpcs/" + segment(vpcId), true);
}

Call createVpcCall(const std::string& projectId)
{
    Call c = call(Service::Vpc, "CreateVpc", "POST", "/v1/" + projectId + "/vpcs", false);
    // wire: the VPC's name, range and description, stored in the user's account
    c.body = json{{"vpc",
                   {{"name", std::string(kVpcName)},
                    {"cidr", std::string(kVpcCidr)},
                    {"description", "GPU Planner: the network of its GPU servers"}}}};
    return c;
}

Call listSubnetsCall(const std::string& projectId, const std::string& vpcId)
{
    Call c = call(Service::Vpc, "ListSubnets", "GET", "/v1/" + projectId + "/subnets", true);
    c.query = {{"vpc_id", vpcId}}; // one page of up to 2000 (the default limit)
    return c;
}

Call showSubnetCall(const std::string& projectId, const std::string& subnetId)
{
    return call(Service::Vpc, "ShowSubnet", "GET", "/v1/" + projectId + "/subnets/" + segment(subnetId), true);
}

Call createSubnetCall(const std::string& projectId,
                      const std::string& vpcId,
                      const std::string& zone,
                      const std::string& cidr)
{
    Call c = call(Service::Vpc, "CreateSubnet", "POST", "/v1/" + projectId + "/subnets", false);
    json subnet{{"name", subnetName(zone)}, {"cidr", cidr}, {"gateway_ip", gatewayOf(cidr)}, {"vpc_id", vpcId}};
    if (!zone.empty()) {
        subnet["availability_zone"] = zone;
    }
    c.body = json{{"subnet", subnet}};
    return c;
}

Call listSecurityGroupsCall(const std::string& projectId, const std::string& vpcId)
{
    Call c = call(Service::Vpc, "ListSecurityGroups", "GET", "/v1/" + projectId + "/security-groups", true);
    if (!vpcId.empty()) {
        c.query.emplace_back("vpc_id", vpcId);
    }
    return c;
}

Call createSecurityGroupCall(const std::string& projectId, const std::string& name, const std::string& vpcId)
{
    Call c = call(Service::Vpc, "CreateSecurityGroup", "POST", "/v1/" + projectId + "/security-groups", false);
    json group{{"name", name}};
    if (!vpcId.empty()) {
        group["vpc_id"] = vpcId;
    }
    c.body = json{{"security_group", group}};
    return c;
}

Call createSshRuleCall(const std::string& projectId, const std::string& groupId, const std::string& cidr)
{
    Call c = call(Service::Vpc, "CreateSecurityGroupRule", "POST", "/v1/" + projectId + "/security-group-rules", false);
    // wire: the rule's description, stored in the user's account
    c.body = json{{"security_group_rule",
                   {{"security_group_id", groupId},
                    {"direction", "ingress"},
                    {"ethertype", "IPv4"},
                    {"protocol", "tcp"},
                    {"port_range_min", 22},
                    {"port_range_max", 22},
                    {"remote_ip_prefix", cidr},
                    {"description", "SSH for GPU Planner"}}}};
    return c;
}

Result<Call> createServersCall(const LaunchRequest& request, const ServerPlacement& placement, std::int64_t now)
{
    const std::string where = "CreateServers";
    if (request.clientToken.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.huawei.no_client_token", {}}, where};
    }
    if (request.clientToken.size() > kMaxClientTokenBytes) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.huawei.client_token_too_long", {}}, where};
    }
    // server_tags: kOwnerTagKey = the token, then the request's own, at most kMaxTags in all.
    std::vector<std::pair<std::string, std::string>> tags{{std::string(kOwnerTagKey), request.clientToken}};
    for (const auto& [key, value] : request.tags) {
        if (key != kOwnerTagKey) {
            tags.emplace_back(key, value);
        }
    }
    if (tags.size() > kMaxTags) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.huawei.too_many_tags", {{"count", std::to_string(tags.size())}}},
                     where};
    }
    const auto allowed = [](const std::string& text, bool isKey) {
        return std::none_of(text.begin(), text.end(), [isKey](char c) {
            const auto u = static_cast<unsigned char>(c);
            return u < 32 || std::string_view("=*<>\\,|").find(c) != std::string_view::npos || (isKey && c == '/');
        });
    };
    for (const auto& [key, value] : tags) {
        if (key.empty() || utf8Length(key) > kMaxTagKeyChars || utf8Length(value) > kMaxTagValueChars
            || !allowed(key, true) || !allowed(value, false)) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.huawei.tag_invalid", {{"tag", key}}}, where};
        }
    }
    if (request.userData.size() > kMaxUserDataBytes) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.huawei.user_data_too_big", {{"bytes", std::to_string(request.userData.size())}}},
                     where};
    }
    const bool prepaid = request.pricing == LaunchPricing::Subscription;
    // periodType month: periodNum 1-9; year: 1-3 (PrePaidServerExtendParam).
    std::string periodType = "month";
    int periodNum = request.subscriptionMonths;
    if (prepaid) {
        if (request.subscriptionMonths >= 12 && request.subscriptionMonths % 12 == 0
            && request.subscriptionMonths <= 36) {
            periodType = "year";
            periodNum = request.subscriptionMonths / 12;
        } else if (request.subscriptionMonths < 1 || request.subscriptionMonths > 9) {
            return Error{
                ErrorCode::InvalidArgument,
                Reason{"error.huawei.prepaid_period", {{"months", std::to_string(request.subscriptionMonths)}}},
                where};
        }
    }
    // auto_terminate_time: "最短定时删除时间为当前时间半小时之后。最长定时删除时间不能超过当前时间三年。"
    if (request.terminateAt > 0 && !prepaid && request.terminateAt < now + kMinTerminateAheadSeconds) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.huawei.terminate_too_soon", {}}, where};
    }

    Call c = call(Service::Ecs, "CreateServers", "POST", "/v1.1/" + placement.projectId + "/cloudservers", true);
    // Idempotency: the same token with the same body answers the same job and servers (幂等请求).
    c.headers.push_back({"X-Client-Token", request.clientToken});
    json server;
    server["name"] = instanceName(request.clientToken);
    server["imageRef"] = placement.imageId;
    server["flavorRef"] = request.instanceType;
    server["availability_zone"] = placement.zone;
    server["vpcid"] = placement.vpcId;
    server["nics"] = json::array({json{{"subnet_id", placement.subnetId}}});
    if (!placement.groupId.empty()) {
        server["security_groups"] = json::array({json{{"id", placement.groupId}}});
    }
    if (!placement.keyName.empty()) {
        server["key_name"] = placement.keyName;
        if (prepaid && !placement.userId.empty()) {
            // "op_svc_userid: 用户ID。当chargingMode为prePaid且使用SSH密钥方式登录云服务器时，该字段为必选字段"
            server["metadata"] = json{{"op_svc_userid", placement.userId}};
        }
    }
    if (!request.userData.empty()) {
        server["user_data"] = base64(request.userData);
    }
    server["count"] = 1;
    // The image's own system disk size; SSD is sold in every region (GPSSD where SSD is not is the doubt named in
    // the report).
    server["root_volume"] = json{{"volumetype", "SSD"}};
    server["publicip"] =
        json{{"eip",
              {{"iptype", "5_bgp"},
               {"bandwidth", {{"size", kBandwidthMbit}, {"sharetype", "PER"}, {"chargemode", "traffic"}}}}},
             {"delete_on_termination", true}};
    json serverTags = json::array();
    for (const auto& [key, value] : tags) {
        serverTags.push_back(json{{"key", key}, {"value", value}});
    }
    server["server_tags"] = serverTags;
    json extend{{"regionID", request.region}};
    if (prepaid) {
        extend["chargingMode"] = "prePaid";
        extend["periodType"] = periodType;
        extend["periodNum"] = periodNum;
        extend["isAutoRenew"] = request.autoRenew ? "true" : "false";
        // Paid at once from the balance; "false" leaves an unpaid order that starts nothing.
        extend["isAutoPay"] = "true";
    } else {
        extend["chargingMode"] = "postPaid";
        if (request.pricing == LaunchPricing::Spot) {
            extend["marketType"] = "spot";
            // "spotPrice: 用户愿意为竞价实例每小时支付的最高价格 ... 不传或者传空字符串表示按需价格为上限"
            if (request.spotPriceLimit > 0) {
                extend["spotPrice"] = spotPriceText(request.spotPriceLimit);
            }
        }
        if (request.terminateAt > 0) {
            // "auto_terminate_time: 定时删除时间 ... 按照ISO8601标准表示，并使用UTC +0时间，格式为yyyy-MM-ddTHH:mm:ssZ"
            server["auto_terminate_time"] = autoTerminateTime(request.terminateAt);
        }
    }
    server["extendparam"] = extend;
    c.body = json{{"server", server}, {"dry_run", request.dryRun}};
    return c;
}

Call showJobCall(const std::string& projectId, const std::string& jobId)
{
    return call(Service::Ecs, "ShowJob", "GET", "/v1/" + projectId + "/jobs/" + segment(jobId), true);
}

Call showServerCall(const std::string& projectId, const std::string& serverId)
{
    return call(Service::Ecs, "ShowServer", "GET", "/v1/" + projectId + "/cloudservers/" + segment(serverId), true);
}

Call listServersCall(const std::string& projectId, int page)
{
    // offset is a page number from 1 (ListServersDetails); the tags filter is not used: it matches whole tags, and we
    // look for the key whatever its value, so the servers are listed and filtered here.
    Call c = call(Service::Ecs, "ListServersDetails", "GET", "/v1/" + projectId + "/cloudservers/detail", true);
    c.query = {{"limit", std::to_string(kPageLimit)}, {"offset", std::to_string(std::max(1, page))}};
    return c;
}

Call deleteServersCall(const std::string& projectId, const std::string& serverId)
{
    // Both flags default to false: the EIP and disks bought with the server would stay and bill.
    Call c = call(Service::Ecs, "DeleteServers", "POST", "/v1/" + projectId + "/cloudservers/delete", true);
    c.body =
        json{{"servers", json::array({json{{"id", serverId}}})}, {"delete_publicip", true}, {"delete_volume", true}};
    return c;
}

namespace {

// One product of a BSS rating, as core/prices/HuaweiPrices.cpp asks it: a Linux server of the flavor in the region.
json ratedProduct(const std::string& region, const std::string& flavor)
{
    return json{{"id", "1"},
                {"cloud_service_type", "hws.service.type.ec2"},
                {"resource_type", "hws.resource.type.vm"},
                {"resource_spec", flavor + ".linux"},
                {"region", region},
                {"subscription_num", 1}};
}

} // namespace

Call onDemandRatingCall(const std::string& projectId, const std::string& region, const std::string& flavor)
{
    Call c = call(Service::Bss, "ListOnDemandResourceRatings", "POST", "/v2/bills/ratings/on-demand-resources", true);
    json product = ratedProduct(region, flavor);
    product["usage_factor"] = "Duration";
    product["usage_value"] = 1;
    product["usage_measure_id"] = 4; // hours
    c.body = json{{"project_id", projectId}, {"product_infos", json::array({product})}};
    return c;
}

Call periodRatingCall(const std::string& projectId, const std::string& region, const std::string& flavor, int months)
{
    Call c =
        call(Service::Bss, "ListRateOnPeriodDetail", "POST", "/v2/bills/ratings/period-resources/subscribe-rate", true);
    json product = ratedProduct(region, flavor);
    const bool years = months >= 12 && months % 12 == 0;
    product["period_type"] = years ? 3 : 2; // 2 month, 3 year
    product["period_num"] = years ? months / 12 : months;
    c.body = json{{"project_id", projectId}, {"product_infos", json::array({product})}};
    return c;
}

Result<std::optional<double>> parseOnDemandRating(std::string_view body)
{
    Result<json> doc = JsonAnswer{kProvider, "ListOnDemandResourceRatings"}.document(body);
    if (!doc) {
        return doc.error();
    }
    const std::map<std::string, double> byId = parseHuaweiRatings(*doc);
    const auto found = byId.find("1");
    return found == byId.end() ? std::optional<double>() : std::optional<double>(found->second);
}

Result<std::optional<double>> parsePeriodRating(std::string_view body)
{
    Result<json> doc = JsonAnswer{kProvider, "ListRateOnPeriodDetail"}.document(body);
    if (!doc) {
        return doc.error();
    }
    return huaweiYuan(doc->value("official_website_rating_result", json::object()));
}

// ---- Parsers.

std::map<std::string, std::string> parseProjectIdSetting(const std::string& text)
{
    const auto trimmed = [](std::string part) {
        const auto first = part.find_first_not_of(" \t");
        const auto last = part.find_last_not_of(" \t");
        return first == std::string::npos ? std::string() : part.substr(first, last - first + 1);
    };
    std::map<std::string, std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string part = trimmed(text.substr(start, comma - start));
        if (!part.empty()) {
            const std::size_t colon = part.find(':');
            if (colon == std::string::npos) {
                out[""] = part;
            } else {
                out[trimmed(part.substr(0, colon))] = trimmed(part.substr(colon + 1));
            }
        }
        start = comma + 1;
    }
    return out;
}

Result<std::string> parseProjects(std::string_view body, const std::string& region)
{
    const JsonAnswer answer{kProvider, "KeystoneListProjects"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "projects");
    if (!list) {
        return list.error();
    }
    for (const json& project : *list) {
        if (text(project, "name") == region && !text(project, "id").empty()) {
            return text(project, "id");
        }
    }
    return Error{ErrorCode::NotFound, Reason{"error.huawei.no_project", {{"region", region}}}, "huawei " + region};
}

Result<std::string> parseAccessKeyUser(std::string_view body)
{
    const JsonAnswer answer{kProvider, "ShowPermanentAccessKey"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> credential = objectOf(answer, *doc, "credential");
    if (!credential) {
        return credential.error();
    }
    const std::string user = text(*credential, "user_id");
    if (user.empty()) {
        return answer.refused("error.answer.missing", {{"field", "credential.user_id"}});
    }
    return user;
}

Result<std::vector<Zone>> parseZones(std::string_view body)
{
    const JsonAnswer answer{kProvider, "NovaListAvailabilityZones"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "availabilityZoneInfo");
    if (!list) {
        return list.error();
    }
    std::vector<Zone> zones;
    for (const json& item : *list) {
        Zone zone{text(item, "zoneName"), false};
        const json state = item.is_object() ? item.value("zoneState", json::object()) : json::object();
        zone.available = state.is_object() && state.value("available", false) == true;
        if (!zone.name.empty()) {
            zones.push_back(std::move(zone));
        }
    }
    return zones;
}

Result<std::vector<Flavor>> parseFlavors(std::string_view body)
{
    const JsonAnswer answer{kProvider, "ListFlavors"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "flavors");
    if (!list) {
        return list.error();
    }
    std::vector<Flavor> flavors;
    for (const json& item : *list) {
        Flavor flavor;
        flavor.id = text(item, "id");
        if (flavor.id.empty()) {
            return answer.refused("error.answer.missing", {{"field", "flavors[].id"}});
        }
        flavor.name = text(item, "name");
        flavor.vcpus = text(item, "vcpus");
        flavor.ramMb = integer(item, "ram");
        const json specs = item.value("os_extra_specs", json::object());
        flavor.status = text(specs, "cond:operation:status");
        flavor.azStatus = text(specs, "cond:operation:az");
        flavor.spotStatus = text(specs, "cond:spot:operation:status");
        flavor.spotAz = text(specs, "cond:spot:operation:az");
        flavors.push_back(std::move(flavor));
    }
    return flavors;
}

std::vector<std::string> zonesOffering(const std::vector<Zone>& zones,
                                       const std::vector<Flavor>& flavors,
                                       const std::string& flavorId,
                                       bool spot)
{
    const auto found = std::find_if(
        flavors.begin(), flavors.end(), [&](const Flavor& f) { return f.id == flavorId || f.name == flavorId; });
    if (found == flavors.end()) {
        return {};
    }
    // "cond:operation:status ... normal：正常商用; abandon：下线; sellout：售罄; obt：公测; promotion：推荐"; the
    // per-AZ list "cond:operation:az" as "az(xx)" pairs; an AZ it does not list takes the global status.
    const std::string globalStatus = spot ? found->spotStatus : found->status;
    const std::string perZone = spot ? found->spotAz : found->azStatus;
    const auto sells = [](const std::string& status) {
        return status.empty() || status == "normal" || status == "promotion" || status == "obt";
    };
    std::map<std::string, std::string> byZone;
    std::size_t at = 0;
    while (at < perZone.size()) {
        const std::size_t comma = std::min(perZone.find(',', at), perZone.size());
        const std::string part = trim(perZone.substr(at, comma - at));
        const std::size_t open = part.find('(');
        if (open != std::string::npos && part.ends_with(")")) {
            byZone[trim(part.substr(0, open))] = part.substr(open + 1, part.size() - open - 2);
        }
        at = comma + 1;
    }
    // Spot needs the spot specs: a flavor without any is not sold as spot.
    if (spot && found->spotStatus.empty() && found->spotAz.empty()) {
        return {};
    }
    std::vector<std::string> out;
    for (const Zone& zone : zones) {
        if (!zone.available) {
            continue;
        }
        const auto listed = byZone.find(zone.name);
        const std::string status = listed != byZone.end() ? listed->second : globalStatus;
        if (listed == byZone.end() && !byZone.empty() && globalStatus.empty()) {
            continue; // a per-zone list that leaves the zone out, and no global status: not sold there
        }
        if (sells(status) && std::find(out.begin(), out.end(), zone.name) == out.end()) {
            out.push_back(zone.name);
        }
    }
    return out;
}

Result<std::vector<Image>> parseImages(std::string_view body)
{
    const JsonAnswer answer{kProvider, "ListImages"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "images");
    if (!list) {
        return list.error();
    }
    std::vector<Image> images;
    for (const json& item : *list) {
        Image image{text(item, "id"),
                    text(item, "name"),
                    text(item, "__platform"),
                    text(item, "created_at"),
                    text(item, "status")};
        if (!image.id.empty()) {
            images.push_back(std::move(image));
        }
    }
    return images;
}

std::optional<Image> newestGpuImage(const std::vector<Image>& images)
{
    const auto mentionsDriver = [](const Image& image) {
        std::string upper;
        for (char c : image.name) {
            upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        return contains(upper, "GPU") || contains(upper, "TESLA") || contains(upper, "NVIDIA")
               || contains(upper, "CUDA") || contains(image.name, "驱动");
    };
    std::optional<Image> best;
    for (const Image& image : images) {
        if (image.status == "active" && mentionsDriver(image) && (!best || image.createdAt > best->createdAt)) {
            best = image;
        }
    }
    return best;
}

Result<std::string> parseKeyPair(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> keypair = objectOf(answer, *doc, "keypair");
    if (!keypair) {
        return keypair.error();
    }
    const std::string name = text(*keypair, "name");
    if (name.empty()) {
        return answer.refused("error.answer.missing", {{"field", "keypair.name"}});
    }
    return name;
}

namespace {

Vpc vpcOf(const json& item)
{
    return Vpc{text(item, "id"), text(item, "name"), text(item, "cidr"), text(item, "status")};
}

Subnet subnetOf(const json& item)
{
    return Subnet{text(item, "id"),
                  text(item, "name"),
                  text(item, "cidr"),
                  text(item, "availability_zone"),
                  text(item, "vpc_id"),
                  text(item, "status")};
}

SecurityGroup groupOf(const json& item)
{
    SecurityGroup group{text(item, "id"), text(item, "name"), text(item, "vpc_id"), {}};
    const json rules = item.value("security_group_rules", json::array());
    if (rules.is_array()) {
        for (const json& r : rules) {
            group.rules.push_back(SecurityGroupRule{text(r, "direction"),
                                                    text(r, "ethertype"),
                                                    text(r, "protocol"),
                                                    integer(r, "port_range_min"),
                                                    integer(r, "port_range_max"),
                                                    text(r, "remote_ip_prefix"),
                                                    text(r, "action")});
        }
    }
    return group;
}

} // namespace

Result<std::vector<Vpc>> parseVpcs(std::string_view body)
{
    const JsonAnswer answer{kProvider, "ListVpcs"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "vpcs");
    if (!list) {
        return list.error();
    }
    std::vector<Vpc> vpcs;
    for (const json& item : *list) {
        Vpc vpc = vpcOf(item);
        if (vpc.id.empty()) {
            return answer.refused("error.answer.missing", {{"field", "vpcs[].id"}});
        }
        vpcs.push_back(std::move(vpc));
    }
    return vpcs;
}

Result<Vpc> parseVpc(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> item = objectOf(answer, *doc, "vpc");
    if (!item) {
        return item.error();
    }
    Vpc vpc = vpcOf(*item);
    if (vpc.id.empty()) {
        return answer.refused("error.answer.missing", {{"field", "vpc.id"}});
    }
    return vpc;
}

Result<std::vector<Subnet>> parseSubnets(std::string_view body)
{
    const JsonAnswer answer{kProvider, "ListSubnets"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "subnets");
    if (!list) {
        return list.error();
    }
    std::vector<Subnet> subnets;
    for (const json& item : *list) {
        Subnet subnet = subnetOf(item);
        if (subnet.id.empty()) {
            return answer.refused("error.answer.missing", {{"field", "subnets[].id"}});
        }
        subnets.push_back(std::move(subnet));
    }
    return subnets;
}

Result<Subnet> parseSubnet(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> item = objectOf(answer, *doc, "subnet");
    if (!item) {
        return item.error();
    }
    Subnet subnet = subnetOf(*item);
    if (subnet.id.empty()) {
        return answer.refused("error.answer.missing", {{"field", "subnet.id"}});
    }
    return subnet;
}

Result<std::vector<SecurityGroup>> parseSecurityGroups(std::string_view body)
{
    const JsonAnswer answer{kProvider, "ListSecurityGroups"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "security_groups");
    if (!list) {
        return list.error();
    }
    std::vector<SecurityGroup> groups;
    for (const json& item : *list) {
        SecurityGroup group = groupOf(item);
        if (group.id.empty()) {
            return answer.refused("error.answer.missing", {{"field", "security_groups[].id"}});
        }
        groups.push_back(std::move(group));
    }
    return groups;
}

Result<SecurityGroup> parseSecurityGroup(std::string_view body)
{
    const JsonAnswer answer{kProvider, "CreateSecurityGroup"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> item = objectOf(answer, *doc, "security_group");
    if (!item) {
        return item.error();
    }
    SecurityGroup group = groupOf(*item);
    if (group.id.empty()) {
        return answer.refused("error.answer.missing", {{"field", "security_group.id"}});
    }
    return group;
}

Result<std::string> parseSecurityGroupRule(std::string_view body)
{
    const JsonAnswer answer{kProvider, "CreateSecurityGroupRule"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> item = objectOf(answer, *doc, "security_group_rule");
    if (!item) {
        return item.error();
    }
    const std::string id = text(*item, "id");
    if (id.empty()) {
        return answer.refused("error.answer.missing", {{"field", "security_group_rule.id"}});
    }
    return id;
}

bool allowsSshFrom(const std::vector<SecurityGroupRule>& rules, const std::string& cidr)
{
    return std::any_of(rules.begin(), rules.end(), [&](const SecurityGroupRule& r) {
        // "action": allow or deny, on groups with rule priorities; absent on older answers (allow).
        if (r.direction != "ingress" || (!r.ethertype.empty() && r.ethertype != "IPv4") || r.remoteIpPrefix != cidr
            || (!r.action.empty() && r.action != "allow")) {
            return false;
        }
        const std::string protocol = lower(r.protocol);
        if (protocol.empty() || protocol == "any") {
            return true;
        }
        if (protocol != "tcp") {
            return false;
        }
        const bool anyPort = r.portMin == 0 && r.portMax == 0;
        return anyPort || (r.portMin <= 22 && r.portMax >= 22);
    });
}

Result<CreatedServers> parseCreateServers(std::string_view body)
{
    const JsonAnswer answer{kProvider, "CreateServers"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    CreatedServers created{text(*doc, "job_id"), {}, text(*doc, "order_id")};
    Result<json> ids = optionalList(answer, *doc, "serverIds");
    if (!ids) {
        return ids.error();
    }
    for (const json& id : *ids) {
        if (id.is_string() && !id.get<std::string>().empty()) {
            created.serverIds.push_back(id.get<std::string>());
        }
    }
    if (created.jobId.empty() && created.serverIds.empty()) {
        return answer.refused("error.answer.missing", {{"field", "job_id"}});
    }
    return created;
}

Result<Job> parseJob(std::string_view body)
{
    const JsonAnswer answer{kProvider, "ShowJob"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Job job{text(*doc, "status"), {}, text(*doc, "fail_reason"), text(*doc, "error_code")};
    if (job.status.empty()) {
        return answer.refused("error.answer.missing", {{"field", "status"}});
    }
    const json entities = doc->value("entities", json::object());
    const json subJobs = entities.is_object() ? entities.value("sub_jobs", json::array()) : json::array();
    if (!subJobs.is_array()) {
        return answer.refused("error.answer.not_list", {{"field", "entities.sub_jobs"}});
    }
    for (const json& sub : subJobs) {
        const json subEntities = sub.is_object() ? sub.value("entities", json::object()) : json::object();
        const std::string server = text(subEntities, "server_id");
        if (!server.empty()) {
            job.serverIds.push_back(server);
        }
        if (job.failReason.empty()) {
            job.failReason = text(sub, "fail_reason");
        }
        if (job.errorCode.empty()) {
            job.errorCode = text(sub, "error_code");
        }
    }
    // A single-server job may name its server on the job itself.
    if (const std::string server = text(entities, "server_id"); !server.empty() && job.serverIds.empty()) {
        job.serverIds.push_back(server);
    }
    return job;
}

namespace {

Result<Server> serverOf(const json& item, const std::string& region, const JsonAnswer& answer)
{
    Server server;
    RemoteInstance& instance = server.instance;
    instance.instanceId = text(item, "id");
    if (instance.instanceId.empty()) {
        return answer.refused("error.answer.missing", {{"field", "server.id"}});
    }
    instance.providerState = text(item, "status");
    instance.state = stateFromEcs(instance.providerState);
    instance.region = region;
    instance.zone = text(item, "OS-EXT-AZ:availability_zone");
    const json flavor = item.value("flavor", json::object());
    instance.instanceType = text(flavor, "id");
    const json addresses = item.value("addresses", json::object());
    if (addresses.is_object()) {
        for (const auto& [network, list] : addresses.items()) {
            if (!list.is_array()) {
                continue;
            }
            for (const json& address : list) {
                if (text(address, "OS-EXT-IPS:type") == "floating" && text(address, "version") != "6"
                    && instance.publicIp.empty()) {
                    instance.publicIp = text(address, "addr");
                }
            }
        }
    }
    const std::string launched = text(item, "OS-SRV-USG:launched_at");
    instance.launchedAt = parseIsoSeconds(text(item, "created"));
    if (!instance.launchedAt && !launched.empty()) {
        instance.launchedAt = parseIsoSeconds(launched);
    }
    const json metadata = item.value("metadata", json::object());
    const std::string charging = text(metadata, "charging_mode");
    server.charging = charging == "0"   ? ChargingMode::PostPaid
                      : charging == "1" ? ChargingMode::PrePaid
                      : charging == "2" ? ChargingMode::Spot
                                        : ChargingMode::Unknown;
    instance.pricingMode = server.charging == ChargingMode::PostPaid ? "on_demand"
                           : server.charging == ChargingMode::Spot   ? "spot"
                                                                     : "";
    // tags: ["key=value"] (and "key" alone for a tag without value).
    const json tags = item.value("tags", json::array());
    if (tags.is_array()) {
        const std::string prefix = std::string(kOwnerTagKey) + "=";
        for (const json& tag : tags) {
            if (tag.is_string() && tag.get<std::string>().starts_with(prefix)) {
                instance.clientToken = tag.get<std::string>().substr(prefix.size());
            }
        }
    }
    return server;
}

} // namespace

Result<Server> parseServer(std::string_view body, const std::string& region)
{
    const JsonAnswer answer{kProvider, "ShowServer"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> item = objectOf(answer, *doc, "server");
    if (!item) {
        return item.error();
    }
    return serverOf(*item, region, answer);
}

Result<ServersPage> parseServers(std::string_view body, const std::string& region)
{
    const JsonAnswer answer{kProvider, "ListServersDetails"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "servers");
    if (!list) {
        return list.error();
    }
    ServersPage page;
    page.count = integer(*doc, "count");
    for (const json& item : *list) {
        Result<Server> server = serverOf(item, region, answer);
        if (!server) {
            return server.error();
        }
        page.servers.push_back(std::move(server).value());
    }
    return page;
}

Result<std::string> parseDeleteServers(std::string_view body)
{
    const JsonAnswer answer{kProvider, "DeleteServers"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    const std::string job = text(*doc, "job_id");
    if (job.empty()) {
        return answer.refused("error.answer.missing", {{"field", "job_id"}});
    }
    return job;
}

InstanceState stateFromEcs(std::string_view status)
{
    if (status == "ACTIVE") {
        return InstanceState::Running;
    }
    if (status == "SHUTOFF") {
        return InstanceState::Stopped;
    }
    if (status == "DELETED" || status == "SOFT_DELETED") {
        return InstanceState::Terminated;
    }
    if (status == "ERROR") {
        return InstanceState::Failed;
    }
    return InstanceState::Pending; // BUILD, REBOOT, HARD_REBOOT, REBUILD, RESIZE, MIGRATING and states we do not know
}

// ---- Errors.

std::optional<ApiError> apiError(std::string_view body)
{
    json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        return std::nullopt;
    }
    const std::string requestId = text(doc, "request_id");
    if (doc.contains("error") && doc["error"].is_object()) {
        const json& e = doc["error"];
        std::string code = text(e, "code");
        if (code.empty()) {
            code = text(e, "error_code");
        }
        std::string message = text(e, "message");
        if (message.empty()) {
            message = text(e, "error_msg");
        }
        return ApiError{code, message, requestId.empty() ? text(e, "request_id") : requestId};
    }
    if (doc.contains("error_code") && doc["error_code"].is_string()) {
        return ApiError{text(doc, "error_code"), text(doc, "error_msg"), requestId};
    }
    // VPC v1: {"code": "VPC.0101", "message": "..."}.
    if (doc.contains("code") && doc["code"].is_string() && doc.contains("message")) {
        return ApiError{text(doc, "code"), text(doc, "message"), requestId};
    }
    // Nova: {"badRequest": {"message", "code": 400}}, {"itemNotFound": {...}}, {"conflictingRequest": {...}}.
    if (doc.size() == 1) {
        const std::string name = doc.begin().key(); // not items(): its proxy would be a temporary here
        const json& inner = doc.begin().value();
        if (inner.is_object() && inner.contains("message")) {
            const std::string code = inner.contains("code") && inner["code"].is_string() ? text(inner, "code") : name;
            return ApiError{code, text(inner, "message"), requestId};
        }
    }
    return std::nullopt;
}

std::string iamAction(const std::string& action)
{
    // source: the "权限和授权项" pages of each API (ECS ecs_06_0019, VPC vpc_api_0015, IMS ims_03_0606).
    static const std::map<std::string, std::string> actions{
        {"CreateServers", "ecs:cloudServers:create"},
        {"DeleteServers", "ecs:cloudServers:delete"},
        {"ShowServer", "ecs:cloudServers:get"},
        {"ListServersDetails", "ecs:cloudServers:list"},
        {"ShowJob", "ecs:cloudServers:get"},
        {"NovaListAvailabilityZones", "ecs:availabilityZones:list"},
        {"ListFlavors", "ecs:cloudServerFlavors:get"},
        {"NovaShowKeypair", "ecs:serverKeypairs:get"},
        {"NovaCreateKeypair", "ecs:serverKeypairs:create"},
        {"ListVpcs", "vpc:vpcs:list"},
        {"ShowVpc", "vpc:vpcs:get"},
        {"CreateVpc", "vpc:vpcs:create"},
        {"ListSubnets", "vpc:subnets:get"},
        {"ShowSubnet", "vpc:subnets:get"},
        {"CreateSubnet", "vpc:subnets:create"},
        {"ListSecurityGroups", "vpc:securityGroups:get"},
        {"CreateSecurityGroup", "vpc:securityGroups:create"},
        {"CreateSecurityGroupRule", "vpc:securityGroupRules:create"},
        {"ListImages", "ims:images:list"},
        {"KeystoneListProjects", "iam:projects:listProjects"},
        {"ShowPermanentAccessKey", "iam:credentials:getCredential"},
    };
    const auto found = actions.find(action);
    return found == actions.end() ? std::string() : found->second;
}

namespace {

// The system policy that grants an IAM action ("ECS FullAccess").
std::string systemPolicyFor(const std::string& iam)
{
    if (iam.starts_with("vpc:")) {
        return "VPC FullAccess";
    }
    if (iam.starts_with("ims:")) {
        return "IMS FullAccess";
    }
    if (iam.starts_with("iam:")) {
        return "IAM ReadOnlyAccess";
    }
    return "ECS FullAccess";
}

// Whether Huawei's words say the flavor is sold out or short of resources in the zone.
bool saysSoldOut(const std::string& code, const std::string& message)
{
    const std::string m = lower(message);
    // wire: Huawei's own words in its messages, matched here and never shown
    return code == "Ecs.0018" || code == "Ecs.0319" || code == "Ecs.0044" || contains(m, "sold out")
           || contains(m, "sellout") || contains(m, "soldout") || contains(m, "insufficient resource")
           || contains(m, "resources are insufficient") || contains(m, "resource is insufficient")
           || contains(m, "no valid host") || contains(message, "售罄") || contains(message, "资源不足");
}

bool saysRealName(const std::string& message)
{
    const std::string m = lower(message);
    // wire: Huawei's own words in its messages, matched here and never shown
    return contains(m, "real-name") || contains(m, "real name") || contains(m, "realname") || contains(message, "实名");
}

// Huawei's words naming the missing IAM action: "Policy doesn't allow ecs:cloudServers:create to be performed."
std::string actionFromPolicyMessage(const std::string& message)
{
    const std::string marker = "allow ";
    const std::size_t at = message.find(marker);
    if (at == std::string::npos) {
        return {};
    }
    const std::size_t start = at + marker.size();
    const std::size_t end = message.find(' ', start);
    std::string action = message.substr(start, end == std::string::npos ? std::string::npos : end - start);
    return std::count(action.begin(), action.end(), ':') == 2 ? action : std::string();
}

} // namespace

std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context)
{
    if (response.status >= 200 && response.status < 300) {
        return std::nullopt;
    }
    const std::string where = std::string(serviceName(context.service)) + " " + context.action
                              + (context.region.empty() ? "" : " in " + context.region);
    std::optional<ApiError> api = apiError(response.body);
    if (!api) {
        if (response.status == 429) {
            return Error{ErrorCode::Throttled,
                         Reason{"error.huawei.throttled", {{"action", context.action}}},
                         where,
                         response.status};
        }
        if (response.status == 404) {
            return Error{ErrorCode::NotFound,
                         Reason{"error.huawei.not_found", {{"action", context.action}}},
                         where,
                         response.status};
        }
        return Error{ErrorCode::HttpStatus,
                     Reason{"error.huawei.http_status",
                            {{"status", std::to_string(response.status)}, {"action", context.action}}},
                     where,
                     response.status};
    }

    const std::string& code = api->code;
    const std::string said = lower(api->message);
    Reason reason{{}, {{"code", code}, {"action", context.action}}};
    const auto add = [&reason](const char* name, const std::string& value) {
        if (!value.empty()) {
            reason.params[name] = value;
        }
    };
    add("said", api->message);
    add("request_id", api->requestId);
    ErrorCode mapped = ErrorCode::ProviderRefused;
    // The codes are those of the ECS error code table (错误码,
    // https://support.huaweicloud.com/api-ecs/ecs_07_0002.html) and the API gateway's
    // (https://support.huaweicloud.com/devg-apisign/api-sign-errorcode.html); the messages catch the same refusals from
    // VPC, IMS and IAM, whose codes differ.
    const auto is = [&code](std::initializer_list<const char*> codes) {
        return std::any_of(codes.begin(), codes.end(), [&code](const char* c) { return code == c; });
    };
    // wire: Huawei's own words in its messages, matched here and never shown
    const bool throttled = response.status == 429 || is({"APIGW.0308", "Common.0024"}) || contains(said, "throttl")
                           || contains(said, "too many requests") || contains(said, "flow over limit");
    // wire: Huawei's own words in its messages, matched here and never shown
    const bool notSold =
        is({"Ecs.0029", "Ecs.0016"}) || contains(said, "abandon")
        || (contains(said, "flavor")
            && (contains(said, "not exist") || contains(said, "not found") || contains(said, "not support")));
    // wire: Huawei's own words in its messages, matched here and never shown
    const bool restricted = is({"Ecs.0003", "Ecs.0030"}) || contains(said, "arrears") || contains(said, "op_suspended")
                            || contains(said, "frozen");
    // wire: Huawei's own words in its messages, matched here and never shown
    const bool balance = is({"Ecs.0067", "Ecs.7000"}) || contains(said, "insufficient account balance");
    // wire: Huawei's own words in its messages, matched here and never shown
    const bool policy = is({"Pdp.0001", "Ecs.0110", "APIGW.0302"}) || contains(said, "policy doesn't allow")
                        || contains(said, "not authorized")
                        || (response.status == 403 && !code.starts_with("APIGW") && !code.starts_with("Ecs"));
    // wire: Huawei's own words in its messages, matched here and never shown
    const bool expired = contains(said, "expire") || contains(said, "x-sdk-date") || contains(said, "timestamp")
                         || contains(said, "request time");
    const bool authFailed = is({"APIGW.0301", "APIGW.0303", "APIGW.0305"}) || response.status == 401;

    if (throttled) {
        mapped = ErrorCode::Throttled;
        reason.key = "error.huawei.throttled";
    } else if (code == "Ecs.0066" || saysRealName(api->message)) {
        reason.key = "error.huawei.real_name_required";
    } else if (is({"Ecs.0023", "Common.0018"})) {
        reason.key = "error.huawei.project_mismatch";
        add("region", context.region);
    } else if (saysSoldOut(code, api->message)) {
        mapped = ErrorCode::InsufficientCapacity;
        reason.key = "error.huawei.sold_out";
        add("instance_type", context.instanceType);
        add("zone", context.zone);
    } else if (notSold) {
        reason.key = "error.huawei.flavor_not_sold";
        add("instance_type", context.instanceType);
        add("region", context.region);
    } else if (is({"Ecs.0001", "Ecs.0013", "Ecs.0021"}) || contains(said, "quota")) {
        mapped = ErrorCode::QuotaExceeded;
        reason.key = code == "Ecs.0013" ? "error.huawei.eip_quota" : "error.huawei.quota";
        add("instance_type", context.instanceType);
        add("region", context.region);
    } else if (balance) {
        reason.key = "error.huawei.balance_insufficient";
    } else if (restricted) {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.huawei.account_restricted";
        add("iam_action", iamAction(context.action));
    } else if (policy) {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.huawei.permission_missing";
        std::string iam = actionFromPolicyMessage(api->message);
        if (iam.empty()) {
            iam = iamAction(context.action);
        }
        add("iam_action", iam);
        add("policy", systemPolicyFor(iam));
    } else if (authFailed && expired) {
        mapped = ErrorCode::ClockSkew;
        reason.key = "error.huawei.clock_skew";
    } else if (authFailed) {
        mapped = ErrorCode::Credentials;
        reason.key = "error.huawei.key_refused";
    } else if (response.status == 404 || code == "Ecs.0114" || code == "itemNotFound" || code.ends_with(".NotFound")) {
        mapped = ErrorCode::NotFound;
        reason.key = "error.huawei.not_found";
    } else {
        reason.key = "error.huawei.refused";
    }
    return Error{mapped, std::move(reason), where, response.status, code};
}

Error jobFailure(const Job& job, const ErrorContext& context)
{
    HttpResponse asAnswer;
    asAnswer.status = 400;
    json doc{{"error", {{"code", job.errorCode}, {"message", job.failReason}}}};
    asAnswer.body = doc.dump(-1, ' ', false, json::error_handler_t::replace);
    ErrorContext c = context;
    c.action = "ShowJob";
    std::optional<Error> error = mapError(asAnswer, c);
    Error out = *error; // a 400 always maps
    out.httpStatus = 0;
    if (out.reason.key == "error.huawei.refused" || out.reason.key == "error.huawei.http_status") {
        out.reason.key = "error.huawei.job_failed";
    }
    return out;
}

} // namespace gpuplan::core::huawei
