#include "gpuplan/cloud/providers/paperspace/PaperspaceProvider.h"

#include "gpuplan/cloud/VmProvider.h"
#include "gpuplan/cloud/WatchdogScript.h"
#include "gpuplan/cloud/providers/paperspace/PaperspaceApi.h"
#include "gpuplan/net/signers/ApiKey.h"

#include <thread>
#include <utility>

namespace gpuplan::core {

namespace {

using namespace std::chrono_literals;

/// The most pages a listing reads (120 items each) before it stops: a guard against a cursor that never ends.
constexpr int kMaxPages = 100;

/// Paperspace's machines API. It takes no idempotency key and no tags: a machine's name is the launch's client token
/// (ours start with "gpuplan-"), run() lists by that name before it sends the create call once, and the key reaches
/// the machine through a startup script (the create call has no key field). There is no firewall to set up: SSH is
/// open to every address (the launch confirmation says so).
class PaperspaceProvider final : public VmProvider
{
public:
    explicit PaperspaceProvider(ProviderContext context)
        : VmProvider(paperspaceDescriptor(), std::move(context))
    { }

    Result<std::vector<std::string>>
    zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel) override;
    Result<RemoteInstance>
    describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel) override;
    Result<std::vector<RemoteInstance>> listOurs(const std::string& region, const CancelToken* cancel) override;
    Status terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel) override;
    Result<std::optional<PriceQuote>> quotePrice(const LaunchRequest& request, const CancelToken* cancel) override;

protected:
    Status checkRequest(const LaunchRequest& request) override;
    Result<std::string>
    findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel) override;
    Result<std::string>
    ensureKeyPair(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel) override;
    Result<std::string>
    ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel) override;
    Status run(const LaunchRequest& request,
               const LaunchPieces& pieces,
               LaunchResult& result,
               const CancelToken* cancel) override;

private:
    /// Sends the call with the API key; the body of a 2xx answer, else the mapped Error.
    Result<std::string> perform(const paperspace::Call& call, const CallContext& context, const CancelToken* cancel);
    /// Every machine of the listing (all pages), of `name` and `region` when not empty.
    Result<std::vector<paperspace::Machine>>
    listMachines(const std::string& name, const std::string& region, const CancelToken* cancel);
    /// The startup scripts named `name` that are not deleted.
    Result<std::vector<paperspace::StartupScript>> scriptsNamed(const std::string& name, const CancelToken* cancel);
    static CallContext context(const paperspace::Call& call, const std::string& region)
    {
        CallContext c;
        c.action = call.action;
        c.region = region;
        c.zone = region;
        return c;
    }
};

Result<std::string>
PaperspaceProvider::perform(const paperspace::Call& call, const CallContext& context, const CancelToken* cancel)
{
    if (!m_context.http) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.paperspace.no_transport", {}}, "paperspace"};
    }
    if (cancel && cancel->cancelled()) {
        return Error{
            ErrorCode::Cancelled, Reason{"error.paperspace.stopped_before", {{"action", call.action}}}, "paperspace"};
    }
    HttpRequest request = paperspace::buildRequest(call, m_context.endpoint);
    authorizeWithApiKey(request, m_context.key.secret);
    Result<HttpResponse> response = m_context.http->send(request, cancel);
    if (!response) {
        return response.error().within(Reason{"error.provider.call", {{"action", call.action}}});
    }
    if (std::optional<Error> error = paperspace::mapError(*response, context)) {
        return *error;
    }
    return std::move(response.value().body);
}

Result<std::vector<paperspace::Machine>>
PaperspaceProvider::listMachines(const std::string& name, const std::string& region, const CancelToken* cancel)
{
    std::vector<paperspace::Machine> all;
    std::string after;
    for (int page = 0; page < kMaxPages; ++page) {
        const paperspace::Call call = paperspace::listMachinesCall(name, region, after);
        Result<std::string> body = perform(call, context(call, paperspace::regionId(region)), cancel);
        if (!body) {
            return body.error();
        }
        Result<paperspace::Page<paperspace::Machine>> listed = paperspace::parseMachines(*body);
        if (!listed) {
            return listed.error();
        }
        for (paperspace::Machine& m : listed.value().items) {
            all.push_back(std::move(m));
        }
        if (listed->nextPage.empty() || listed->nextPage == after) {
            break;
        }
        after = listed->nextPage;
    }
    return all;
}

Result<std::vector<paperspace::StartupScript>> PaperspaceProvider::scriptsNamed(const std::string& name,
                                                                                const CancelToken* cancel)
{
    std::vector<paperspace::StartupScript> found;
    std::string after;
    for (int page = 0; page < kMaxPages; ++page) {
        const paperspace::Call call = paperspace::listStartupScriptsCall(name, after);
        Result<std::string> body = perform(call, context(call, {}), cancel);
        if (!body) {
            return body.error();
        }
        Result<paperspace::Page<paperspace::StartupScript>> listed = paperspace::parseStartupScripts(*body);
        if (!listed) {
            return listed.error();
        }
        for (const paperspace::StartupScript& s : listed->items) {
            // The name filter's matching is not documented (exact or contains): the name is compared here.
            if (s.name == name && !s.deleted) {
                found.push_back(s);
            }
        }
        if (listed->nextPage.empty() || listed->nextPage == after) {
            break;
        }
        after = listed->nextPage;
    }
    return found;
}

Result<std::vector<std::string>>
PaperspaceProvider::zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel)
{
    const std::string regionId = paperspace::regionId(region);
    const paperspace::Call call = paperspace::machineAvailabilityCall(instanceType, regionId);
    CallContext c = context(call, regionId);
    c.instanceType = instanceType;
    Result<std::string> body = perform(call, c, cancel);
    if (!body) {
        return body.error();
    }
    Result<bool> available = paperspace::parseAvailability(*body);
    if (!available) {
        return available.error();
    }
    if (!*available) {
        return std::vector<std::string>();
    }
    return std::vector<std::string>{regionId}; // one zone per region, named as the region
}

Status PaperspaceProvider::checkRequest(const LaunchRequest& request)
{
    if (request.terminateAt > 0) {
        // Nothing on Paperspace's side deletes a machine at a set time; the watchdog in the user data stops it.
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.cloud.feature_refused",
                            {{"provider", id()},
                             {"feature", cloudFeatureName(CloudFeature::ScheduledTerminate)},
                             {"why_key", "unsupported.paperspace.scheduled_terminate"}}},
                     "terminate_at"};
    }
    if (Result<std::string> script = paperspace::startupScript(request.sshPublicKey, userDataText(request.userData));
        !script) {
        return script.error();
    }
    if (Result<paperspace::Call> check = paperspace::createMachineCall(request, {"template", "script"}); !check) {
        return check.error();
    }
    return Ok{};
}

Result<std::string>
PaperspaceProvider::findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    if (!request.imageId.empty()) {
        result.steps.push_back(Reason{"step.image_given", {{"image", request.imageId}}});
        return request.imageId; // a template id
    }
    // The newest ML-in-a-Box template (Ubuntu with the NVIDIA driver and CUDA) that offers the machine type; found by
    // name, not by the ids SkyPilot hard-codes (sky/provision/paperspace/constants.py), which change with releases.
    std::vector<paperspace::OsTemplate> templates;
    std::string after;
    for (int page = 0; page < kMaxPages; ++page) {
        const paperspace::Call call = paperspace::listOsTemplatesCall(after);
        Result<std::string> body = perform(call, context(call, paperspace::regionId(request.region)), cancel);
        if (!body) {
            return body.error();
        }
        Result<paperspace::Page<paperspace::OsTemplate>> listed = paperspace::parseOsTemplates(*body);
        if (!listed) {
            return listed.error();
        }
        templates.insert(templates.end(), listed->items.begin(), listed->items.end());
        if (listed->nextPage.empty() || listed->nextPage == after) {
            break;
        }
        after = listed->nextPage;
    }
    std::optional<paperspace::OsTemplate> found = paperspace::newestMlInABox(templates, request.instanceType);
    if (!found) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.paperspace.no_template",
                            {{"instance_type", request.instanceType}, {"region", request.region}}},
                     "image"};
    }
    result.steps.push_back(Reason{"step.image_found", {{"image", found->id}, {"name", found->name}}});
    return found->id;
}

Result<std::string>
PaperspaceProvider::ensureKeyPair(const LaunchRequest& request, LaunchResult& result, const CancelToken*)
{
    // The create call has no key field: run() puts the key in a startup script that the machine runs on its first
    // boot. Nothing is created here.
    result.steps.push_back(Reason{
        "step.paperspace.key_by_startup_script",
        {{"user", std::string(paperspace::kLoginUser)}, {"script", paperspace::scriptName(request.clientToken)}}});
    return std::string(paperspace::kLoginUser);
}

Result<std::string>
PaperspaceProvider::ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken*)
{
    // Paperspace machines have no firewall of their own in this API: SSH answers every address.
    result.steps.push_back(Reason{"step.paperspace.ssh_open_to_all", {{"cidr", request.sshSourceCidr}}});
    return std::string();
}

Status PaperspaceProvider::run(const LaunchRequest& request,
                               const LaunchPieces& pieces,
                               LaunchResult& result,
                               const CancelToken* cancel)
{
    const std::string region = paperspace::regionId(request.region);
    result.zone = region;

    // The name is the client token: an earlier attempt's machine is this launch's (tokenless-design.md).
    Result<std::vector<paperspace::Machine>> named = listMachines(request.clientToken, region, cancel);
    if (!named) {
        return named.error();
    }
    for (const paperspace::Machine& m : *named) {
        if (m.name == request.clientToken && m.instance.state != InstanceState::Terminated) {
            result.instanceId = m.instance.instanceId;
            result.state = m.instance.state;
            result.steps.push_back(
                Reason{"step.paperspace.found_by_name", {{"instance_id", m.instance.instanceId}, {"name", m.name}}});
            return Ok{};
        }
    }

    // Capacity is asked first (SkyPilot does the same): a type not available now is refused before anything exists.
    Result<std::vector<std::string>> zones = zonesOffering(region, request.instanceType, cancel);
    if (!zones) {
        return zones.error();
    }
    if (zones->empty()) {
        return Error{
            ErrorCode::InsufficientCapacity,
            Reason{"error.paperspace.not_available", {{"instance_type", request.instanceType}, {"region", region}}},
            "paperspace machineAvailability-get in " + region}; // wire: where, the call
    }

    // The startup script that installs the key: an earlier attempt's, found by name, else a new one.
    const std::string name = paperspace::scriptName(request.clientToken);
    Result<std::vector<paperspace::StartupScript>> scripts = scriptsNamed(name, cancel);
    if (!scripts) {
        return scripts.error();
    }
    std::string scriptId;
    if (!scripts->empty()) {
        scriptId = scripts->front().id;
        result.steps.push_back(Reason{"step.paperspace.startup_script_found", {{"script_id", scriptId}}});
    } else {
        Result<std::string> text = paperspace::startupScript(request.sshPublicKey, userDataText(request.userData));
        if (!text) {
            return text.error();
        }
        const paperspace::Call call = paperspace::createStartupScriptCall(name, *text);
        Result<std::string> body = perform(call, context(call, region), cancel);
        if (!body) {
            return body.error();
        }
        Result<paperspace::StartupScript> created = paperspace::parseStartupScript(*body, call.action);
        if (!created) {
            return created.error();
        }
        scriptId = created->id;
        result.steps.push_back(Reason{"step.paperspace.startup_script_created", {{"script_id", scriptId}}});
    }

    Result<paperspace::Call> call = paperspace::createMachineCall(request, {pieces.imageId, scriptId});
    if (!call) {
        return call.error();
    }
    CallContext c = context(*call, region);
    c.instanceType = request.instanceType;
    // Sent once (safeToRetry false: the HTTP client never repeats it). A 429 created nothing and is waited out; any
    // other failure is returned as it is, and a lost answer leaves the outcome to the Launcher's reconcile by name.
    Result<std::string> body = perform(*call, c, cancel);
    for (int attempt = 1; !body && body.error().code == ErrorCode::Throttled && attempt < paperspace::kThrottleAttempts;
         ++attempt) {
        result.steps.push_back(Reason{
            "step.paperspace.throttled_wait",
            {{"seconds", std::to_string(paperspace::kThrottleWaitSeconds)}, {"attempt", std::to_string(attempt)}}});
        pause(std::chrono::seconds(paperspace::kThrottleWaitSeconds));
        body = perform(*call, c, cancel);
    }
    if (!body) {
        return body.error();
    }
    Result<paperspace::MachineEvent> created = paperspace::parseMachineEvent(*body, call->action);
    if (!created) {
        return created.error();
    }
    if (created->eventState == "error" || created->eventState == "cancelled") {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.paperspace.create_event_failed",
                            {{"instance_id", created->machine.instance.instanceId},
                             {"state", created->eventState},
                             {"said", created->error}}},
                     "paperspace machines-create in " + region}; // wire: where, the call
    }
    result.instanceId = created->machine.instance.instanceId;
    result.state =
        created->machine.instance.state == InstanceState::Running ? InstanceState::Running : InstanceState::Pending;
    result.steps.push_back(Reason{"step.launched", {{"instance_id", result.instanceId}, {"zone", region}}});
    return Ok{};
}

Result<RemoteInstance>
PaperspaceProvider::describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    const paperspace::Call call = paperspace::getMachineCall(instanceId);
    Result<std::string> body = perform(call, context(call, paperspace::regionId(region)), cancel);
    if (!body) {
        return body.error();
    }
    Result<paperspace::Machine> machine = paperspace::parseMachine(*body, call.action);
    if (!machine) {
        return machine.error();
    }
    return std::move(machine).value().instance;
}

Result<std::vector<RemoteInstance>> PaperspaceProvider::listOurs(const std::string& region, const CancelToken* cancel)
{
    Result<std::vector<paperspace::Machine>> all = listMachines({}, region, cancel);
    if (!all) {
        return all.error();
    }
    std::vector<RemoteInstance> ours;
    for (paperspace::Machine& m : all.value()) {
        if (!m.instance.clientToken.empty()) {
            ours.push_back(std::move(m.instance));
        }
    }
    return ours;
}

Status
PaperspaceProvider::terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    // Its name first: the startup script of ours is named after it.
    const paperspace::Call getCall = paperspace::getMachineCall(instanceId);
    Result<std::string> shown = perform(getCall, context(getCall, paperspace::regionId(region)), cancel);
    std::string name;
    if (!shown) {
        if (shown.error().code != ErrorCode::NotFound) {
            return shown.error();
        }
    } else if (Result<paperspace::Machine> machine = paperspace::parseMachine(*shown, getCall.action); machine) {
        name = machine->name;
    }
    const paperspace::Call call = paperspace::deleteMachineCall(instanceId);
    Result<std::string> body = perform(call, context(call, paperspace::regionId(region)), cancel);
    if (!body && body.error().code != ErrorCode::NotFound) {
        return body.error();
    }
    if (body) {
        if (Result<paperspace::MachineEvent> event = paperspace::parseMachineEvent(*body, call.action); !event) {
            return event.error();
        }
    }
    // The machine is going: its startup script is deleted too (a script left behind costs nothing, so a failure here
    // does not fail the terminate; the next terminate of a machine of that name tries again).
    if (name.starts_with(paperspace::kOwnedPrefix)) {
        if (Result<std::vector<paperspace::StartupScript>> scripts = scriptsNamed(paperspace::scriptName(name), cancel);
            scripts) {
            for (const paperspace::StartupScript& s : *scripts) {
                const paperspace::Call del = paperspace::deleteStartupScriptCall(s.id);
                (void)perform(del, context(del, {}), cancel);
            }
        }
    }
    return Ok{};
}

Result<std::optional<PriceQuote>> PaperspaceProvider::quotePrice(const LaunchRequest&, const CancelToken*)
{
    // The API has no price list: a machine's usageRate appears only once it exists, and GET /machine-types is not in
    // the published OpenAPI document. The catalog's price stands.
    return std::optional<PriceQuote>();
}

} // namespace

std::unique_ptr<CloudProvider> makePaperspaceProvider(ProviderContext context)
{
    return std::make_unique<PaperspaceProvider>(std::move(context));
}

const ProviderDescriptor& paperspaceDescriptor()
{
    // source: provider_launch_apis.md §6 and the OpenAPI document (PaperspaceApi.h): no spot, no prepaid machines in
    // this API, no validate-only create, no idempotency key, no tags, no key pairs and no firewall; autoShutdown* stops
    // a machine ("off"), it does not delete it, and an off machine keeps billing its storage (storageRate).
    static const ProviderDescriptor descriptor{
        "paperspace",
        "Paperspace", // wire: the provider\'s name, a proper noun (data)
        "Paperspace",
        {{"api_key", CredentialFieldKind::Secret}},
        {{CloudFeature::Spot, Reason{"unsupported.paperspace.spot", {}}},
         {CloudFeature::Subscription, Reason{"unsupported.paperspace.subscription", {}}},
         {CloudFeature::DryRun, Reason{"unsupported.paperspace.dry_run", {}}},
         {CloudFeature::TerminateOnShutdown, Reason{"unsupported.paperspace.terminate_on_shutdown", {}}},
         {CloudFeature::ScheduledTerminate, Reason{"unsupported.paperspace.scheduled_terminate", {}}},
         {CloudFeature::KeyImport, Reason{"unsupported.paperspace.key_import", {}}},
         {CloudFeature::SshSourceRestriction, Reason{"unsupported.paperspace.ssh_source_restriction", {}}},
         {CloudFeature::ClientToken, Reason{"unsupported.paperspace.client_token", {}}}},
        makePaperspaceProvider,
        LaunchKind::Instance,
        nullptr,
        std::string(paperspace::kLoginUser), // the ML-in-a-Box template's user
    };
    return descriptor;
}

} // namespace gpuplan::core
