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

Error malformed(const std::string& action, const std::string& what)
{
    return Error{ErrorCode::ProviderRefused, "EC2 " + action + " answered " + what, "ec2 " + action};
}

// Loads `body` and checks its root element; the document stays in `doc`.
Result<pugi::xml_node> loadRoot(pugi::xml_document& doc, std::string_view body, const std::string& action)
{
    const pugi::xml_parse_result parsed = doc.load_buffer(body.data(), body.size());
    if (!parsed) {
        return malformed(action,
                         std::string("a body that is not XML (") + parsed.description() + " at byte "
                             + std::to_string(parsed.offset) + ")");
    }
    const std::string expected = action + "Response";
    pugi::xml_node root = doc.document_element();
    if (expected != root.name()) {
        return malformed(action, "<" + std::string(root.name()) + "> where <" + expected + "> was expected");
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

std::string withRequestId(std::string detail, const ApiError& error)
{
    if (!error.message.empty()) {
        detail += " (EC2 said: " + error.message + ")";
    }
    if (!error.requestId.empty()) {
        detail += "; request ID " + error.requestId + " (quote it to AWS Support)";
    }
    return detail;
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
        return Error{ErrorCode::ProviderRefused,
                     "EC2 does not support the subscription feature: it has no monthly rental of an instance; "
                     "Reserved Instances and Savings Plans are bought separately, for a term, in the console",
                     "pricing"};
    }
    if (request.clientToken.empty() || request.clientToken.size() > 64
        || !std::all_of(request.clientToken.begin(), request.clientToken.end(), [](char c) {
               return static_cast<unsigned char>(c) >= 0x21 && static_cast<unsigned char>(c) < 0x7f;
           })) {
        return Error{ErrorCode::InvalidArgument,
                     "EC2 needs a client token of 1 to 64 printable ASCII characters so that a retried launch never "
                     "starts a second instance",
                     "clientToken"};
    }
    if (request.instanceType.empty()) {
        return Error{ErrorCode::InvalidArgument, "no instance type", "instanceType"};
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
                         "the cloud-init script is " + std::to_string(encoded.size())
                             + " bytes once base64-encoded; EC2 takes at most 16384 (16 KB): shorten it or have it "
                               "download the rest",
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
        return malformed("DescribeImages", "no <imagesSet>");
    }
    std::vector<Image> out;
    for (const pugi::xml_node item : root->child("imagesSet").children("item")) {
        Image image{text(item, "imageId"),
                    text(item, "name"),
                    text(item, "creationDate"),
                    text(item, "imageState"),
                    text(item, "architecture")};
        if (image.imageId.empty()) {
            return malformed("DescribeImages", "an image without <imageId>");
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
        return malformed("DescribeKeyPairs", "no <keySet>");
    }
    std::vector<KeyPair> out;
    for (const pugi::xml_node item : root->child("keySet").children("item")) {
        KeyPair key{text(item, "keyName"), text(item, "keyPairId"), text(item, "keyFingerprint")};
        if (key.keyName.empty()) {
            return malformed("DescribeKeyPairs", "a key pair without <keyName>");
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
        return malformed("ImportKeyPair", "no <keyName>");
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
        return malformed("DescribeSecurityGroups", "no <securityGroupInfo>");
    }
    std::vector<SecurityGroup> out;
    for (const pugi::xml_node item : root->child("securityGroupInfo").children("item")) {
        SecurityGroup group{text(item, "groupId"), text(item, "groupName"), text(item, "vpcId"), {}};
        if (group.groupId.empty()) {
            return malformed("DescribeSecurityGroups", "a security group without <groupId>");
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
        return malformed("CreateSecurityGroup", "no <groupId>");
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
        return malformed("AuthorizeSecurityGroupIngress", "<return> other than true: the SSH rule was not added");
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
            return malformed("RunInstances", "an instance without <instanceId>");
        }
        out.push_back(std::move(instance));
    }
    if (out.empty()) {
        return malformed("RunInstances", "no instance in <instancesSet>");
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
        return malformed("DescribeInstances", "no <reservationSet>");
    }
    InstancesPage page;
    for (const pugi::xml_node reservation : root->child("reservationSet").children("item")) {
        for (const pugi::xml_node item : reservation.child("instancesSet").children("item")) {
            RemoteInstance instance = instanceFrom(item, region);
            if (instance.instanceId.empty()) {
                return malformed("DescribeInstances", "an instance without <instanceId>");
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
        return malformed("TerminateInstances", "no instance in <instancesSet>");
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
        return malformed("DescribeInstanceTypeOfferings", "no <instanceTypeOfferingSet>");
    }
    OfferingsPage page;
    for (const pugi::xml_node item : root->child("instanceTypeOfferingSet").children("item")) {
        std::string location = text(item, "location");
        if (location.empty()) {
            return malformed("DescribeInstanceTypeOfferings", "an offering without <location>");
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
    return spot ? "All " + group + " Spot Instance Requests" : "Running On-Demand " + group + " instances";
}

Error mapError(const HttpResponse& response, const ErrorContext& context)
{
    const std::string where = "ec2 " + context.action + (context.region.empty() ? "" : " in " + context.region);
    const std::optional<ApiError> parsed = parseError(response.body);
    if (!parsed) {
        Error error{ErrorCode::HttpStatus,
                    "EC2 " + context.action + " answered HTTP " + std::to_string(response.status)
                        + " without an EC2 error document",
                    where,
                    response.status};
        if (response.status >= 200 && response.status < 300) {
            error.code = ErrorCode::ProviderRefused;
        }
        return error;
    }
    const ApiError& api = *parsed;
    const std::string& code = api.code;
    const std::string type = context.instanceType.empty() ? "this instance type" : context.instanceType;
    const std::string zone = context.zone.empty() ? "the chosen zone" : context.zone;
    Error error{ErrorCode::ProviderRefused, {}, where, response.status, code};
    if (code == "InsufficientInstanceCapacity" || code == "InsufficientCapacity" || code == "Unsupported"
        || code == "InsufficientHostCapacity") {
        error.code = ErrorCode::InsufficientCapacity;
        error.detail = "no " + type + " free in " + zone + " now; GPU Planner tries the next zone";
    } else if (code == "VcpuLimitExceeded" || code == "InstanceLimitExceeded"
               || code == "MaxSpotInstanceCountExceeded") {
        const bool spot = context.spot || code == "MaxSpotInstanceCountExceeded";
        error.code = ErrorCode::QuotaExceeded;
        error.detail = "the account's " + std::string(spot ? "spot" : "on-demand") + " vCPU quota for " + type
                       + " is used up in " + (context.region.empty() ? "this region" : context.region)
                       + ": request more in the Service Quotas console -> AWS services -> Amazon Elastic Compute "
                         "Cloud (Amazon EC2) -> \""
                       + quotaNameFor(context.instanceType, spot)
                       + "\" (the quota counts vCPUs; ask for at least the vCPUs of " + type + ")";
    } else if (code == "UnauthorizedOperation") {
        error.code = ErrorCode::PermissionDenied;
        error.detail = "the credentials lack the IAM permission ec2:" + context.action
                       + "; add it to the user's or role's policy. The encoded message can be decoded with `aws sts "
                         "decode-authorization-message --encoded-message ...`";
    } else if (code == "AuthFailure" || code == "InvalidClientTokenId" || code == "SignatureDoesNotMatch"
               || code == "IncompleteSignature" || code == "MissingAuthenticationToken") {
        error.code = ErrorCode::Credentials;
        error.detail = "AWS refused the access key: check the access key ID and secret in the keychain (and that "
                       "the key is active in IAM)";
    } else if (code == "OptInRequired") {
        error.code = ErrorCode::Credentials;
        error.detail = "the account is not enabled for this region or service: enable the region under Account -> "
                       "AWS Regions (opt-in regions), or finish the account's sign-up";
    } else if (code == "RequestExpired" || code == "RequestTimeTooSkewed") {
        error.code = ErrorCode::ClockSkew;
        error.detail = "AWS refused the request's time: this computer's clock is off by more than 5 minutes; "
                       "turn on network time (NTP)";
    } else if (code == "RequestLimitExceeded" || code == "Throttling") {
        error.code = ErrorCode::Throttled;
        error.detail = "EC2 throttled the account's API requests; GPU Planner backed off and retried, wait a "
                       "minute and try again";
    } else if (code.ends_with(".NotFound")) {
        error.code = ErrorCode::NotFound;
        error.detail = "EC2 does not know it (" + code + ")";
    } else if (code == "IdempotentParameterMismatch") {
        error.code = ErrorCode::ProviderRefused;
        error.detail = "this launch's client token was already used for a launch with other parameters; EC2 keeps "
                       "the first one: see `gpuplan instances`, or start a new launch (a new token)";
    } else {
        error.detail = "EC2 refused " + context.action + " (" + code + ")";
    }
    error.detail = withRequestId(error.detail, api);
    return error;
}

} // namespace gpuplan::core::ec2
