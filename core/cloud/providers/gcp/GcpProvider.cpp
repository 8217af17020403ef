#include "gpuplan/cloud/providers/gcp/GcpProvider.h"

#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/VmProvider.h"
#include "gpuplan/cloud/providers/gcp/ComputeApi.h"

#include "GoogleSession.h"

#include <algorithm>
#include <mutex>
#include <thread>
#include <utility>

namespace gpuplan::core {

namespace {

using namespace std::chrono_literals;

/// How often an operation is waited for: each wait returns when it is DONE or after about two minutes
/// (https://cloud.google.com/compute/docs/reference/rest/v1/zoneOperations/wait); an answer that is not DONE is asked
/// again after a short pause.
constexpr int kOperationPolls = 30;
constexpr auto kOperationPause = 2s;
/// At most this many pages of our instances (500 each).
constexpr int kMaxPages = 100;

class GceProvider final : public VmProvider
{
public:
    explicit GceProvider(ProviderContext context)
        : VmProvider(gcpDescriptor(), std::move(context))
        , m_session(m_context)
        , m_project(m_session.project())
    { }

    Result<std::vector<std::string>>
    zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel) override;
    Result<RemoteInstance>
    describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel) override;
    Result<std::vector<RemoteInstance>> listOurs(const std::string& region, const CancelToken* cancel) override;
    Status terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel) override;
    Result<std::optional<PriceQuote>> quotePrice(const LaunchRequest&, const CancelToken*) override
    {
        // Compute Engine has no price API of its own; the catalog's price (Cloud Billing's SKUs) stands.
        return std::optional<PriceQuote>();
    }

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
    /// Authorizes and sends the call; the body of a 2xx answer, else the mapped Error.
    Result<std::string> perform(const gcp::Call& call, const gcp::ErrorContext& context, const CancelToken* cancel);
    /// The operation waited for until DONE: the DONE operation, its failure (gcp::operationFailure), or Timeout.
    Result<gcp::Operation>
    waitFor(gcp::Operation operation, const gcp::ErrorContext& context, int* polls, const CancelToken* cancel);
    Status needProject() const
    {
        if (m_project.empty()) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.gcp.no_project", {}}, "project_id"};
        }
        return Ok{};
    }
    gcp::ErrorContext context(const gcp::Call& call, const std::string& region) const
    {
        gcp::ErrorContext c;
        c.action = call.action;
        c.region = region;
        c.project = m_project;
        return c;
    }

    gcp::GoogleSession m_session;
    std::string m_project;
};

Result<std::string>
GceProvider::perform(const gcp::Call& call, const gcp::ErrorContext& context, const CancelToken* cancel)
{
    if (!m_context.http) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.gcp.no_transport", {}}, "gcp"};
    }
    if (Status ok = needProject(); !ok) {
        return ok.error();
    }
    if (cancel && cancel->cancelled()) {
        return Error{ErrorCode::Cancelled, Reason{"error.gcp.stopped_before", {{"action", call.action}}}, "gcp"};
    }
    HttpRequest request = gcp::buildRequest(call, m_context.endpoint);
    if (Status authorized = m_session.authorize(request); !authorized) {
        return authorized.error();
    }
    Result<HttpResponse> response = m_context.http->send(request, cancel);
    if (!response) {
        return response.error().within(Reason{"error.provider.call", {{"action", call.action}}});
    }
    if (std::optional<Error> error = gcp::mapError(*response, context)) {
        return *error;
    }
    return std::move(response.value().body);
}

Result<gcp::Operation>
GceProvider::waitFor(gcp::Operation operation, const gcp::ErrorContext& context, int* polls, const CancelToken* cancel)
{
    int asked = 0;
    while (operation.status != "DONE") {
        if (asked == kOperationPolls) {
            return Error{ErrorCode::Timeout,
                         Reason{"error.gcp.operation_timeout", {{"operation", operation.name}}},
                         "gcp " + context.action};
        }
        if (asked > 0) {
            pause(kOperationPause);
        }
        ++asked;
        const gcp::Call call = operation.zone.empty()
                                   ? gcp::waitGlobalOperationCall(m_project, operation.name)
                                   : gcp::waitZoneOperationCall(m_project, operation.zone, operation.name);
        gcp::ErrorContext c = context;
        c.action = call.action;
        Result<std::string> body = perform(call, c, cancel);
        if (!body) {
            return body.error();
        }
        Result<gcp::Operation> next = gcp::parseOperation(*body, call.action);
        if (!next) {
            return next.error();
        }
        operation = std::move(next).value();
    }
    if (polls) {
        *polls = asked;
    }
    if (!operation.errors.empty()) {
        return gcp::operationFailure(operation, context);
    }
    return operation;
}

Result<std::vector<std::string>>
GceProvider::zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel)
{
    Result<gcp::InstanceType> type = gcp::parseInstanceType(instanceType);
    if (!type) {
        return type.error();
    }
    // GCE has no stock API: a zone that lists the type may still refuse it (ZONE_RESOURCE_POOL_EXHAUSTED), and then
    // the Launcher tries the next.
    const gcp::Call machines = gcp::machineTypesCall(m_project, type->machineType);
    gcp::ErrorContext c = context(machines, region);
    c.instanceType = instanceType;
    Result<std::string> body = perform(machines, c, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::vector<std::string>> zones = gcp::parseZonesOffering(*body, machines.action, "machineTypes", region);
    if (!zones || type->accelerator.empty()) {
        return zones;
    }
    // N1 with GPUs: the zones that have both the machine type and the GPU.
    const gcp::Call accelerators = gcp::acceleratorTypesCall(m_project, type->accelerator);
    c.action = accelerators.action;
    Result<std::string> gpuBody = perform(accelerators, c, cancel);
    if (!gpuBody) {
        return gpuBody.error();
    }
    Result<std::vector<std::string>> gpuZones =
        gcp::parseZonesOffering(*gpuBody, accelerators.action, "acceleratorTypes", region);
    if (!gpuZones) {
        return gpuZones.error();
    }
    std::vector<std::string> both;
    std::set_intersection(zones->begin(), zones->end(), gpuZones->begin(), gpuZones->end(), std::back_inserter(both));
    return both;
}

Status GceProvider::checkRequest(const LaunchRequest& request)
{
    if (Status ok = needProject(); !ok) {
        return ok;
    }
    if (Result<std::string> key = publicKeyId(request.sshPublicKey); !key) {
        return key.error();
    }
    if (request.sshPublicKey.find('\n') != std::string::npos) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.gcp.key_not_one_line", {}}, "ssh_public_key"};
    }
    const gcp::InstancePlacement placeholders{m_project, "zone-a", "image", request.sshSourceCidr.empty() ? "" : "tag"};
    if (Result<gcp::Call> check = gcp::insertInstanceCall(request, placeholders, unixSeconds(m_context.clock()));
        !check) {
        return check.error();
    }
    return Ok{};
}

Result<std::string>
GceProvider::findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    if (!request.imageId.empty()) {
        result.steps.push_back(Reason{"step.image_given", {{"image", request.imageId}}});
        return request.imageId;
    }
    std::string tried;
    for (std::string_view familyName : gcp::kImageFamilies) {
        const std::string family(familyName);
        tried += (tried.empty() ? "" : ", ") + family;
        const gcp::Call call = gcp::imageFromFamilyCall(family);
        Result<std::string> body = perform(call, context(call, request.region), cancel);
        if (!body) {
            if (body.error().code == ErrorCode::NotFound) {
                continue; // the family is gone: the next one
            }
            return body.error();
        }
        Result<gcp::Image> image = gcp::parseImage(*body);
        if (!image) {
            return image.error();
        }
        if (!gcp::usable(*image)) {
            continue;
        }
        result.steps.push_back(Reason{"step.gcp.image_from_family", {{"family", family}, {"image", image->name}}});
        return image->selfLink;
    }
    return Error{ErrorCode::InvalidArgument,
                 Reason{"error.gcp.no_gpu_image", {{"families", tried}, {"project", std::string(gcp::kImageProject)}}},
                 "image"};
}

Result<std::string> GceProvider::ensureKeyPair(const LaunchRequest&, LaunchResult& result, const CancelToken*)
{
    // Compute Engine has no key pair resource: the key goes into the instance's ssh-keys metadata.
    result.steps.push_back(Reason{"step.gcp.ssh_key_in_metadata", {{"user", std::string(gcp::kLoginUser)}}});
    return std::string(gcp::kLoginUser);
}

Result<std::string>
GceProvider::ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    const std::string& cidr = request.sshSourceCidr;
    const std::string name = gcp::firewallName(cidr);
    // The rule by name: found, nullopt when absent (404), or the error.
    auto get = [&]() -> Result<std::optional<gcp::Firewall>> {
        const gcp::Call call = gcp::getFirewallCall(m_project, name);
        Result<std::string> body = perform(call, context(call, request.region), cancel);
        if (!body) {
            if (body.error().code == ErrorCode::NotFound) {
                return std::optional<gcp::Firewall>();
            }
            return body.error();
        }
        Result<gcp::Firewall> firewall = gcp::parseFirewall(*body);
        if (!firewall) {
            return firewall.error();
        }
        return std::optional<gcp::Firewall>(std::move(firewall).value());
    };
    // Sends an insert or patch and waits for its global operation.
    auto change = [&](const gcp::Call& call) -> Status {
        const gcp::ErrorContext c = context(call, request.region);
        Result<std::string> body = perform(call, c, cancel);
        if (!body) {
            return body.error();
        }
        Result<gcp::Operation> operation = gcp::parseOperation(*body, call.action);
        if (!operation) {
            return operation.error();
        }
        Result<gcp::Operation> done = waitFor(std::move(operation).value(), c, nullptr, cancel);
        if (!done) {
            return done.error();
        }
        return Ok{};
    };

    Result<std::optional<gcp::Firewall>> found = get();
    if (!found) {
        return found.error();
    }
    if (!found->has_value()) {
        Status created = change(gcp::insertFirewallCall(m_project, name, cidr));
        if (created) {
            result.steps.push_back(Reason{"step.gcp.firewall_created", {{"firewall", name}, {"cidr", cidr}}});
            return name;
        }
        if (created.error().httpStatus != 409) {
            return created.error();
        }
        // Another launch created it meanwhile (409 alreadyExists): that one is checked like a found one.
        found = get();
        if (!found) {
            return found.error();
        }
        if (!found->has_value()) {
            return created.error();
        }
    }
    if (gcp::allowsSshFrom(**found, cidr, name)) {
        result.steps.push_back(Reason{"step.gcp.firewall_found", {{"firewall", name}, {"cidr", cidr}}});
        return name;
    }
    if (Status repaired = change(gcp::patchFirewallCall(m_project, name, cidr)); !repaired) {
        return repaired.error();
    }
    result.steps.push_back(Reason{"step.gcp.firewall_repaired", {{"firewall", name}, {"cidr", cidr}}});
    return name;
}

Status GceProvider::run(const LaunchRequest& request,
                        const LaunchPieces& pieces,
                        LaunchResult& result,
                        const CancelToken* cancel)
{
    std::string zone = request.zone;
    if (zone.empty()) {
        Result<std::vector<std::string>> zones = zonesOffering(request.region, request.instanceType, cancel);
        if (!zones) {
            return zones.error();
        }
        if (zones->empty()) {
            return Error{ErrorCode::InsufficientCapacity,
                         Reason{"error.gcp.no_zone_offers",
                                {{"region", request.region}, {"instance_type", request.instanceType}}},
                         "gcp machineTypes.aggregatedList in " + request.region}; // wire: where, the call
        }
        zone = zones->front();
        result.steps.push_back(Reason{"step.zone_chosen", {{"zone", zone}}});
    }
    result.zone = zone;

    const gcp::InstancePlacement placement{m_project, zone, pieces.imageId, pieces.firewall};
    Result<gcp::Call> call = gcp::insertInstanceCall(request, placement, unixSeconds(m_context.clock()));
    if (!call) {
        return call.error();
    }
    gcp::ErrorContext c = context(*call, request.region);
    c.instanceType = request.instanceType;
    c.zone = zone;
    c.spot = request.pricing == LaunchPricing::Spot;
    const std::string name = request.clientToken;

    Result<std::string> body = perform(*call, c, cancel);
    if (!body) {
        const Error& error = body.error();
        if (error.httpStatus != 409 && error.providerCode != "alreadyExists") {
            return error;
        }
        // The name is taken: a resend after the request id was forgotten. Ours when its label holds the same token.
        const gcp::Call get = gcp::getInstanceCall(m_project, zone, name);
        Result<std::string> shown = perform(get, context(get, request.region), cancel);
        if (!shown) {
            return shown.error();
        }
        Result<RemoteInstance> existing = gcp::parseInstance(*shown);
        if (!existing) {
            return existing.error();
        }
        if (existing->clientToken != request.clientToken) {
            return Error{ErrorCode::ProviderRefused,
                         Reason{"error.gcp.name_taken", {{"instance", name}, {"zone", zone}}},
                         "gcp instances.insert in " + zone}; // wire: where, the call
        }
        result.instanceId = existing->instanceId;
        result.state = existing->state;
        result.steps.push_back(Reason{"step.gcp.instance_existed", {{"instance", name}, {"zone", zone}}});
        return Ok{};
    }
    Result<gcp::Operation> operation = gcp::parseOperation(*body, call->action);
    if (!operation) {
        return operation.error();
    }
    if (operation->zone.empty()) {
        operation.value().zone = zone;
    }
    const std::string operationName = operation->name;
    int polls = 0;
    Result<gcp::Operation> done = waitFor(std::move(operation).value(), c, &polls, cancel);
    if (!done) {
        return done.error();
    }
    result.steps.push_back(
        Reason{"step.gcp.operation_done", {{"operation", operationName}, {"polls", std::to_string(polls)}}});
    if (request.terminateAt > 0) {
        result.steps.push_back(Reason{"step.gcp.termination_time", {{"time", gcp::rfc3339(request.terminateAt)}}});
    }
    result.instanceId = gcp::instanceRef(zone, name);
    result.state = InstanceState::Pending;
    result.steps.push_back(Reason{"step.launched", {{"instance_id", result.instanceId}, {"zone", zone}}});
    return Ok{};
}

Result<RemoteInstance>
GceProvider::describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    const auto ref = gcp::splitInstanceRef(instanceId);
    if (!ref) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.gcp.instance_id_invalid", {{"instance_id", instanceId}}},
                     "instance_id"};
    }
    const gcp::Call call = gcp::getInstanceCall(m_project, ref->first, ref->second);
    gcp::ErrorContext c = context(call, region);
    c.zone = ref->first;
    Result<std::string> body = perform(call, c, cancel);
    if (!body) {
        return body.error();
    }
    return gcp::parseInstance(*body);
}

Result<std::vector<RemoteInstance>> GceProvider::listOurs(const std::string& region, const CancelToken* cancel)
{
    std::vector<RemoteInstance> ours;
    std::string pageToken;
    for (int page = 0; page < kMaxPages; ++page) {
        const gcp::Call call = gcp::listInstancesCall(m_project, pageToken);
        Result<std::string> body = perform(call, context(call, region), cancel);
        if (!body) {
            return body.error();
        }
        Result<gcp::InstancesPage> listed = gcp::parseInstancesPage(*body, region);
        if (!listed) {
            return listed.error();
        }
        for (RemoteInstance& instance : listed.value().instances) {
            if (!instance.clientToken.empty()) {
                ours.push_back(std::move(instance));
            }
        }
        pageToken = listed->nextPageToken;
        if (pageToken.empty()) {
            break;
        }
    }
    return ours;
}

Status GceProvider::terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    const auto ref = gcp::splitInstanceRef(instanceId);
    if (!ref) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.gcp.instance_id_invalid", {{"instance_id", instanceId}}},
                     "instance_id"};
    }
    // Not waited for: the instance shows STOPPING, then is gone (404); describe follows it.
    const gcp::Call call = gcp::deleteInstanceCall(m_project, ref->first, ref->second);
    gcp::ErrorContext c = context(call, region);
    c.zone = ref->first;
    Result<std::string> body = perform(call, c, cancel);
    if (!body) {
        if (body.error().code == ErrorCode::NotFound) {
            return Ok{}; // already gone
        }
        return body.error();
    }
    if (Result<gcp::Operation> operation = gcp::parseOperation(*body, call.action); !operation) {
        return operation.error();
    }
    return Ok{};
}

} // namespace

std::unique_ptr<CloudProvider> makeGceProvider(ProviderContext context)
{
    return std::make_unique<GceProvider>(std::move(context));
}

const ProviderDescriptor& gcpDescriptor()
{
    // A shutdown inside an instance stops it (TERMINATED, GCE's word for stopped): its disk and static addresses
    // keep billing (https://cloud.google.com/compute/docs/instances/stop-start-instance). The dead-man lives on
    // Google's side: scheduling.terminationTime with instanceTerminationAction DELETE (ScheduledTerminate).
    static const ProviderDescriptor descriptor{
        "gcp",
        "Google Cloud", // wire: the provider\'s name, a proper noun (data)
        "谷歌云",
        {{"client_email", CredentialFieldKind::KeyId},
         {"private_key", CredentialFieldKind::Secret},
         {"private_key_id", CredentialFieldKind::Plain, false},
         {"project_id", CredentialFieldKind::Plain, false}},
        {{CloudFeature::Subscription, Reason{"unsupported.gcp.subscription", {}}},
         {CloudFeature::DryRun, Reason{"unsupported.gcp.dry_run", {}}},
         {CloudFeature::TerminateOnShutdown, Reason{"unsupported.gcp.terminate_on_shutdown", {}}}},
        makeGceProvider,
        LaunchKind::Instance,
        &vertexDescriptor(),
        std::string(gcp::kLoginUser), // the user its ssh-keys metadata names
    };
    return descriptor;
}

} // namespace gpuplan::core
