// Azure Resource Manager's calls as GPU Planner uses them: each operation's request, its documented JSON answer's
// parser, and the error mapping with its advice. One wire format, read and checked against the SDK together.

#include "gpuplan/cloud/providers/azure/ArmApi.h"

#include "gpuplan/cloud/JsonAnswer.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gpuplan::core::azure {

namespace {

using json_answer::member;
using json_answer::text;
using json_answer::texts;
using nlohmann::json;

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

bool sameText(const std::string& a, const std::string& b)
{
    return lower(a) == lower(b);
}

bool contains(const std::string& text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

constexpr const char* kProvider = "azure";

// A member that must be a JSON object and is something else.
Error notAnObject(const JsonAnswer& answer, const char* field, const json& found)
{
    return answer.refused("error.answer.invalid", {{"field", field}, {"found", found.type_name()}});
}

std::string groupPath(const std::string& subscription, const std::string& region)
{
    return "/subscriptions/" + uriEncode(subscription) + "/resourceGroups/" + uriEncode(resourceGroupName(region));
}

Call call(const char* action, const char* method, std::string path, std::string_view apiVersion, bool safe)
{
    Call c;
    c.action = action;
    c.method = method;
    c.path = std::move(path);
    c.query.emplace_back("api-version", std::string(apiVersion));
    c.safeToRetry = safe;
    return c;
}

json groupTags()
{
    return json{{std::string(kGroupTagKey), "true"}};
}

json sshRuleProperties(const std::string& cidr)
{
    return json{{"protocol", "Tcp"},
                {"sourcePortRange", "*"},
                {"destinationPortRange", "22"},
                {"sourceAddressPrefix", cidr},
                {"destinationAddressPrefix", "*"},
                {"access", "Allow"},
                {"priority", kSshRulePriority},
                {"direction", "Inbound"},
                {"description", "SSH for GPU Planner"}}; // wire: stored in the user's account, shown in the portal
}

bool isVmNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
}

// A port range "22", "*", "20-30" holds 22.
bool holds22(const std::string& range)
{
    if (range == "*" || range == "22") {
        return true;
    }
    const std::size_t dash = range.find('-');
    if (dash == std::string::npos) {
        return false;
    }
    int from = 0;
    int to = 0;
    const auto a = std::from_chars(range.data(), range.data() + dash, from);
    const auto b = std::from_chars(range.data() + dash + 1, range.data() + range.size(), to);
    return a.ec == std::errc() && b.ec == std::errc() && from <= 22 && 22 <= to;
}

} // namespace

std::string armBase(const std::string& endpoint)
{
    std::string base = endpoint.empty() ? std::string(kArmHost) : endpoint;
    while (!base.empty() && base.back() == '/') {
        base.pop_back();
    }
    return base;
}

std::string loginBase(const std::string& endpoint)
{
    return endpoint.empty() ? std::string(kLoginHost) : armBase(endpoint);
}

std::string resourceGroupName(const std::string& region)
{
    return "gpuplanner-" + region;
}

std::string nsgName(const std::string& cidr)
{
    std::string name = "gpuplanner-ssh-";
    for (char c : cidr) {
        name += (c == '.' || c == '/' || c == ':') ? '-' : c;
    }
    return name;
}

std::string resourceGroupId(const std::string& subscription, const std::string& region)
{
    return "/subscriptions/" + subscription + "/resourceGroups/" + resourceGroupName(region);
}

std::string nsgId(const std::string& subscription, const std::string& region, const std::string& name)
{
    return resourceGroupId(subscription, region) + "/providers/Microsoft.Network/networkSecurityGroups/" + name;
}

std::string subnetId(const std::string& subscription, const std::string& region)
{
    return resourceGroupId(subscription, region) + "/providers/Microsoft.Network/virtualNetworks/"
           + std::string(kVnetName) + "/subnets/" + std::string(kSubnetName);
}

std::string ImageReference::text() const
{
    return id.empty() ? publisher + ":" + offer + ":" + sku + ":" + version : id;
}

Result<ImageReference> parseImage(const std::string& image)
{
    ImageReference ref;
    if (image.starts_with("/")) {
        ref.id = image;
        return ref;
    }
    std::vector<std::string> parts;
    std::size_t at = 0;
    for (;;) {
        const std::size_t colon = image.find(':', at);
        parts.push_back(image.substr(at, colon == std::string::npos ? std::string::npos : colon - at));
        if (colon == std::string::npos) {
            break;
        }
        at = colon + 1;
    }
    if (parts.size() != 4 || std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); })) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.azure.image_invalid", {{"image", image}}}, "image"};
    }
    ref.publisher = parts[0];
    ref.offer = parts[1];
    ref.sku = parts[2];
    ref.version = parts[3];
    return ref;
}

ImageReference defaultImage()
{
    return ImageReference{std::string(kImagePublisher), std::string(kImageOffer), std::string(kImageSku), "latest", {}};
}

std::string body(const Call& call)
{
    if (call.body.is_null()) {
        return {};
    }
    return call.body.dump(-1, ' ', false, json::error_handler_t::replace);
}

HttpRequest buildRequest(const Call& call, const std::string& endpoint)
{
    HttpRequest request;
    request.method = call.method;
    const bool absolute = call.path.starts_with("http://") || call.path.starts_with("https://");
    std::string url = absolute ? call.path : armBase(endpoint) + call.path;
    std::string query;
    for (const auto& [name, value] : call.query) {
        query += (query.empty() ? "" : "&") + name + "=" + uriEncode(value);
    }
    if (!query.empty()) {
        url += (url.find('?') == std::string::npos ? "?" : "&") + query;
    }
    request.url = std::move(url);
    request.setHeader("Accept", "application/json");
    if (!call.body.is_null()) {
        request.setHeader("Content-Type", "application/json");
        request.body = body(call);
    }
    request.safeToRetry = call.safeToRetry;
    return request;
}

bool isArmUrl(const std::string& url, const std::string& endpoint)
{
    const std::string base = armBase(endpoint);
    return url.size() > base.size() && lower(url.substr(0, base.size())) == lower(base)
           && (url[base.size()] == '/' || url[base.size()] == '?');
}

// ---- Calls.

Call listSubscriptionsCall()
{
    return call("Subscriptions_List", "GET", "/subscriptions", kSubscriptionsApiVersion, true);
}

Call listSkusCall(const std::string& subscription, const std::string& region)
{
    Call c = call("ResourceSkus_List",
                  "GET",
                  "/subscriptions/" + uriEncode(subscription) + "/providers/Microsoft.Compute/skus",
                  kSkusApiVersion,
                  true);
    c.query.emplace_back("$filter", "location eq '" + region + "'"); // wire: ARM's OData filter
    return c;
}

Call listImageVersionsCall(const std::string& subscription, const std::string& region, const ImageReference& image)
{
    Call c =
        call("VirtualMachineImages_List",
             "GET",
             "/subscriptions/" + uriEncode(subscription) + "/providers/Microsoft.Compute/locations/" + uriEncode(region)
                 + "/publishers/" + uriEncode(image.publisher) + "/artifacttypes/vmimage/offers/"
                 + uriEncode(image.offer) + "/skus/" + uriEncode(image.sku) + "/versions",
             kComputeApiVersion,
             true);
    c.query.emplace_back("$top", "1");
    c.query.emplace_back("$orderby", "name desc"); // wire: ARM's OData ordering
    return c;
}

Call putResourceGroupCall(const std::string& subscription, const std::string& region)
{
    Call c =
        call("ResourceGroups_CreateOrUpdate",
             "PUT",
             "/subscriptions/" + uriEncode(subscription) + "/resourcegroups/" + uriEncode(resourceGroupName(region)),
             kResourcesApiVersion,
             true);
    c.body = json{{"location", region}, {"tags", groupTags()}};
    return c;
}

Call getNsgCall(const std::string& subscription, const std::string& region, const std::string& name)
{
    return call("NetworkSecurityGroups_Get",
                "GET",
                groupPath(subscription, region) + "/providers/Microsoft.Network/networkSecurityGroups/"
                    + uriEncode(name),
                kNetworkApiVersion,
                true);
}

Call putNsgCall(const std::string& subscription,
                const std::string& region,
                const std::string& name,
                const std::string& cidr)
{
    Call c =
        call("NetworkSecurityGroups_CreateOrUpdate",
             "PUT",
             groupPath(subscription, region) + "/providers/Microsoft.Network/networkSecurityGroups/" + uriEncode(name),
             kNetworkApiVersion,
             true);
    c.body = json{{"location", region},
                  {"tags", groupTags()},
                  {"properties",
                   {{"securityRules",
                     json::array({{{"name", std::string(kSshRuleName)}, {"properties", sshRuleProperties(cidr)}}})}}}};
    return c;
}

Call putSshRuleCall(const std::string& subscription,
                    const std::string& region,
                    const std::string& name,
                    const std::string& cidr)
{
    Call c = call("SecurityRules_CreateOrUpdate",
                  "PUT",
                  groupPath(subscription, region) + "/providers/Microsoft.Network/networkSecurityGroups/"
                      + uriEncode(name) + "/securityRules/" + std::string(kSshRuleName),
                  kNetworkApiVersion,
                  true);
    c.body = json{{"properties", sshRuleProperties(cidr)}};
    return c;
}

Call getVnetCall(const std::string& subscription, const std::string& region)
{
    return call("VirtualNetworks_Get",
                "GET",
                groupPath(subscription, region) + "/providers/Microsoft.Network/virtualNetworks/"
                    + std::string(kVnetName),
                kNetworkApiVersion,
                true);
}

Call putVnetCall(const std::string& subscription, const std::string& region)
{
    Call c =
        call("VirtualNetworks_CreateOrUpdate",
             "PUT",
             groupPath(subscription, region) + "/providers/Microsoft.Network/virtualNetworks/" + std::string(kVnetName),
             kNetworkApiVersion,
             true);
    c.body = json{{"location", region},
                  {"tags", groupTags()},
                  {"properties",
                   {{"addressSpace", {{"addressPrefixes", json::array({std::string(kVnetCidr)})}}},
                    {"subnets",
                     json::array({{{"name", std::string(kSubnetName)},
                                   {"properties", {{"addressPrefix", std::string(kSubnetCidr)}}}}})}}}};
    return c;
}

Result<Call> putVmCall(const LaunchRequest& request, const VmPlacement& placement)
{
    const std::string& name = request.clientToken;
    if (name.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.azure.no_client_token", {}}, "client_token"};
    }
    // A Linux VM name: 1-64 letters, digits and '-', not starting or ending with '-'.
    if (name.size() > kMaxVmNameChars || !std::all_of(name.begin(), name.end(), isVmNameChar) || name.front() == '-'
        || name.back() == '-') {
        return Error{
            ErrorCode::InvalidArgument, Reason{"error.azure.vm_name_invalid", {{"name", name}}}, "client_token"};
    }
    if (request.sshPublicKey.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.azure.no_ssh_key", {}}, "ssh_public_key"};
    }
    if (request.userData.size() > kMaxCustomDataBytes) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.azure.user_data_too_big", {{"bytes", std::to_string(request.userData.size())}}},
                     "user_data"};
    }
    json tags = json::object();
    for (const auto& [key, value] : request.tags) {
        // "Tag names can't contain these characters: <, >, %, &, \, ?, /"; names up to 512, values up to 256.
        // source: https://learn.microsoft.com/azure/azure-resource-manager/management/tag-resources#limitations
        if (key.empty() || key.size() > 512 || value.size() > 256 || key.find_first_of("<>%&\\?/") != std::string::npos
            || key == kOwnerTagKey) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.azure.tag_invalid", {{"tag", key}}}, "tags"};
        }
        tags[key] = value;
    }
    tags[std::string(kOwnerTagKey)] = name;

    json image;
    if (!placement.image.id.empty()) {
        image = json{{"id", placement.image.id}};
    } else {
        image = json{{"publisher", placement.image.publisher},
                     {"offer", placement.image.offer},
                     {"sku", placement.image.sku},
                     {"version", placement.image.version}};
    }
    json osProfile{{"computerName", name},
                   {"adminUsername", std::string(kAdminUser)},
                   {"linuxConfiguration",
                    {{"disablePasswordAuthentication", true},
                     {"ssh",
                      {{"publicKeys",
                        json::array({{{"path", "/home/" + std::string(kAdminUser) + "/.ssh/authorized_keys"},
                                      {"keyData", request.sshPublicKey}}})}}}}}};
    if (!request.userData.empty()) {
        osProfile["customData"] = base64(request.userData);
    }
    json ipConfiguration{{"name", "ipconfig"},
                         {"properties",
                          {{"primary", true},
                           {"subnet", {{"id", placement.subnetId}}},
                           {"publicIPAddressConfiguration",
                            {{"name", name + "-ip"},
                             {"sku", {{"name", "Standard"}}},
                             {"properties", {{"deleteOption", "Delete"}, {"publicIPAllocationMethod", "Static"}}}}}}}};
    json nic{{"name", name + "-nic"},
             {"properties",
              {{"primary", true},
               {"deleteOption", "Delete"},
               {"networkSecurityGroup", {{"id", placement.nsgId}}},
               {"ipConfigurations", json::array({ipConfiguration})}}}};
    json properties{{"hardwareProfile", {{"vmSize", request.instanceType}}},
                    {"storageProfile",
                     {{"imageReference", image},
                      {"osDisk",
                       {{"createOption", "FromImage"},
                        {"deleteOption", "Delete"},
                        {"managedDisk", {{"storageAccountType", "Premium_LRS"}}},
                        {"diskSizeGB", kOsDiskGb}}}}},
                    {"osProfile", osProfile},
                    {"networkProfile",
                     {{"networkApiVersion", std::string(kInlineNetworkApiVersion)},
                      {"networkInterfaceConfigurations", json::array({nic})}}}};
    if (request.pricing == LaunchPricing::Spot) {
        // "-1 indicates ... the Azure Spot VM should not be evicted for price reasons" (BillingProfile.maxPrice).
        properties["priority"] = "Spot";
        properties["evictionPolicy"] = "Delete";
        properties["billingProfile"] = {{"maxPrice", request.spotPriceLimit > 0 ? request.spotPriceLimit : -1.0}};
    }
    Call c = call("VirtualMachines_CreateOrUpdate",
                  "PUT",
                  groupPath(placement.subscription, request.region) + "/providers/Microsoft.Compute/virtualMachines/"
                      + uriEncode(name),
                  kComputeApiVersion,
                  true); // a PUT to the same name is an upsert
    c.body = json{{"location", request.region}, {"tags", tags}, {"properties", properties}};
    if (!request.zone.empty()) {
        c.body["zones"] = json::array({request.zone});
    }
    return c;
}

Call getVmCall(const std::string& subscription, const std::string& region, const std::string& name, bool instanceView)
{
    Call c = call("VirtualMachines_Get",
                  "GET",
                  groupPath(subscription, region) + "/providers/Microsoft.Compute/virtualMachines/" + uriEncode(name),
                  kComputeApiVersion,
                  true);
    if (instanceView) {
        c.query.emplace_back("$expand", "instanceView");
    }
    return c;
}

Call listVmsCall(const std::string& subscription, const std::string& region)
{
    return call("VirtualMachines_List",
                "GET",
                groupPath(subscription, region) + "/providers/Microsoft.Compute/virtualMachines",
                kComputeApiVersion,
                true);
}

Call deleteVmCall(const std::string& subscription, const std::string& region, const std::string& name)
{
    return call("VirtualMachines_Delete",
                "DELETE",
                groupPath(subscription, region) + "/providers/Microsoft.Compute/virtualMachines/" + uriEncode(name),
                kComputeApiVersion,
                true);
}

Call getByIdCall(const std::string& action, const std::string& id, std::string_view apiVersion)
{
    Call c;
    c.action = action;
    c.path = uriEncode(id, true);
    c.query.emplace_back("api-version", std::string(apiVersion));
    c.safeToRetry = true;
    return c;
}

Call getUrlCall(const std::string& action, const std::string& url)
{
    Call c;
    c.action = action;
    c.path = url;
    c.safeToRetry = true;
    return c;
}

// ---- Parsers.

Result<std::vector<Subscription>> parseSubscriptions(std::string_view body)
{
    const JsonAnswer answer{kProvider, "Subscriptions_List"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "value");
    if (!list) {
        return list.error();
    }
    std::vector<Subscription> out;
    for (const json& item : *list) {
        Subscription s{text(item, "subscriptionId"), text(item, "displayName"), text(item, "state")};
        if (s.id.empty()) {
            return answer.refused("error.answer.missing", {{"field", "value[].subscriptionId"}});
        }
        out.push_back(std::move(s));
    }
    return out;
}

Result<std::string> chooseSubscription(const std::vector<Subscription>& subscriptions)
{
    std::vector<const Subscription*> enabled;
    for (const Subscription& s : subscriptions) {
        if (s.state == "Enabled") {
            enabled.push_back(&s);
        }
    }
    if (enabled.empty()) {
        return Error{ErrorCode::Credentials,
                     Reason{"error.azure.no_subscription", {{"count", std::to_string(subscriptions.size())}}},
                     "subscription_id"};
    }
    if (enabled.size() > 1) {
        std::string listed;
        for (const Subscription* s : enabled) {
            listed += (listed.empty() ? "" : ", ") + s->id + (s->name.empty() ? "" : " (" + s->name + ")");
        }
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.azure.several_subscriptions", {{"subscriptions", listed}}},
                     "subscription_id"};
    }
    return enabled.front()->id;
}

Result<SkuPage> parseSkus(std::string_view body)
{
    const JsonAnswer answer{kProvider, "ResourceSkus_List"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "value");
    if (!list) {
        return list.error();
    }
    SkuPage page;
    page.nextLink = text(*doc, "nextLink");
    for (const json& item : *list) {
        if (!item.is_object()) {
            return notAnObject(answer, "value[]", item);
        }
        Sku sku;
        sku.resourceType = text(item, "resourceType");
        sku.name = text(item, "name");
        sku.family = text(item, "family");
        sku.locations = texts(member(item, "locations"));
        const json& info = member(item, "locationInfo");
        if (info.is_array()) {
            for (const json& where : info) {
                sku.zonesByLocation.emplace_back(text(where, "location"), texts(member(where, "zones")));
            }
        }
        const json& restrictions = member(item, "restrictions");
        if (restrictions.is_array()) {
            for (const json& r : restrictions) {
                const json& restrictionInfo = member(r, "restrictionInfo");
                sku.restrictions.push_back(SkuRestriction{text(r, "type"),
                                                          texts(member(r, "values")),
                                                          texts(member(restrictionInfo, "locations")),
                                                          texts(member(restrictionInfo, "zones")),
                                                          text(r, "reasonCode")});
            }
        }
        page.skus.push_back(std::move(sku));
    }
    return page;
}

SizeOffer sizeOffer(const std::vector<Sku>& skus, const std::string& size, const std::string& region)
{
    SizeOffer offer;
    for (const Sku& sku : skus) {
        if (sku.resourceType != "virtualMachines" || !sameText(sku.name, size)) {
            continue;
        }
        const bool inRegion =
            std::any_of(sku.locations.begin(), sku.locations.end(), [&](const auto& l) { return sameText(l, region); })
            || std::any_of(sku.zonesByLocation.begin(), sku.zonesByLocation.end(), [&](const auto& l) {
                   return sameText(l.first, region);
               });
        if (!inRegion) {
            continue;
        }
        offer.listed = true;
        std::vector<std::string> zones;
        for (const auto& [location, z] : sku.zonesByLocation) {
            if (sameText(location, region)) {
                zones.insert(zones.end(), z.begin(), z.end());
            }
        }
        for (const SkuRestriction& r : sku.restrictions) {
            const auto here = [&](const std::vector<std::string>& list) {
                return std::any_of(list.begin(), list.end(), [&](const auto& l) { return sameText(l, region); });
            };
            if (r.type == "Location" && (here(r.values) || here(r.locations))) {
                offer.locationRestriction = r.reasonCode.empty() ? std::string("Location") : r.reasonCode;
            } else if (r.type == "Zone" && (here(r.values) || here(r.locations) || r.locations.empty())) {
                std::erase_if(zones, [&](const std::string& z) {
                    return std::find(r.zones.begin(), r.zones.end(), z) != r.zones.end();
                });
            }
        }
        if (!offer.locationRestriction.empty()) {
            offer.zones.clear();
            return offer;
        }
        std::sort(zones.begin(), zones.end());
        zones.erase(std::unique(zones.begin(), zones.end()), zones.end());
        const bool hadZones = std::any_of(sku.zonesByLocation.begin(), sku.zonesByLocation.end(), [&](const auto& l) {
            return sameText(l.first, region) && !l.second.empty();
        });
        if (!hadZones) {
            zones.push_back(""); // offered in the region without zones
        }
        offer.zones = std::move(zones);
        return offer;
    }
    return offer;
}

Result<std::vector<std::string>> parseImageVersions(std::string_view body)
{
    const JsonAnswer answer{kProvider, "VirtualMachineImages_List"};
    json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded()) {
        return answer.refused("error.answer.not_json");
    }
    if (!doc.is_array()) {
        return answer.refused("error.answer.not_list", {{"field", "(answer)"}});
    }
    std::vector<std::string> names;
    for (const json& item : doc) {
        const std::string name = text(item, "name");
        if (name.empty()) {
            return answer.refused("error.answer.missing", {{"field", "[].name"}});
        }
        names.push_back(name);
    }
    return names;
}

Result<Nsg> parseNsg(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Nsg nsg;
    nsg.id = text(*doc, "id");
    nsg.name = text(*doc, "name");
    if (nsg.id.empty()) {
        return answer.refused("error.answer.missing", {{"field", "id"}});
    }
    const json& properties = member(*doc, "properties");
    nsg.provisioningState = text(properties, "provisioningState");
    const json& rules = member(properties, "securityRules");
    if (!rules.is_null() && !rules.is_array()) {
        return answer.refused("error.answer.not_list", {{"field", "properties.securityRules"}});
    }
    if (rules.is_array()) {
        for (const json& item : rules) {
            const json& p = member(item, "properties");
            SecurityRule rule;
            rule.name = text(item, "name");
            rule.protocol = text(p, "protocol");
            rule.access = text(p, "access");
            rule.direction = text(p, "direction");
            if (std::string prefix = text(p, "sourceAddressPrefix"); !prefix.empty()) {
                rule.sourcePrefixes.push_back(prefix);
            }
            for (std::string& prefix : texts(member(p, "sourceAddressPrefixes"))) {
                rule.sourcePrefixes.push_back(std::move(prefix));
            }
            if (std::string port = text(p, "destinationPortRange"); !port.empty()) {
                rule.destinationPorts.push_back(port);
            }
            for (std::string& port : texts(member(p, "destinationPortRanges"))) {
                rule.destinationPorts.push_back(std::move(port));
            }
            const json& priority = member(p, "priority");
            rule.priority = priority.is_number_integer() ? priority.get<int>() : 0;
            nsg.rules.push_back(std::move(rule));
        }
    }
    return nsg;
}

bool allowsSshFrom(const std::vector<SecurityRule>& rules, const std::string& cidr)
{
    return std::any_of(rules.begin(), rules.end(), [&](const SecurityRule& r) {
        return sameText(r.access, "Allow") && sameText(r.direction, "Inbound")
               && (sameText(r.protocol, "Tcp") || r.protocol == "*")
               && std::find(r.sourcePrefixes.begin(), r.sourcePrefixes.end(), cidr) != r.sourcePrefixes.end()
               && std::any_of(r.destinationPorts.begin(), r.destinationPorts.end(), holds22);
    });
}

Result<Vnet> parseVnet(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Vnet vnet;
    vnet.id = text(*doc, "id");
    if (vnet.id.empty()) {
        return answer.refused("error.answer.missing", {{"field", "id"}});
    }
    const json& properties = member(*doc, "properties");
    vnet.provisioningState = text(properties, "provisioningState");
    const json& subnets = member(properties, "subnets");
    if (subnets.is_array()) {
        for (const json& s : subnets) {
            vnet.subnets.emplace_back(text(s, "name"), text(s, "id"));
        }
    }
    return vnet;
}

Result<std::string> parseResourceGroup(std::string_view body)
{
    const JsonAnswer answer{kProvider, "ResourceGroups_CreateOrUpdate"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    if (text(*doc, "id").empty()) {
        return answer.refused("error.answer.missing", {{"field", "id"}});
    }
    return text(member(*doc, "properties"), "provisioningState");
}

Result<AsyncOperation> parseAsyncOperation(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    AsyncOperation op;
    op.status = text(*doc, "status");
    if (op.status.empty()) {
        return answer.refused("error.answer.missing", {{"field", "status"}});
    }
    if (std::optional<ApiError> error = apiError(doc->contains("error") ? body : std::string_view{})) {
        op.errorCode = error->code;
        op.errorMessage = error->message;
    }
    return op;
}

namespace {

Result<Vm> vmOf(const json& item, const JsonAnswer& answer)
{
    if (!item.is_object()) {
        return notAnObject(answer, "value[]", item);
    }
    Vm vm;
    vm.name = text(item, "name");
    vm.id = text(item, "id");
    if (vm.name.empty()) {
        return answer.refused("error.answer.missing", {{"field", "name"}});
    }
    vm.location = text(item, "location");
    if (std::vector<std::string> zones = texts(member(item, "zones")); !zones.empty()) {
        vm.zone = zones.front();
    }
    vm.clientToken = text(member(item, "tags"), std::string(kOwnerTagKey).c_str());
    const json& properties = member(item, "properties");
    if (!properties.is_object()) {
        return answer.refused("error.answer.missing", {{"field", "properties"}});
    }
    vm.provisioningState = text(properties, "provisioningState");
    vm.priority = text(properties, "priority");
    vm.vmSize = text(member(properties, "hardwareProfile"), "vmSize");
    if (const std::string created = text(properties, "timeCreated"); !created.empty()) {
        vm.timeCreated = parseIsoSeconds(created);
    }
    const json& nics = member(member(properties, "networkProfile"), "networkInterfaces");
    if (nics.is_array()) {
        for (const json& nic : nics) {
            const json& primary = member(member(nic, "properties"), "primary");
            if (vm.nicId.empty() || (primary.is_boolean() && primary.get<bool>())) {
                vm.nicId = text(nic, "id");
            }
        }
    }
    const json& statuses = member(member(properties, "instanceView"), "statuses");
    if (statuses.is_array()) {
        for (const json& status : statuses) {
            const std::string code = text(status, "code");
            if (code.starts_with("PowerState/")) {
                vm.powerState = code.substr(std::string_view("PowerState/").size());
            }
        }
    }
    return vm;
}

} // namespace

Result<Vm> parseVm(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    return vmOf(*doc, answer);
}

Result<VmPage> parseVms(std::string_view body)
{
    const JsonAnswer answer{kProvider, "VirtualMachines_List"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> list = answer.list(*doc, "value");
    if (!list) {
        return list.error();
    }
    VmPage page;
    page.nextLink = text(*doc, "nextLink");
    for (const json& item : *list) {
        Result<Vm> vm = vmOf(item, answer);
        if (!vm) {
            return vm.error();
        }
        page.vms.push_back(std::move(vm).value());
    }
    return page;
}

Result<std::string> parseNicPublicIpId(std::string_view body)
{
    const JsonAnswer answer{kProvider, "NetworkInterfaces_Get"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    const json& configs = member(member(*doc, "properties"), "ipConfigurations");
    if (!configs.is_array()) {
        return answer.refused("error.answer.missing", {{"field", "properties.ipConfigurations"}});
    }
    std::string chosen;
    for (const json& config : configs) {
        const json& p = member(config, "properties");
        const std::string ip = text(member(p, "publicIPAddress"), "id");
        const json& primary = member(p, "primary");
        if (!ip.empty() && (chosen.empty() || (primary.is_boolean() && primary.get<bool>()))) {
            chosen = ip;
        }
    }
    return chosen;
}

Result<std::string> parsePublicIpAddress(std::string_view body)
{
    const JsonAnswer answer{kProvider, "PublicIPAddresses_Get"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    const json& properties = member(*doc, "properties");
    if (!properties.is_object()) {
        return answer.refused("error.answer.missing", {{"field", "properties"}});
    }
    return text(properties, "ipAddress");
}

InstanceState stateOf(const std::string& provisioningState, const std::string& powerState)
{
    const std::string p = lower(provisioningState);
    const std::string power = lower(powerState);
    if (p == "deleting") {
        return InstanceState::Stopping;
    }
    if (p == "failed") {
        return InstanceState::Failed;
    }
    if (p == "creating") {
        return InstanceState::Pending;
    }
    if (power == "running") {
        return InstanceState::Running;
    }
    if (power == "stopping" || power == "deallocating") {
        return InstanceState::Stopping;
    }
    if (power == "stopped" || power == "deallocated") {
        return InstanceState::Stopped;
    }
    return InstanceState::Pending; // starting, unknown, or no instance view yet
}

RemoteInstance toRemote(const Vm& vm, const std::string& region)
{
    RemoteInstance r;
    r.instanceId = vm.name;
    r.clientToken = vm.clientToken;
    r.state = stateOf(vm.provisioningState, vm.powerState);
    r.region = vm.location.empty() ? region : vm.location;
    r.instanceType = vm.vmSize;
    r.launchedAt = vm.timeCreated;
    r.zone = vm.zone;
    r.providerState = vm.powerState.empty() ? vm.provisioningState : vm.provisioningState + "/" + vm.powerState;
    if (sameText(vm.priority, "Spot") || sameText(vm.priority, "Low")) {
        r.pricingMode = "spot";
    } else if (sameText(vm.priority, "Regular") || vm.priority.empty()) {
        r.pricingMode = "on_demand";
    }
    return r;
}

std::optional<std::chrono::seconds> retryAfter(const HttpResponse& response)
{
    const std::optional<std::string> value = response.header("Retry-After");
    if (!value) {
        return std::nullopt;
    }
    long long seconds = 0;
    const auto [ptr, ec] = std::from_chars(value->data(), value->data() + value->size(), seconds);
    if (ec != std::errc() || seconds < 0) {
        return std::nullopt;
    }
    return std::chrono::seconds(seconds);
}

// ---- Errors.

std::optional<ApiError> apiError(std::string_view body)
{
    json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        return std::nullopt;
    }
    const json& e = doc.contains("error") && doc["error"].is_object() ? doc["error"] : doc;
    ApiError api{text(e, "code"), text(e, "message"), {}};
    if (api.code.empty()) {
        return std::nullopt;
    }
    // wire: ARM's generic codes, whose details name the refusal
    static const std::vector<std::string> generic{
        "BadRequest", "Conflict", "DeploymentFailed", "InvalidRequestContent"};
    const json& details = member(e, "details");
    if (details.is_array() && !details.empty()
        && std::find(generic.begin(), generic.end(), api.code) != generic.end()) {
        const std::string code = text(details[0], "code");
        if (!code.empty()) {
            api.code = code;
            const std::string message = text(details[0], "message");
            api.message = message.empty() ? api.message : message;
        }
    }
    return api;
}

std::string actionFromMessage(const std::string& message)
{
    const std::string marker = "perform action '"; // wire: ARM's AuthorizationFailed words
    const std::size_t at = message.find(marker);
    if (at == std::string::npos) {
        return {};
    }
    const std::size_t start = at + marker.size();
    const std::size_t end = message.find('\'', start);
    return end == std::string::npos ? std::string() : message.substr(start, end - start);
}

QuotaText quotaFromMessage(const std::string& message)
{
    // "Operation could not be completed as it results in exceeding approved standardNCASv3_T4Family Cores quota.
    // Additional details - Deployment Model: Resource Manager, Location: eastus, Current Limit: 0, Current Usage: 0,
    // Additional Required: 4, (Minimum) New Limit Required: 4. ..."
    QuotaText q;
    // wire: ARM's OperationNotAllowed words
    const std::string approved = "exceeding approved ";
    if (const std::size_t at = message.find(approved); at != std::string::npos) {
        const std::size_t start = at + approved.size();
        const std::size_t end = message.find(" quota", start);
        if (end != std::string::npos) {
            q.family = message.substr(start, end - start);
            if (q.family.ends_with(" Cores")) {
                q.family.resize(q.family.size() - std::string_view(" Cores").size());
            }
        }
    }
    const auto number = [&message](const std::string& label) {
        const std::size_t at = message.find(label);
        if (at == std::string::npos) {
            return std::string();
        }
        std::size_t start = at + label.size();
        std::size_t end = start;
        while (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) {
            ++end;
        }
        return message.substr(start, end - start);
    };
    // wire: ARM's OperationNotAllowed words
    q.limit = number("Current Limit: ");
    q.usage = number("Current Usage: ");
    q.required = number("Additional Required: ");
    return q;
}

namespace {

bool isCapacityCode(const std::string& code)
{
    // source: provider_launch_apis.md 4.5; https://learn.microsoft.com/troubleshoot/azure/virtual-machines/windows/
    // allocation-failure
    return code == "AllocationFailed" || code == "ZonalAllocationFailed" || code == "OverconstrainedAllocationRequest"
           || code == "OverconstrainedZonalAllocationRequest" || code == "SkuNotAvailable";
}

} // namespace

std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context)
{
    if (response.status >= 200 && response.status < 300) {
        return std::nullopt;
    }
    const std::string where = "azure " + context.action + (context.region.empty() ? "" : " in " + context.region);
    const std::optional<std::chrono::seconds> wait = retryAfter(response);
    std::optional<ApiError> api = apiError(response.body);
    if (!api) {
        if (response.status == 429) {
            Reason reason{"error.azure.throttled", {{"action", context.action}}};
            if (wait) {
                reason.params["retry_after"] = std::to_string(wait->count());
            }
            return Error{ErrorCode::Throttled, std::move(reason), where, response.status};
        }
        if (response.status == 404) {
            return Error{ErrorCode::NotFound,
                         Reason{"error.azure.not_found", {{"action", context.action}}},
                         where,
                         response.status};
        }
        return Error{ErrorCode::HttpStatus,
                     Reason{"error.azure.http_status",
                            {{"status", std::to_string(response.status)}, {"action", context.action}}},
                     where,
                     response.status};
    }
    const std::string& code = api->code;
    Reason reason{{}, {{"code", code}, {"action", context.action}}};
    const auto add = [&reason](const char* name, const std::string& value) {
        if (!value.empty()) {
            reason.params[name] = value;
        }
    };
    add("said", api->message);
    const std::string said = lower(api->message);
    ErrorCode mapped = ErrorCode::ProviderRefused;
    if (response.status == 429 || code == "TooManyRequests" || code == "SubscriptionRequestsThrottled"
        || code == "OperationNotAllowedThrottled") {
        mapped = ErrorCode::Throttled;
        reason.key = "error.azure.throttled";
        if (wait) {
            add("retry_after", std::to_string(wait->count()));
        }
    } else if (isCapacityCode(code)) {
        mapped = ErrorCode::InsufficientCapacity;
        reason.key = code == "SkuNotAvailable" ? "error.azure.size_not_available" : "error.azure.no_capacity";
        add("instance_type", context.instanceType);
        add("zone", context.zone);
        add("region", context.region);
    } else if ((code == "OperationNotAllowed" && contains(said, "quota")) || code == "QuotaExceeded") {
        mapped = ErrorCode::QuotaExceeded;
        const QuotaText q = quotaFromMessage(api->message);
        // wire: ARM's quota names for spot VMs
        const bool spotQuota =
            context.spot || contains(said, "low priority") || contains(said, "lowpriority") || contains(said, "spot");
        reason.key = spotQuota ? "error.azure.spot_quota" : "error.azure.quota";
        add("family", q.family);
        add("limit", q.limit);
        add("usage", q.usage);
        add("required", q.required);
        add("region", context.region);
        add("instance_type", context.instanceType);
    } else if (code == "MissingSubscriptionRegistration") {
        reason.key = "error.azure.provider_not_registered";
        // "The subscription is not registered to use namespace 'Microsoft.Compute'."
        const std::size_t at = api->message.find("namespace '");
        if (at != std::string::npos) {
            const std::size_t start = at + std::string_view("namespace '").size();
            const std::size_t end = api->message.find('\'', start);
            if (end != std::string::npos) {
                add("namespace", api->message.substr(start, end - start));
            }
        }
    } else if (code == "AuthorizationFailed" || code == "LinkedAuthorizationFailed"
               || (response.status == 403 && !contains(code, "Token"))) {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.azure.permission_missing";
        add("permission", actionFromMessage(api->message));
    } else if (response.status == 401 || code.starts_with("InvalidAuthenticationToken")
               || code == "AuthenticationFailed" || code == "ExpiredAuthenticationToken") {
        mapped = ErrorCode::Credentials;
        reason.key = "error.azure.token_refused";
    } else if (code == "SpotPriceGreaterThanProvidedMaxPrice" || code == "MaxPriceValueInvalid") {
        reason.key = "error.azure.spot_price";
        add("instance_type", context.instanceType);
    } else if (code == "AzureSpotIsNotSupportedForThisVMSize" || code == "AzureSpotVMNotSupportedInAvailabilitySet") {
        reason.key = "error.azure.spot_not_supported";
        add("instance_type", context.instanceType);
    } else if (code == "ReadOnlyDisabledSubscription" || code == "SubscriptionNotFound"
               || code == "DisallowedOperation") {
        reason.key = "error.azure.subscription_refused";
    } else if (response.status == 404 || code == "ResourceGroupNotFound" || code == "NotFound"
               || code == "ResourceNotFound") {
        mapped = ErrorCode::NotFound;
        reason.key = "error.azure.not_found";
    } else {
        reason.key = "error.azure.refused";
    }
    return Error{mapped, std::move(reason), where, response.status, code};
}

Error operationFailure(const AsyncOperation& operation, const ErrorContext& context)
{
    HttpResponse asAnswer;
    asAnswer.status = 400;
    const std::string code = operation.errorCode.empty() ? operation.status : operation.errorCode;
    asAnswer.body = json{{"error", {{"code", code}, {"message", operation.errorMessage}}}}.dump(
        -1, ' ', false, json::error_handler_t::replace);
    Error out = *mapError(asAnswer, context); // a 400 with a code always maps
    out.httpStatus = 0;
    if (out.reason.key == "error.azure.refused") {
        out.reason.key = "error.azure.operation_failed";
        out.reason.params["status"] = operation.status;
    }
    return out;
}

} // namespace gpuplan::core::azure
