#include "gpuplan/cloud/providers/tencent/TencentCvmProvider.h"

#include "gpuplan/cloud/VmProvider.h"
#include "gpuplan/cloud/providers/tencent/CvmApi.h"
#include "gpuplan/net/signers/TencentTc3.h"
#include "gpuplan/prices/PriceAnswers.h"

#include <utility>

namespace gpuplan::core {

namespace {

class TencentCvmProvider final : public VmProvider
{
public:
    explicit TencentCvmProvider(ProviderContext context)
        : VmProvider(tencentDescriptor(), std::move(context))
    { }

    Result<std::vector<std::string>>
    zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel) override
    {
        return zonesFor(region, instanceType, LaunchPricing::OnDemand, cancel);
    }
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
    /// Signs and sends the call; the body of a successful answer, else the mapped Error.
    Result<std::string> perform(const cvm::Call& call, const cvm::ErrorContext& context, const CancelToken* cancel);
    Result<std::vector<std::string>> zonesFor(const std::string& region,
                                              const std::string& instanceType,
                                              LaunchPricing pricing,
                                              const CancelToken* cancel);
    /// A group found by name may have lost its rules (deleted by hand, or an earlier create whose
    /// CreateSecurityGroupPolicies never ran): without the SSH rule the instance cannot be reached, without any
    /// outbound rule it cannot fetch packages. Adds what is missing (a dry run only says so).
    Status repairGroupRules(const LaunchRequest& request,
                            const std::string& groupId,
                            LaunchResult& result,
                            const CancelToken* cancel);
    Status addRule(const cvm::Call& rule, const std::string& region, const CancelToken* cancel);

    cvm::ErrorContext context(const std::string& action, cvm::Service service, const std::string& region) const
    {
        cvm::ErrorContext c;
        c.action = action;
        c.service = service;
        c.region = region;
        return c;
    }
};

Result<std::string>
TencentCvmProvider::perform(const cvm::Call& call, const cvm::ErrorContext& context, const CancelToken* cancel)
{
    if (!m_context.http) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cvm.no_transport", {}}, "tencent"};
    }
    if (cancel && cancel->cancelled()) {
        return Error{ErrorCode::Cancelled, Reason{"error.cvm.stopped_before", {{"action", call.action}}}, "tencent"};
    }
    HttpRequest request = cvm::buildRequest(cvm::baseUrl(call.service, m_context.endpoint), call, context.region);
    Result<SigningSteps> signedOk =
        signTencentTc3(request, m_context.key, cvm::serviceName(call.service), m_context.clock());
    if (!signedOk) {
        return signedOk.error();
    }
    Result<HttpResponse> response = m_context.http->send(request, cancel);
    if (!response) {
        return response.error().within(Reason{"error.provider.call", {{"action", call.action}}});
    }
    if (std::optional<Error> error = cvm::mapError(*response, context)) {
        return *error;
    }
    return std::move(response.value().body);
}

Result<std::vector<std::string>> TencentCvmProvider::zonesFor(const std::string& region,
                                                              const std::string& instanceType,
                                                              LaunchPricing pricing,
                                                              const CancelToken* cancel)
{
    const cvm::Call call = cvm::zoneConfigCall({instanceType}, pricing);
    cvm::ErrorContext c = context(call.action, cvm::Service::Cvm, region);
    c.instanceType = instanceType;
    Result<std::string> body = perform(call, c, cancel);
    if (!body) {
        return body.error();
    }
    return cvm::parseZoneConfig(*body);
}

Result<std::string>
TencentCvmProvider::findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    if (!request.imageId.empty()) {
        result.steps.push_back(Reason{"step.image_given", {{"image", request.imageId}}});
        return request.imageId;
    }
    // Tencent documents the GPU driver as an option of the console's purchase page ("自动安装GPU驱动", GPU 实例
    // https://cloud.tencent.com/document/product/560/8048): RunInstances has no parameter for it. So we look for a
    // public Ubuntu image that can boot this type (DescribeImages, InstanceType) and says in its name or
    // description that it carries the GPU driver; without one the user must name an image (a custom or marketplace
    // image with the NVIDIA driver).
    const cvm::Call call = cvm::describeImagesCall(request.instanceType);
    cvm::ErrorContext c = context(call.action, cvm::Service::Cvm, request.region);
    c.instanceType = request.instanceType;
    Result<std::string> body = perform(call, c, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::vector<cvm::Image>> images = cvm::parseDescribeImages(*body);
    if (!images) {
        return images.error();
    }
    std::optional<cvm::Image> image = cvm::newestGpuImage(*images);
    if (!image) {
        return Error{
            ErrorCode::InvalidArgument,
            Reason{"error.cvm.no_gpu_image", {{"instance_type", request.instanceType}, {"region", request.region}}},
            "image"};
    }
    result.steps.push_back(Reason{"step.image_found", {{"image", image->imageId}, {"name", image->name}}});
    return image->imageId;
}

Result<std::string>
TencentCvmProvider::ensureKeyPair(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    Result<std::string> name = cvm::keyPairName(request.sshPublicKey);
    if (!name) {
        return name.error();
    }
    auto describeKey = [&]() -> Result<std::string> {
        const cvm::Call call = cvm::describeKeyPairsCall(*name);
        Result<std::string> body = perform(call, context(call.action, cvm::Service::Cvm, request.region), cancel);
        if (!body) {
            return body.error();
        }
        Result<std::vector<cvm::KeyPair>> keys = cvm::parseDescribeKeyPairs(*body);
        if (!keys) {
            return keys.error();
        }
        for (const cvm::KeyPair& key : *keys) {
            if (key.keyName == *name) {
                return key.keyId;
            }
        }
        return std::string();
    };
    Result<std::string> existing = describeKey();
    if (!existing) {
        return existing.error();
    }
    if (!existing->empty()) {
        result.steps.push_back(Reason{"step.key_pair_found", {{"key_pair", *name}, {"key_id", *existing}}});
        return existing;
    }
    if (request.dryRun) {
        result.steps.push_back(Reason{"step.key_pair_would_import", {{"key_pair", *name}}});
        return std::string();
    }
    const cvm::Call call = cvm::importKeyPairCall(*name, request.sshPublicKey);
    Result<std::string> body = perform(call, context(call.action, cvm::Service::Cvm, request.region), cancel);
    if (!body) {
        if (body.error().providerCode == "InvalidKeyPairName.Duplicate") {
            // Another launch imported it meanwhile.
            return describeKey();
        }
        return body.error();
    }
    Result<std::string> keyId = cvm::parseImportKeyPair(*body);
    if (keyId) {
        result.steps.push_back(Reason{"step.key_pair_imported", {{"key_pair", *name}, {"key_id", *keyId}}});
    }
    return keyId;
}

Status TencentCvmProvider::addRule(const cvm::Call& rule, const std::string& region, const CancelToken* cancel)
{
    Result<std::string> answer = perform(rule, context(rule.action, cvm::Service::Vpc, region), cancel);
    if (!answer) {
        return answer.error();
    }
    return cvm::parseEmptyAnswer(*answer, rule.action);
}

Status TencentCvmProvider::repairGroupRules(const LaunchRequest& request,
                                            const std::string& groupId,
                                            LaunchResult& result,
                                            const CancelToken* cancel)
{
    const cvm::Call call = cvm::describeSecurityGroupPoliciesCall(groupId);
    Result<std::string> body = perform(call, context(call.action, cvm::Service::Vpc, request.region), cancel);
    if (!body) {
        return body.error();
    }
    Result<cvm::SecurityGroupPolicies> policies = cvm::parseDescribeSecurityGroupPolicies(*body);
    if (!policies) {
        return policies.error();
    }
    // Each missing rule with the steps that say it would be added (dry run) and that it was added again.
    struct Missing
    {
        cvm::Call rule;
        Reason wouldAdd;
        Reason addedAgain;
    };
    std::vector<Missing> missing;
    if (!cvm::allowsSshFrom(policies->ingress, request.sshSourceCidr)) {
        const std::map<std::string, std::string> ids{{"group_id", groupId}, {"cidr", request.sshSourceCidr}};
        missing.push_back({cvm::authorizeSshCall(groupId, request.sshSourceCidr),
                           Reason{"step.group_ssh_rule_would_add", ids},
                           Reason{"step.group_ssh_rule_added_again", ids}});
    }
    if (policies->egress.empty()) {
        missing.push_back({cvm::allowEgressCall(groupId),
                           Reason{"step.cvm.group_egress_rule_would_add", {{"group_id", groupId}}},
                           Reason{"step.cvm.group_egress_rule_added_again", {{"group_id", groupId}}}});
    }
    for (const Missing& m : missing) {
        if (request.dryRun) {
            result.steps.push_back(m.wouldAdd);
            continue;
        }
        if (Status added = addRule(m.rule, request.region, cancel); !added) {
            return added;
        }
        result.steps.push_back(m.addedAgain);
    }
    return Ok{};
}

Result<std::string>
TencentCvmProvider::ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    const std::string name = cvm::securityGroupName(request.sshSourceCidr);
    const cvm::Call describeCall = cvm::describeSecurityGroupsCall(name);
    Result<std::string> body =
        perform(describeCall, context(describeCall.action, cvm::Service::Vpc, request.region), cancel);
    if (!body) {
        return body.error();
    }
    Result<std::vector<cvm::SecurityGroup>> groups = cvm::parseDescribeSecurityGroups(*body);
    if (!groups) {
        return groups.error();
    }
    for (const cvm::SecurityGroup& group : *groups) {
        if (group.groupName == name) {
            result.steps.push_back(Reason{"step.group_found", {{"group_name", name}, {"group_id", group.groupId}}});
            if (Status repaired = repairGroupRules(request, group.groupId, result, cancel); !repaired) {
                return repaired.error();
            }
            return group.groupId;
        }
    }
    if (request.dryRun) {
        result.steps.push_back(
            Reason{"step.group_would_create", {{"group_name", name}, {"cidr", request.sshSourceCidr}}});
        return std::string();
    }
    const cvm::Call createCall = cvm::createSecurityGroupCall(name, request.sshSourceCidr);
    Result<std::string> created =
        perform(createCall, context(createCall.action, cvm::Service::Vpc, request.region), cancel);
    if (!created) {
        return created.error();
    }
    Result<std::string> groupId = cvm::parseCreateSecurityGroup(*created);
    if (!groupId) {
        return groupId.error();
    }
    for (const cvm::Call& rule :
         {cvm::authorizeSshCall(*groupId, request.sshSourceCidr), cvm::allowEgressCall(*groupId)}) {
        if (Status added = addRule(rule, request.region, cancel); !added) {
            return added.error();
        }
    }
    result.steps.push_back(Reason{"step.cvm.group_created",
                                  {{"group_name", name}, {"group_id", *groupId}, {"cidr", request.sshSourceCidr}}});
    return groupId;
}

Status TencentCvmProvider::checkRequest(const LaunchRequest& request)
{
    if (Result<std::string> name = cvm::keyPairName(request.sshPublicKey); !name) {
        return name.error();
    }
    // The run call's own limits (zone, image, key and group are only placeholders here).
    if (Result<cvm::Call> check =
            cvm::runInstancesCall(request, "zone", "image", "", "", unixSeconds(m_context.clock()));
        !check) {
        return check.error();
    }
    return Ok{};
}

Status TencentCvmProvider::run(const LaunchRequest& request,
                               const LaunchPieces& pieces,
                               LaunchResult& result,
                               const CancelToken* cancel)
{
    std::string zone = request.zone;
    if (zone.empty()) {
        // CVM needs Placement.Zone: take the first zone that sells the type for this way of paying.
        Result<std::vector<std::string>> zones =
            zonesFor(request.region, request.instanceType, request.pricing, cancel);
        if (!zones) {
            return zones.error();
        }
        if (zones->empty()) {
            return Error{ErrorCode::InsufficientCapacity,
                         Reason{"error.cvm.no_zone_sells",
                                {{"region", request.region},
                                 {"instance_type", request.instanceType},
                                 {"action", "DescribeZoneInstanceConfigInfos"}}},
                         "cvm DescribeZoneInstanceConfigInfos in " + request.region}; // wire: where, the call
        }
        zone = zones->front();
        result.steps.push_back(Reason{"step.zone_chosen", {{"zone", zone}}});
    }

    Result<cvm::Call> call = cvm::runInstancesCall(
        request, zone, pieces.imageId, pieces.keyPair, pieces.firewall, unixSeconds(m_context.clock()));
    if (!call) {
        return call.error();
    }
    if (request.terminateAt > 0 && request.pricing == LaunchPricing::Subscription) {
        result.steps.push_back(Reason{"step.cvm.no_scheduled_terminate", {}});
    }
    cvm::ErrorContext c = context("RunInstances", cvm::Service::Cvm, request.region);
    c.instanceType = request.instanceType;
    c.zone = zone;
    c.spot = request.pricing == LaunchPricing::Spot;
    Result<std::string> body = perform(*call, c, cancel);
    result.zone = zone;
    if (!body) {
        if (request.dryRun && body.error().providerCode == "DryRunOperation") {
            result.dryRunPassed = true;
            result.steps.push_back(Reason{"step.dry_run_passed", {}});
            return Ok{};
        }
        return body.error();
    }
    Result<std::vector<std::string>> ids = cvm::parseRunInstances(*body);
    if (!ids) {
        return ids.error();
    }
    if (request.dryRun) {
        // "如果检查通过，则返回RequestId": a passed check may also come back as a plain answer.
        result.dryRunPassed = true;
        result.steps.push_back(Reason{"step.dry_run_passed", {}});
        return Ok{};
    }
    if (ids->empty()) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.cvm.answer_without_instance_id", {{"action", "RunInstances"}}},
                     "cvm RunInstances"}; // wire: where, the API call
    }
    result.instanceId = ids->front();
    result.state = InstanceState::Pending;
    result.steps.push_back(Reason{"step.launched", {{"instance_id", result.instanceId}, {"zone", zone}}});
    return Ok{};
}

Result<RemoteInstance>
TencentCvmProvider::describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    const cvm::Call call = cvm::describeInstanceCall(instanceId);
    Result<std::string> body = perform(call, context(call.action, cvm::Service::Cvm, region), cancel);
    if (!body) {
        return body.error();
    }
    Result<cvm::InstancesPage> page = cvm::parseDescribeInstances(*body, region);
    if (!page) {
        return page.error();
    }
    for (RemoteInstance& instance : page.value().instances) {
        if (instance.instanceId == instanceId) {
            return std::move(instance);
        }
    }
    return Error{ErrorCode::NotFound, Reason{"error.cvm.instance_not_listed", {}}, instanceId};
}

Result<std::vector<RemoteInstance>> TencentCvmProvider::listOurs(const std::string& region, const CancelToken* cancel)
{
    std::vector<RemoteInstance> all;
    for (int offset = 0;; offset += cvm::kPageLimit) {
        const cvm::Call call = cvm::listOursCall(offset);
        Result<std::string> body = perform(call, context(call.action, cvm::Service::Cvm, region), cancel);
        if (!body) {
            return body.error();
        }
        Result<cvm::InstancesPage> page = cvm::parseDescribeInstances(*body, region);
        if (!page) {
            return page.error();
        }
        const std::size_t got = page->instances.size();
        for (RemoteInstance& instance : page.value().instances) {
            all.push_back(std::move(instance));
        }
        if (got < static_cast<std::size_t>(cvm::kPageLimit) || offset + cvm::kPageLimit >= page->totalCount) {
            break;
        }
    }
    return all;
}

Status
TencentCvmProvider::terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    const cvm::Call call = cvm::terminateCall(instanceId);
    Result<std::string> body = perform(call, context(call.action, cvm::Service::Cvm, region), cancel);
    if (!body) {
        const std::string& code = body.error().providerCode;
        // Already gone, or already on its way: "An instance already gone is not an error."
        if (code == "InvalidInstanceId.NotFound" || code == "UnsupportedOperation.InstanceStateTerminated"
            || code == "UnsupportedOperation.InstanceStateTerminating") {
            return Ok{};
        }
        return body.error();
    }
    return cvm::parseEmptyAnswer(*body, call.action);
}

} // namespace

std::unique_ptr<CloudProvider> makeTencentCvmProvider(ProviderContext context)
{
    return std::make_unique<TencentCvmProvider>(std::move(context));
}

const ProviderDescriptor& tencentDescriptor()
{
    // https://cloud.tencent.com/document/product/213/4951 (实例关机): a shutdown from inside the instance leaves it
    // STOPPED, and a pay-as-you-go one keeps billing unless stopped through the API with StoppedMode STOP_CHARGING
    // (StopInstances). The dead-man timer therefore lives on Tencent's side: RunInstances ActionTimer
    // (TerminateInstances at a set time), which ScheduledTerminate covers.
    static const ProviderDescriptor descriptor{
        "tencent",
        "Tencent Cloud", // wire: the provider\'s name, a proper noun (data)
        "腾讯云",
        {{"access_key_id", CredentialFieldKind::KeyId}, {"secret_access_key", CredentialFieldKind::Secret}},
        {{CloudFeature::TerminateOnShutdown, Reason{"unsupported.tencent.terminate_on_shutdown", {}}},
         {CloudFeature::ShutdownStopsBilling, Reason{"unsupported.tencent.shutdown_stops_billing", {}}}},
        makeTencentCvmProvider,
        LaunchKind::Instance,
        nullptr,
        // A public Ubuntu image (CvmApi's DescribeImages filter): "Ubuntu 系统的默认用户名为 ubuntu".
        // source: https://cloud.tencent.com/document/product/213/35700 (使用标准登录方式登录 Linux 实例)
        "ubuntu", // wire: the image's login user
    };
    return descriptor;
}

Result<std::optional<PriceQuote>> TencentCvmProvider::quotePrice(const LaunchRequest& request,
                                                                 const CancelToken* cancel)
{
    // InquiryPriceRunInstances (https://cloud.tencent.com/document/api/213/15726) with the launch's zone (or the
    // first that sells the type), image and charge: the list price per hour, or of the prepaid months.
    std::string zone = request.zone;
    if (zone.empty()) {
        Result<std::vector<std::string>> zones =
            zonesFor(request.region, request.instanceType, request.pricing, cancel);
        if (!zones) {
            return zones.error();
        }
        if (zones->empty()) {
            return std::optional<PriceQuote>();
        }
        zone = zones->front();
    }
    LaunchResult ignored;
    Result<std::string> image = findImage(request, ignored, cancel);
    if (!image) {
        return image.error();
    }
    const bool prepaid = request.pricing == LaunchPricing::Subscription;
    const int months = std::max(1, request.subscriptionMonths);
    const cvm::Call call = cvm::inquiryPriceCall(request.instanceType, zone, *image, request.pricing, months);
    Result<std::string> body = perform(call, context(call.action, cvm::Service::Cvm, request.region), cancel);
    if (!body) {
        return body.error();
    }
    const nlohmann::json answer = nlohmann::json::parse(*body, nullptr, false);
    const TencentInstancePrice price = parseTencentInstancePrice(
        answer.is_object() ? answer.value("Response", nlohmann::json::object()) : nlohmann::json::object());
    // Spot pays the discounted price; pay-as-you-go's list price is UnitPrice (its first step).
    const std::optional<double> amount = prepaid                                  ? price.originalPrice
                                         : request.pricing == LaunchPricing::Spot ? price.unitPriceDiscount
                                                                                  : price.unitPrice;
    if (!amount) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.cvm.answer_without_price", {{"action", call.action}}},
                     "tencent " + request.region};
    }
    // wire: the quote's source, named as Tencent names the call, with the zone and term it was asked for (a citation)
    return std::optional<PriceQuote>(
        PriceQuote{prepaid ? *amount / months : *amount,
                   Currency::CNY,
                   prepaid ? PriceUnit::Month : PriceUnit::Hour,
                   "Tencent Cloud InquiryPriceRunInstances, " + zone
                       + (prepaid ? ", prepaid " + std::to_string(months) + " month(s), per month" : std::string()),
                   unixSeconds(m_context.clock())});
}

} // namespace gpuplan::core
