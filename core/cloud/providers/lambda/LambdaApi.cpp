// The Lambda Cloud API calls as GPU Planner uses them: each operation's request, its documented JSON answer's parser,
// and the error mapping with its advice.

#include "gpuplan/cloud/providers/lambda/LambdaApi.h"

#include "gpuplan/cloud/JsonAnswer.h"
#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/WatchdogScript.h"
#include "gpuplan/net/signers/ApiKey.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

namespace gpuplan::core::lambda {

namespace {

using json_answer::text;
using nlohmann::json;

constexpr const char* kProvider = "lambda";

// The answer's "data" member, checked to be an object (`list` false) or an array (`list` true).
Result<json> dataOf(std::string_view body, const JsonAnswer& answer, bool list)
{
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    if (list) {
        return answer.list(*doc, "data");
    }
    const json& data = json_answer::member(*doc, "data");
    if (data.is_null()) {
        return answer.refused("error.answer.missing", {{"field", "data"}});
    }
    if (!data.is_object()) {
        return answer.refused("error.answer.invalid", {{"field", "data"}, {"found", data.type_name()}});
    }
    return data;
}

// The type and base64 blob of an OpenSSH public key line ("ssh-ed25519 AAAA... comment").
std::pair<std::string, std::string> keyParts(const std::string& line)
{
    std::istringstream in(line);
    std::string type;
    std::string blob;
    in >> type >> blob;
    return {type, blob};
}

bool isHex(const std::string& text)
{
    return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

Result<Instance> instanceOf(const json& data, const JsonAnswer& answer)
{
    Instance out;
    out.remote.instanceId = text(data, "id");
    if (out.remote.instanceId.empty()) {
        return answer.refused("error.answer.missing", {{"field", "id"}});
    }
    const std::string status = text(data, "status");
    if (status.empty()) {
        return answer.refused("error.answer.missing", {{"field", "status"}});
    }
    out.name = text(data, "name");
    out.remote.clientToken = isOurs(out.name) ? out.name : std::string();
    out.remote.providerState = status;
    out.remote.state = stateFromStatus(status);
    out.remote.region = text(data.value("region", json::object()), "name");
    out.remote.zone = out.remote.region; // one zone per region
    out.remote.instanceType = text(data.value("instance_type", json::object()), "name");
    out.remote.publicIp = text(data, "ip");
    out.remote.pricingMode = "on_demand"; // Lambda's API launches on-demand instances only
    return out;
}

} // namespace

std::string baseUrl(const std::string& endpoint)
{
    std::string base = endpoint.empty() ? std::string(kDefaultBase) : endpoint;
    while (!base.empty() && base.back() == '/') {
        base.pop_back();
    }
    return base + "/api/v1"; // wire: the API's path prefix
}

std::string body(const Call& call)
{
    return call.body.is_null() ? std::string() : call.body.dump(-1, ' ', false, json::error_handler_t::replace);
}

HttpRequest buildRequest(const Call& call, const std::string& endpoint, const std::string& apiKey)
{
    HttpRequest request;
    request.method = call.method;
    request.url = baseUrl(endpoint) + call.path;
    request.safeToRetry = call.safeToRetry;
    request.headers.push_back({"Accept", "application/json"}); // wire: the media type the API answers in
    if (!call.body.is_null()) {
        request.body = body(call);
        request.headers.push_back({"Content-Type", "application/json"}); // wire: the body's media type
    }
    authorizeWithApiKey(request, apiKey);
    return request;
}

Result<std::string> keyName(const std::string& sshPublicKey)
{
    Result<std::string> id = publicKeyId(sshPublicKey);
    if (!id) {
        return id.error();
    }
    return std::string(kKeyPrefix) + *id; // wire: the name the key is stored under in the user's account
}

bool samePublicKey(const std::string& a, const std::string& b)
{
    const auto [typeA, blobA] = keyParts(a);
    const auto [typeB, blobB] = keyParts(b);
    return !blobA.empty() && typeA == typeB && blobA == blobB;
}

bool isOurs(const std::string& name)
{
    return name.starts_with(kOwnedPrefix);
}

bool looksLikeImageId(const std::string& image)
{
    if (image.size() == 32) {
        return isHex(image);
    }
    if (image.size() != 36) {
        return false;
    }
    for (std::size_t i = 0; i < image.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? image[i] != '-' : std::isxdigit(static_cast<unsigned char>(image[i])) == 0) {
            return false;
        }
    }
    return true;
}

Call listInstanceTypesCall()
{
    return Call{"listInstanceTypes", "GET", "/instance-types", nullptr, true};
}

Call listSshKeysCall()
{
    return Call{"listSSHKeys", "GET", "/ssh-keys", nullptr, true};
}

Call addSshKeyCall(const std::string& name, const std::string& sshPublicKey)
{
    // Not retried by the client: a resent add answers that the name is taken, which ensureKeyPair handles by listing.
    return Call{"addSSHKey", "POST", "/ssh-keys", json{{"name", name}, {"public_key", sshPublicKey}}, false};
}

Call listInstancesCall()
{
    return Call{"listInstances", "GET", "/instances", nullptr, true};
}

Call getInstanceCall(const std::string& instanceId)
{
    return Call{"getInstance", "GET", "/instances/" + instanceId, nullptr, true};
}

Result<Call> launchCall(const LaunchRequest& request, const std::string& sshKeyName)
{
    if (request.clientToken.empty() || request.clientToken.size() > kMaxNameChars || !isOurs(request.clientToken)) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.lambda.client_token_invalid", {{"token", request.clientToken}}},
                     "clientToken"};
    }
    const std::string userData = userDataText(request.userData); // a JSON string: text, not gzip
    if (userData.size() > kMaxUserDataBytes) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.lambda.user_data_too_big", {{"bytes", std::to_string(userData.size())}}},
                     "userData"};
    }
    // The fields of the reference's example launch (addSSHKey, step 3): region_name, instance_type_name,
    // ssh_key_names ("exactly one SSH key must be specified"), file_system_names [], quantity 1, name.
    json launch{{"region_name", request.region},
                {"instance_type_name", request.instanceType},
                {"ssh_key_names", json::array({sshKeyName})},
                {"file_system_names", json::array()},
                {"quantity", 1},
                {"name", request.clientToken}};
    if (!userData.empty()) {
        launch["user_data"] = userData; // "must be plain text": sent as is, not base64
    }
    if (!request.imageId.empty()) {
        // ImageSpecificationID {"id"} or ImageSpecificationFamily {"family"}
        launch["image"] =
            looksLikeImageId(request.imageId) ? json{{"id", request.imageId}} : json{{"family", request.imageId}};
    }
    return Call{"launchInstance", "POST", "/instance-operations/launch", std::move(launch), false};
}

Call terminateCall(const std::string& instanceId)
{
    // Safe to resend: terminating a terminated instance changes nothing (it answers not found, read as gone).
    return Call{"terminateInstance",
                "POST",
                "/instance-operations/terminate",
                json{{"instance_ids", json::array({instanceId})}},
                true};
}

Result<std::vector<InstanceTypeOffer>> parseInstanceTypes(std::string_view body)
{
    const JsonAnswer answer{kProvider, "listInstanceTypes"};
    Result<json> data = dataOf(body, answer, false);
    if (!data) {
        return data.error();
    }
    std::vector<InstanceTypeOffer> offers;
    for (const auto& [name, item] : data->items()) {
        if (!item.is_object() || !item.contains("instance_type") || !item["instance_type"].is_object()) {
            return answer.refused("error.answer.missing", {{"field", "data." + name + ".instance_type"}});
        }
        const json& type = item["instance_type"];
        InstanceTypeOffer offer;
        offer.name = text(type, "name").empty() ? name : text(type, "name");
        offer.description = text(type, "description");
        offer.gpuDescription = text(type, "gpu_description");
        if (const auto price = type.find("price_cents_per_hour"); price != type.end() && price->is_number()) {
            offer.priceCentsPerHour =
                price->is_number_integer() ? price->get<long long>() : static_cast<long long>(price->get<double>());
        }
        const auto regions = item.find("regions_with_capacity_available");
        if (regions == item.end() || !regions->is_array()) {
            return answer.refused("error.answer.missing",
                                  {{"field", "data." + name + ".regions_with_capacity_available"}});
        }
        for (const json& region : *regions) {
            if (const std::string r = text(region, "name"); !r.empty()) {
                offer.regionsWithCapacity.push_back(r);
            }
        }
        offers.push_back(std::move(offer));
    }
    return offers;
}

const InstanceTypeOffer* findOffer(const std::vector<InstanceTypeOffer>& offers, const std::string& type)
{
    const auto found =
        std::find_if(offers.begin(), offers.end(), [&type](const InstanceTypeOffer& o) { return o.name == type; });
    return found == offers.end() ? nullptr : &*found;
}

Result<std::vector<SshKey>> parseSshKeys(std::string_view body)
{
    const JsonAnswer answer{kProvider, "listSSHKeys"};
    Result<json> data = dataOf(body, answer, true);
    if (!data) {
        return data.error();
    }
    std::vector<SshKey> keys;
    for (const json& key : *data) {
        SshKey k{text(key, "id"), text(key, "name"), text(key, "public_key")};
        if (k.name.empty()) {
            return answer.refused("error.answer.missing", {{"field", "data[].name"}});
        }
        keys.push_back(std::move(k));
    }
    return keys;
}

Result<SshKey> parseAddedSshKey(std::string_view body)
{
    const JsonAnswer answer{kProvider, "addSSHKey"};
    Result<json> data = dataOf(body, answer, false);
    if (!data) {
        return data.error();
    }
    SshKey key{text(*data, "id"), text(*data, "name"), text(*data, "public_key")};
    if (key.name.empty()) {
        return answer.refused("error.answer.missing", {{"field", "data.name"}});
    }
    return key;
}

Result<Instance> parseInstance(std::string_view body)
{
    const JsonAnswer answer{kProvider, "getInstance"};
    Result<json> data = dataOf(body, answer, false);
    if (!data) {
        return data.error();
    }
    return instanceOf(*data, answer);
}

Result<std::vector<Instance>> parseInstances(std::string_view body)
{
    const JsonAnswer answer{kProvider, "listInstances"};
    Result<json> data = dataOf(body, answer, true);
    if (!data) {
        return data.error();
    }
    std::vector<Instance> instances;
    for (const json& item : *data) {
        Result<Instance> instance = instanceOf(item, answer);
        if (!instance) {
            return instance.error();
        }
        instances.push_back(std::move(instance).value());
    }
    return instances;
}

Result<std::vector<std::string>> parseLaunch(std::string_view body)
{
    const JsonAnswer answer{kProvider, "launchInstance"};
    Result<json> data = dataOf(body, answer, false);
    if (!data) {
        return data.error();
    }
    std::vector<std::string> ids;
    if (const auto list = data->find("instance_ids"); list != data->end() && list->is_array()) {
        for (const json& id : *list) {
            if (id.is_string() && !id.get<std::string>().empty()) {
                ids.push_back(id.get<std::string>());
            }
        }
    }
    if (ids.empty()) {
        return answer.refused("error.answer.missing", {{"field", "data.instance_ids"}});
    }
    return ids;
}

Result<std::vector<std::string>> parseTerminate(std::string_view body)
{
    const JsonAnswer answer{kProvider, "terminateInstance"};
    Result<json> data = dataOf(body, answer, false);
    if (!data) {
        return data.error();
    }
    const auto list = data->find("terminated_instances");
    if (list == data->end() || !list->is_array()) {
        return answer.refused("error.answer.missing", {{"field", "data.terminated_instances"}});
    }
    std::vector<std::string> ids;
    for (const json& instance : *list) {
        if (const std::string id = text(instance, "id"); !id.empty()) {
            ids.push_back(id);
        }
    }
    return ids;
}

InstanceState stateFromStatus(std::string_view status)
{
    if (status == "active" || status == "unhealthy") {
        return InstanceState::Running;
    }
    if (status == "terminating") {
        return InstanceState::Stopping;
    }
    if (status == "terminated" || status == "preempted") {
        return InstanceState::Terminated;
    }
    return InstanceState::Pending; // booting, and any status the reference does not list yet
}

std::optional<LambdaError> apiError(std::string_view body)
{
    const json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        return std::nullopt;
    }
    const auto error = doc.find("error");
    if (error == doc.end() || !error->is_object() || text(*error, "code").empty()) {
        return std::nullopt;
    }
    return LambdaError{text(*error, "code"), text(*error, "message"), text(*error, "suggestion")};
}

std::optional<Error> mapError(const HttpResponse& response, const CallContext& context)
{
    if (response.status >= 200 && response.status < 300) {
        return std::nullopt;
    }
    // wire: where the error happened, the call and region as Lambda names them
    const std::string where = "lambda " + context.action + (context.region.empty() ? "" : " in " + context.region);
    const std::optional<LambdaError> api = apiError(response.body);
    Reason reason{{}, {{"action", context.action}}};
    const auto add = [&reason](const char* name, const std::string& value) {
        if (!value.empty()) {
            reason.params[name] = value;
        }
    };
    std::string code;
    if (api) {
        code = api->code;
        add("code", api->code);
        add("said", api->message);
        add("suggestion", api->suggestion);
    }
    ErrorCode mapped = ErrorCode::ProviderRefused;
    // The codes are those of the API reference's error schemas (ApiError*: "code" const) and its introduction
    // ("provider/" prefix: errors of upstream providers).
    if (response.status == 429) {
        // The reference documents the limits, not the 429 answer's body: the status decides.
        mapped = ErrorCode::Throttled;
        reason.key = "error.lambda.throttled";
    } else if (code == "instance-operations/launch/insufficient-capacity") {
        mapped = ErrorCode::InsufficientCapacity;
        reason.key = "error.lambda.insufficient_capacity";
        add("instance_type", context.instanceType);
        add("region", context.region);
    } else if (code == "global/quota-exceeded") {
        mapped = ErrorCode::QuotaExceeded;
        reason.key = "error.lambda.quota";
        add("instance_type", context.instanceType);
    } else if (code == "global/invalid-api-key" || response.status == 401) {
        mapped = ErrorCode::Credentials;
        reason.key = "error.lambda.key_refused";
    } else if (code == "global/account-inactive") {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.lambda.account_inactive";
    } else if (code == "global/invalid-address") {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.lambda.billing_address";
    } else if (code == "global/forbidden" || response.status == 403) {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.lambda.forbidden";
    } else if (code == "global/object-does-not-exist" || code == "global/not-found" || response.status == 404) {
        mapped = ErrorCode::NotFound;
        reason.key = "error.lambda.not_found";
    } else if (response.status >= 500 || code.starts_with("provider/") || code == "global/internal-error") {
        reason.key = "error.lambda.server_error";
        add("status", std::to_string(response.status));
    } else if (!api) {
        mapped = ErrorCode::HttpStatus;
        reason.key = "error.lambda.http_status";
        add("status", std::to_string(response.status));
    } else if (code == "global/invalid-parameters") {
        reason.key = "error.lambda.invalid_parameters";
    } else {
        reason.key = "error.lambda.refused";
    }
    return Error{mapped, std::move(reason), where, response.status, code};
}

} // namespace gpuplan::core::lambda
