#include "gpuplan/cloud/providers/alibaba/AlibabaProvider.h"

#include "gpuplan/cloud/VmProvider.h"
#include "gpuplan/cloud/providers/alibaba/EcsApi.h"
#include "gpuplan/net/signers/AlibabaAcs3.h"
#include "gpuplan/prices/PriceAnswers.h"

#include <algorithm>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

namespace gpuplan::core {

namespace {

/// How often, and how far apart, a VPC or vSwitch just created is asked whether it is Available yet (CreateVpc and
/// CreateVSwitch are asynchronous: "CreateVpc is an asynchronous operation").
constexpr int kReadyPolls = 15;
constexpr std::chrono::seconds kReadyInterval{2};

class AlibabaEcsProvider final : public VmProvider
{
public:
    explicit AlibabaEcsProvider(ProviderContext context)
        : VmProvider(alibabaDescriptor(), std::move(context))
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
    Result<std::string>
    perform(const alibaba::Call& call, const alibaba::ErrorContext& context, const CancelToken* cancel);
    Result<std::string> perform(const alibaba::Call& call, const std::string& region, const CancelToken* cancel)
    {
        return perform(call, context(call, region), cancel);
    }
    Result<std::vector<std::string>> zonesFor(const std::string& region,
                                              const std::string& instanceType,
                                              LaunchPricing pricing,
                                              const CancelToken* cancel);
    Result<std::vector<alibaba::EcsInstance>>
    describeEcs(const std::string& region, const std::string& instanceId, const CancelToken* cancel);
    /// Ours (kVpcName), else the account's default VPC, else created (a dry run says it would be). Sets m_vpcId
    /// and m_vpcCidr (empty in a dry run that would create it).
    Status ensureVpc(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel);
    /// The first Available vSwitch of m_vpcId in `zone`, else one created in a free /24; "" in a dry run that would
    /// create it.
    Result<std::string> ensureVSwitch(const LaunchRequest& request,
                                      const std::string& zone,
                                      LaunchResult& result,
                                      const CancelToken* cancel);
    /// A group found by name may have lost its SSH rule: adds it again (a dry run only says so).
    Status repairGroupRules(const LaunchRequest& request,
                            const std::string& groupId,
                            LaunchResult& result,
                            const CancelToken* cancel);

    alibaba::ErrorContext context(const alibaba::Call& call, const std::string& region) const
    {
        alibaba::ErrorContext c;
        c.action = call.action;
        c.product = call.product;
        c.region = region;
        return c;
    }

    std::string m_vpcId;
    std::string m_vpcCidr;
};

Result<std::string>
AlibabaEcsProvider::perform(const alibaba::Call& call, const alibaba::ErrorContext& context, const CancelToken* cancel)
{
    if (!m_context.http) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.alibaba.no_transport", {}}, "alibaba"};
    }
    if (cancel && cancel->cancelled()) {
        return Error{
            ErrorCode::Cancelled, Reason{"error.alibaba.stopped_before", {{"action", call.action}}}, "alibaba"};
    }
    HttpRequest request =
        alibaba::buildRequest(alibaba::baseUrl(call.product, context.region, m_context.endpoint), call);
    Result<SigningSteps> signedOk = signAlibabaAcs3(request, m_context.key, m_context.clock());
    if (!signedOk) {
        return signedOk.error();
    }
    Result<HttpResponse> response = m_context.http->send(request, cancel);
    if (!response) {
        return response.error().within(Reason{"error.provider.call", {{"action", call.action}}});
    }
    if (std::optional<Error> error = alibaba::mapError(*response, context)) {
        return *error;
    }
    return std::move(response.value().body);
}

Result<std::vector<std::string>> AlibabaEcsProvider::zonesFor(const std::string& region,
                                                              const std::string& instanceType,
                                                              LaunchPricing pricing,
                                                              const CancelToken* cancel)
{
    const alibaba::Call call = alibaba::availableResourceCall(region, instanceType, pricing);
    alibaba::ErrorContext c = context(call, region);
    c.instanceType = instanceType;
    Result<std::string> body = perform(call, c, cancel);
    if (!body) {
        return body.error();
    }
    return alibaba::parseAvailableZones(*body, instanceType);
}

Status AlibabaEcsProvider::checkRequest(const LaunchRequest& request)
{
    if (Result<std::string> name = alibaba::keyPairName(request.sshPublicKey); !name) {
        return name.error();
    }
    // The run call's own limits (zone, image, key, group and vSwitch are only placeholders here).
    if (Result<alibaba::Call> check =
            alibaba::runInstancesCall(request, "zone", "image", "", "", "", unixSeconds(m_context.clock()));
        !check) {
        return check.error();
    }
    return Ok{};
}

Result<std::string>
AlibabaEcsProvider::findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    if (!request.imageId.empty()) {
        result.steps.push_back(Reason{"step.image_given", {{"image", request.imageId}}});
        return request.imageId;
    }
    // RunInstances has no switch for the GPU driver (the console installs it through its own script), so we look
    // for a public image that can boot the type and says it carries the driver; without one the user must name an
    // image (provider_launch_apis.md §1.2.4 found none).
    const alibaba::Call call = alibaba::describeImagesCall(request.region, request.instanceType);
    alibaba::ErrorContext c = context(call, request.region);
    c.instanceType = request.instanceType;
    Result<std::string> body = perform(call, c, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::vector<alibaba::Image>> images = alibaba::parseDescribeImages(*body);
    if (!images) {
        return images.error();
    }
    std::optional<alibaba::Image> image = alibaba::newestGpuImage(*images);
    if (!image) {
        return Error{
            ErrorCode::InvalidArgument,
            Reason{"error.alibaba.no_gpu_image", {{"instance_type", request.instanceType}, {"region", request.region}}},
            "image"};
    }
    result.steps.push_back(Reason{"step.image_found", {{"image", image->imageId}, {"name", image->name}}});
    return image->imageId;
}

Result<std::string>
AlibabaEcsProvider::ensureKeyPair(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    Result<std::string> name = alibaba::keyPairName(request.sshPublicKey);
    if (!name) {
        return name.error();
    }
    auto found = [&]() -> Result<bool> {
        Result<std::string> body =
            perform(alibaba::describeKeyPairsCall(request.region, *name), request.region, cancel);
        if (!body) {
            return body.error();
        }
        Result<std::vector<std::string>> names = alibaba::parseDescribeKeyPairs(*body);
        if (!names) {
            return names.error();
        }
        return std::find(names->begin(), names->end(), *name) != names->end();
    };
    Result<bool> exists = found();
    if (!exists) {
        return exists.error();
    }
    if (*exists) {
        result.steps.push_back(Reason{"step.key_pair_found", {{"key_pair", *name}}});
        return *name;
    }
    if (request.dryRun) {
        result.steps.push_back(Reason{"step.key_pair_would_import", {{"key_pair", *name}}});
        return std::string();
    }
    Result<std::string> body =
        perform(alibaba::importKeyPairCall(request.region, *name, request.sshPublicKey), request.region, cancel);
    if (!body) {
        if (body.error().providerCode == "KeyPair.AlreadyExist") {
            // Imported meanwhile by another launch: it is there now.
            Result<bool> again = found();
            if (!again) {
                return again.error();
            }
            if (*again) {
                result.steps.push_back(Reason{"step.key_pair_found", {{"key_pair", *name}}});
                return *name;
            }
        }
        return body.error();
    }
    Result<std::string> imported = alibaba::parseImportKeyPair(*body);
    if (!imported) {
        return imported.error();
    }
    // The answer echoes the name sent; the name we chose is the one RunInstances gets.
    result.steps.push_back(Reason{"step.key_pair_imported", {{"key_pair", *name}}});
    return *name;
}

Status AlibabaEcsProvider::ensureVpc(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    m_vpcId.clear();
    m_vpcCidr.clear();
    const auto firstVpc = [&](const alibaba::Call& call, bool named) -> Result<std::optional<alibaba::Vpc>> {
        Result<std::string> body = perform(call, request.region, cancel);
        if (!body) {
            return body.error();
        }
        Result<std::vector<alibaba::Vpc>> vpcs = alibaba::parseDescribeVpcs(*body);
        if (!vpcs) {
            return vpcs.error();
        }
        for (const alibaba::Vpc& v : *vpcs) {
            if (named ? v.name == alibaba::kVpcName : v.isDefault) {
                return std::optional(v);
            }
        }
        return std::optional<alibaba::Vpc>();
    };
    Result<std::optional<alibaba::Vpc>> ours = firstVpc(alibaba::describeOurVpcCall(request.region), true);
    if (!ours) {
        return ours.error();
    }
    if (*ours) {
        m_vpcId = (*ours)->vpcId;
        m_vpcCidr = (*ours)->cidrBlock;
        result.steps.push_back(Reason{"step.alibaba.vpc_found", {{"vpc_id", m_vpcId}, {"vpc_name", (*ours)->name}}});
        return Ok{};
    }
    Result<std::optional<alibaba::Vpc>> standard = firstVpc(alibaba::describeDefaultVpcCall(request.region), false);
    if (!standard) {
        return standard.error();
    }
    if (*standard) {
        m_vpcId = (*standard)->vpcId;
        m_vpcCidr = (*standard)->cidrBlock;
        result.steps.push_back(Reason{"step.alibaba.vpc_default", {{"vpc_id", m_vpcId}}});
        return Ok{};
    }
    const std::map<std::string, std::string> named{{"vpc_name", std::string(alibaba::kVpcName)},
                                                   {"cidr", std::string(alibaba::kVpcCidr)}};
    if (request.dryRun) {
        result.steps.push_back(Reason{"step.alibaba.vpc_would_create", named});
        return Ok{};
    }
    const alibaba::Call create =
        alibaba::createVpcCall(request.region, alibaba::derivedClientToken(request.clientToken, "vpc"));
    Result<std::string> body = perform(create, request.region, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::string> vpcId = alibaba::parseCreateVpc(*body);
    if (!vpcId) {
        return vpcId.error();
    }
    // Asynchronous: wait until DescribeVpcs reports it Available before a vSwitch or group goes in.
    for (int poll = 0;; ++poll) {
        Result<std::optional<alibaba::Vpc>> created = firstVpc(alibaba::describeOurVpcCall(request.region), true);
        if (!created) {
            return created.error();
        }
        if (*created && (*created)->vpcId == *vpcId && (*created)->status == "Available") {
            break;
        }
        if (poll + 1 >= kReadyPolls) {
            return Error{ErrorCode::Timeout,
                         Reason{"error.alibaba.network_not_ready", {{"resource_id", *vpcId}, {"action", "CreateVpc"}}},
                         "alibaba CreateVpc in " + request.region}; // wire: where, the call
        }
        pause(kReadyInterval);
    }
    m_vpcId = *vpcId;
    m_vpcCidr = std::string(alibaba::kVpcCidr);
    std::map<std::string, std::string> params = named;
    params["vpc_id"] = m_vpcId;
    result.steps.push_back(Reason{"step.alibaba.vpc_created", params});
    return Ok{};
}

Status AlibabaEcsProvider::repairGroupRules(const LaunchRequest& request,
                                            const std::string& groupId,
                                            LaunchResult& result,
                                            const CancelToken* cancel)
{
    Result<std::string> body =
        perform(alibaba::describeSecurityGroupAttributeCall(request.region, groupId), request.region, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::vector<alibaba::Permission>> rules = alibaba::parseSecurityGroupPermissions(*body);
    if (!rules) {
        return rules.error();
    }
    // ECS groups accept all outbound traffic unless a rule says otherwise, so only the SSH rule can be missing.
    if (alibaba::allowsSshFrom(*rules, request.sshSourceCidr)) {
        return Ok{};
    }
    const std::map<std::string, std::string> ids{{"group_id", groupId}, {"cidr", request.sshSourceCidr}};
    if (request.dryRun) {
        result.steps.push_back(Reason{"step.group_ssh_rule_would_add", ids});
        return Ok{};
    }
    const alibaba::Call rule = alibaba::authorizeSshCall(request.region, groupId, request.sshSourceCidr);
    Result<std::string> added = perform(rule, request.region, cancel);
    if (!added) {
        return added.error();
    }
    if (Status ok = alibaba::parseEmptyAnswer(*added, rule.action); !ok) {
        return ok;
    }
    result.steps.push_back(Reason{"step.group_ssh_rule_added_again", ids});
    return Ok{};
}

Result<std::string>
AlibabaEcsProvider::ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    // ECS security groups live in a VPC, and so do instances: the network comes first.
    if (Status vpc = ensureVpc(request, result, cancel); !vpc) {
        return vpc.error();
    }
    const std::string name = alibaba::securityGroupName(request.sshSourceCidr);
    if (!m_vpcId.empty()) {
        Result<std::string> body =
            perform(alibaba::describeSecurityGroupsCall(request.region, m_vpcId, name), request.region, cancel);
        if (!body) {
            return body.error();
        }
        Result<std::vector<alibaba::SecurityGroup>> groups = alibaba::parseDescribeSecurityGroups(*body);
        if (!groups) {
            return groups.error();
        }
        for (const alibaba::SecurityGroup& group : *groups) {
            if (group.name == name && (group.vpcId.empty() || group.vpcId == m_vpcId)) {
                result.steps.push_back(Reason{"step.group_found", {{"group_name", name}, {"group_id", group.groupId}}});
                if (Status repaired = repairGroupRules(request, group.groupId, result, cancel); !repaired) {
                    return repaired.error();
                }
                return group.groupId;
            }
        }
    }
    if (request.dryRun) {
        result.steps.push_back(
            Reason{"step.group_would_create", {{"group_name", name}, {"cidr", request.sshSourceCidr}}});
        return std::string();
    }
    const alibaba::Call create = alibaba::createSecurityGroupCall(
        request.region,
        m_vpcId,
        name,
        request.sshSourceCidr,
        alibaba::derivedClientToken(request.clientToken, "group:" + request.sshSourceCidr));
    Result<std::string> created = perform(create, request.region, cancel);
    if (!created) {
        return created.error();
    }
    Result<std::string> groupId = alibaba::parseCreateSecurityGroup(*created);
    if (!groupId) {
        return groupId.error();
    }
    const alibaba::Call rule = alibaba::authorizeSshCall(request.region, *groupId, request.sshSourceCidr);
    Result<std::string> added = perform(rule, request.region, cancel);
    if (!added) {
        return added.error();
    }
    if (Status ok = alibaba::parseEmptyAnswer(*added, rule.action); !ok) {
        return ok.error();
    }
    result.steps.push_back(
        Reason{"step.group_created", {{"group_name", name}, {"group_id", *groupId}, {"cidr", request.sshSourceCidr}}});
    return groupId;
}

Result<std::string> AlibabaEcsProvider::ensureVSwitch(const LaunchRequest& request,
                                                      const std::string& zone,
                                                      LaunchResult& result,
                                                      const CancelToken* cancel)
{
    if (m_vpcId.empty()) {
        // A dry run whose VPC does not exist yet.
        result.steps.push_back(Reason{"step.alibaba.vswitch_would_create", {{"zone", zone}}});
        return std::string();
    }
    const auto inZone = [&]() -> Result<std::vector<alibaba::VSwitch>> {
        Result<std::string> body =
            perform(alibaba::describeVSwitchesCall(request.region, m_vpcId, zone), request.region, cancel);
        if (!body) {
            return body.error();
        }
        return alibaba::parseDescribeVSwitches(*body);
    };
    Result<std::vector<alibaba::VSwitch>> switches = inZone();
    if (!switches) {
        return switches.error();
    }
    for (const alibaba::VSwitch& v : *switches) {
        if (v.status == "Available" && (v.zone.empty() || v.zone == zone)) {
            result.steps.push_back(Reason{"step.alibaba.vswitch_found", {{"vswitch_id", v.vSwitchId}, {"zone", zone}}});
            return v.vSwitchId;
        }
    }
    if (request.dryRun) {
        result.steps.push_back(Reason{"step.alibaba.vswitch_would_create", {{"zone", zone}}});
        return std::string();
    }
    // A /24 that overlaps none of the VPC's vSwitches in any zone.
    Result<std::string> all =
        perform(alibaba::describeVSwitchesCall(request.region, m_vpcId, ""), request.region, cancel);
    if (!all) {
        return all.error();
    }
    Result<std::vector<alibaba::VSwitch>> taken = alibaba::parseDescribeVSwitches(*all);
    if (!taken) {
        return taken.error();
    }
    std::vector<std::string> blocks;
    for (const alibaba::VSwitch& v : *taken) {
        if (!v.cidrBlock.empty()) {
            blocks.push_back(v.cidrBlock);
        }
    }
    std::optional<std::string> cidr = alibaba::freeVSwitchCidr(m_vpcCidr, blocks);
    if (!cidr) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.alibaba.no_free_vswitch_cidr", {{"vpc_id", m_vpcId}, {"cidr", m_vpcCidr}}},
                     "alibaba CreateVSwitch in " + request.region}; // wire: where, the call
    }
    const alibaba::Call create = alibaba::createVSwitchCall(
        request.region, m_vpcId, zone, *cidr, alibaba::derivedClientToken(request.clientToken, "vswitch:" + zone));
    alibaba::ErrorContext c = context(create, request.region);
    c.zone = zone;
    Result<std::string> body = perform(create, c, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::string> vSwitchId = alibaba::parseCreateVSwitch(*body);
    if (!vSwitchId) {
        return vSwitchId.error();
    }
    for (int poll = 0;; ++poll) {
        Result<std::vector<alibaba::VSwitch>> now = inZone();
        if (!now) {
            return now.error();
        }
        const bool ready = std::any_of(now->begin(), now->end(), [&](const alibaba::VSwitch& v) {
            return v.vSwitchId == *vSwitchId && v.status == "Available";
        });
        if (ready) {
            break;
        }
        if (poll + 1 >= kReadyPolls) {
            return Error{
                ErrorCode::Timeout,
                Reason{"error.alibaba.network_not_ready", {{"resource_id", *vSwitchId}, {"action", "CreateVSwitch"}}},
                "alibaba CreateVSwitch in " + request.region}; // wire: where, the call
        }
        pause(kReadyInterval);
    }
    result.steps.push_back(
        Reason{"step.alibaba.vswitch_created", {{"vswitch_id", *vSwitchId}, {"zone", zone}, {"cidr", *cidr}}});
    return vSwitchId;
}

Status AlibabaEcsProvider::run(const LaunchRequest& request,
                               const LaunchPieces& pieces,
                               LaunchResult& result,
                               const CancelToken* cancel)
{
    std::string zone = request.zone;
    if (zone.empty()) {
        // The vSwitch decides the zone: take the first that has the type in stock for this way of paying.
        Result<std::vector<std::string>> zones =
            zonesFor(request.region, request.instanceType, request.pricing, cancel);
        if (!zones) {
            return zones.error();
        }
        if (zones->empty()) {
            return Error{ErrorCode::InsufficientCapacity,
                         Reason{"error.alibaba.no_zone_sells",
                                {{"region", request.region},
                                 {"instance_type", request.instanceType},
                                 {"action", "DescribeAvailableResource"}}},
                         "alibaba DescribeAvailableResource in " + request.region}; // wire: where, the call
        }
        zone = zones->front();
        result.steps.push_back(Reason{"step.zone_chosen", {{"zone", zone}}});
    }
    Result<std::string> vSwitch = ensureVSwitch(request, zone, result, cancel);
    if (!vSwitch) {
        return vSwitch.error();
    }

    Result<alibaba::Call> call = alibaba::runInstancesCall(
        request, zone, pieces.imageId, pieces.keyPair, pieces.firewall, *vSwitch, unixSeconds(m_context.clock()));
    if (!call) {
        return call.error();
    }
    if (request.terminateAt > 0 && request.pricing == LaunchPricing::Subscription) {
        result.steps.push_back(Reason{"step.alibaba.no_auto_release", {}});
    }
    alibaba::ErrorContext c = context(*call, request.region);
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
    Result<std::vector<std::string>> ids = alibaba::parseRunInstances(*body);
    if (!ids) {
        return ids.error();
    }
    if (request.dryRun) {
        result.dryRunPassed = true;
        result.steps.push_back(Reason{"step.dry_run_passed", {}});
        return Ok{};
    }
    if (ids->empty()) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.alibaba.answer_without_instance_id", {{"action", "RunInstances"}}},
                     "alibaba RunInstances"}; // wire: where, the API call
    }
    result.instanceId = ids->front();
    result.state = InstanceState::Pending;
    result.steps.push_back(Reason{"step.launched", {{"instance_id", result.instanceId}, {"zone", zone}}});
    return Ok{};
}

Result<std::vector<alibaba::EcsInstance>>
AlibabaEcsProvider::describeEcs(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<std::string> body = perform(alibaba::describeInstanceCall(region, instanceId), region, cancel);
    if (!body) {
        return body.error();
    }
    Result<alibaba::InstancesPage> page = alibaba::parseDescribeInstances(*body, region);
    if (!page) {
        return page.error();
    }
    return std::move(page.value().instances);
}

Result<RemoteInstance>
AlibabaEcsProvider::describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<std::vector<alibaba::EcsInstance>> instances = describeEcs(region, instanceId, cancel);
    if (!instances) {
        return instances.error();
    }
    for (alibaba::EcsInstance& instance : instances.value()) {
        if (instance.remote.instanceId == instanceId) {
            return std::move(instance.remote);
        }
    }
    return Error{ErrorCode::NotFound, Reason{"error.alibaba.instance_not_listed", {}}, instanceId};
}

Result<std::vector<RemoteInstance>> AlibabaEcsProvider::listOurs(const std::string& region, const CancelToken* cancel)
{
    std::vector<RemoteInstance> all;
    std::string nextToken;
    for (int page = 0; page < 1000; ++page) {
        Result<std::string> body = perform(alibaba::listOursCall(region, nextToken), region, cancel);
        if (!body) {
            return body.error();
        }
        Result<alibaba::InstancesPage> answer = alibaba::parseDescribeInstances(*body, region);
        if (!answer) {
            return answer.error();
        }
        for (alibaba::EcsInstance& instance : answer.value().instances) {
            all.push_back(std::move(instance.remote));
        }
        if (answer->nextToken.empty() || answer->nextToken == nextToken) {
            break;
        }
        nextToken = answer->nextToken;
    }
    return all;
}

Status
AlibabaEcsProvider::terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<std::vector<alibaba::EcsInstance>> instances = describeEcs(region, instanceId, cancel);
    if (!instances) {
        return instances.error().code == ErrorCode::NotFound ? Status(Ok{}) : Status(instances.error());
    }
    const auto it = std::find_if(instances->begin(), instances->end(), [&](const alibaba::EcsInstance& i) {
        return i.remote.instanceId == instanceId;
    });
    if (it == instances->end()) {
        return Ok{}; // already gone
    }
    // A subscription instance cannot be released before its period ends (DeleteInstances releases only expired
    // ones, TerminateSubscription): it is refused here, with the date, instead of sending a call that fails.
    const std::int64_t now = unixSeconds(m_context.clock());
    if (it->chargeType == "PrePaid" && (!it->expiresAt || *it->expiresAt > now)) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.alibaba.subscription_not_releasable",
                            {{"instance_id", instanceId}, {"expires", it->expiredTime}}},
                     "alibaba DeleteInstances in " + region}; // wire: where, the call
    }
    const alibaba::Call call = alibaba::deleteInstanceCall(region, instanceId);
    Result<std::string> body = perform(call, region, cancel);
    if (!body) {
        const std::string& code = body.error().providerCode;
        if (code == "InvalidInstanceId.NotFound" || code == "InvalidInstanceIds.NotFound") {
            return Ok{};
        }
        return body.error();
    }
    return alibaba::parseEmptyAnswer(*body, call.action);
}

Result<std::optional<PriceQuote>> AlibabaEcsProvider::quotePrice(const LaunchRequest& request,
                                                                 const CancelToken* cancel)
{
    // DescribePrice with the launch's zone (or the first that has the type in stock), image and charge: the list
    // price per hour, or of one month of subscription.
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
    std::string imageId;
    if (Result<std::string> image = findImage(request, ignored, cancel)) {
        imageId = *image;
    } else if (image.error().reason.key != "error.alibaba.no_gpu_image") {
        return image.error();
    }
    const bool prepaid = request.pricing == LaunchPricing::Subscription;
    const alibaba::Call call =
        alibaba::describePriceCall(request.region, request.instanceType, zone, imageId, request.pricing, 1);
    Result<std::string> body = perform(call, request.region, cancel);
    if (!body) {
        return body.error();
    }
    const nlohmann::json answer = nlohmann::json::parse(*body, nullptr, false);
    std::optional<std::pair<double, Currency>> price =
        answer.is_object() ? alibabaInstancePrice(answer) : std::optional<std::pair<double, Currency>>();
    if (price && request.pricing == LaunchPricing::Spot) {
        // Spot pays the market price: the quote's TradePrice, not the list price.
        const nlohmann::json trade = answer.value("/PriceInfo/Price/TradePrice"_json_pointer, nlohmann::json());
        price = trade.is_number() && trade.get<double>() > 0
                    ? std::optional(std::pair(trade.get<double>(), price->second))
                    : std::nullopt;
    }
    if (!price) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.alibaba.answer_without_price", {{"action", call.action}}},
                     "alibaba " + request.region};
    }
    // wire: the quote's source, named as Alibaba names the call, with the zone and term it was asked for (a citation)
    return std::optional<PriceQuote>(
        PriceQuote{price->first,
                   price->second,
                   prepaid ? PriceUnit::Month : PriceUnit::Hour,
                   "Alibaba Cloud ECS DescribePrice, " + zone + (prepaid ? ", subscription, per month" : std::string()),
                   unixSeconds(m_context.clock())});
}

} // namespace

std::unique_ptr<CloudProvider> makeAlibabaEcsProvider(ProviderContext context)
{
    return std::make_unique<AlibabaEcsProvider>(std::move(context));
}

const ProviderDescriptor& alibabaDescriptor()
{
    // A shutdown from inside an ECS instance leaves it Stopped, and a pay-as-you-go one keeps billing unless it was
    // stopped in economical mode (StoppedMode StopCharging, through the API). The dead-man timer therefore lives on
    // Alibaba's side: RunInstances AutoReleaseTime, which ScheduledTerminate covers.
    static const ProviderDescriptor descriptor{
        "alibaba",
        "Alibaba Cloud", // wire: the provider\'s name, a proper noun (data)
        "阿里云",
        {{"access_key_id", CredentialFieldKind::KeyId}, {"secret_access_key", CredentialFieldKind::Secret}},
        {{CloudFeature::TerminateOnShutdown, Reason{"unsupported.alibaba.terminate_on_shutdown", {}}},
         {CloudFeature::ShutdownStopsBilling, Reason{"unsupported.alibaba.shutdown_stops_billing", {}}}},
        makeAlibabaEcsProvider,
    };
    return descriptor;
}

} // namespace gpuplan::core
