#include "gpuplan/cloud/providers/aws/AwsEc2Provider.h"

#include <algorithm>

#include "gpuplan/cloud/VmProvider.h"
#include "gpuplan/cloud/providers/aws/Ec2Api.h"
#include "gpuplan/net/HttpClient.h"
#include "gpuplan/net/signers/AwsSigV4.h"
#include "gpuplan/prices/PriceAnswers.h"

namespace gpuplan::core {

namespace {

using namespace ec2;

class AwsEc2Provider final : public VmProvider
{
public:
    explicit AwsEc2Provider(ProviderContext context)
        : VmProvider(awsDescriptor(), std::move(context))
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
    /// Adds the rule that opens TCP 22 to the request's SSH source (as a dry run for a dry run). A rule that is
    /// already there (InvalidPermission.Duplicate: another launch added it meanwhile) is not an error.
    Status authorizeSsh(const LaunchRequest& request,
                        const std::string& groupId,
                        const ErrorContext& context,
                        const CancelToken* cancel);
    /// Signs and sends one call; a non-2xx answer becomes the mapped Error (`context` says what it was about).
    Result<HttpResponse>
    send(const std::string& region, const Call& call, ErrorContext context, const CancelToken* cancel);

    static ErrorContext launchContext(const LaunchRequest& request)
    {
        return ErrorContext{
            {}, request.region, request.instanceType, request.zone, request.pricing == LaunchPricing::Spot};
    }
};

Result<HttpResponse>
AwsEc2Provider::send(const std::string& region, const Call& call, ErrorContext context, const CancelToken* cancel)
{
    if (!m_context.http) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.ec2.no_transport", {}}, "aws"};
    }
    if (region.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.ec2.no_region", {}}, "region"};
    }
    std::string base = endpointFor(region);
    if (!m_context.endpoint.empty()) {
        Status endpointOk = checkEndpoint(m_context.endpoint);
        if (!endpointOk) {
            return endpointOk.error();
        }
        base = m_context.endpoint;
    }
    HttpRequest request = buildRequest(base, call);
    // x-amz-content-sha256 is signed too: @aws-sdk/client-ec2 does so, and identical signed headers let the wire
    // test compare signatures directly.
    Result<SigningSteps> signedRequest =
        signAwsV4(request, m_context.key, AwsSigV4Scope{region, "ec2", true}, m_context.clock());
    if (!signedRequest) {
        return signedRequest.error();
    }
    Result<HttpResponse> response = m_context.http->send(request, cancel);
    if (!response) {
        return response.error();
    }
    if (response->status < 200 || response->status >= 300) {
        context.action = call.action;
        context.region = region;
        return mapError(*response, context);
    }
    return response;
}

Status AwsEc2Provider::authorizeSsh(const LaunchRequest& request,
                                    const std::string& groupId,
                                    const ErrorContext& context,
                                    const CancelToken* cancel)
{
    Result<HttpResponse> authorized =
        send(request.region, authorizeSshCall(groupId, request.sshSourceCidr, request.dryRun), context, cancel);
    if (!authorized) {
        const std::string& code = authorized.error().providerCode;
        if (code == "InvalidPermission.Duplicate" || (request.dryRun && code == "DryRunOperation")) {
            return Ok{};
        }
        return authorized.error();
    }
    return parseAuthorizeSecurityGroupIngress(authorized->body);
}

Status AwsEc2Provider::checkRequest(const LaunchRequest& request)
{
    Result<std::string> keyName = keyPairName(request.sshPublicKey);
    if (!keyName) {
        return keyName.error();
    }
    // The run call's own limits (the image and group are only placeholders here).
    if (Result<Call> precheck = runInstancesCall(request, "ami-check", *keyName, "sg-check"); !precheck) {
        return precheck.error();
    }
    return Ok{};
}

Result<std::string>
AwsEc2Provider::findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    if (!request.imageId.empty()) {
        result.steps.push_back(Reason{"step.ec2.image_given", {{"image", request.imageId}}});
        return request.imageId;
    }
    Result<HttpResponse> answer =
        send(request.region, describeImagesCall(std::string(kDlamiNamePattern)), launchContext(request), cancel);
    if (!answer) {
        return answer.error();
    }
    Result<std::vector<Image>> images = parseDescribeImages(answer->body);
    if (!images) {
        return images.error();
    }
    std::optional<Image> newest = newestImage(*images);
    if (!newest) {
        return Error{
            ErrorCode::NotFound,
            Reason{"error.ec2.no_image", {{"pattern", std::string(kDlamiNamePattern)}, {"region", request.region}}},
            "ec2 DescribeImages in " + request.region}; // wire: where, the API call and its region
    }
    Reason found{"step.ec2.image_found", {{"image", newest->imageId}, {"name", newest->name}}};
    if (!newest->creationDate.empty()) {
        found.params["created"] = newest->creationDate.substr(0, 10);
    }
    result.steps.push_back(std::move(found));
    return newest->imageId;
}

Result<std::string>
AwsEc2Provider::ensureKeyPair(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    Result<std::string> keyName = keyPairName(request.sshPublicKey);
    if (!keyName) {
        return keyName.error();
    }
    const ErrorContext context = launchContext(request);
    Result<HttpResponse> answer = send(request.region, describeKeyPairsCall(*keyName), context, cancel);
    bool found = false;
    if (answer) {
        Result<std::vector<KeyPair>> keys = parseDescribeKeyPairs(answer->body);
        if (!keys) {
            return keys.error();
        }
        found = std::any_of(keys->begin(), keys->end(), [&](const KeyPair& k) { return k.keyName == *keyName; });
    } else if (answer.error().providerCode != "InvalidKeyPair.NotFound") {
        return answer.error();
    }
    if (found) {
        result.steps.push_back(Reason{"step.ec2.key_pair_found", {{"key_pair", *keyName}}});
        return keyName;
    }
    Result<HttpResponse> imported =
        send(request.region, importKeyPairCall(*keyName, request.sshPublicKey, request.dryRun), context, cancel);
    if (request.dryRun) {
        if (!imported && imported.error().providerCode != "DryRunOperation") {
            return imported.error();
        }
        result.steps.push_back(Reason{"step.ec2.key_pair_would_import", {{"key_pair", *keyName}}});
    } else if (!imported) {
        if (imported.error().providerCode != "InvalidKeyPair.Duplicate") {
            return imported.error();
        }
        result.steps.push_back(Reason{"step.ec2.key_pair_found", {{"key_pair", *keyName}}});
    } else {
        Result<KeyPair> key = parseImportKeyPair(imported->body);
        if (!key) {
            return key.error();
        }
        result.steps.push_back(Reason{"step.ec2.key_pair_imported", {{"key_pair", key->keyName}}});
    }
    return keyName;
}

// The security group lives in the default VPC.
Result<std::string>
AwsEc2Provider::ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    const ErrorContext context = launchContext(request);
    const std::string groupName = securityGroupName(request.sshSourceCidr);
    Result<HttpResponse> answer = send(request.region, describeSecurityGroupsCall(groupName), context, cancel);
    if (!answer) {
        return answer.error();
    }
    Result<std::vector<SecurityGroup>> groups = parseDescribeSecurityGroups(answer->body);
    if (!groups) {
        return groups.error();
    }
    if (!groups->empty()) {
        const SecurityGroup& group = groups->front();
        if (allowsSshFrom(group, request.sshSourceCidr)) {
            result.steps.push_back(
                Reason{"step.ec2.group_found",
                       {{"group_id", group.groupId}, {"group_name", groupName}, {"cidr", request.sshSourceCidr}}});
            return group.groupId;
        }
        // Found by name, but its SSH rule is gone (deleted by hand, or an earlier create whose authorize step never
        // ran): without it the instance starts and cannot be reached.
        if (Status added = authorizeSsh(request, group.groupId, context, cancel); !added) {
            return added.error();
        }
        const std::map<std::string, std::string> ids{
            {"group_id", group.groupId}, {"group_name", groupName}, {"cidr", request.sshSourceCidr}};
        result.steps.push_back(request.dryRun ? Reason{"step.ec2.group_rule_would_add", ids}
                                              : Reason{"step.ec2.group_rule_added_again", ids});
        return group.groupId;
    }
    if (request.dryRun) {
        Result<HttpResponse> created =
            send(request.region, createSecurityGroupCall(groupName, request.sshSourceCidr, true), context, cancel);
        if (!created && created.error().providerCode != "DryRunOperation") {
            return created.error();
        }
        result.steps.push_back(
            Reason{"step.ec2.group_would_create", {{"group_name", groupName}, {"cidr", request.sshSourceCidr}}});
        return std::string();
    }
    Result<HttpResponse> created =
        send(request.region, createSecurityGroupCall(groupName, request.sshSourceCidr, false), context, cancel);
    if (!created) {
        return created.error();
    }
    Result<std::string> groupId = parseCreateSecurityGroup(created->body);
    if (!groupId) {
        return groupId.error();
    }
    if (Status added = authorizeSsh(request, *groupId, context, cancel); !added) {
        return added.error();
    }
    result.steps.push_back(Reason{"step.ec2.group_created", {{"group_id", *groupId}, {"cidr", request.sshSourceCidr}}});
    return groupId;
}

Status AwsEc2Provider::run(const LaunchRequest& request,
                           const LaunchPieces& pieces,
                           LaunchResult& result,
                           const CancelToken* cancel)
{
    Result<Call> run = runInstancesCall(request, pieces.imageId, pieces.keyPair, pieces.firewall);
    if (!run) {
        return run.error();
    }
    Result<HttpResponse> answer = send(request.region, *run, launchContext(request), cancel);
    if (request.dryRun) {
        if (!answer && answer.error().providerCode == "DryRunOperation") {
            result.dryRunPassed = true;
            result.state = InstanceState::Intent;
            result.steps.push_back(Reason{"step.ec2.dry_run_passed", {{"instance_type", request.instanceType}}});
            return Ok{};
        }
        if (!answer) {
            return answer.error();
        }
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.ec2.dry_run_launched", {}},
                     "ec2 RunInstances in " + request.region}; // wire: where, the API call and its region
    }
    if (!answer) {
        return answer.error();
    }
    Result<std::vector<RemoteInstance>> instances = parseRunInstances(answer->body, request.region);
    if (!instances) {
        return instances.error();
    }
    const RemoteInstance& launched = instances->front();
    result.instanceId = launched.instanceId;
    result.state = launched.state;
    result.zone = launched.zone;
    result.steps.push_back(Reason{"step.ec2.launched",
                                  {{"instance_id", launched.instanceId},
                                   {"instance_type", request.instanceType},
                                   {"pricing", launchPricingName(request.pricing)},
                                   {"zone", launched.zone},
                                   {"state", launched.providerState}}});
    return Ok{};
}

Result<std::vector<std::string>>
AwsEc2Provider::zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel)
{
    std::vector<std::string> zones;
    std::string token;
    for (int page = 0; page < 100; ++page) {
        Result<HttpResponse> answer = send(region,
                                           instanceTypeOfferingsCall(instanceType, token),
                                           ErrorContext{{}, region, instanceType, {}, false},
                                           cancel);
        if (!answer) {
            return answer.error();
        }
        Result<OfferingsPage> offerings = parseInstanceTypeOfferings(answer->body);
        if (!offerings) {
            return offerings.error();
        }
        zones.insert(zones.end(), offerings->zones.begin(), offerings->zones.end());
        token = offerings->nextToken;
        if (token.empty()) {
            break;
        }
    }
    std::sort(zones.begin(), zones.end());
    zones.erase(std::unique(zones.begin(), zones.end()), zones.end());
    return zones;
}

Result<RemoteInstance>
AwsEc2Provider::describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<HttpResponse> answer = send(region, describeInstanceCall(instanceId), ErrorContext{}, cancel);
    if (!answer) {
        return answer.error();
    }
    Result<InstancesPage> page = parseDescribeInstances(answer->body, region);
    if (!page) {
        return page.error();
    }
    for (const RemoteInstance& instance : page->instances) {
        if (instance.instanceId == instanceId) {
            return instance;
        }
    }
    return Error{ErrorCode::NotFound, Reason{"error.ec2.instance_not_reported", {}}, instanceId};
}

Result<std::vector<RemoteInstance>> AwsEc2Provider::listOurs(const std::string& region, const CancelToken* cancel)
{
    std::vector<RemoteInstance> out;
    std::string token;
    for (int page = 0; page < 1000; ++page) {
        Result<HttpResponse> answer = send(region, listOursCall(token), ErrorContext{}, cancel);
        if (!answer) {
            return answer.error();
        }
        Result<InstancesPage> parsed = parseDescribeInstances(answer->body, region);
        if (!parsed) {
            return parsed.error();
        }
        out.insert(out.end(), parsed->instances.begin(), parsed->instances.end());
        token = parsed->nextToken;
        if (token.empty()) {
            break;
        }
    }
    return out;
}

Status AwsEc2Provider::terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<HttpResponse> answer = send(region, terminateCall(instanceId), ErrorContext{}, cancel);
    if (!answer) {
        if (answer.error().providerCode == "InvalidInstanceID.NotFound") {
            return Ok{};
        }
        return answer.error();
    }
    Result<std::vector<StateChange>> changes = parseTerminateInstances(answer->body);
    if (!changes) {
        return changes.error();
    }
    return Ok{};
}

} // namespace

std::unique_ptr<CloudProvider> makeAwsEc2Provider(ProviderContext context)
{
    return std::make_unique<AwsEc2Provider>(std::move(context));
}

const ProviderDescriptor& awsDescriptor()
{
    static const ProviderDescriptor descriptor{
        "aws",
        "Amazon Web Services", // wire: the provider\'s name, a proper noun (data)
        "亚马逊云科技（AWS）",
        {{"access_key_id", CredentialFieldKind::KeyId}, {"secret_access_key", CredentialFieldKind::Secret}},
        {
            {CloudFeature::Subscription, Reason{"unsupported.aws.subscription", {}}},
            {CloudFeature::ScheduledTerminate, Reason{"unsupported.aws.scheduled_terminate", {}}},
        },
        makeAwsEc2Provider,
        LaunchKind::Instance,
        nullptr,
        // The DLAMI is Ubuntu 22.04 (kDlamiNamePattern): "For an Ubuntu AMI, the user name is ubuntu."
        // source: https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/managing-users.html
        "ubuntu", // wire: the image's login user
    };
    return descriptor;
}

Result<std::optional<PriceQuote>> AwsEc2Provider::quotePrice(const LaunchRequest& request, const CancelToken* cancel)
{
    if (request.pricing != LaunchPricing::Spot) {
        return std::optional<PriceQuote>(); // on-demand prices are in the Price List, which needs no key
    }
    // The spot price in force now, Linux/UNIX, in the request's zone or the cheapest.
    const Call call =
        spotPriceHistoryCall({request.instanceType}, request.zone, extendedIsoTime(m_context.clock()), "");
    ErrorContext context;
    context.instanceType = request.instanceType;
    context.spot = true;
    Result<HttpResponse> response = send(request.region, call, context, cancel);
    if (!response) {
        return response.error();
    }
    Result<AwsSpotPage> page = parseSpotPriceHistory(response->body);
    if (!page) {
        return page.error();
    }
    const std::map<std::string, AwsSpotPrice> cheapest = cheapestLinuxSpot(page->prices);
    const auto found = cheapest.find(request.instanceType);
    if (found == cheapest.end()) {
        return std::optional<PriceQuote>();
    }
    // wire: the quote's source, named as EC2 names the call and its product description (a citation, not a sentence)
    return std::optional<PriceQuote>(PriceQuote{found->second.usdPerHour,
                                                Currency::USD,
                                                PriceUnit::Hour,
                                                "EC2 DescribeSpotPriceHistory, Linux/UNIX, " + found->second.zone,
                                                unixSeconds(m_context.clock())});
}

} // namespace gpuplan::core
