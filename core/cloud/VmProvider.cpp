#include "gpuplan/cloud/VmProvider.h"

#include "gpuplan/cloud/ProviderDescriptor.h"
#include "gpuplan/cloud/PublicAddress.h"

namespace gpuplan::core {

Status VmProvider::checkRequest(const LaunchRequest&)
{
    return Ok{};
}

Result<LaunchResult> VmProvider::launch(const LaunchRequest& request, const CancelToken* cancel)
{
    if (request.region.empty() || request.instanceType.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.request_incomplete", {}}, id()};
    }
    const std::map<CloudFeature, Reason> lacks = unsupportedFeatures();
    for (const auto& [pricing, feature] : {std::pair{LaunchPricing::Spot, CloudFeature::Spot},
                                           std::pair{LaunchPricing::Subscription, CloudFeature::Subscription}}) {
        if (request.pricing == pricing && lacks.contains(feature)) {
            return Error{
                ErrorCode::ProviderRefused,
                Reason{
                    "error.cloud.feature_refused",
                    {{"provider", id()}, {"feature", cloudFeatureName(feature)}, {"why_key", lacks.at(feature).key}}},
                "pricing"};
        }
    }
    if (request.dryRun && lacks.contains(CloudFeature::DryRun)) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.cloud.feature_refused",
                            {{"provider", id()},
                             {"feature", cloudFeatureName(CloudFeature::DryRun)},
                             {"why_key", lacks.at(CloudFeature::DryRun).key}}},
                     "dry_run"};
    }
    if (Status ok = checkSshSourceCidr(request.sshSourceCidr, true); !ok) {
        return ok.error();
    }
    if (Status ok = checkRequest(request); !ok) {
        return ok.error();
    }
    if (cancel && cancel->cancelled()) {
        return Error{ErrorCode::Cancelled, Reason{"error.cloud.launch_cancelled", {}}, id()};
    }

    LaunchResult result;
    LaunchPieces pieces;
    Result<std::string> image = findImage(request, result, cancel);
    if (!image) {
        return image.error();
    }
    pieces.imageId = std::move(image).value();
    Result<std::string> key = ensureKeyPair(request, result, cancel);
    if (!key) {
        return key.error();
    }
    pieces.keyPair = std::move(key).value();
    Result<std::string> firewall = ensureSshFirewall(request, result, cancel);
    if (!firewall) {
        return firewall.error();
    }
    pieces.firewall = std::move(firewall).value();
    if (Status ran = run(request, pieces, result, cancel); !ran) {
        return ran.error();
    }
    return result;
}

} // namespace gpuplan::core
