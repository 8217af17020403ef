#include "gpuplan/cloud/providers/huawei/HuaweiProvider.h"

#include "gpuplan/cloud/JsonAnswer.h"

#include "gpuplan/cloud/VmProvider.h"
#include "gpuplan/cloud/providers/huawei/EcsApi.h"
#include "gpuplan/net/signers/HuaweiSdkHmac.h"

#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace gpuplan::core {

namespace {

using namespace std::chrono_literals;

/// How often and how long a new VPC, subnet or server job is asked for its state.
constexpr int kStatusPolls = 10;
constexpr auto kStatusInterval = 2s;
constexpr int kJobPolls = 60;
constexpr auto kJobInterval = 5s;

class HuaweiEcsProvider final : public VmProvider
{
public:
    explicit HuaweiEcsProvider(ProviderContext context)
        : VmProvider(huaweiDescriptor(), std::move(context))
    {
        if (const auto given = m_context.settings.find("project_id"); given != m_context.settings.end()) {
            m_givenProjects = huawei::parseProjectIdSetting(given->second);
        }
    }

    Result<std::vector<std::string>>
    zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel) override
    {
        return zonesFor(region, instanceType, false, cancel);
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
    /// Signs and sends the call (with X-Project-Id `projectId` where not empty); the body of a 2xx answer, else the
    /// mapped Error.
    Result<std::string> perform(const huawei::Call& call,
                                huawei::ErrorContext context,
                                const std::string& projectId,
                                const CancelToken* cancel);
    /// The region's project id: the credential's when given, else Keystone's, asked once per region.
    Result<std::string> projectFor(const std::string& region, const CancelToken* cancel);
    Result<std::vector<std::string>>
    zonesFor(const std::string& region, const std::string& instanceType, bool spot, const CancelToken* cancel);
    /// The VPC named "gpuplanner", created when missing (empty in a dry run that would create it).
    Result<huawei::Vpc> ensureVpc(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel);
    /// A subnet of ours for the zone, created when missing (empty in a dry run that would create it).
    Result<std::string> ensureSubnet(const LaunchRequest& request,
                                     const std::string& projectId,
                                     const std::string& zone,
                                     LaunchResult& result,
                                     const CancelToken* cancel);
    /// The server of a CreateServers answer: at once when it names it, else from its job, polled.
    Result<std::string> serverOfJob(const huawei::CreatedServers& created,
                                    const std::string& projectId,
                                    const huawei::ErrorContext& context,
                                    LaunchResult& result,
                                    const CancelToken* cancel);
    static huawei::ErrorContext context(const huawei::Call& call, const std::string& region)
    {
        huawei::ErrorContext c;
        c.action = call.action;
        c.service = call.service;
        c.region = region;
        return c;
    }

    std::map<std::string, std::string> m_givenProjects; // the credential's project_id: region -> id ("" for any)
    std::mutex m_projectsMutex;
    std::map<std::string, std::string> m_projects; // region -> project id, from Keystone
    huawei::Vpc m_vpc;                             // the launch's VPC, from ensureSshFirewall to run
};

Result<std::string> HuaweiEcsProvider::perform(const huawei::Call& call,
                                               huawei::ErrorContext context,
                                               const std::string& projectId,
                                               const CancelToken* cancel)
{
    if (!m_context.http) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.huawei.no_transport", {}}, "huawei"};
    }
    if (cancel && cancel->cancelled()) {
        return Error{ErrorCode::Cancelled, Reason{"error.huawei.stopped_before", {{"action", call.action}}}, "huawei"};
    }
    HttpRequest request = huawei::buildRequest(call, context.region, m_context.endpoint, projectId);
    if (Result<SigningSteps> signedOk = signHuaweiSdkHmac(request, m_context.key, m_context.clock()); !signedOk) {
        return signedOk.error();
    }
    Result<HttpResponse> response = m_context.http->send(request, cancel);
    if (!response) {
        return response.error().within(Reason{"error.provider.call", {{"action", call.action}}});
    }
    if (std::optional<Error> error = huawei::mapError(*response, context)) {
        return *error;
    }
    return std::move(response.value().body);
}

Result<std::string> HuaweiEcsProvider::projectFor(const std::string& region, const CancelToken* cancel)
{
    // The credential's project for this region (or its one project for any region), else Keystone's.
    for (const std::string& key : {region, std::string()}) {
        if (const auto given = m_givenProjects.find(key); given != m_givenProjects.end() && !given->second.empty()) {
            return given->second;
        }
    }
    {
        std::lock_guard lock(m_projectsMutex);
        if (const auto found = m_projects.find(region); found != m_projects.end()) {
            return found->second;
        }
    }
    const huawei::Call call = huawei::listProjectsCall(region);
    Result<std::string> body = perform(call, context(call, region), {}, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::string> project = huawei::parseProjects(*body, region);
    if (project) {
        std::lock_guard lock(m_projectsMutex);
        m_projects[region] = *project;
    }
    return project;
}

Result<std::vector<std::string>> HuaweiEcsProvider::zonesFor(const std::string& region,
                                                             const std::string& instanceType,
                                                             bool spot,
                                                             const CancelToken* cancel)
{
    Result<std::string> project = projectFor(region, cancel);
    if (!project) {
        return project.error();
    }
    const huawei::Call zonesCall = huawei::listZonesCall(*project);
    Result<std::string> zonesBody = perform(zonesCall, context(zonesCall, region), *project, cancel);
    if (!zonesBody) {
        return zonesBody.error();
    }
    Result<std::vector<huawei::Zone>> zones = huawei::parseZones(*zonesBody);
    if (!zones) {
        return zones.error();
    }
    const huawei::Call flavorsCall = huawei::listFlavorsCall(*project, {});
    huawei::ErrorContext c = context(flavorsCall, region);
    c.instanceType = instanceType;
    Result<std::string> flavorsBody = perform(flavorsCall, c, *project, cancel);
    if (!flavorsBody) {
        return flavorsBody.error();
    }
    Result<std::vector<huawei::Flavor>> flavors = huawei::parseFlavors(*flavorsBody);
    if (!flavors) {
        return flavors.error();
    }
    return huawei::zonesOffering(*zones, *flavors, instanceType, spot);
}

Status HuaweiEcsProvider::checkRequest(const LaunchRequest& request)
{
    m_vpc = {};
    if (Result<std::string> name = huawei::keyPairName(request.sshPublicKey); !name) {
        return name.error();
    }
    huawei::ServerPlacement placeholders{"project", "zone", "image", "", "vpc", "subnet", "", ""};
    if (Result<huawei::Call> check = huawei::createServersCall(request, placeholders, unixSeconds(m_context.clock()));
        !check) {
        return check.error();
    }
    return Ok{};
}

Result<std::string>
HuaweiEcsProvider::findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    if (!request.imageId.empty()) {
        result.steps.push_back(Reason{"step.image_given", {{"image", request.imageId}}});
        return request.imageId;
    }
    // Public (gold) Linux images that can run the flavor and say in their name that they carry the GPU driver
    // ("Ubuntu 22.04 server 64bit with Tesla Driver 535 and CUDA 12.2"); none: the user names an image.
    const huawei::Call call = huawei::listImagesCall(request.instanceType);
    huawei::ErrorContext c = context(call, request.region);
    c.instanceType = request.instanceType;
    Result<std::string> project = projectFor(request.region, cancel);
    if (!project) {
        return project.error();
    }
    Result<std::string> body = perform(call, c, *project, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::vector<huawei::Image>> images = huawei::parseImages(*body);
    if (!images) {
        return images.error();
    }
    std::optional<huawei::Image> image = huawei::newestGpuImage(*images);
    if (!image) {
        return Error{
            ErrorCode::InvalidArgument,
            Reason{"error.huawei.no_gpu_image", {{"instance_type", request.instanceType}, {"region", request.region}}},
            "image"};
    }
    result.steps.push_back(Reason{"step.image_found", {{"image", image->id}, {"name", image->name}}});
    return image->id;
}

Result<std::string>
HuaweiEcsProvider::ensureKeyPair(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    Result<std::string> name = huawei::keyPairName(request.sshPublicKey);
    if (!name) {
        return name.error();
    }
    Result<std::string> project = projectFor(request.region, cancel);
    if (!project) {
        return project.error();
    }
    // The key pair by name: its name, "" when absent (404), or the error.
    auto showKey = [&]() -> Result<std::string> {
        const huawei::Call call = huawei::showKeyPairCall(*project, *name);
        Result<std::string> body = perform(call, context(call, request.region), *project, cancel);
        if (!body) {
            if (body.error().code == ErrorCode::NotFound) {
                return std::string();
            }
            return body.error();
        }
        return huawei::parseKeyPair(*body, call.action);
    };
    Result<std::string> existing = showKey();
    if (!existing) {
        return existing.error();
    }
    if (!existing->empty()) {
        result.steps.push_back(Reason{"step.key_pair_found", {{"key_pair", *name}}});
        return existing;
    }
    if (request.dryRun) {
        result.steps.push_back(Reason{"step.key_pair_would_import", {{"key_pair", *name}}});
        return std::string();
    }
    const huawei::Call call = huawei::createKeyPairCall(*project, *name, request.sshPublicKey);
    Result<std::string> body = perform(call, context(call, request.region), *project, cancel);
    if (!body) {
        if (body.error().httpStatus == 409) {
            // Another launch imported it meanwhile ("Key pair ... already exists", 409 conflictingRequest).
            Result<std::string> again = showKey();
            if (again && !again->empty()) {
                result.steps.push_back(Reason{"step.key_pair_found", {{"key_pair", *name}}});
                return again;
            }
        }
        return body.error();
    }
    Result<std::string> created = huawei::parseKeyPair(*body, call.action);
    if (created) {
        result.steps.push_back(Reason{"step.key_pair_imported", {{"key_pair", *created}}});
    }
    return created;
}

Result<huawei::Vpc>
HuaweiEcsProvider::ensureVpc(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    Result<std::string> project = projectFor(request.region, cancel);
    if (!project) {
        return project.error();
    }
    const huawei::Call listCall = huawei::listVpcsCall(*project);
    Result<std::string> body = perform(listCall, context(listCall, request.region), *project, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::vector<huawei::Vpc>> vpcs = huawei::parseVpcs(*body);
    if (!vpcs) {
        return vpcs.error();
    }
    for (const huawei::Vpc& vpc : *vpcs) {
        if (vpc.name == huawei::kVpcName) {
            result.steps.push_back(Reason{"step.huawei.vpc_found", {{"vpc_id", vpc.id}, {"cidr", vpc.cidr}}});
            return vpc;
        }
    }
    if (request.dryRun) {
        result.steps.push_back(
            Reason{"step.huawei.vpc_would_create",
                   {{"vpc_name", std::string(huawei::kVpcName)}, {"cidr", std::string(huawei::kVpcCidr)}}});
        // CreateServers names a VPC and a subnet even to be checked: the project's other VPC (its default one, say)
        // stands in for the check only; nothing is created in it.
        for (const huawei::Vpc& other : *vpcs) {
            if (other.status == "OK" && !other.id.empty()) {
                result.steps.push_back(
                    Reason{"step.huawei.dry_run_uses_vpc", {{"vpc_name", other.name}, {"vpc_id", other.id}}});
                return other;
            }
        }
        return huawei::Vpc{};
    }
    const huawei::Call createCall = huawei::createVpcCall(*project);
    Result<std::string> created = perform(createCall, context(createCall, request.region), *project, cancel);
    if (!created) {
        return created.error();
    }
    Result<huawei::Vpc> vpc = huawei::parseVpc(*created, createCall.action);
    if (!vpc) {
        return vpc.error();
    }
    // "status: CREATING, OK"; a new VPC is usable once OK.
    for (int poll = 0; vpc->status != "OK" && poll < kStatusPolls; ++poll) {
        pause(kStatusInterval);
        const huawei::Call showCall = huawei::showVpcCall(*project, vpc->id);
        Result<std::string> shown = perform(showCall, context(showCall, request.region), *project, cancel);
        if (!shown) {
            return shown.error();
        }
        vpc = huawei::parseVpc(*shown, showCall.action);
        if (!vpc) {
            return vpc.error();
        }
    }
    result.steps.push_back(
        Reason{"step.huawei.vpc_created",
               {{"vpc_name", std::string(huawei::kVpcName)}, {"vpc_id", vpc->id}, {"cidr", vpc->cidr}}});
    return vpc;
}

Result<std::string>
HuaweiEcsProvider::ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    Result<huawei::Vpc> vpc = ensureVpc(request, result, cancel);
    if (!vpc) {
        return vpc.error();
    }
    m_vpc = *vpc;
    const std::string name = huawei::securityGroupName(request.sshSourceCidr);
    if (vpc->id.empty()) { // dry run, the VPC would be created
        result.steps.push_back(
            Reason{"step.group_would_create", {{"group_name", name}, {"cidr", request.sshSourceCidr}}});
        return std::string();
    }
    Result<std::string> project = projectFor(request.region, cancel);
    if (!project) {
        return project.error();
    }
    const huawei::Call listCall = huawei::listSecurityGroupsCall(*project, vpc->id);
    Result<std::string> body = perform(listCall, context(listCall, request.region), *project, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::vector<huawei::SecurityGroup>> groups = huawei::parseSecurityGroups(*body);
    if (!groups) {
        return groups.error();
    }
    auto addSshRule = [&](const std::string& groupId) -> Status {
        const huawei::Call rule = huawei::createSshRuleCall(*project, groupId, request.sshSourceCidr);
        Result<std::string> added = perform(rule, context(rule, request.region), *project, cancel);
        if (!added) {
            return added.error();
        }
        if (Result<std::string> id = huawei::parseSecurityGroupRule(*added); !id) {
            return id.error();
        }
        return Ok{};
    };
    for (const huawei::SecurityGroup& group : *groups) {
        if (group.name != name) {
            continue;
        }
        result.steps.push_back(Reason{"step.group_found", {{"group_name", name}, {"group_id", group.id}}});
        if (!huawei::allowsSshFrom(group.rules, request.sshSourceCidr)) {
            const std::map<std::string, std::string> ids{{"group_id", group.id}, {"cidr", request.sshSourceCidr}};
            if (request.dryRun) {
                result.steps.push_back(Reason{"step.group_ssh_rule_would_add", ids});
            } else {
                if (Status added = addSshRule(group.id); !added) {
                    return added.error();
                }
                result.steps.push_back(Reason{"step.group_ssh_rule_added_again", ids});
            }
        }
        return group.id;
    }
    if (request.dryRun) {
        result.steps.push_back(
            Reason{"step.group_would_create", {{"group_name", name}, {"cidr", request.sshSourceCidr}}});
        return std::string();
    }
    const huawei::Call createCall = huawei::createSecurityGroupCall(*project, name, vpc->id);
    Result<std::string> created = perform(createCall, context(createCall, request.region), *project, cancel);
    if (!created) {
        return created.error();
    }
    Result<huawei::SecurityGroup> group = huawei::parseSecurityGroup(*created);
    if (!group) {
        return group.error();
    }
    // A new group allows all outbound traffic (its default egress rules); SSH inbound is added here.
    if (!huawei::allowsSshFrom(group->rules, request.sshSourceCidr)) {
        if (Status added = addSshRule(group->id); !added) {
            return added.error();
        }
    }
    result.steps.push_back(Reason{"step.huawei.group_created",
                                  {{"group_name", name}, {"group_id", group->id}, {"cidr", request.sshSourceCidr}}});
    return group->id;
}

Result<std::string> HuaweiEcsProvider::ensureSubnet(const LaunchRequest& request,
                                                    const std::string& projectId,
                                                    const std::string& zone,
                                                    LaunchResult& result,
                                                    const CancelToken* cancel)
{
    const huawei::Call listCall = huawei::listSubnetsCall(projectId, m_vpc.id);
    Result<std::string> body = perform(listCall, context(listCall, request.region), projectId, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::vector<huawei::Subnet>> subnets = huawei::parseSubnets(*body);
    if (!subnets) {
        return subnets.error();
    }
    std::vector<std::string> used;
    for (const huawei::Subnet& subnet : *subnets) {
        used.push_back(subnet.cidr);
    }
    for (const huawei::Subnet& subnet : *subnets) {
        if (subnet.vpcId == m_vpc.id && (subnet.zone == zone || subnet.zone.empty())) {
            result.steps.push_back(
                Reason{"step.huawei.subnet_found", {{"subnet_id", subnet.id}, {"zone", zone}, {"cidr", subnet.cidr}}});
            return subnet.id;
        }
    }
    const std::optional<std::string> cidr = huawei::firstFreeSubnet(m_vpc.cidr, used);
    if (!cidr) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.huawei.vpc_full", {{"vpc_id", m_vpc.id}, {"cidr", m_vpc.cidr}}},
                     "huawei " + request.region};
    }
    if (request.dryRun) {
        result.steps.push_back(Reason{"step.huawei.subnet_would_create", {{"zone", zone}, {"cidr", *cidr}}});
        return std::string();
    }
    const huawei::Call createCall = huawei::createSubnetCall(projectId, m_vpc.id, zone, *cidr);
    Result<std::string> created = perform(createCall, context(createCall, request.region), projectId, cancel);
    if (!created) {
        return created.error();
    }
    Result<huawei::Subnet> subnet = huawei::parseSubnet(*created, createCall.action);
    if (!subnet) {
        return subnet.error();
    }
    // "status: ACTIVE, UNKNOWN, ERROR": a new subnet is usable once ACTIVE.
    for (int poll = 0; subnet->status != "ACTIVE" && poll < kStatusPolls; ++poll) {
        if (subnet->status == "ERROR") {
            return Error{ErrorCode::ProviderRefused,
                         Reason{"error.huawei.subnet_failed", {{"subnet_id", subnet->id}, {"zone", zone}}},
                         "huawei " + request.region};
        }
        pause(kStatusInterval);
        const huawei::Call showCall = huawei::showSubnetCall(projectId, subnet->id);
        Result<std::string> shown = perform(showCall, context(showCall, request.region), projectId, cancel);
        if (!shown) {
            return shown.error();
        }
        subnet = huawei::parseSubnet(*shown, showCall.action);
        if (!subnet) {
            return subnet.error();
        }
    }
    result.steps.push_back(
        Reason{"step.huawei.subnet_created", {{"subnet_id", subnet->id}, {"zone", zone}, {"cidr", subnet->cidr}}});
    return subnet->id;
}

Result<std::string> HuaweiEcsProvider::serverOfJob(const huawei::CreatedServers& created,
                                                   const std::string& projectId,
                                                   const huawei::ErrorContext& context,
                                                   LaunchResult& result,
                                                   const CancelToken* cancel)
{
    if (!created.serverIds.empty()) {
        return created.serverIds.front();
    }
    for (int poll = 1; poll <= kJobPolls; ++poll) {
        const huawei::Call call = huawei::showJobCall(projectId, created.jobId);
        huawei::ErrorContext c = context;
        c.action = call.action;
        Result<std::string> body = perform(call, c, projectId, cancel);
        if (!body) {
            return body.error();
        }
        Result<huawei::Job> job = huawei::parseJob(*body);
        if (!job) {
            return job.error();
        }
        if (job->status == "FAIL") {
            return huawei::jobFailure(*job, context);
        }
        if (!job->serverIds.empty()) {
            result.steps.push_back(
                Reason{"step.huawei.job_polled",
                       {{"job_id", created.jobId}, {"polls", std::to_string(poll)}, {"status", job->status}}});
            return job->serverIds.front();
        }
        if (job->status == "SUCCESS") {
            return JsonAnswer("huawei", call.action)
                .refused("error.answer.missing", {{"field", "entities.sub_jobs[].entities.server_id"}});
        }
        pause(kJobInterval);
    }
    return Error{ErrorCode::Timeout, Reason{"error.huawei.job_timeout", {{"job_id", created.jobId}}}, "huawei ShowJob"};
}

Status HuaweiEcsProvider::run(const LaunchRequest& request,
                              const LaunchPieces& pieces,
                              LaunchResult& result,
                              const CancelToken* cancel)
{
    Result<std::string> project = projectFor(request.region, cancel);
    if (!project) {
        return project.error();
    }
    std::string zone = request.zone;
    if (zone.empty()) {
        // CreateServers needs availability_zone: the first zone that sells the flavor for this way of paying.
        Result<std::vector<std::string>> zones =
            zonesFor(request.region, request.instanceType, request.pricing == LaunchPricing::Spot, cancel);
        if (!zones) {
            return zones.error();
        }
        if (zones->empty()) {
            return Error{ErrorCode::InsufficientCapacity,
                         Reason{"error.huawei.no_zone_sells",
                                {{"region", request.region}, {"instance_type", request.instanceType}}},
                         "huawei ListFlavors in " + request.region}; // wire: where, the call
        }
        zone = zones->front();
        result.steps.push_back(Reason{"step.zone_chosen", {{"zone", zone}}});
    }
    result.zone = zone;

    std::string subnetId;
    if (m_vpc.id.empty()) {
        result.steps.push_back(Reason{"step.huawei.subnet_would_create", {{"zone", zone}}});
    } else {
        Result<std::string> subnet = ensureSubnet(request, *project, zone, result, cancel);
        if (!subnet) {
            return subnet.error();
        }
        subnetId = *subnet;
    }
    if (request.dryRun && subnetId.empty()) {
        // CreateServers needs the VPC and subnet ids even to check: without them Huawei's dry run cannot be asked.
        result.steps.push_back(Reason{"step.huawei.dry_run_not_sent", {}});
        return Ok{};
    }

    huawei::ServerPlacement placement{
        *project, zone, pieces.imageId, pieces.keyPair, m_vpc.id, subnetId, pieces.firewall, {}};
    if (request.pricing == LaunchPricing::Subscription && !pieces.keyPair.empty()) {
        // A prepaid server with a key pair needs metadata.op_svc_userid, the key's IAM user.
        const huawei::Call userCall = huawei::showAccessKeyCall(m_context.key.id);
        Result<std::string> body = perform(userCall, context(userCall, request.region), {}, cancel);
        if (!body) {
            return body.error();
        }
        Result<std::string> user = huawei::parseAccessKeyUser(*body);
        if (!user) {
            return user.error();
        }
        placement.userId = *user;
    }
    Result<huawei::Call> call = huawei::createServersCall(request, placement, unixSeconds(m_context.clock()));
    if (!call) {
        return call.error();
    }
    if (request.terminateAt > 0 && request.pricing == LaunchPricing::Subscription) {
        result.steps.push_back(Reason{"step.huawei.no_scheduled_terminate", {}});
    } else if (request.terminateAt > 0 && request.region != "cn-north-4" && request.region != "cn-south-1") {
        // "该字段当前仅在华北-北京四、华南-广州区域生效" (CreateServers, auto_terminate_time; huaweicloudDocs/ecs
        // 2024): sent anyway, and the user is told to check that the server shows it.
        result.steps.push_back(Reason{"step.huawei.scheduled_terminate_unconfirmed", {{"region", request.region}}});
    }
    huawei::ErrorContext c = context(*call, request.region);
    c.instanceType = request.instanceType;
    c.zone = zone;
    c.spot = request.pricing == LaunchPricing::Spot;
    c.prepaid = request.pricing == LaunchPricing::Subscription;
    Result<std::string> body = perform(*call, c, *project, cancel);
    if (!body) {
        return body.error();
    }
    if (request.dryRun) {
        // "如果检查通过，则返回202状态码" (CreateServersRequestBody, dry_run).
        result.dryRunPassed = true;
        result.steps.push_back(Reason{"step.dry_run_passed", {}});
        return Ok{};
    }
    Result<huawei::CreatedServers> created = huawei::parseCreateServers(*body);
    if (!created) {
        return created.error();
    }
    if (!created->orderId.empty()) {
        result.steps.push_back(Reason{"step.huawei.order_paid", {{"order_id", created->orderId}}});
    }
    Result<std::string> server = serverOfJob(*created, *project, c, result, cancel);
    if (!server) {
        return server.error();
    }
    result.instanceId = *server;
    result.state = InstanceState::Pending;
    result.steps.push_back(Reason{"step.launched", {{"instance_id", result.instanceId}, {"zone", zone}}});
    return Ok{};
}

Result<RemoteInstance>
HuaweiEcsProvider::describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<std::string> project = projectFor(region, cancel);
    if (!project) {
        return project.error();
    }
    const huawei::Call call = huawei::showServerCall(*project, instanceId);
    Result<std::string> body = perform(call, context(call, region), *project, cancel);
    if (!body) {
        return body.error();
    }
    Result<huawei::Server> server = huawei::parseServer(*body, region);
    if (!server) {
        return server.error();
    }
    return std::move(server).value().instance;
}

Result<std::vector<RemoteInstance>> HuaweiEcsProvider::listOurs(const std::string& region, const CancelToken* cancel)
{
    Result<std::string> project = projectFor(region, cancel);
    if (!project) {
        return project.error();
    }
    std::vector<RemoteInstance> ours;
    for (int page = 1;; ++page) {
        const huawei::Call call = huawei::listServersCall(*project, page);
        Result<std::string> body = perform(call, context(call, region), *project, cancel);
        if (!body) {
            return body.error();
        }
        Result<huawei::ServersPage> listed = huawei::parseServers(*body, region);
        if (!listed) {
            return listed.error();
        }
        for (huawei::Server& server : listed.value().servers) {
            if (!server.instance.clientToken.empty()) {
                ours.push_back(std::move(server.instance));
            }
        }
        if (listed->servers.size() < std::size_t(huawei::kPageLimit) || page * huawei::kPageLimit >= listed->count) {
            break;
        }
    }
    return ours;
}

Status HuaweiEcsProvider::terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<std::string> project = projectFor(region, cancel);
    if (!project) {
        return project.error();
    }
    const huawei::Call showCall = huawei::showServerCall(*project, instanceId);
    Result<std::string> shown = perform(showCall, context(showCall, region), *project, cancel);
    if (!shown) {
        if (shown.error().code == ErrorCode::NotFound) {
            return Ok{}; // already gone
        }
        return shown.error();
    }
    Result<huawei::Server> server = huawei::parseServer(*shown, region);
    if (!server) {
        return server.error();
    }
    if (server->instance.state == InstanceState::Terminated) {
        return Ok{};
    }
    if (server->charging == huawei::ChargingMode::PrePaid) {
        // "仅支持删除按需付费的云服务器" (DeleteServers): a prepaid one is released by unsubscribing (退订).
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.huawei.subscription_not_releasable", {{"instance_id", instanceId}}},
                     "huawei " + instanceId};
    }
    const huawei::Call call = huawei::deleteServersCall(*project, instanceId);
    Result<std::string> body = perform(call, context(call, region), *project, cancel);
    if (!body) {
        if (body.error().code == ErrorCode::NotFound) {
            return Ok{};
        }
        return body.error();
    }
    if (Result<std::string> job = huawei::parseDeleteServers(*body); !job) {
        return job.error();
    }
    return Ok{};
}

Result<std::optional<PriceQuote>> HuaweiEcsProvider::quotePrice(const LaunchRequest& request, const CancelToken* cancel)
{
    // BSS rates pay-per-use hours and yearly/monthly periods (the calls core/prices makes); it has no spot rating.
    if (request.pricing == LaunchPricing::Spot) {
        return std::optional<PriceQuote>();
    }
    Result<std::string> project = projectFor(request.region, cancel);
    if (!project) {
        return project.error();
    }
    const bool prepaid = request.pricing == LaunchPricing::Subscription;
    const int months = std::max(1, request.subscriptionMonths);
    const huawei::Call call = prepaid ? huawei::periodRatingCall(*project, request.region, request.instanceType, months)
                                      : huawei::onDemandRatingCall(*project, request.region, request.instanceType);
    huawei::ErrorContext c = context(call, request.region);
    c.instanceType = request.instanceType;
    Result<std::string> body = perform(call, c, {}, cancel);
    if (!body) {
        return body.error();
    }
    Result<std::optional<double>> amount =
        prepaid ? huawei::parsePeriodRating(*body) : huawei::parseOnDemandRating(*body);
    if (!amount) {
        return amount.error();
    }
    if (!*amount) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.huawei.answer_without_price", {{"action", call.action}}},
                     "huawei " + request.region};
    }
    // wire: the quote's source, named as Huawei names the call, with the term it was asked for (a citation)
    return std::optional<PriceQuote>(
        PriceQuote{prepaid ? **amount / months : **amount,
                   Currency::CNY,
                   prepaid ? PriceUnit::Month : PriceUnit::Hour,
                   "Huawei Cloud BSS " + call.action + ", " + request.region + ", Linux"
                       + (prepaid ? ", " + std::to_string(months) + " month(s), per month" : std::string(", 1 hour")),
                   unixSeconds(m_context.clock())});
}

} // namespace

std::unique_ptr<CloudProvider> makeHuaweiEcsProvider(ProviderContext context)
{
    return std::make_unique<HuaweiEcsProvider>(std::move(context));
}

const ProviderDescriptor& huaweiDescriptor()
{
    // A shutdown from inside leaves the server SHUTOFF; it is not deleted.
    // "普通实例（不含本地盘的实例、不含FPGA卡的实例、
    // 非裸金属实例）关机后，基础资源（包括vCPU、内存、镜像、GPU）不计费。其他绑定资源（云硬盘、弹性公网IP、带宽）正常计费。
    // 特殊实例（含本地盘的实例、含FPGA卡的实例、裸金属实例），关机后仍然正常收费" (source: huaweicloudDocs/ecs
    // cn.zh-cn/用户指南/竞价计费模式概述.md, 关机计费). So a shut-off GPU server still bills its disks and EIP, and a
    // flavor with local disks bills in full: the dead-man lives on Huawei's side, auto_terminate_time
    // (ScheduledTerminate, pay-per-use and spot).
    static const ProviderDescriptor descriptor{
        "huawei",
        "Huawei Cloud", // wire: the provider\'s name, a proper noun (data)
        "华为云",
        {{"access_key_id", CredentialFieldKind::KeyId},
         {"secret_access_key", CredentialFieldKind::Secret},
         // Optional: without it each region's project is asked of IAM (Keystone).
         {"project_id", CredentialFieldKind::Plain, false}},
        {{CloudFeature::TerminateOnShutdown, Reason{"unsupported.huawei.terminate_on_shutdown", {}}}},
        makeHuaweiEcsProvider,
    };
    return descriptor;
}

} // namespace gpuplan::core
