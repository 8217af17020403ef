// EC2's Query API as GPU Planner uses it: each action's request, its documented XML answer's parser, and the error
// mapping with its advice. Longer than 600 lines on purpose: it is one wire format, and the request builders, the
// parsers and the codes they share are read and checked against the SDK together (TestEc2Wire).

#include "gpuplan/cloud/providers/aws/Ec2Api.h"

#include <algorithm>
#include <cctype>

#include <pugixml.hpp>

#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

namespace gpuplan::core::ec2 {

namespace {

std::string trimmed(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
    }
    return std::string(text);
}

std::string text(const pugi::xml_node& node, const char* child)
{
    return trimmed(node.child(child).text().get());
}

// An answer that is not what EC2 documents: `key` says what is wrong with it, `params` the details (the action is
// added as "action").
Error malformed(const std::string& action, const char* key, std::map<std::string, std::string> params = {})
{
    params["action"] = action;
    return Error{ErrorCode::ProviderRefused, Reason{key, std::move(params)}, "ec2 " + action};
}

// Loads `body` and checks its root element; the document stays in `doc`.
Result<pugi::xml_node> loadRoot(pugi::xml_document& doc, std::string_view body, const std::string& action)
{
    const pugi::xml_parse_result parsed = doc.load_buffer(body.data(), body.size());
    if (!parsed) {
        return malformed(action,
                         "error.ec2.answer_not_xml",
                         {{"said", parsed.description()}, {"byte", std::to_string(parsed.offset)}});
    }
    const std::string expected = action + "Response";
    pugi::xml_node root = doc.document_element();
    if (expected != root.name()) {
        return malformed(action, "error.ec2.answer_wrong_root", {{"root", root.name()}, {"expected", expected}});
    }
    return root;
}

void addFilter(Params& params, int index, const std::string& name, const std::vector<std::string>& values)
{
    const std::string prefix = "Filter." + std::to_string(index);
    params.emplace_back(prefix + ".Name", name);
    for (std::size_t i = 0; i < values.size(); ++i) {
        params.emplace_back(prefix + ".Value." + std::to_string(i + 1), values[i]);
    }
}

RemoteInstance instanceFrom(const pugi::xml_node& item, const std::string& region)
{
    RemoteInstance out;
    out.instanceId = text(item, "instanceId");
    out.region = region;
    out.instanceType = text(item, "instanceType");
    out.providerState = text(item.child("instanceState"), "name");
    out.state = stateFromEc2(out.providerState);
    out.zone = text(item.child("placement"), "availabilityZone");
    out.publicIp = text(item, "ipAddress");
    out.clientToken = text(item, "clientToken");
    if (out.clientToken.empty()) {
        for (const pugi::xml_node tag : item.child("tagSet").children("item")) {
            if (text(tag, "key") == kOwnerTagKey) {
                out.clientToken = text(tag, "value");
            }
        }
    }
    out.launchedAt = parseIsoSeconds(text(item, "launchTime"));
    // instanceLifecycle is "spot" or "capacity-block", absent for an on-demand instance (API_Instance.html).
    const std::string lifecycle = text(item, "instanceLifecycle");
    out.pricingMode = lifecycle.empty() ? "on_demand" : lifecycle == "spot" ? "spot" : "";
    return out;
}

// The instance family: the letters before the generation digit ("g5.xlarge" -> "g", "vt1" -> "vt",
// "inf2" -> "inf", "p4de" -> "p").
std::string familyOf(const std::string& instanceType)
{
    std::string family;
    for (char c : instanceType) {
        if (!std::isalpha(static_cast<unsigned char>(c))) {
            break;
        }
        family += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return family;
}

// EC2's own message ("said") and the request id that AWS Support asks for ("request_id"), worded after the advice.
Reason withRequestId(Reason reason, const ApiError& error)
{
    if (!error.message.empty()) {
        reason.params["said"] = error.message;
    }
    if (!error.requestId.empty()) {
        reason.params["request_id"] = error.requestId;
    }
    return reason;
}

} // namespace

std::string endpointFor(const std::string& region)
{
    if (region.starts_with("cn-")) {
        return "https://ec2." + region + ".amazonaws.com.cn/";
    }
    return "https://ec2." + region + ".amazonaws.com/";
}

std::string formBody(const Call& call)
{
    std::string body = "Action=" + uriEncode(call.action) + "&Version=" + std::string(kApiVersion);
    for (const auto& [name, value] : call.params) {
        body += "&" + uriEncode(name) + "=" + uriEncode(value);
    }
    return body;
}

HttpRequest buildRequest(const std::string& baseUrl, const Call& call)
{
    HttpRequest request;
    request.method = "POST";
    request.url = baseUrl;
    if (request.url.find('/', request.url.find("//") + 2) == std::string::npos) {
        request.url += "/";
    }
    request.body = formBody(call);
    request.headers.push_back({"Content-Type", std::string(kContentType)});
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
    std::string name = "gpuplanner-ssh-" + cidr;
    std::replace(name.begin() + 15, name.end(), '.', '-');
    std::replace(name.begin() + 15, name.end(), '/', '-');
    return name;
}

Call describeImagesCall(const std::string& namePattern)
{
    Call call{"DescribeImages", {}, true};
    call.params.emplace_back("Owner.1", "amazon");
    addFilter(call.params, 1, "name", {namePattern});
    addFilter(call.params, 2, "state", {"available"});
    addFilter(call.params, 3, "architecture", {"x86_64"});
    return call;
}

Call describeKeyPairsCall(const std::string& keyName)
{
    return Call{"DescribeKeyPairs", {{"KeyName.1", keyName}}, true};
}

Call importKeyPairCall(const std::string& keyName, const std::string& sshPublicKey, bool dryRun)
{
    Call call{"ImportKeyPair", {{"KeyName", keyName}, {"PublicKeyMaterial", base64(trimmed(sshPublicKey))}}, false};
    if (dryRun) {
        call.params.emplace_back("DryRun", "true");
    }
    return call;
}

Call describeSecurityGroupsCall(const std::string& groupName)
{
    Call call{"DescribeSecurityGroups", {}, true};
    addFilter(call.params, 1, "group-name", {groupName});
    return call;
}

Call createSecurityGroupCall(const std::string& groupName, const std::string& cidr, bool dryRun)
{
    // wire: the group's description, stored in the user's EC2 account (EC2 takes ASCII only)
    Call call{"CreateSecurityGroup",
              {{"GroupName", groupName}, {"GroupDescription", "GPU Planner: SSH from one address (" + cidr + ")"}},
              false};
    if (dryRun) {
        call.params.emplace_back("DryRun", "true");
    }
    return call;
}

Call authorizeSshCall(const std::string& groupId, const std::string& cidr, bool dryRun)
{
    // wire: the rule's description, stored in the user's EC2 account
    Call call{"AuthorizeSecurityGroupIngress",
              {{"GroupId", groupId},
               {"IpPermissions.1.IpProtocol", "tcp"},
               {"IpPermissions.1.FromPort", "22"},
               {"IpPermissions.1.ToPort", "22"},
               {"IpPermissions.1.IpRanges.1.CidrIp", cidr},
               {"IpPermissions.1.IpRanges.1.Description", "GPU Planner SSH"}},
              false};
    if (dryRun) {
        call.params.emplace_back("DryRun", "true");
    }
    return call;
}

Result<Call> runInstancesCall(const LaunchRequest& request,
                              const std::string& imageId,
                              const std::string& keyName,
                              const std::string& groupId)
{
    if (request.pricing == LaunchPricing::Subscription) {
        return Error{ErrorCode::ProviderRefused, Reason{"error.ec2.no_subscription", {}}, "pricing"};
    }
    if (request.clientToken.empty() || request.clientToken.size() > 64
        || !std::all_of(request.clientToken.begin(), request.clientToken.end(), [](char c) {
               return static_cast<unsigned char>(c) >= 0x21 && static_cast<unsigned char>(c) < 0x7f;
           })) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.ec2.client_token_invalid", {}}, "clientToken"};
    }
    if (request.instanceType.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.provider.no_instance_type", {}}, "instanceType"};
    }
    Call call{"RunInstances", {}, true};
    call.params.emplace_back("ImageId", imageId);
    call.params.emplace_back("InstanceType", request.instanceType);
    call.params.emplace_back("MinCount", "1");
    call.params.emplace_back("MaxCount", "1");
    call.params.emplace_back("KeyName", keyName);
    if (!groupId.empty()) {
        call.params.emplace_back("SecurityGroupId.1", groupId);
    }
    if (!request.userData.empty()) {
        std::string encoded = base64(request.userData);
        if (encoded.size() > kMaxUserDataBytes) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.ec2.user_data_too_big", {{"bytes", std::to_string(encoded.size())}}},
                         "userData"};
        }
        call.params.emplace_back("UserData", std::move(encoded));
    }
    call.params.emplace_back("ClientToken", request.clientToken);
    call.params.emplace_back("InstanceInitiatedShutdownBehavior", "terminate");
    if (!request.zone.empty()) {
        call.params.emplace_back("Placement.AvailabilityZone", request.zone);
    }
    call.params.emplace_back("TagSpecification.1.ResourceType", "instance");
    std::vector<std::pair<std::string, std::string>> tags{
        {std::string(kOwnerTagKey), request.clientToken},
        {"Name", "gpuplanner-" + request.clientToken.substr(0, std::min<std::size_t>(8, request.clientToken.size()))}};
    for (const auto& tag : request.tags) {
        if (tag.first != kOwnerTagKey && tag.first != "Name") {
            tags.push_back(tag);
        }
    }
    for (std::size_t i = 0; i < tags.size(); ++i) {
        const std::string prefix = "TagSpecification.1.Tag." + std::to_string(i + 1);
        call.params.emplace_back(prefix + ".Key", tags[i].first);
        call.params.emplace_back(prefix + ".Value", tags[i].second);
    }
    if (request.pricing == LaunchPricing::Spot) {
        call.params.emplace_back("InstanceMarketOptions.MarketType", "spot");
        call.params.emplace_back("InstanceMarketOptions.SpotOptions.SpotInstanceType", "one-time");
        call.params.emplace_back("InstanceMarketOptions.SpotOptions.InstanceInterruptionBehavior", "terminate");
        if (request.spotPriceLimit > 0) {
            // SpotMarketOptions.MaxPrice: "The maximum hourly price that you're willing to pay for a Spot Instance"
            // (a string, USD); without it the price is capped at the On-Demand price.
            call.params.emplace_back("InstanceMarketOptions.SpotOptions.MaxPrice",
                                     spotPriceText(request.spotPriceLimit));
        }
    }
    if (request.dryRun) {
        call.params.emplace_back("DryRun", "true");
    }
    return call;
}

Call describeInstanceCall(const std::string& instanceId)
{
    return Call{"DescribeInstances", {{"InstanceId.1", instanceId}}, true};
}

Call listOursCall(const std::string& nextToken)
{
    Call call{"DescribeInstances", {}, true};
    addFilter(call.params, 1, "tag-key", {std::string(kOwnerTagKey)});
    call.params.emplace_back("MaxResults", "1000");
    if (!nextToken.empty()) {
        call.params.emplace_back("NextToken", nextToken);
    }
    return call;
}

Call terminateCall(const std::string& instanceId)
{
    return Call{"TerminateInstances", {{"InstanceId.1", instanceId}}, true};
}

Call instanceTypeOfferingsCall(const std::string& instanceType, const std::string& nextToken)
{
    Call call{"DescribeInstanceTypeOfferings", {{"LocationType", "availability-zone"}}, true};
    addFilter(call.params, 1, "instance-type", {instanceType});
    if (!nextToken.empty()) {
        call.params.emplace_back("NextToken", nextToken);
    }
    return call;
}

Call spotPriceHistoryCall(const std::vector<std::string>& instanceTypes,
                          const std::string& zone,
                          const std::string& at,
                          const std::string& nextToken)
{
    Call call{"DescribeSpotPriceHistory", {}, true};
    for (std::size_t i = 0; i < instanceTypes.size(); ++i) {
        call.params.emplace_back("InstanceType." + std::to_string(i + 1), instanceTypes[i]);
    }
    call.params.emplace_back("ProductDescription.1", "Linux/UNIX");
    call.params.emplace_back("StartTime", at);
    call.params.emplace_back("EndTime", at);
    call.params.emplace_back("MaxResults", "1000");
    if (!zone.empty()) {
        call.params.emplace_back("AvailabilityZone", zone);
    }
    if (!nextToken.empty()) {
        call.params.emplace_back("NextToken", nextToken);
    }
    return call;
}

Result<std::vector<Image>> parseDescribeImages(std::string_view body)
{
    pugi::xml_document doc;
    Result<pugi::xml_node> root = loadRoot(doc, body, "DescribeImages");
    if (!root) {
        return root.error();
    }
    if (!root->child("imagesSet")) {
        return malformed("DescribeImages", "error.ec2.answer_missing", {{"element", "imagesSet"}});
    }
    std::vector<Image> out;
    for (const pugi::xml_node item : root->child("imagesSet").children("item")) {
        Image image{text(item, "imageId"),
                    text(item, "name"),
                    text(item, "creationDate"),
                    text(item, "imageState"),
                    text(item, "architecture")};
        if (image.imageId.empty()) {
            return malformed("DescribeImages", "error.ec2.answer_image_without_id");
        }
        out.push_back(std::move(image));
    }
    return out;
}

std::optional<Image> newestImage(const std::vector<Image>& images)
{
    std::optional<Image> best;
    for (const Image& image : images) {
        if (!image.state.empty() && image.state != "available") {
            continue;
        }
        if (!best || image.creationDate > best->creationDate) {
            best = image;
        }
    }
    return best;
}

Result<std::vector<KeyPair>> parseDescribeKeyPairs(std::string_view body)
{
    pugi::xml_document doc;
    Result<pugi::xml_node> root = loadRoot(doc, body, "DescribeKeyPairs");
    if (!root) {
        return root.error();
    }
    if (!root->child("keySet")) {
        return malformed("DescribeKeyPairs", "error.ec2.answer_missing", {{"element", "keySet"}});
    }
    std::vector<KeyPair> out;
    for (const pugi::xml_node item : root->child("keySet").children("item")) {
        KeyPair key{text(item, "keyName"), text(item, "keyPairId"), text(item, "keyFingerprint")};
        if (key.keyName.empty()) {
            return malformed("DescribeKeyPairs", "error.ec2.answer_key_pair_without_name");
        }
        out.push_back(std::move(key));
    }
    return out;
}

Result<KeyPair> parseImportKeyPair(std::string_view body)
{
    pugi::xml_document doc;
    Result<pugi::xml_node> root = loadRoot(doc, body, "ImportKeyPair");
    if (!root) {
        return root.error();
    }
    KeyPair key{text(*root, "keyName"), text(*root, "keyPairId"), text(*root, "keyFingerprint")};
    if (key.keyName.empty()) {
        return malformed("ImportKeyPair", "error.ec2.answer_missing", {{"element", "keyName"}});
    }
    return key;
}

Result<std::vector<SecurityGroup>> parseDescribeSecurityGroups(std::string_view body)
{
    pugi::xml_document doc;
    Result<pugi::xml_node> root = loadRoot(doc, body, "DescribeSecurityGroups");
    if (!root) {
        return root.error();
    }
    if (!root->child("securityGroupInfo")) {
        return malformed("DescribeSecurityGroups", "error.ec2.answer_missing", {{"element", "securityGroupInfo"}});
    }
    std::vector<SecurityGroup> out;
    for (const pugi::xml_node item : root->child("securityGroupInfo").children("item")) {
        SecurityGroup group{text(item, "groupId"), text(item, "groupName"), text(item, "vpcId"), {}};
        if (group.groupId.empty()) {
            return malformed("DescribeSecurityGroups", "error.ec2.answer_group_without_id");
        }
        for (const pugi::xml_node permission : item.child("ipPermissions").children("item")) {
            IngressRule rule;
            rule.protocol = text(permission, "ipProtocol");
            // Absent for "-1" (every protocol and port).
            rule.fromPort = permission.child("fromPort").text().as_int(-1);
            rule.toPort = permission.child("toPort").text().as_int(-1);
            for (const pugi::xml_node range : permission.child("ipRanges").children("item")) {
                rule.cidrs.push_back(text(range, "cidrIp"));
            }
            group.ingress.push_back(std::move(rule));
        }
        out.push_back(std::move(group));
    }
    return out;
}

bool allowsSshFrom(const SecurityGroup& group, const std::string& cidr)
{
    return std::any_of(group.ingress.begin(), group.ingress.end(), [&](const IngressRule& rule) {
        const bool everyProtocol = rule.protocol == "-1";
        const bool ssh =
            everyProtocol
            || ((rule.protocol == "tcp" || rule.protocol == "6") && rule.fromPort <= 22 && rule.toPort >= 22);
        return ssh && std::find(rule.cidrs.begin(), rule.cidrs.end(), cidr) != rule.cidrs.end();
    });
}

Result<std::string> parseCreateSecurityGroup(std::string_view body)
{
    pugi::xml_document doc;
    Result<pugi::xml_node> root = loadRoot(doc, body, "CreateSecurityGroup");
    if (!root) {
        return root.error();
    }
    std::string id = text(*root, "groupId");
    if (id.empty()) {
        return malformed("CreateSecurityGroup", "error.ec2.answer_missing", {{"element", "groupId"}});
    }
    return id;
}

Status parseAuthorizeSecurityGroupIngress(std::string_view body)
{
    pugi::xml_document doc;
    Result<pugi::xml_node> root = loadRoot(doc, body, "AuthorizeSecurityGroupIngress");
    if (!root) {
        return root.error();
    }
    if (text(*root, "return") != "true") {
        return malformed("AuthorizeSecurityGroupIngress", "error.ec2.ssh_rule_not_added");
    }
    return Ok{};
}

Result<std::vector<RemoteInstance>> parseRunInstances(std::string_view body, const std::string& region)
{
    pugi::xml_document doc;
    Result<pugi::xml_node> root = loadRoot(doc, body, "RunInstances");
    if (!root) {
        return root.error();
    }
    std::vector<RemoteInstance> out;
    for (const pugi::xml_node item : root->child("instancesSet").children("item")) {
        RemoteInstance instance = instanceFrom(item, region);
        if (instance.instanceId.empty()) {
            return malformed("RunInstances", "error.ec2.answer_instance_without_id");
        }
        out.push_back(std::move(instance));
    }
    if (out.empty()) {
        return malformed("RunInstances", "error.ec2.answer_without_instance");
    }
    return out;
}

Result<InstancesPage> parseDescribeInstances(std::string_view body, const std::string& region)
{
    pugi::xml_document doc;
    Result<pugi::xml_node> root = loadRoot(doc, body, "DescribeInstances");
    if (!root) {
        return root.error();
    }
    if (!root->child("reservationSet")) {
        return malformed("DescribeInstances", "error.ec2.answer_missing", {{"element", "reservationSet"}});
    }
    InstancesPage page;
    for (const pugi::xml_node reservation : root->child("reservationSet").children("item")) {
        for (const pugi::xml_node item : reservation.child("instancesSet").children("item")) {
            RemoteInstance instance = instanceFrom(item, region);
            if (instance.instanceId.empty()) {
                return malformed("DescribeInstances", "error.ec2.answer_instance_without_id");
            }
            page.instances.push_back(std::move(instance));
        }
    }
    page.nextToken = text(*root, "nextToken");
    return page;
}

Result<std::vector<StateChange>> parseTerminateInstances(std::string_view body)
{
    pugi::xml_document doc;
    Result<pugi::xml_node> root = loadRoot(doc, body, "TerminateInstances");
    if (!root) {
        return root.error();
    }
    std::vector<StateChange> out;
    for (const pugi::xml_node item : root->child("instancesSet").children("item")) {
        out.push_back({text(item, "instanceId"), text(item.child("currentState"), "name")});
    }
    if (out.empty()) {
        return malformed("TerminateInstances", "error.ec2.answer_without_instance");
    }
    return out;
}

Result<OfferingsPage> parseInstanceTypeOfferings(std::string_view body)
{
    pugi::xml_document doc;
    Result<pugi::xml_node> root = loadRoot(doc, body, "DescribeInstanceTypeOfferings");
    if (!root) {
        return root.error();
    }
    if (!root->child("instanceTypeOfferingSet")) {
        return malformed(
            "DescribeInstanceTypeOfferings", "error.ec2.answer_missing", {{"element", "instanceTypeOfferingSet"}});
    }
    OfferingsPage page;
    for (const pugi::xml_node item : root->child("instanceTypeOfferingSet").children("item")) {
        std::string location = text(item, "location");
        if (location.empty()) {
            return malformed("DescribeInstanceTypeOfferings", "error.ec2.answer_offering_without_location");
        }
        page.zones.push_back(std::move(location));
    }
    page.nextToken = text(*root, "nextToken");
    return page;
}

InstanceState stateFromEc2(std::string_view name)
{
    if (name == "running") {
        return InstanceState::Running;
    }
    if (name == "shutting-down" || name == "stopping") {
        return InstanceState::Stopping;
    }
    if (name == "stopped") {
        return InstanceState::Stopped;
    }
    if (name == "terminated") {
        return InstanceState::Terminated;
    }
    return InstanceState::Pending;
}

std::optional<ApiError> parseError(std::string_view body)
{
    pugi::xml_document doc;
    if (!doc.load_buffer(body.data(), body.size())) {
        return std::nullopt;
    }
    const pugi::xml_node root = doc.document_element();
    if (std::string_view(root.name()) != "Response") {
        return std::nullopt;
    }
    const pugi::xml_node error = root.child("Errors").child("Error");
    ApiError out{text(error, "Code"), text(error, "Message"), text(root, "RequestID")};
    if (out.code.empty()) {
        return std::nullopt;
    }
    return out;
}

std::string quotaNameFor(const std::string& instanceType, bool spot)
{
    // Service Quotas console -> Amazon EC2; names as AWS lists them
    // (https://docs.aws.amazon.com/ec2/latest/instancetypes/ec2-instance-quotas.html).
    const std::string family = familyOf(instanceType);
    std::string group;
    if (family == "p") {
        group = "P";
    } else if (family == "g" || family == "vt") {
        // wire: the quota's name as Service Quotas lists it
        group = "G and VT";
    } else if (family == "inf") {
        group = "Inf";
    } else if (family == "dl") {
        group = "DL";
    } else if (family == "trn") {
        group = "Trn";
    } else if (family == "f") {
        group = "F";
    } else if (family == "x") {
        group = "X";
    } else {
        group = "Standard (A, C, D, H, I, M, R, T, Z)";
    }
    // wire: the quota's name as Service Quotas lists it
    return spot ? "All " + group + " Spot Instance Requests" : "Running On-Demand " + group + " instances";
}

Error mapError(const HttpResponse& response, const ErrorContext& context)
{
    const std::string where = "ec2 " + context.action + (context.region.empty() ? "" : " in " + context.region);
    const std::optional<ApiError> parsed = parseError(response.body);
    if (!parsed) {
        Error error{ErrorCode::HttpStatus,
                    Reason{"error.ec2.http_status_without_document",
                           {{"action", context.action}, {"status", std::to_string(response.status)}}},
                    where,
                    response.status};
        if (response.status >= 200 && response.status < 300) {
            error.code = ErrorCode::ProviderRefused;
        }
        return error;
    }
    const ApiError& api = *parsed;
    const std::string& code = api.code;
    // Empty values are left out: the wording then says "this instance type", "the chosen zone", "this region".
    std::map<std::string, std::string> about;
    const auto add = [&about](const char* name, const std::string& value) {
        if (!value.empty()) {
            about[name] = value;
        }
    };
    add("instance_type", context.instanceType);
    add("zone", context.zone);
    add("region", context.region);
    Error error{ErrorCode::ProviderRefused, {}, where, response.status, code};
    if (code == "InsufficientInstanceCapacity" || code == "InsufficientCapacity" || code == "Unsupported"
        || code == "InsufficientHostCapacity") {
        error.code = ErrorCode::InsufficientCapacity;
        error.reason = Reason{"error.ec2.no_capacity", about};
    } else if (code == "VcpuLimitExceeded" || code == "InstanceLimitExceeded"
               || code == "MaxSpotInstanceCountExceeded") {
        const bool spot = context.spot || code == "MaxSpotInstanceCountExceeded";
        error.code = ErrorCode::QuotaExceeded;
        error.reason = Reason{spot ? "error.ec2.spot_quota" : "error.ec2.on_demand_quota", about};
        error.reason.params["quota"] = quotaNameFor(context.instanceType, spot);
    } else if (code == "UnauthorizedOperation") {
        error.code = ErrorCode::PermissionDenied;
        error.reason = Reason{"error.ec2.permission_missing", {{"action", context.action}}};
    } else if (code == "AuthFailure" || code == "InvalidClientTokenId" || code == "SignatureDoesNotMatch"
               || code == "IncompleteSignature" || code == "MissingAuthenticationToken") {
        error.code = ErrorCode::Credentials;
        error.reason = Reason{"error.ec2.key_refused", {}};
    } else if (code == "OptInRequired") {
        error.code = ErrorCode::Credentials;
        error.reason = Reason{"error.ec2.opt_in_required", {}};
    } else if (code == "RequestExpired" || code == "RequestTimeTooSkewed") {
        error.code = ErrorCode::ClockSkew;
        error.reason = Reason{"error.ec2.clock_skew", {}};
    } else if (code == "RequestLimitExceeded" || code == "Throttling") {
        error.code = ErrorCode::Throttled;
        error.reason = Reason{"error.ec2.throttled", {}};
    } else if (code.ends_with(".NotFound")) {
        error.code = ErrorCode::NotFound;
        error.reason = Reason{"error.ec2.not_found", {{"code", code}}};
    } else if (code == "IdempotentParameterMismatch") {
        error.code = ErrorCode::ProviderRefused;
        error.reason = Reason{"error.ec2.client_token_reused", {}};
    } else {
        error.reason = Reason{"error.ec2.refused", {{"action", context.action}, {"code", code}}};
    }
    error.reason = withRequestId(std::move(error.reason), api);
    return error;
}

} // namespace gpuplan::core::ec2
