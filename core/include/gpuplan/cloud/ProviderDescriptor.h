#pragma once

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/secrets/Credential.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpuplan::core {

using ProviderFactory = std::function<std::unique_ptr<CloudProvider>(ProviderContext)>;

/// What a cloud provider is, as data: what the credential dialog, the CLI and the Launch page show and offer
/// without talking to it. Its regions and instance types are the catalog's (resources/catalog/offers/<id>.json,
/// with their prices and sources), not repeated here. Each provider's folder under core/cloud/providers/ defines one;
/// ProviderRegistry lists them (SkyPilot's `sky/clouds/<cloud>.py` declares a cloud the same way).
struct ProviderDescriptor
{
    std::string id;     // "aws": the catalog's provider id, the CLI's --provider, the credential's key
    std::string name;   // "Amazon Web Services"
    std::string nameZh; // "亚马逊云科技（AWS）"
    /// Its credential's fields, in the order a form asks for them (credentialSpecs() is made of these). Providers
    /// that sign alike share field names (access_key_id, secret_access_key), so scripts and storage see one shape.
    std::vector<CredentialFieldSpec> credentialFields;
    /// What it lacks, each with the reason shown on the greyed-out action (and in the CLI's refusal): a key
    /// "unsupported.<provider>.<feature>" without parameters, worded by ui/wording/ProviderText (unsupportedText).
    std::map<CloudFeature, Reason> unsupported;
    /// Makes the provider for one session; empty while launching on it is not built.
    ProviderFactory make;
    /// What make() gives: a cloud's instances, or its managed training service (whose CloudProvider is a
    /// ManagedJobService).
    LaunchKind kind = LaunchKind::Instance;
    /// The cloud's managed training service (Vertex AI for gcp, Azure ML for azure), described the same way: the same
    /// id, kind Job, its own name, credential (the cloud's), lacks and factory. Null where the cloud has none.
    const ProviderDescriptor* managedJobs = nullptr;
    /// Who logs in over SSH on the image its launches boot ("ubuntu"); empty where GPU Planner does not know it (the
    /// user then gives USER@HOST).
    std::string loginUser;

    bool canLaunch() const { return static_cast<bool>(make); }
    bool supports(CloudFeature feature) const { return !unsupported.contains(feature); }
    /// The ways of paying it can launch with: on-demand, then spot and subscription unless unsupported.
    std::vector<LaunchPricing> launchPricings() const;
};

} // namespace gpuplan::core
