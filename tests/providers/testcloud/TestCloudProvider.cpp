#include "TestCloudProvider.h"

#include "gpuplan/cloud/JsonAnswer.h"
#include "gpuplan/cloud/ProviderError.h"
#include "gpuplan/cloud/VmProvider.h"
#include "gpuplan/net/signers/ApiKey.h"

#include <nlohmann/json.hpp>

namespace gpuplan::testing {

namespace {

using namespace gpuplan::core;
using nlohmann::json;

using json_answer::text; // the kit's reader of a JSON answer's member

InstanceState stateFrom(const std::string& state)
{
    if (state == "running") {
        return InstanceState::Running;
    }
    if (state == "terminating") {
        return InstanceState::Stopping;
    }
    if (state == "terminated") {
        return InstanceState::Terminated;
    }
    return InstanceState::Pending;
}

RemoteInstance instanceFrom(const json& node, const std::string& region)
{
    RemoteInstance out;
    out.instanceId = text(node, "id");
    out.providerState = text(node, "state");
    out.state = stateFrom(out.providerState);
    out.region = region;
    out.zone = text(node, "zone");
    out.instanceType = text(node, "type");
    out.publicIp = text(node, "public_ip");
    if (const auto tags = node.find("tags"); tags != node.end() && tags->is_object()) {
        out.clientToken = text(*tags, std::string(kOwnerTagKey).c_str());
    }
    return out;
}

class TestCloudProvider final : public VmProvider
{
public:
    explicit TestCloudProvider(ProviderContext context)
        : VmProvider(testCloudDescriptor(), std::move(context))
    { }

    Result<std::vector<std::string>>
    zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel) override
    {
        Result<json> answer = call("GET", "/v1/zones?region=" + region + "&type=" + instanceType, {}, {}, cancel);
        if (!answer) {
            return answer.error();
        }
        std::vector<std::string> zones;
        for (const json& zone : answer->value("zones", json::array())) {
            if (zone.is_string()) {
                zones.push_back(zone.get<std::string>());
            }
        }
        return zones;
    }

    Result<RemoteInstance>
    describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel) override
    {
        Result<json> answer =
            call("GET", "/v1/instances/" + instanceId, {}, CallContext{"GetInstance", region}, cancel);
        if (!answer) {
            return answer.error();
        }
        return instanceFrom(answer->value("instance", json::object()), region);
    }

    Result<std::vector<RemoteInstance>> listOurs(const std::string& region, const CancelToken* cancel) override
    {
        Result<json> answer =
            call("GET", "/v1/instances?region=" + region + "&tag=" + std::string(kOwnerTagKey), {}, {}, cancel);
        if (!answer) {
            return answer.error();
        }
        std::vector<RemoteInstance> out;
        for (const json& node : answer->value("instances", json::array())) {
            out.push_back(instanceFrom(node, region));
        }
        return out;
    }

    Status terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel) override
    {
        Result<json> answer =
            call("DELETE", "/v1/instances/" + instanceId, {}, CallContext{"DeleteInstance", region}, cancel);
        if (!answer && answer.error().code != ErrorCode::NotFound) {
            return answer.error();
        }
        return Ok{};
    }

protected:
    Result<std::string>
    findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel) override
    {
        if (!request.imageId.empty()) {
            result.steps.push_back(Reason{"step.image_given", {{"image", request.imageId}}});
            return request.imageId;
        }
        Result<json> answer = call("GET", "/v1/images?gpu_driver=true", {}, {}, cancel);
        if (!answer) {
            return answer.error();
        }
        std::string newest;
        std::string created;
        for (const json& image : answer->value("images", json::array())) {
            if (text(image, "created") > created) {
                created = text(image, "created");
                newest = text(image, "id");
            }
        }
        if (newest.empty()) {
            return Error{ErrorCode::NotFound, Reason{"error.provider.no_gpu_image", {{"provider", name()}}}, "image"};
        }
        result.steps.push_back(Reason{"step.image_found", {{"image", newest}}});
        return newest;
    }

    Result<std::string>
    ensureKeyPair(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel) override
    {
        const std::string name =
            "gpuplanner-" + std::to_string(std::hash<std::string>{}(request.sshPublicKey) % 100000);
        Result<json> keys = call("GET", "/v1/keys", {}, {}, cancel);
        if (!keys) {
            return keys.error();
        }
        for (const json& key : keys->value("keys", json::array())) {
            if (text(key, "name") == name) {
                result.steps.push_back(Reason{"step.key_pair_found", {{"key_pair", name}}});
                return name;
            }
        }
        if (request.dryRun) {
            result.steps.push_back(Reason{"step.key_pair_would_import", {{"key_pair", name}}});
            return std::string();
        }
        Result<json> imported =
            call("POST", "/v1/keys", json{{"name", name}, {"public_key", request.sshPublicKey}}, {}, cancel);
        if (!imported && imported.error().providerCode != "key_exists") {
            return imported.error();
        }
        result.steps.push_back(Reason{"step.key_pair_imported", {{"key_pair", name}}});
        return name;
    }

    Result<std::string>
    ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel) override
    {
        const std::string name = "gpuplanner-ssh-" + request.sshSourceCidr.substr(0, request.sshSourceCidr.find('/'));
        Result<json> found = call("GET", "/v1/firewalls?region=" + request.region + "&name=" + name, {}, {}, cancel);
        if (!found) {
            return found.error();
        }
        const json rule{{"port", 22}, {"source", request.sshSourceCidr}};
        for (const json& firewall : found->value("firewalls", json::array())) {
            const std::string id = text(firewall, "id");
            const json rules = firewall.value("rules", json::array());
            if (std::find(rules.begin(), rules.end(), rule) != rules.end()) {
                result.steps.push_back(Reason{"step.group_found", {{"group_name", name}, {"group_id", id}}});
                return id;
            }
            if (!request.dryRun) {
                Result<json> added = call("POST", "/v1/firewalls/" + id + "/rules", rule, {}, cancel);
                if (!added) {
                    return added.error();
                }
            }
            const std::map<std::string, std::string> ids{{"group_id", id}, {"cidr", request.sshSourceCidr}};
            result.steps.push_back(request.dryRun ? Reason{"step.group_ssh_rule_would_add", ids}
                                                  : Reason{"step.group_ssh_rule_added_again", ids});
            return id;
        }
        if (request.dryRun) {
            result.steps.push_back(
                Reason{"step.group_would_create", {{"group_name", name}, {"cidr", request.sshSourceCidr}}});
            return std::string();
        }
        Result<json> created = call("POST",
                                    "/v1/firewalls",
                                    json{{"region", request.region}, {"name", name}, {"rules", json::array({rule})}},
                                    {},
                                    cancel);
        if (!created) {
            return created.error();
        }
        result.steps.push_back(
            Reason{"step.group_created",
                   {{"group_name", name}, {"group_id", text(*created, "id")}, {"cidr", request.sshSourceCidr}}});
        return text(*created, "id");
    }

    Status run(const LaunchRequest& request,
               const LaunchPieces& pieces,
               LaunchResult& result,
               const CancelToken* cancel) override
    {
        json tags = json::object();
        for (const auto& [key, value] : request.tags) {
            tags[key] = value;
        }
        tags[std::string(kOwnerTagKey)] = request.clientToken;
        const json body{{"region", request.region},
                        {"zone", request.zone},
                        {"type", request.instanceType},
                        {"image", pieces.imageId},
                        {"key", pieces.keyPair},
                        {"firewall", pieces.firewall},
                        {"user_data", request.userData},
                        {"spot", request.pricing == LaunchPricing::Spot},
                        {"terminate_at", request.terminateAt},
                        {"client_token", request.clientToken},
                        {"dry_run", request.dryRun},
                        {"tags", tags}};
        CallContext context{"CreateInstance",
                            request.region,
                            request.instanceType,
                            request.zone,
                            request.pricing == LaunchPricing::Spot};
        Result<json> answer = call("POST", "/v1/instances", body, context, cancel, true);
        if (!answer) {
            return answer.error();
        }
        if (request.dryRun) {
            result.dryRunPassed = true;
            result.steps.push_back(Reason{"step.dry_run_passed", {}});
            return Ok{};
        }
        const RemoteInstance launched = instanceFrom(answer->value("instance", json::object()), request.region);
        result.instanceId = launched.instanceId;
        result.state = launched.state;
        result.zone = launched.zone;
        result.steps.push_back(
            Reason{"step.launched", {{"instance_id", launched.instanceId}, {"zone", launched.zone}}});
        return Ok{};
    }

private:
    /// The provider's name as the user reads it in an error ("Test Cloud").
    static const std::string& name() { return testCloudDescriptor().name; }

    /// Sends one call with the bearer key; a JSON answer, or the error the API's {"error": {code, message}} and
    /// HTTP status mean.
    Result<json> call(const std::string& method,
                      const std::string& path,
                      const json& body,
                      CallContext context,
                      const CancelToken* cancel,
                      bool hasClientToken = false)
    {
        if (!m_context.http) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.provider.no_transport", {}}, "testcloud"};
        }
        if (m_context.endpoint.empty()) {
            return Error{
                ErrorCode::InvalidArgument, Reason{"error.provider.no_endpoint", {{"provider", name()}}}, "testcloud"};
        }
        HttpRequest request;
        request.method = method;
        request.url = m_context.endpoint + path;
        if (!body.is_null()) {
            request.body = body.dump();
            request.headers.push_back({"Content-Type", "application/json"});
        }
        request.safeToRetry = method != "POST" || hasClientToken;
        authorizeWithApiKey(request, m_context.key.secret);
        Result<HttpResponse> response = m_context.http->send(request, cancel);
        if (!response) {
            return response.error();
        }
        if (response->status >= 200 && response->status < 300) {
            return JsonAnswer("testcloud", method + " " + path).document(response->body);
        }
        const json answer = json::parse(response->body, nullptr, false);
        const json error = answer.is_object() ? answer.value("error", json::object()) : json::object();
        const ApiError api{text(error, "code"), text(error, "message"), text(error, "request_id")};
        // The generic error.provider.* keys, worded for any provider: a new one joins without new wording.
        Error out{ErrorCode::ProviderRefused,
                  Reason{"error.provider.refused",
                         {{"provider", name()},
                          {"action", context.action.empty() ? method + " " + path : context.action},
                          {"code", api.code}}},
                  "testcloud " + context.region,
                  response->status,
                  api.code};
        if (api.code == "no_capacity") {
            out.code = ErrorCode::InsufficientCapacity;
            out.reason =
                Reason{"error.provider.no_capacity", {{"instance_type", context.instanceType}, {"zone", context.zone}}};
        } else if (api.code == "quota_exceeded") {
            out.code = ErrorCode::QuotaExceeded;
        } else if (api.code == "forbidden") {
            out.code = ErrorCode::PermissionDenied;
        } else if (response->status == 401) {
            out.code = ErrorCode::Credentials;
            out.reason = Reason{"error.provider.key_refused", {{"provider", name()}}};
        } else if (response->status == 429) {
            out.code = ErrorCode::Throttled;
        } else if (response->status == 404) {
            out.code = ErrorCode::NotFound;
        }
        return out;
    }
};

} // namespace

const core::ProviderDescriptor& testCloudDescriptor()
{
    static const core::ProviderDescriptor descriptor{
        "testcloud",
        "Test Cloud",
        "测试云",
        {{"api_key", CredentialFieldKind::Secret}},
        // It rents by the hour only and has no provider-side timer (keys the wording does not know: they read as the
        // key).
        {{CloudFeature::Subscription, Reason{"unsupported.testcloud.subscription", {}}},
         {CloudFeature::ScheduledTerminate, Reason{"unsupported.testcloud.scheduled_terminate", {}}}},
        [](ProviderContext context) -> std::unique_ptr<CloudProvider> {
            return std::make_unique<TestCloudProvider>(std::move(context));
        },
    };
    return descriptor;
}

} // namespace gpuplan::testing
