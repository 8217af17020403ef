#include "gpuplan/cloud/providers/lambda/LambdaProvider.h"

#include "gpuplan/cloud/VmProvider.h"
#include "gpuplan/cloud/providers/lambda/LambdaApi.h"

#include <thread>
#include <utility>

namespace gpuplan::core {

namespace {

// The regions, comma-separated (a list of names, as a reason parameter).
std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& item : items) {
        out += (out.empty() ? "" : ", ") + item; // wire: a list of region names, not prose
    }
    return out;
}

// Where the offer has capacity now, as the error's advice: "regions_with_capacity" (comma-separated names), or
// "capacity_nowhere" when no region has any.
void addCapacity(Reason& reason, const lambda::InstanceTypeOffer& offer)
{
    if (offer.regionsWithCapacity.empty()) {
        reason.params["capacity_nowhere"] = "true";
    } else {
        reason.params["regions_with_capacity"] = joined(offer.regionsWithCapacity);
    }
}

class LambdaProvider final : public VmProvider
{
public:
    explicit LambdaProvider(ProviderContext context)
        : VmProvider(lambdaDescriptor(), std::move(context))
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
    /// Sends the call; the body of a 2xx answer, else the mapped Error.
    Result<std::string> perform(const lambda::Call& call, CallContext context, const CancelToken* cancel);
    Result<std::vector<lambda::InstanceTypeOffer>> instanceTypes(const std::string& region, const CancelToken* cancel);
    Result<std::vector<lambda::Instance>> instances(const std::string& region, const CancelToken* cancel);
    static CallContext context(const lambda::Call& call, const std::string& region)
    {
        CallContext c;
        c.action = call.action;
        c.region = region;
        return c;
    }
};

Result<std::string> LambdaProvider::perform(const lambda::Call& call, CallContext context, const CancelToken* cancel)
{
    if (!m_context.http) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.lambda.no_transport", {}}, "lambda"};
    }
    if (cancel && cancel->cancelled()) {
        return Error{ErrorCode::Cancelled, Reason{"error.lambda.stopped_before", {{"action", call.action}}}, "lambda"};
    }
    const HttpRequest request = lambda::buildRequest(call, m_context.endpoint, m_context.key.secret);
    Result<HttpResponse> response = m_context.http->send(request, cancel);
    if (!response) {
        return response.error().within(Reason{"error.provider.call", {{"action", call.action}}});
    }
    if (std::optional<Error> error = lambda::mapError(*response, context)) {
        return *error;
    }
    return std::move(response.value().body);
}

Result<std::vector<lambda::InstanceTypeOffer>> LambdaProvider::instanceTypes(const std::string& region,
                                                                             const CancelToken* cancel)
{
    const lambda::Call call = lambda::listInstanceTypesCall();
    Result<std::string> body = perform(call, context(call, region), cancel);
    if (!body) {
        return body.error();
    }
    return lambda::parseInstanceTypes(*body);
}

Result<std::vector<lambda::Instance>> LambdaProvider::instances(const std::string& region, const CancelToken* cancel)
{
    const lambda::Call call = lambda::listInstancesCall();
    Result<std::string> body = perform(call, context(call, region), cancel);
    if (!body) {
        return body.error();
    }
    return lambda::parseInstances(*body);
}

Result<std::vector<std::string>>
LambdaProvider::zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel)
{
    Result<std::vector<lambda::InstanceTypeOffer>> offers = instanceTypes(region, cancel);
    if (!offers) {
        return offers.error();
    }
    const lambda::InstanceTypeOffer* offer = lambda::findOffer(*offers, instanceType);
    if (!offer) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.lambda.type_not_offered", {{"instance_type", instanceType}}},
                     "lambda listInstanceTypes"}; // wire: where, the call
    }
    for (const std::string& r : offer->regionsWithCapacity) {
        if (r == region) {
            return std::vector<std::string>{region}; // one zone per region, named as the region
        }
    }
    // Not an empty list: the Launcher would only say that no zone offers it, and the user needs where Lambda has it.
    Reason reason{"error.lambda.no_capacity_in_region", {{"region", region}, {"instance_type", instanceType}}};
    addCapacity(reason, *offer);
    return Error{ErrorCode::InsufficientCapacity,
                 std::move(reason),
                 "lambda listInstanceTypes in " + region}; // wire: where, the call
}

Status LambdaProvider::checkRequest(const LaunchRequest& request)
{
    if (Result<std::string> name = lambda::keyName(request.sshPublicKey); !name) {
        return name.error();
    }
    if (Result<lambda::Call> check = lambda::launchCall(request, "key"); !check) {
        return check.error();
    }
    return Ok{};
}

Result<std::string> LambdaProvider::findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken*)
{
    if (!request.imageId.empty()) {
        result.steps.push_back(
            Reason{"step.lambda.image_given",
                   {{"image", request.imageId}, {"as", lambda::looksLikeImageId(request.imageId) ? "id" : "family"}}});
        return request.imageId;
    }
    // "The machine image you want to use. Defaults to the latest Lambda Stack image." (launchInstance, image)
    result.steps.push_back(Reason{"step.lambda.image_default", {}});
    return std::string();
}

Result<std::string>
LambdaProvider::ensureKeyPair(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    Result<std::string> name = lambda::keyName(request.sshPublicKey);
    if (!name) {
        return name.error();
    }
    // The account's key that holds this public key, under any name: its name, "" when none.
    auto findKey = [&]() -> Result<std::string> {
        const lambda::Call call = lambda::listSshKeysCall();
        Result<std::string> body = perform(call, context(call, request.region), cancel);
        if (!body) {
            return body.error();
        }
        Result<std::vector<lambda::SshKey>> keys = lambda::parseSshKeys(*body);
        if (!keys) {
            return keys.error();
        }
        for (const lambda::SshKey& key : *keys) {
            if (lambda::samePublicKey(key.publicKey, request.sshPublicKey)) {
                return key.name;
            }
        }
        return std::string();
    };
    Result<std::string> existing = findKey();
    if (!existing) {
        return existing.error();
    }
    if (!existing->empty()) {
        result.steps.push_back(Reason{"step.key_pair_found", {{"key_pair", *existing}}});
        return existing;
    }
    const lambda::Call call = lambda::addSshKeyCall(*name, request.sshPublicKey);
    Result<std::string> body = perform(call, context(call, request.region), cancel);
    if (!body) {
        // Another launch added it meanwhile (the name is taken: global/duplicate, or a conflict): list again.
        if (body.error().providerCode == "global/duplicate" || body.error().httpStatus == 409
            || body.error().providerCode == "global/invalid-parameters") {
            Result<std::string> again = findKey();
            if (again && !again->empty()) {
                result.steps.push_back(Reason{"step.key_pair_found", {{"key_pair", *again}}});
                return again;
            }
        }
        return body.error();
    }
    Result<lambda::SshKey> added = lambda::parseAddedSshKey(*body);
    if (!added) {
        return added.error();
    }
    result.steps.push_back(Reason{"step.key_pair_imported", {{"key_pair", added->name}}});
    return added->name;
}

Result<std::string>
LambdaProvider::ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken*)
{
    // Lambda's instances take no security group: its firewall rules are the account's (PUT /firewall-rules replaces
    // them all, for every instance), so GPU Planner changes nothing and SSH stays open as the account has it.
    result.steps.push_back(Reason{"step.lambda.ssh_not_restricted", {{"cidr", request.sshSourceCidr}}});
    return std::string();
}

Status LambdaProvider::run(const LaunchRequest& request,
                           const LaunchPieces& pieces,
                           LaunchResult& result,
                           const CancelToken* cancel)
{
    result.zone = request.region;
    // The name is the client token: an instance of that name is this launch's, started by an earlier attempt whose
    // answer was lost. Nothing is sent then.
    Result<std::vector<lambda::Instance>> listed = instances(request.region, cancel);
    if (!listed) {
        return listed.error();
    }
    for (const lambda::Instance& instance : *listed) {
        if (instance.name == request.clientToken && instance.remote.state != InstanceState::Terminated) {
            result.instanceId = instance.remote.instanceId;
            result.state = instance.remote.state;
            if (!instance.remote.region.empty()) {
                result.zone = instance.remote.region;
            }
            result.steps.push_back(Reason{"step.lambda.found_by_name",
                                          {{"instance_id", result.instanceId},
                                           {"name", instance.name},
                                           {"status", instance.remote.providerState}}});
            return Ok{};
        }
    }

    Result<lambda::Call> call = lambda::launchCall(request, pieces.keyPair);
    if (!call) {
        return call.error();
    }
    CallContext c = context(*call, request.region);
    c.instanceType = request.instanceType;
    c.zone = request.region;
    Result<std::string> body = perform(*call, c, cancel);
    // A 429 created nothing: wait out the launch limit (one per 12 s) and send again, a few times.
    for (int attempt = 1; !body && body.error().code == ErrorCode::Throttled && attempt <= lambda::kLaunchRetries;
         ++attempt) {
        result.steps.push_back(Reason{
            "step.lambda.launch_throttled",
            {{"seconds", std::to_string(lambda::kLaunchRetryWait.count())}, {"attempt", std::to_string(attempt)}}});
        pause(lambda::kLaunchRetryWait);
        body = perform(*call, c, cancel);
    }
    if (!body) {
        Error error = body.error();
        if (error.code == ErrorCode::InsufficientCapacity) {
            // Name where Lambda has the type now, as advice (a second read; without it the error stands as it is).
            if (Result<std::vector<lambda::InstanceTypeOffer>> offers = instanceTypes(request.region, cancel); offers) {
                if (const lambda::InstanceTypeOffer* offer = lambda::findOffer(*offers, request.instanceType)) {
                    addCapacity(error.reason, *offer);
                }
            }
        }
        return error;
    }
    Result<std::vector<std::string>> ids = lambda::parseLaunch(*body);
    if (!ids) {
        return ids.error();
    }
    result.instanceId = ids->front();
    result.state = InstanceState::Pending;
    result.steps.push_back(Reason{"step.launched", {{"instance_id", result.instanceId}, {"zone", request.region}}});
    return Ok{};
}

Result<RemoteInstance>
LambdaProvider::describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    const lambda::Call call = lambda::getInstanceCall(instanceId);
    Result<std::string> body = perform(call, context(call, region), cancel);
    if (!body) {
        return body.error();
    }
    Result<lambda::Instance> instance = lambda::parseInstance(*body);
    if (!instance) {
        return instance.error();
    }
    return std::move(instance).value().remote;
}

Result<std::vector<RemoteInstance>> LambdaProvider::listOurs(const std::string& region, const CancelToken* cancel)
{
    Result<std::vector<lambda::Instance>> listed = instances(region, cancel);
    if (!listed) {
        return listed.error();
    }
    // GET /instances lists every region's: ours are those named "gpuplan-..." in the region asked.
    std::vector<RemoteInstance> ours;
    for (lambda::Instance& instance : listed.value()) {
        if (!instance.remote.clientToken.empty() && instance.remote.region == region) {
            ours.push_back(std::move(instance.remote));
        }
    }
    return ours;
}

Status LambdaProvider::terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    const lambda::Call call = lambda::terminateCall(instanceId);
    Result<std::string> body = perform(call, context(call, region), cancel);
    if (!body) {
        if (body.error().code == ErrorCode::NotFound) {
            return Ok{}; // already gone
        }
        return body.error();
    }
    if (Result<std::vector<std::string>> terminated = lambda::parseTerminate(*body); !terminated) {
        return terminated.error();
    }
    return Ok{};
}

Result<std::optional<PriceQuote>> LambdaProvider::quotePrice(const LaunchRequest& request, const CancelToken* cancel)
{
    if (request.pricing != LaunchPricing::OnDemand) {
        return std::optional<PriceQuote>(); // Lambda's API sells on-demand hours only
    }
    Result<std::vector<lambda::InstanceTypeOffer>> offers = instanceTypes(request.region, cancel);
    if (!offers) {
        return offers.error();
    }
    const lambda::InstanceTypeOffer* offer = lambda::findOffer(*offers, request.instanceType);
    if (!offer || !offer->priceCentsPerHour || *offer->priceCentsPerHour <= 0) {
        return std::optional<PriceQuote>();
    }
    // wire: the quote's source, named as Lambda names the call, with what was read (a citation)
    return std::optional<PriceQuote>(PriceQuote{double(*offer->priceCentsPerHour) / 100.0,
                                                Currency::USD,
                                                PriceUnit::Hour,
                                                "Lambda instance-types, " + offer->name + ", "
                                                    + std::to_string(*offer->priceCentsPerHour) + " US cents per hour",
                                                unixSeconds(m_context.clock())});
}

} // namespace

std::unique_ptr<CloudProvider> makeLambdaProvider(ProviderContext context)
{
    return std::make_unique<LambdaProvider>(std::move(context));
}

const ProviderDescriptor& lambdaDescriptor()
{
    // What the API reference (OpenAPI 1.10.0) lacks: spot, subscriptions (reserved capacity is sold through Lambda's
    // sales team), a dry run, an idempotency key, a provider-side timer that terminates; SSH is opened by the
    // account-wide firewall rules, not per instance; and nothing says that a shutdown inside an instance terminates it
    // or stops its billing (an instance is launched, restarted or terminated; it has no stopped state).
    static const ProviderDescriptor descriptor{
        "lambda",
        "Lambda", // wire: the provider\'s name, a proper noun (data)
        "Lambda",
        {{"api_key", CredentialFieldKind::Secret}},
        {{CloudFeature::Spot, Reason{"unsupported.lambda.spot", {}}},
         {CloudFeature::Subscription, Reason{"unsupported.lambda.subscription", {}}},
         {CloudFeature::DryRun, Reason{"unsupported.lambda.dry_run", {}}},
         {CloudFeature::TerminateOnShutdown, Reason{"unsupported.lambda.terminate_on_shutdown", {}}},
         {CloudFeature::ShutdownStopsBilling, Reason{"unsupported.lambda.shutdown_stops_billing", {}}},
         {CloudFeature::ScheduledTerminate, Reason{"unsupported.lambda.scheduled_terminate", {}}},
         {CloudFeature::SshSourceRestriction, Reason{"unsupported.lambda.ssh_source_restriction", {}}},
         {CloudFeature::ClientToken, Reason{"unsupported.lambda.client_token", {}}}},
        makeLambdaProvider,
        LaunchKind::Instance,
        nullptr,
        // Lambda Stack on Ubuntu: "ssh ubuntu@<INSTANCE-IP>".
        // source: https://docs.lambdalabs.com/public-cloud/on-demand/getting-started/ (Connecting to an instance)
        "ubuntu", // wire: the image's login user
    };
    return descriptor;
}

} // namespace gpuplan::core
