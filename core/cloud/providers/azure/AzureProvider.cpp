#include "gpuplan/cloud/providers/azure/AzureProvider.h"

#include "gpuplan/cloud/VmProvider.h"
#include "gpuplan/cloud/providers/azure/ArmApi.h"

#include "ArmSession.h"
#include "gpuplan/net/signers/AzureClientCredentials.h"

#include <memory>
#include <mutex>
#include <thread>
#include <utility>

namespace gpuplan::core {

namespace {

class AzureVmProvider final : public VmProvider
{
public:
    explicit AzureVmProvider(ProviderContext context)
        : VmProvider(azureDescriptor(), std::move(context))
        , m_arm(m_context, "azure", azure::mapError)
    { }

    Result<std::vector<std::string>>
    zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel) override;
    Result<RemoteInstance>
    describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel) override;
    Result<std::vector<RemoteInstance>> listOurs(const std::string& region, const CancelToken* cancel) override;
    Status terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel) override;

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
    /// Authorizes and sends the call; the 2xx answer, else the mapped Error (azure::ArmSession::perform).
    Result<HttpResponse> perform(const azure::Call& call, const azure::ErrorContext& context, const CancelToken* cancel)
    {
        return m_arm.perform(call, context, cancel);
    }
    Result<std::string> subscription(const CancelToken* cancel) { return m_arm.subscription(cancel); }
    Result<azure::AsyncOperation>
    waitFor(const HttpResponse& answer, const azure::ErrorContext& context, int& polls, const CancelToken* cancel)
    {
        return m_arm.waitFor(answer, context, polls, cancel);
    }
    /// Creates (PUT) a network resource and waits for its operation: Succeeded, or the operation's error.
    Result<int> createAndWait(const azure::Call& call, const std::string& region, const CancelToken* cancel);
    /// The public IP of the VM's primary NIC; empty when it has none (yet).
    Result<std::string> publicIpOf(const azure::Vm& vm, const std::string& region, const CancelToken* cancel);
    static azure::ErrorContext context(const azure::Call& call, const std::string& region)
    {
        azure::ErrorContext c;
        c.action = call.action;
        c.region = region;
        return c;
    }

    azure::ArmSession m_arm;
    azure::ImageReference m_image; // the launch's image, from findImage to run
};

Result<int>
AzureVmProvider::createAndWait(const azure::Call& call, const std::string& region, const CancelToken* cancel)
{
    const azure::ErrorContext c = context(call, region);
    Result<HttpResponse> answer = perform(call, c, cancel);
    if (!answer) {
        return answer.error();
    }
    int polls = 0;
    Result<azure::AsyncOperation> operation = waitFor(*answer, c, polls, cancel);
    if (!operation) {
        return operation.error();
    }
    if (operation->status != "Succeeded") {
        return azure::operationFailure(*operation, c);
    }
    return polls;
}

Result<std::vector<std::string>>
AzureVmProvider::zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel)
{
    Result<std::string> sub = subscription(cancel);
    if (!sub) {
        return sub.error();
    }
    std::vector<azure::Sku> skus;
    azure::Call call = azure::listSkusCall(*sub, region);
    for (int page = 0; page < 50; ++page) {
        azure::ErrorContext c = context(call, region);
        c.instanceType = instanceType;
        Result<HttpResponse> answer = perform(call, c, cancel);
        if (!answer) {
            return answer.error();
        }
        Result<azure::SkuPage> parsed = azure::parseSkus(answer->body);
        if (!parsed) {
            return parsed.error();
        }
        skus.insert(skus.end(), parsed->skus.begin(), parsed->skus.end());
        if (parsed->nextLink.empty()) {
            break;
        }
        call = azure::getUrlCall("ResourceSkus_List", parsed->nextLink);
    }
    const azure::SizeOffer offer = azure::sizeOffer(skus, instanceType, region);
    if (!offer.locationRestriction.empty()) {
        // Listed in the region, but not for this subscription ("NotAvailableForSubscription") or its offer type
        // ("QuotaId"): no zone can run it, and the reason is worth more than "no zone offers it".
        return Error{
            ErrorCode::ProviderRefused,
            Reason{"error.azure.size_restricted",
                   {{"instance_type", instanceType}, {"region", region}, {"reason_code", offer.locationRestriction}}},
            "azure ResourceSkus_List in " + region, // wire: where, the call
            0,
            offer.locationRestriction};
    }
    return offer.zones;
}

Status AzureVmProvider::checkRequest(const LaunchRequest& request)
{
    m_image = {};
    if (!request.imageId.empty()) {
        if (Result<azure::ImageReference> image = azure::parseImage(request.imageId); !image) {
            return image.error();
        }
    }
    azure::VmPlacement placeholders{"subscription", azure::defaultImage(), "nsg", "subnet"};
    if (Result<azure::Call> check = azure::putVmCall(request, placeholders); !check) {
        return check.error();
    }
    return Ok{};
}

Result<std::string>
AzureVmProvider::findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    if (!request.imageId.empty()) {
        Result<azure::ImageReference> image = azure::parseImage(request.imageId);
        if (!image) {
            return image.error();
        }
        m_image = *image;
        result.steps.push_back(Reason{"step.image_given", {{"image", request.imageId}}});
        return request.imageId;
    }
    Result<std::string> sub = subscription(cancel);
    if (!sub) {
        return sub.error();
    }
    // The Ubuntu HPC image with the NVIDIA driver: its newest version in the region proves that it is still offered
    // there; the VM asks for "latest".
    const azure::ImageReference image = azure::defaultImage();
    const azure::Call call = azure::listImageVersionsCall(*sub, request.region, image);
    Result<HttpResponse> answer = perform(call, context(call, request.region), cancel);
    if (!answer && answer.error().code != ErrorCode::NotFound) {
        return answer.error();
    }
    std::vector<std::string> versions;
    if (answer) {
        Result<std::vector<std::string>> parsed = azure::parseImageVersions(answer->body);
        if (!parsed) {
            return parsed.error();
        }
        versions = std::move(parsed).value();
    }
    if (versions.empty()) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.azure.no_gpu_image", {{"image", image.text()}, {"region", request.region}}},
                     "image"};
    }
    m_image = image;
    result.steps.push_back(Reason{"step.azure.image", {{"image", image.text()}, {"version", versions.front()}}});
    return image.text();
}

Result<std::string> AzureVmProvider::ensureKeyPair(const LaunchRequest&, LaunchResult& result, const CancelToken*)
{
    // Azure has no key pair to import for a VM: the public key goes into the VM's osProfile, for the admin user.
    result.steps.push_back(Reason{"step.azure.ssh_key_in_vm", {{"user", std::string(azure::kAdminUser)}}});
    return std::string(azure::kAdminUser);
}

Result<std::string>
AzureVmProvider::ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel)
{
    Result<std::string> sub = subscription(cancel);
    if (!sub) {
        return sub.error();
    }
    const std::string& region = request.region;
    const std::string group = azure::resourceGroupName(region);

    // The resource group: an upsert, 201 when it was created.
    const azure::Call groupCall = azure::putResourceGroupCall(*sub, region);
    Result<HttpResponse> groupAnswer = perform(groupCall, context(groupCall, region), cancel);
    if (!groupAnswer) {
        return groupAnswer.error();
    }
    if (Result<std::string> state = azure::parseResourceGroup(groupAnswer->body); !state) {
        return state.error();
    }
    result.steps.push_back(
        Reason{groupAnswer->status == 201 ? "step.azure.resource_group_created" : "step.azure.resource_group_found",
               {{"resource_group", group}, {"region", region}}});

    // The NSG that opens SSH to the one address: found and repaired when it lost its rule, else created.
    const std::string nsg = azure::nsgName(request.sshSourceCidr);
    const azure::Call getNsg = azure::getNsgCall(*sub, region, nsg);
    Result<HttpResponse> found = perform(getNsg, context(getNsg, region), cancel);
    if (!found && found.error().code != ErrorCode::NotFound) {
        return found.error();
    }
    if (found) {
        Result<azure::Nsg> parsed = azure::parseNsg(found->body, getNsg.action);
        if (!parsed) {
            return parsed.error();
        }
        if (azure::allowsSshFrom(parsed->rules, request.sshSourceCidr)) {
            result.steps.push_back(Reason{"step.azure.nsg_found", {{"nsg", nsg}, {"cidr", request.sshSourceCidr}}});
        } else {
            Result<int> polls =
                createAndWait(azure::putSshRuleCall(*sub, region, nsg, request.sshSourceCidr), region, cancel);
            if (!polls) {
                return polls.error();
            }
            result.steps.push_back(
                Reason{"step.azure.nsg_rule_repaired", {{"nsg", nsg}, {"cidr", request.sshSourceCidr}}});
        }
    } else {
        Result<int> polls = createAndWait(azure::putNsgCall(*sub, region, nsg, request.sshSourceCidr), region, cancel);
        if (!polls) {
            return polls.error();
        }
        result.steps.push_back(
            Reason{"step.azure.nsg_created",
                   {{"nsg", nsg}, {"cidr", request.sshSourceCidr}, {"polls", std::to_string(*polls)}}});
    }

    // The VNet and its subnet: found, else created.
    const azure::Call getVnet = azure::getVnetCall(*sub, region);
    Result<HttpResponse> vnet = perform(getVnet, context(getVnet, region), cancel);
    if (!vnet && vnet.error().code != ErrorCode::NotFound) {
        return vnet.error();
    }
    bool hasSubnet = false;
    if (vnet) {
        Result<azure::Vnet> parsed = azure::parseVnet(vnet->body, getVnet.action);
        if (!parsed) {
            return parsed.error();
        }
        hasSubnet = std::any_of(parsed->subnets.begin(), parsed->subnets.end(), [](const auto& s) {
            return s.first == azure::kSubnetName;
        });
    }
    if (vnet && hasSubnet) {
        result.steps.push_back(Reason{"step.azure.vnet_found", {{"vnet", std::string(azure::kVnetName)}}});
    } else {
        // A missing VNet, or ours without its subnet: the PUT (an upsert) sets both.
        Result<int> polls = createAndWait(azure::putVnetCall(*sub, region), region, cancel);
        if (!polls) {
            return polls.error();
        }
        result.steps.push_back(Reason{"step.azure.vnet_created",
                                      {{"vnet", std::string(azure::kVnetName)},
                                       {"cidr", std::string(azure::kVnetCidr)},
                                       {"polls", std::to_string(*polls)}}});
    }
    return azure::nsgId(*sub, region, nsg);
}

Status AzureVmProvider::run(const LaunchRequest& request,
                            const LaunchPieces& pieces,
                            LaunchResult& result,
                            const CancelToken* cancel)
{
    Result<std::string> sub = subscription(cancel);
    if (!sub) {
        return sub.error();
    }
    const std::string& name = request.clientToken;
    result.zone = request.zone;
    if (request.terminateAt > 0) {
        result.steps.push_back(Reason{"step.azure.no_scheduled_terminate", {}});
    }

    // A resend (an earlier attempt whose answer was lost) finds its VM by name instead of sending it again.
    const azure::Call getCall = azure::getVmCall(*sub, request.region, name, false);
    Result<HttpResponse> existing = perform(getCall, context(getCall, request.region), cancel);
    if (!existing && existing.error().code != ErrorCode::NotFound) {
        return existing.error();
    }
    if (existing) {
        Result<azure::Vm> vm = azure::parseVm(existing->body, getCall.action);
        if (!vm) {
            return vm.error();
        }
        if (vm->clientToken == name) {
            result.instanceId = vm->name;
            result.state = azure::stateOf(vm->provisioningState, vm->powerState);
            result.zone = vm->zone;
            result.steps.push_back(Reason{"step.azure.vm_found", {{"instance_id", vm->name}}});
            return Ok{};
        }
    }

    if (request.zone.empty()) {
        result.steps.push_back(Reason{"step.azure.no_zone", {{"region", request.region}}});
    }
    azure::VmPlacement placement{*sub,
                                 m_image.id.empty() && m_image.publisher.empty() ? azure::defaultImage() : m_image,
                                 pieces.firewall,
                                 azure::subnetId(*sub, request.region)};
    Result<azure::Call> call = azure::putVmCall(request, placement);
    if (!call) {
        return call.error();
    }
    azure::ErrorContext c = context(*call, request.region);
    c.instanceType = request.instanceType;
    c.zone = request.zone;
    c.spot = request.pricing == LaunchPricing::Spot;
    Result<HttpResponse> answer = perform(*call, c, cancel);
    if (!answer) {
        return answer.error();
    }
    Result<azure::Vm> created = azure::parseVm(answer->body, call->action);
    if (!created) {
        return created.error();
    }
    int polls = 0;
    Result<azure::AsyncOperation> operation = waitFor(*answer, c, polls, cancel);
    if (!operation) {
        return operation.error(); // the VM may be starting: the Launcher looks for it by its token
    }
    if (operation->status != "Succeeded") {
        // "Azure may create a VM resource even when provisioning fails (e.g., AllocationFailed)" (dstack): it is
        // deleted, with its NIC, IP and disk, so that nothing is left behind; the answer is not waited for.
        const azure::Call deleteCall = azure::deleteVmCall(*sub, request.region, name);
        (void)perform(deleteCall, context(deleteCall, request.region), nullptr);
        return azure::operationFailure(*operation, c);
    }
    result.instanceId = created->name;
    result.state = InstanceState::Pending;
    result.steps.push_back(
        Reason{"step.azure.vm_created", {{"instance_id", created->name}, {"polls", std::to_string(polls)}}});
    result.steps.push_back(Reason{"step.launched", {{"instance_id", result.instanceId}, {"zone", request.zone}}});
    return Ok{};
}

Result<std::string>
AzureVmProvider::publicIpOf(const azure::Vm& vm, const std::string& region, const CancelToken* cancel)
{
    if (vm.nicId.empty() || !vm.nicId.starts_with("/subscriptions/")) {
        return std::string();
    }
    const azure::Call nicCall = azure::getByIdCall("NetworkInterfaces_Get", vm.nicId, azure::kNetworkApiVersion);
    Result<HttpResponse> nic = perform(nicCall, context(nicCall, region), cancel);
    if (!nic) {
        return nic.error().code == ErrorCode::NotFound ? Result<std::string>(std::string()) : nic.error();
    }
    Result<std::string> ipId = azure::parseNicPublicIpId(nic->body);
    if (!ipId || ipId->empty() || !ipId->starts_with("/subscriptions/")) {
        return ipId ? Result<std::string>(std::string()) : ipId.error();
    }
    const azure::Call ipCall = azure::getByIdCall("PublicIPAddresses_Get", *ipId, azure::kNetworkApiVersion);
    Result<HttpResponse> ip = perform(ipCall, context(ipCall, region), cancel);
    if (!ip) {
        return ip.error().code == ErrorCode::NotFound ? Result<std::string>(std::string()) : ip.error();
    }
    return azure::parsePublicIpAddress(ip->body);
}

Result<RemoteInstance>
AzureVmProvider::describe(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<std::string> sub = subscription(cancel);
    if (!sub) {
        return sub.error();
    }
    const azure::Call call = azure::getVmCall(*sub, region, instanceId, true);
    Result<HttpResponse> answer = perform(call, context(call, region), cancel);
    if (!answer) {
        return answer.error();
    }
    Result<azure::Vm> vm = azure::parseVm(answer->body, call.action);
    if (!vm) {
        return vm.error();
    }
    RemoteInstance instance = azure::toRemote(*vm, region);
    if (instance.state == InstanceState::Running || instance.state == InstanceState::Pending) {
        Result<std::string> ip = publicIpOf(*vm, region, cancel);
        if (!ip) {
            return ip.error();
        }
        instance.publicIp = *ip;
    }
    return instance;
}

Result<std::vector<RemoteInstance>> AzureVmProvider::listOurs(const std::string& region, const CancelToken* cancel)
{
    Result<std::string> sub = subscription(cancel);
    if (!sub) {
        return sub.error();
    }
    std::vector<RemoteInstance> ours;
    azure::Call call = azure::listVmsCall(*sub, region);
    for (int page = 0; page < 100; ++page) {
        Result<HttpResponse> answer = perform(call, context(call, region), cancel);
        if (!answer) {
            if (answer.error().code == ErrorCode::NotFound && page == 0) {
                return ours; // no resource group: nothing of ours in the region
            }
            return answer.error();
        }
        Result<azure::VmPage> listed = azure::parseVms(answer->body);
        if (!listed) {
            return listed.error();
        }
        for (const azure::Vm& vm : listed->vms) {
            if (vm.clientToken.empty()) {
                continue;
            }
            // The list has no power state: each of ours is read with its instance view.
            const azure::Call getCall = azure::getVmCall(*sub, region, vm.name, true);
            Result<HttpResponse> shown = perform(getCall, context(getCall, region), cancel);
            if (!shown) {
                if (shown.error().code == ErrorCode::NotFound) {
                    continue; // deleted meanwhile
                }
                return shown.error();
            }
            Result<azure::Vm> full = azure::parseVm(shown->body, getCall.action);
            if (!full) {
                return full.error();
            }
            ours.push_back(azure::toRemote(*full, region));
        }
        if (listed->nextLink.empty()) {
            break;
        }
        call = azure::getUrlCall("VirtualMachines_List", listed->nextLink);
    }
    return ours;
}

Status AzureVmProvider::terminate(const std::string& region, const std::string& instanceId, const CancelToken* cancel)
{
    Result<std::string> sub = subscription(cancel);
    if (!sub) {
        return sub.error();
    }
    const azure::Call call = azure::deleteVmCall(*sub, region, instanceId);
    Result<HttpResponse> answer = perform(call, context(call, region), cancel);
    if (!answer) {
        if (answer.error().code == ErrorCode::NotFound) {
            return Ok{}; // already gone
        }
        return answer.error();
    }
    return Ok{}; // 200, 202 (deleting: not waited for) or 204 (gone)
}

} // namespace

std::unique_ptr<CloudProvider> makeAzureVmProvider(ProviderContext context)
{
    return std::make_unique<AzureVmProvider>(std::move(context));
}

std::vector<CredentialFieldSpec> azureCredentialFields()
{
    return {{"tenant_id", CredentialFieldKind::Plain},
            {"client_id", CredentialFieldKind::KeyId},
            {"client_secret", CredentialFieldKind::Secret},
            {"subscription_id", CredentialFieldKind::Plain, false},
            {"ml_workspace", CredentialFieldKind::Plain, false}};
}

const ProviderDescriptor& azureDescriptor()
{
    static const ProviderDescriptor descriptor = [] {
        ProviderDescriptor d{
            "azure",
            "Microsoft Azure", // wire: the provider\'s name, a proper noun (data)
            "微软 Azure",
            azureCredentialFields(),
            // A reservation is bought apart from the VM; ARM has no validate-only VM PUT; the VM schema has no
            // auto-delete time (the watchdog inside and the ledger's reconcile do it); a shutdown from inside leaves
            // the VM stopped, still allocated and billed.
            {{CloudFeature::Subscription, Reason{"unsupported.azure.subscription", {}}},
             {CloudFeature::DryRun, Reason{"unsupported.azure.dry_run", {}}},
             {CloudFeature::ScheduledTerminate, Reason{"unsupported.azure.scheduled_terminate", {}}},
             {CloudFeature::TerminateOnShutdown, Reason{"unsupported.azure.terminate_on_shutdown", {}}},
             {CloudFeature::ShutdownStopsBilling, Reason{"unsupported.azure.shutdown_stops_billing", {}}}},
            makeAzureVmProvider,
        };
        d.managedJobs = &azureMlDescriptor();
        d.loginUser = std::string(azure::kAdminUser); // the VM's adminUsername
        return d;
    }();
    return descriptor;
}

} // namespace gpuplan::core
