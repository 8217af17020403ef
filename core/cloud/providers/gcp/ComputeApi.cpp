// Compute Engine's REST calls as GPU Planner uses them: each method's request, its documented resource's parser, and
// the error mapping with its advice. Longer than 600 lines on purpose: it is one wire format, and the builders,
// parsers and codes they share are read and checked against the SDK's protos together.

#include "gpuplan/cloud/providers/gcp/ComputeApi.h"

#include "gpuplan/cloud/JsonAnswer.h"
#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/WatchdogScript.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <ctime>

namespace gpuplan::core::gcp {

namespace {

using json_answer::member;
using json_answer::texts;
using nlohmann::json;

bool contains(const std::string& text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

constexpr const char* kProvider = "gcp";

// A string field; uint64 fields (id, targetId) are strings in the JSON mapping but a number is taken too (one above
// the int64 range as well, which json_answer::text would not print right).
std::string text(const json& object, const char* name)
{
    const json& value = member(object, name);
    return value.is_number_unsigned() ? std::to_string(value.get<unsigned long long>())
                                      : json_answer::text(object, name);
}

// A list at `name`: absent is empty, anything but a list is an error.
Result<json> optionalList(const JsonAnswer& answer, const json& doc, const char* name)
{
    return member(doc, name).is_null() ? Result<json>(json::array()) : answer.list(doc, name);
}

// A member that must be a JSON object and is something else.
Error notAnObject(const JsonAnswer& answer, const char* field, const json& found)
{
    return answer.refused("error.answer.invalid", {{"field", field}, {"found", found.type_name()}});
}

Call call(const char* action, const char* method, std::string path, bool safe)
{
    Call c;
    c.action = action;
    c.method = method;
    c.path = std::move(path);
    c.safeToRetry = safe;
    return c;
}

std::string projectPath(const std::string& project)
{
    return "/projects/" + uriEncode(project);
}

std::string seg(const std::string& value)
{
    return uriEncode(value);
}

// The short GPU names of the catalog's N1 types and Compute Engine's accelerator type names.
// source: https://cloud.google.com/compute/docs/gpus ("nvidia-tesla-t4", "nvidia-tesla-v100", "nvidia-tesla-p100",
// "nvidia-tesla-p4" are the N1 GPUs' accelerator types)
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kN1Gpus{{
    {"T4", "nvidia-tesla-t4"},
    {"V100", "nvidia-tesla-v100"},
    {"P100", "nvidia-tesla-p100"},
    {"P4", "nvidia-tesla-p4"},
}};

// A GCE resource name: [a-z]([-a-z0-9]{0,61}[a-z0-9])?
bool isGceName(const std::string& name)
{
    if (name.empty() || name.size() > 63 || !std::islower(static_cast<unsigned char>(name.front()))) {
        return false;
    }
    const unsigned char last = static_cast<unsigned char>(name.back());
    if (!std::islower(last) && !std::isdigit(last)) {
        return false;
    }
    return std::all_of(
        name.begin(), name.end(), [](unsigned char c) { return std::islower(c) || std::isdigit(c) || c == '-'; });
}

// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool digitsAt(std::string_view text, std::size_t at, std::size_t count, int& out)
{
    if (at + count > text.size()) {
        return false;
    }
    auto [ptr, ec] = std::from_chars(text.data() + at, text.data() + at + count, out);
    return ec == std::errc() && ptr == text.data() + at + count;
}

} // namespace

std::string apiBase(const std::string& endpoint)
{
    if (endpoint.empty()) {
        return "https://compute.googleapis.com/compute/v1"; // source: the REST reference's service endpoint
    }
    const std::string base = endpoint.ends_with("/") ? endpoint.substr(0, endpoint.size() - 1) : endpoint;
    return base + "/compute/v1";
}

std::string tokenUri(const std::string& endpoint)
{
    if (endpoint.empty()) {
        return "https://oauth2.googleapis.com/token"; // source: a service-account key file's token_uri
    }
    const std::string base = endpoint.ends_with("/") ? endpoint.substr(0, endpoint.size() - 1) : endpoint;
    return base + "/token";
}

std::optional<std::string> projectOf(const std::string& projectId, const std::string& clientEmail)
{
    if (!projectId.empty()) {
        return projectId;
    }
    // A service account's email is <name>@<project>.iam.gserviceaccount.com
    // (https://cloud.google.com/iam/docs/service-account-overview#identifying).
    const std::string_view suffix = ".iam.gserviceaccount.com";
    const std::size_t at = clientEmail.find('@');
    if (at == std::string::npos || !clientEmail.ends_with(suffix)) {
        return std::nullopt;
    }
    std::string project = clientEmail.substr(at + 1, clientEmail.size() - at - 1 - suffix.size());
    if (project.empty()) {
        return std::nullopt;
    }
    return project;
}

std::string body(const Call& call)
{
    if (call.body.is_null()) {
        return {};
    }
    // Text that is not UTF-8 (a key comment in Latin-1) goes with U+FFFD in place of the bad bytes instead of throwing.
    return call.body.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string encodeQueryValue(std::string_view value)
{
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (char ch : value) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || std::string_view("-_.~/!*'()").find(ch) != std::string_view::npos) {
            out += ch;
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

HttpRequest buildRequest(const Call& call, const std::string& endpoint)
{
    HttpRequest request;
    request.method = call.method;
    std::string url = apiBase(endpoint) + call.path;
    for (std::size_t i = 0; i < call.query.size(); ++i) {
        url +=
            (i == 0 ? "?" : "&") + encodeQueryValue(call.query[i].first) + "=" + encodeQueryValue(call.query[i].second);
    }
    request.url = std::move(url);
    request.body = body(call);
    if (!request.body.empty()) {
        request.headers.push_back({"Content-Type", "application/json"});
    }
    request.safeToRetry = call.safeToRetry;
    return request;
}

Result<InstanceType> parseInstanceType(const std::string& instanceType)
{
    if (instanceType.starts_with("tpu-")) {
        // Cloud TPUs are nodes of the TPU API (tpu.googleapis.com), not Compute Engine instances.
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.gcp.tpu_not_a_vm", {{"instance_type", instanceType}}},
                     "instance_type"};
    }
    InstanceType out;
    const std::size_t plus = instanceType.find('+');
    out.machineType = instanceType.substr(0, plus);
    const auto invalid = [&instanceType] {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.gcp.instance_type_invalid", {{"instance_type", instanceType}}},
                     "instance_type"};
    };
    if (!isGceName(out.machineType)) {
        return invalid();
    }
    if (plus == std::string::npos) {
        return out;
    }
    // "<count>x<GPU>"
    const std::string gpus = instanceType.substr(plus + 1);
    const std::size_t x = gpus.find('x');
    if (x == std::string::npos || x == 0) {
        return invalid();
    }
    int count = 0;
    auto [ptr, ec] = std::from_chars(gpus.data(), gpus.data() + x, count);
    if (ec != std::errc() || ptr != gpus.data() + x || count < 1 || count > 8) {
        return invalid();
    }
    const std::string gpu = gpus.substr(x + 1);
    for (const auto& [shortName, accelerator] : kN1Gpus) {
        if (gpu == shortName) {
            out.accelerator = accelerator;
            out.acceleratorCount = count;
            return out;
        }
    }
    return Error{ErrorCode::InvalidArgument,
                 Reason{"error.gcp.gpu_unknown", {{"gpu", gpu}, {"instance_type", instanceType}}},
                 "instance_type"};
}

std::string firewallName(const std::string& cidr)
{
    std::string name = "gpuplanner-ssh-"; // wire: the firewall rule's name (and network tag) in the user's project
    for (char c : cidr) {
        const unsigned char u = static_cast<unsigned char>(c);
        name += std::isdigit(u) || std::islower(u) ? c : std::isupper(u) ? char(std::tolower(u)) : '-';
    }
    while (name.size() > 63 || name.back() == '-') {
        name.pop_back();
    }
    return name;
}

std::string requestId(std::string_view seed)
{
    std::string bytes = sha256(seed).substr(0, 16);
    // RFC 4122 section 4.4: version 4 in the high nibble of octet 6, variant 10 in the top bits of octet 8.
    bytes[6] = static_cast<char>((static_cast<unsigned char>(bytes[6]) & 0x0F) | 0x40);
    bytes[8] = static_cast<char>((static_cast<unsigned char>(bytes[8]) & 0x3F) | 0x80);
    const std::string hex = toHex(bytes);
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-"
           + hex.substr(20, 12);
}

std::string instanceRef(const std::string& zone, const std::string& name)
{
    return zone + "/" + name;
}

std::optional<std::pair<std::string, std::string>> splitInstanceRef(const std::string& ref)
{
    const std::size_t slash = ref.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == ref.size()
        || ref.find('/', slash + 1) != std::string::npos) {
        return std::nullopt;
    }
    return std::pair{ref.substr(0, slash), ref.substr(slash + 1)};
}

std::string regionOfZone(const std::string& zone)
{
    const std::size_t dash = zone.rfind('-');
    return dash == std::string::npos ? zone : zone.substr(0, dash);
}

std::string lastSegment(const std::string& url)
{
    const std::size_t slash = url.rfind('/');
    return slash == std::string::npos ? url : url.substr(slash + 1);
}

std::string rfc3339(std::int64_t unixSeconds)
{
    return extendedIsoTime(std::chrono::system_clock::from_time_t(static_cast<std::time_t>(unixSeconds)));
}

std::optional<std::int64_t> parseRfc3339(std::string_view text)
{
    // YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (text.size() < 20 || !digitsAt(text, 0, 4, year) || text[4] != '-' || !digitsAt(text, 5, 2, month)
        || text[7] != '-' || !digitsAt(text, 8, 2, day) || (text[10] != 'T' && text[10] != 't')
        || !digitsAt(text, 11, 2, hour) || text[13] != ':' || !digitsAt(text, 14, 2, minute) || text[16] != ':'
        || !digitsAt(text, 17, 2, second)) {
        return std::nullopt;
    }
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
        return std::nullopt;
    }
    std::size_t at = 19;
    if (at < text.size() && text[at] == '.') {
        ++at;
        const std::size_t start = at;
        while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
            ++at;
        }
        if (at == start) {
            return std::nullopt;
        }
    }
    std::int64_t offset = 0;
    if (at < text.size() && (text[at] == 'Z' || text[at] == 'z') && at + 1 == text.size()) {
        offset = 0;
    } else if (at + 6 == text.size() && (text[at] == '+' || text[at] == '-') && text[at + 3] == ':') {
        int oh = 0, om = 0;
        if (!digitsAt(text, at + 1, 2, oh) || !digitsAt(text, at + 4, 2, om) || oh > 23 || om > 59) {
            return std::nullopt;
        }
        offset = (text[at] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
    } else {
        return std::nullopt;
    }
    const std::int64_t days = daysFromCivil(year, unsigned(month), unsigned(day));
    return days * 86400 + hour * 3600 + minute * 60 + second - offset;
}

std::string labelText(std::string_view text)
{
    std::string out;
    for (char c : text) {
        const unsigned char u = static_cast<unsigned char>(c);
        const char l = static_cast<char>(std::tolower(u));
        out += std::isdigit(u) || (l >= 'a' && l <= 'z') || c == '-' || c == '_' ? l : '_';
        if (out.size() == kMaxLabelChars) {
            break;
        }
    }
    return out;
}

// ---- Calls.

Call machineTypesCall(const std::string& project, const std::string& machineType)
{
    Call c = call("machineTypes.aggregatedList", "GET", projectPath(project) + "/aggregated/machineTypes", true);
    // AIP-160 filter: "name = \"a2-highgpu-1g\"" (the value quoted: an exact match).
    c.query = {{"filter", "name = \"" + machineType + "\""}};
    return c;
}

Call acceleratorTypesCall(const std::string& project, const std::string& accelerator)
{
    Call c =
        call("acceleratorTypes.aggregatedList", "GET", projectPath(project) + "/aggregated/acceleratorTypes", true);
    c.query = {{"filter", "name = \"" + accelerator + "\""}};
    return c;
}

Call imageFromFamilyCall(const std::string& family)
{
    return call("images.getFromFamily",
                "GET",
                projectPath(std::string(kImageProject)) + "/global/images/family/" + seg(family),
                true);
}

Call getFirewallCall(const std::string& project, const std::string& name)
{
    return call("firewalls.get", "GET", projectPath(project) + "/global/firewalls/" + seg(name), true);
}

json firewallBody(const std::string& project, const std::string& name, const std::string& cidr)
{
    // source: https://cloud.google.com/compute/docs/reference/rest/v1/firewalls ("network": a full or partial URL of
    // the network; "projects/myproject/global/networks/my-network" is one of the documented forms)
    return json{
        {"name", name},
        {"network", "projects/" + project + "/global/networks/default"},
        {"direction", "INGRESS"},
        {"priority", 1000},
        {"allowed", json::array({json{{"IPProtocol", "tcp"}, {"ports", json::array({"22"})}}})},
        {"sourceRanges", json::array({cidr})},
        {"targetTags", json::array({name})},
        {"description", "GPU Planner: SSH from " + cidr}, // wire: the rule's description in the user's project
    };
}

Call insertFirewallCall(const std::string& project, const std::string& name, const std::string& cidr)
{
    Call c = call("firewalls.insert", "POST", projectPath(project) + "/global/firewalls", false);
    c.body = firewallBody(project, name, cidr);
    return c;
}

Call patchFirewallCall(const std::string& project, const std::string& name, const std::string& cidr)
{
    // The same rule again: a patch sets the fields it names, so a repeated patch is harmless.
    Call c = call("firewalls.patch", "PATCH", projectPath(project) + "/global/firewalls/" + seg(name), true);
    c.body = firewallBody(project, name, cidr);
    return c;
}

Call waitGlobalOperationCall(const std::string& project, const std::string& operation)
{
    return call(
        "globalOperations.wait", "POST", projectPath(project) + "/global/operations/" + seg(operation) + "/wait", true);
}

Call waitZoneOperationCall(const std::string& project, const std::string& zone, const std::string& operation)
{
    return call("zoneOperations.wait",
                "POST",
                projectPath(project) + "/zones/" + seg(zone) + "/operations/" + seg(operation) + "/wait",
                true);
}

Result<Call> insertInstanceCall(const LaunchRequest& request, const InstancePlacement& placement, std::int64_t now)
{
    Result<InstanceType> type = parseInstanceType(request.instanceType);
    if (!type) {
        return type.error();
    }
    if (request.clientToken.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.gcp.no_client_token", {}}, "client_token"};
    }
    // The token is the instance's name and its label's value: both take [a-z]([-a-z0-9]{0,61}[a-z0-9])?.
    if (!isGceName(request.clientToken)) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.gcp.client_token_invalid", {{"token", request.clientToken}}},
                     "client_token"};
    }
    if (request.pricing == LaunchPricing::Spot && request.spotPriceLimit > 0) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.gcp.spot_no_price_limit", {}}, "spot_price_limit"};
    }
    const std::string& zone = placement.zone;

    json labels = json::object();
    labels[std::string(kOwnerTagKey)] = request.clientToken;
    for (const auto& [key, value] : request.tags) {
        std::string k = labelText(key);
        if (k.empty() || !std::islower(static_cast<unsigned char>(k.front())) || k == kOwnerTagKey) {
            continue; // a label key starts with a lowercase letter; the owner label is ours
        }
        labels[k] = labelText(value);
    }
    if (labels.size() > kMaxLabels) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.gcp.too_many_labels", {{"count", std::to_string(labels.size())}}},
                     "tags"};
    }

    json items = json::array();
    std::size_t metadataBytes = 0;
    const auto item = [&](const char* key, const std::string& value) -> Status {
        if (value.size() > kMaxMetadataValueBytes) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.gcp.metadata_too_big", {{"key", key}, {"bytes", std::to_string(value.size())}}},
                         "metadata"};
        }
        metadataBytes += std::string_view(key).size() + value.size();
        items.push_back(json{{"key", key}, {"value", value}});
        return Ok{};
    };
    if (!request.sshPublicKey.empty()) {
        // "USERNAME:KEY_VALUE" (https://cloud.google.com/compute/docs/connect/add-ssh-keys#metadata)
        // wire: the metadata key Compute Engine's guest agent reads
        if (Status ok = item("ssh-keys", std::string(kLoginUser) + ":" + request.sshPublicKey); !ok) {
            return ok.error();
        }
    }
    if (!request.userData.empty()) {
        // wire: the metadata key the guest agent runs at boot
        // A string of text: the watchdog as a script, not gzip-compressed as cloud-init would take it.
        if (Status ok = item("startup-script", userDataText(request.userData)); !ok) {
            return ok.error();
        }
    }
    // Deep Learning VM images install the driver at first boot when asked
    // (https://cloud.google.com/deep-learning-vm/docs/cli#creating_an_instance_with_one_or_more_gpus).
    // wire: the metadata key and value the Deep Learning VM images read
    if (Status ok = item("install-nvidia-driver", "True"); !ok) {
        return ok.error();
    }
    if (metadataBytes >= kMaxMetadataBytes) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.gcp.metadata_too_big", {{"bytes", std::to_string(metadataBytes)}}},
                     "metadata"};
    }

    // source: https://cloud.google.com/compute/docs/reference/rest/v1/instances#scheduling; GPU instances cannot
    // live-migrate, so onHostMaintenance must be TERMINATE
    // (https://cloud.google.com/compute/docs/gpus/create-vm-with-gpus)
    json scheduling{{"onHostMaintenance", "TERMINATE"}};
    const bool spot = request.pricing == LaunchPricing::Spot;
    scheduling["provisioningModel"] = spot ? "SPOT" : "STANDARD";
    scheduling["automaticRestart"] = !spot;
    if (spot) {
        // The default action is STOP, which keeps the disk billing after a preemption.
        scheduling["instanceTerminationAction"] = "DELETE";
    }
    if (request.terminateAt > 0) {
        // terminationTime: the provider-side dead-man; GCE runs it up to 30 s late and refuses a time in the past.
        if (request.terminateAt <= now + 30) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.gcp.terminate_too_soon", {}}, "terminate_at"};
        }
        scheduling["terminationTime"] = rfc3339(request.terminateAt);
        scheduling["instanceTerminationAction"] = "DELETE";
    }

    json instance{
        {"name", request.clientToken},
        {"machineType", "zones/" + zone + "/machineTypes/" + type->machineType},
        {"labels", labels},
        {"disks",
         json::array({json{{"boot", true},
                           {"autoDelete", true},
                           {"initializeParams",
                            {{"sourceImage", placement.image},
                             // int64 is a string in the proto3 JSON mapping the SDK sends
                             {"diskSizeGb", std::to_string(kBootDiskGb)},
                             {"diskType", "zones/" + zone + "/diskTypes/pd-balanced"}}}}})},
        {"networkInterfaces",
         json::array(
             {json{{"network", "global/networks/default"},
                   // wire: the access config's name, as the console and gcloud name it
                   {"accessConfigs", json::array({json{{"type", "ONE_TO_ONE_NAT"}, {"name", "External NAT"}}})}}})},
        {"metadata", {{"items", items}}},
        {"scheduling", scheduling},
    };
    if (!type->accelerator.empty()) {
        instance["guestAccelerators"] =
            json::array({json{{"acceleratorType", "zones/" + zone + "/acceleratorTypes/" + type->accelerator},
                              {"acceleratorCount", type->acceleratorCount}}});
    }
    if (!placement.firewall.empty()) {
        instance["tags"] = json{{"items", json::array({placement.firewall})}};
    }

    Call c =
        // Safe to resend: the requestId, derived from the client token, makes Compute Engine answer a resend with the
        // operation of the first (source: InsertInstanceRequest.request_id, provider_launch_apis.md section 3.3).
        call("instances.insert", "POST", projectPath(placement.project) + "/zones/" + seg(zone) + "/instances", true);
    c.query = {{"requestId", requestId(request.clientToken)}};
    c.body = std::move(instance);
    return c;
}

Call getInstanceCall(const std::string& project, const std::string& zone, const std::string& name)
{
    return call("instances.get", "GET", projectPath(project) + "/zones/" + seg(zone) + "/instances/" + seg(name), true);
}

Call listInstancesCall(const std::string& project, const std::string& pageToken)
{
    Call c = call("instances.aggregatedList", "GET", projectPath(project) + "/aggregated/instances", true);
    // AIP-160 "has": every instance that carries the label, whatever its value.
    c.query = {{"filter", "labels." + std::string(kOwnerTagKey) + ":*"}, {"maxResults", std::to_string(kPageSize)}};
    if (!pageToken.empty()) {
        c.query.emplace_back("pageToken", pageToken);
    }
    return c;
}

Call deleteInstanceCall(const std::string& project, const std::string& zone, const std::string& name)
{
    Call c = call(
        "instances.delete", "DELETE", projectPath(project) + "/zones/" + seg(zone) + "/instances/" + seg(name), true);
    c.query = {{"requestId", requestId("delete " + instanceRef(zone, name))}};
    return c;
}

// ---- Parsers.

Result<std::vector<std::string>> parseZonesOffering(std::string_view body,
                                                    const std::string& action,
                                                    const std::string& listField,
                                                    const std::string& region)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    std::vector<std::string> zones;
    if (!doc->contains("items") || (*doc)["items"].is_null()) {
        return zones; // nothing anywhere
    }
    const json& items = (*doc)["items"];
    if (!items.is_object()) {
        return notAnObject(answer, "items", items);
    }
    for (const auto& [scope, list] : items.items()) {
        if (!scope.starts_with("zones/")) {
            continue;
        }
        const std::string zone = scope.substr(6);
        if (regionOfZone(zone) != region || !list.is_object() || !list.contains(listField)) {
            continue;
        }
        if (list[listField].is_array() && !list[listField].empty()) {
            zones.push_back(zone);
        }
    }
    std::sort(zones.begin(), zones.end());
    return zones;
}

Result<Image> parseImage(std::string_view body)
{
    const JsonAnswer answer{kProvider, "images.getFromFamily"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Image image;
    image.name = text(*doc, "name");
    image.selfLink = text(*doc, "selfLink");
    image.family = text(*doc, "family");
    image.status = text(*doc, "status");
    if (doc->contains("deprecated")) {
        image.deprecatedState = text((*doc)["deprecated"], "state");
    }
    if (image.selfLink.empty()) {
        return answer.refused("error.answer.missing", {{"field", "selfLink"}});
    }
    return image;
}

bool usable(const Image& image)
{
    if (!image.status.empty() && image.status != "READY") {
        return false;
    }
    return image.deprecatedState != "DEPRECATED" && image.deprecatedState != "OBSOLETE"
           && image.deprecatedState != "DELETED";
}

Result<Firewall> parseFirewall(std::string_view body)
{
    const JsonAnswer answer{kProvider, "firewalls.get"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Firewall firewall;
    firewall.name = text(*doc, "name");
    if (firewall.name.empty()) {
        return answer.refused("error.answer.missing", {{"field", "name"}});
    }
    firewall.network = text(*doc, "network");
    firewall.direction = text(*doc, "direction");
    firewall.disabled = doc->contains("disabled") && (*doc)["disabled"].is_boolean() && (*doc)["disabled"].get<bool>();
    Result<json> allowed = optionalList(answer, *doc, "allowed");
    if (!allowed) {
        return allowed.error();
    }
    for (const json& rule : *allowed) {
        firewall.allowed.push_back(FirewallRule{text(rule, "IPProtocol"), texts(member(rule, "ports"))});
    }
    firewall.sourceRanges = texts(member(*doc, "sourceRanges"));
    firewall.targetTags = texts(member(*doc, "targetTags"));
    return firewall;
}

bool allowsSshFrom(const Firewall& firewall, const std::string& cidr, const std::string& tag)
{
    if (firewall.disabled || (!firewall.direction.empty() && firewall.direction != "INGRESS")) {
        return false;
    }
    const auto has = [](const std::vector<std::string>& list, const std::string& value) {
        return std::find(list.begin(), list.end(), value) != list.end();
    };
    if (!has(firewall.sourceRanges, cidr) || !has(firewall.targetTags, tag)) {
        return false;
    }
    const auto holds22 = [](const std::string& ports) {
        const std::size_t dash = ports.find('-');
        int first = 0;
        int last = 0;
        const std::string from = ports.substr(0, dash);
        const std::string to = dash == std::string::npos ? from : ports.substr(dash + 1);
        if (std::from_chars(from.data(), from.data() + from.size(), first).ec != std::errc()
            || std::from_chars(to.data(), to.data() + to.size(), last).ec != std::errc()) {
            return false;
        }
        return first <= 22 && 22 <= last;
    };
    return std::any_of(firewall.allowed.begin(), firewall.allowed.end(), [&](const FirewallRule& rule) {
        const std::string protocol = lower(rule.protocol);
        if (protocol != "tcp" && protocol != "all" && protocol != "6") {
            return false;
        }
        return rule.ports.empty() || std::any_of(rule.ports.begin(), rule.ports.end(), holds22);
    });
}

Result<Operation> parseOperation(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Operation op;
    op.name = text(*doc, "name");
    op.zone = lastSegment(text(*doc, "zone"));
    op.operationType = text(*doc, "operationType");
    op.status = text(*doc, "status");
    op.targetLink = text(*doc, "targetLink");
    op.targetId = text(*doc, "targetId");
    if (doc->contains("httpErrorStatusCode") && (*doc)["httpErrorStatusCode"].is_number_integer()) {
        op.httpErrorStatusCode = (*doc)["httpErrorStatusCode"].get<int>();
    }
    if (op.name.empty()) {
        return answer.refused("error.answer.missing", {{"field", "name"}});
    }
    if (op.status.empty()) {
        return answer.refused("error.answer.missing", {{"field", "status"}});
    }
    if (doc->contains("error") && (*doc)["error"].is_object()) {
        Result<json> errors = optionalList(answer, (*doc)["error"], "errors");
        if (!errors) {
            return errors.error();
        }
        for (const json& e : *errors) {
            op.errors.push_back(OperationError{text(e, "code"), text(e, "message")});
        }
    }
    return op;
}

InstanceState stateFromGce(std::string_view status)
{
    // source: Instance.status, "PROVISIONING, STAGING, RUNNING, STOPPING, SUSPENDING, SUSPENDED, REPAIRING, and
    // TERMINATED" (https://cloud.google.com/compute/docs/instances/instance-life-cycle); the SDK's enum adds
    // PENDING, DEPROVISIONING and STOPPED.
    if (status == "RUNNING") {
        return InstanceState::Running;
    }
    if (status == "STOPPING" || status == "SUSPENDING" || status == "DEPROVISIONING" || status == "REPAIRING") {
        return InstanceState::Stopping;
    }
    if (status == "STOPPED" || status == "SUSPENDED" || status == "TERMINATED") {
        return InstanceState::Stopped;
    }
    return InstanceState::Pending;
}

Result<RemoteInstance> parseInstance(const json& instance, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    if (!instance.is_object()) {
        return notAnObject(answer, "instance", instance);
    }
    RemoteInstance out;
    const std::string name = text(instance, "name");
    const std::string zone = lastSegment(text(instance, "zone"));
    if (name.empty()) {
        return answer.refused("error.answer.missing", {{"field", "name"}});
    }
    if (zone.empty()) {
        return answer.refused("error.answer.missing", {{"field", "zone"}});
    }
    out.providerState = text(instance, "status");
    if (out.providerState.empty()) {
        return answer.refused("error.answer.missing", {{"field", "status"}});
    }
    out.instanceId = instanceRef(zone, name);
    out.zone = zone;
    out.region = regionOfZone(zone);
    out.state = stateFromGce(out.providerState);
    if (instance.contains("labels") && instance["labels"].is_object()) {
        out.clientToken = text(instance["labels"], std::string(kOwnerTagKey).c_str());
    }
    out.instanceType = lastSegment(text(instance, "machineType"));
    if (instance.contains("guestAccelerators") && instance["guestAccelerators"].is_array()
        && !instance["guestAccelerators"].empty()) {
        // The catalog's N1 name: "n1-standard-8+1xT4".
        const json& first = instance["guestAccelerators"].front();
        const std::string accelerator = lastSegment(text(first, "acceleratorType"));
        const std::string count = text(first, "acceleratorCount");
        for (const auto& [shortName, full] : kN1Gpus) {
            if (accelerator == full && !count.empty()) {
                out.instanceType += "+" + count + "x" + std::string(shortName);
            }
        }
    }
    if (const auto at = parseRfc3339(text(instance, "creationTimestamp"))) {
        out.launchedAt = *at;
    }
    if (instance.contains("networkInterfaces") && instance["networkInterfaces"].is_array()) {
        for (const json& nic : instance["networkInterfaces"]) {
            if (!nic.is_object() || !nic.contains("accessConfigs") || !nic["accessConfigs"].is_array()) {
                continue;
            }
            for (const json& access : nic["accessConfigs"]) {
                if (out.publicIp.empty()) {
                    out.publicIp = text(access, "natIP");
                }
            }
        }
    }
    const std::string model =
        instance.contains("scheduling") ? text(instance["scheduling"], "provisioningModel") : std::string();
    out.pricingMode = model == "SPOT" ? "spot" : "on_demand";
    return out;
}

Result<RemoteInstance> parseInstance(std::string_view body)
{
    const JsonAnswer answer{kProvider, "instances.get"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    return parseInstance(*doc, answer.action());
}

Result<InstancesPage> parseInstancesPage(std::string_view body, const std::string& region)
{
    const JsonAnswer answer{kProvider, "instances.aggregatedList"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    InstancesPage page;
    page.nextPageToken = text(*doc, "nextPageToken");
    if (!doc->contains("items") || (*doc)["items"].is_null()) {
        return page;
    }
    const json& items = (*doc)["items"];
    if (!items.is_object()) {
        return notAnObject(answer, "items", items);
    }
    for (const auto& [scope, list] : items.items()) {
        if (!scope.starts_with("zones/") || regionOfZone(scope.substr(6)) != region || !list.is_object()) {
            continue;
        }
        Result<json> instances = optionalList(answer, list, "instances");
        if (!instances) {
            return instances.error();
        }
        for (const json& instance : *instances) {
            Result<RemoteInstance> parsed = parseInstance(instance, answer.action());
            if (!parsed) {
                return parsed.error();
            }
            page.instances.push_back(std::move(parsed).value());
        }
    }
    return page;
}

// ---- Errors.

std::optional<ApiError> apiError(std::string_view body)
{
    json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("error") || !doc["error"].is_object()) {
        return std::nullopt;
    }
    const json& error = doc["error"];
    ApiError api;
    api.message = text(error, "message");
    if (error.contains("errors") && error["errors"].is_array() && !error["errors"].empty()) {
        api.code = text(error["errors"].front(), "reason");
        if (api.message.empty()) {
            api.message = text(error["errors"].front(), "message");
        }
    }
    if (api.code.empty()) {
        api.code = text(error, "status");
    }
    return api;
}

std::string quotaMetric(const std::string& message)
{
    // "Quota 'NVIDIA_T4_GPUS' exceeded. Limit: 0.0 in region us-central1."
    const std::string marker = "Quota '";
    const std::size_t at = message.find(marker);
    if (at == std::string::npos) {
        return {};
    }
    const std::size_t start = at + marker.size();
    const std::size_t end = message.find('\'', start);
    return end == std::string::npos ? std::string() : message.substr(start, end - start);
}

std::string permissionOf(const std::string& message)
{
    // "Required 'compute.instances.create' permission for 'projects/p/zones/z/instances/i'"
    const std::string marker = "Required '";
    const std::size_t at = message.find(marker);
    if (at == std::string::npos) {
        return {};
    }
    const std::size_t start = at + marker.size();
    const std::size_t end = message.find('\'', start);
    return end == std::string::npos ? std::string() : message.substr(start, end - start);
}

std::string roleFor(const std::string& permission)
{
    // source: https://cloud.google.com/compute/docs/access/iam (Compute Security Admin holds compute.firewalls.*;
    // Compute Instance Admin (v1) holds compute.instances.*, images, machine and accelerator types, operations)
    return permission.starts_with("compute.firewalls.") ? "roles/compute.securityAdmin"
                                                        : "roles/compute.instanceAdmin.v1";
}

std::string permissionFor(const std::string& action)
{
    static const std::map<std::string, std::string> permissions{
        {"machineTypes.aggregatedList", "compute.machineTypes.list"},
        {"acceleratorTypes.aggregatedList", "compute.acceleratorTypes.list"},
        {"images.getFromFamily", "compute.images.getFromFamily"},
        {"firewalls.get", "compute.firewalls.get"},
        {"firewalls.insert", "compute.firewalls.create"},
        {"firewalls.patch", "compute.firewalls.update"},
        {"globalOperations.wait", "compute.globalOperations.get"},
        {"zoneOperations.wait", "compute.zoneOperations.get"},
        {"instances.insert", "compute.instances.create"},
        {"instances.get", "compute.instances.get"},
        {"instances.aggregatedList", "compute.instances.list"},
        {"instances.delete", "compute.instances.delete"},
    };
    const auto found = permissions.find(action);
    return found == permissions.end() ? std::string() : found->second;
}

namespace {

// One refusal, from an HTTP answer or an operation's error: its code ("forbidden", "QUOTA_EXCEEDED"), message and
// HTTP status.
Error classify(int status, const std::string& code, const std::string& message, const ErrorContext& context)
{
    const std::string where = "gcp " + context.action + (context.zone.empty() ? "" : " in " + context.zone);
    Reason reason{{}, {{"action", context.action}}};
    const auto add = [&reason](const char* name, const std::string& value) {
        if (!value.empty()) {
            reason.params[name] = value;
        }
    };
    add("code", code);
    add("said", message);
    const std::string said = lower(message);
    ErrorCode mapped = ErrorCode::ProviderRefused;
    // source: https://cloud.google.com/compute/docs/troubleshooting/troubleshooting-resource-availability (capacity),
    // https://cloud.google.com/compute/api-quota (rate limits), https://cloud.google.com/compute/docs/troubleshooting/
    // troubleshooting-vm-creation (quota, permission); reference section 3.5 lists the messages.
    // wire: Compute Engine's own codes and words, matched here and never shown
    const bool capacity = code == "ZONE_RESOURCE_POOL_EXHAUSTED" || code == "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS"
                          || contains(said, "does not have enough resources available");
    // wire: Compute Engine's own codes and words, matched here and never shown
    const bool quota = code == "QUOTA_EXCEEDED" || code == "quotaExceeded"
                       || (contains(message, "Quota '") && contains(said, "exceeded"));
    const bool throttled = status == 429 || code == "rateLimitExceeded" || code == "userRateLimitExceeded"
                           || code == "RATE_LIMIT_EXCEEDED" || code == "RESOURCE_EXHAUSTED";
    // wire: Compute Engine's own codes and words, matched here and never shown
    const bool apiOff = code == "accessNotConfigured" || code == "SERVICE_DISABLED"
                        || contains(said, "has not been used in project") || contains(said, "api has not been used");
    // wire: Compute Engine's own words, matched here and never shown
    const bool noNetwork = contains(message, "global/networks/default")
                           && (code == "notFound" || code == "RESOURCE_NOT_FOUND" || contains(said, "not found"));
    // wire: Compute Engine's own codes and words, matched here and never shown
    const bool permission = code == "forbidden" || code == "insufficientPermissions" || code == "PERMISSION_DENIED"
                            || code == "PERMISSIONS_ERROR" || contains(message, "Required '");
    const bool unauthenticated = status == 401 || code == "authError" || code == "UNAUTHENTICATED";
    const bool notFound = status == 404 || code == "notFound" || code == "RESOURCE_NOT_FOUND" || code == "NOT_FOUND";

    if (capacity) {
        mapped = ErrorCode::InsufficientCapacity;
        reason.key = "error.gcp.capacity";
        add("instance_type", context.instanceType);
        add("zone", context.zone);
    } else if (quota) {
        mapped = ErrorCode::QuotaExceeded;
        reason.key = "error.gcp.quota";
        add("metric", quotaMetric(message));
        add("region", context.region);
    } else if (throttled) {
        mapped = ErrorCode::Throttled;
        reason.key = "error.gcp.throttled";
    } else if (apiOff) {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.gcp.api_disabled";
        add("project", context.project);
    } else if (noNetwork) {
        reason.key = "error.gcp.no_default_network";
        add("project", context.project);
    } else if (unauthenticated) {
        mapped = ErrorCode::Credentials;
        reason.key = "error.gcp.key_refused";
    } else if (permission || status == 403) {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.gcp.permission";
        std::string needed = permissionOf(message);
        if (needed.empty()) {
            needed = permissionFor(context.action);
        }
        add("permission", needed);
        add("role", roleFor(needed));
        add("project", context.project);
    } else if (notFound) {
        mapped = ErrorCode::NotFound;
        reason.key = "error.gcp.not_found";
    } else {
        reason.key = "error.gcp.refused";
    }
    return Error{mapped, std::move(reason), where, status, code};
}

} // namespace

std::optional<Error> mapError(const HttpResponse& response, const ErrorContext& context)
{
    if (response.status >= 200 && response.status < 300) {
        return std::nullopt;
    }
    std::optional<ApiError> api = apiError(response.body);
    if (!api) {
        const std::string where = "gcp " + context.action;
        if (response.status == 429) {
            return Error{ErrorCode::Throttled,
                         Reason{"error.gcp.throttled", {{"action", context.action}}},
                         where,
                         response.status};
        }
        if (response.status == 404) {
            return Error{ErrorCode::NotFound,
                         Reason{"error.gcp.not_found", {{"action", context.action}}},
                         where,
                         response.status};
        }
        if (response.status == 401) {
            return Error{ErrorCode::Credentials,
                         Reason{"error.gcp.key_refused", {{"action", context.action}}},
                         where,
                         response.status};
        }
        return Error{
            ErrorCode::HttpStatus,
            Reason{"error.gcp.http_status", {{"status", std::to_string(response.status)}, {"action", context.action}}},
            where,
            response.status};
    }
    return classify(response.status, api->code, api->message, context);
}

Error operationFailure(const Operation& operation, const ErrorContext& context)
{
    const OperationError first = operation.errors.empty() ? OperationError{} : operation.errors.front();
    // The capacity or quota refusal wherever it is among the errors.
    for (const OperationError& e : operation.errors) {
        const Error mapped = classify(operation.httpErrorStatusCode, e.code, e.message, context);
        if (mapped.code == ErrorCode::InsufficientCapacity || mapped.code == ErrorCode::QuotaExceeded) {
            return mapped;
        }
    }
    Error out = classify(operation.httpErrorStatusCode, first.code, first.message, context);
    if (out.reason.key == "error.gcp.refused") {
        out.reason.key = "error.gcp.operation_failed";
        out.reason.params["operation"] = operation.name;
    }
    return out;
}

} // namespace gpuplan::core::gcp
