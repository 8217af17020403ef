#pragma once

#include "gpuplan/cloud/CloudProvider.h"

#include <string>

namespace gpuplan::core {

/// What the first three steps of a launch found or set up, for the last one.
struct LaunchPieces
{
    std::string imageId;
    std::string keyPair;  // the provider's name or id of the imported key; empty in a dry run that would import it
    std::string firewall; // the security group's id; empty in a dry run that would create it
};

/// A cloud that rents virtual machines, launched the way every such cloud launches them (SkyPilot's
/// `sky/provision/__init__.py` names the same steps): the request is checked, then image -> key pair -> firewall
/// that opens SSH to one address -> run with the client token. launch() is that order, once for all providers;
/// a provider fills in the steps with its API calls. Each step adds what it found or set up to
/// LaunchResult::steps, and in a dry run only checks (the provider's dry-run switch where it has one).
class VmProvider : public CloudProvider
{
public:
    using CloudProvider::CloudProvider;

    Result<LaunchResult> launch(const LaunchRequest& request, const CancelToken* cancel) final;

protected:
    /// The request's parameters and limits as this provider sees them, before anything is created (the run
    /// call built with placeholders, a key name the provider accepts). Default: nothing more to check.
    virtual Status checkRequest(const LaunchRequest& request);
    /// The request's image, else the provider's current GPU image with the NVIDIA driver for the region and type.
    virtual Result<std::string>
    findImage(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel) = 0;
    /// The key pair holding request.sshPublicKey: found by name, else imported. A key imported meanwhile by another
    /// launch is found, not an error.
    virtual Result<std::string>
    ensureKeyPair(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel) = 0;
    /// The firewall (security group) that opens TCP 22 to request.sshSourceCidr only: found by name and repaired
    /// when it lost its rule, else created.
    virtual Result<std::string>
    ensureSshFirewall(const LaunchRequest& request, LaunchResult& result, const CancelToken* cancel) = 0;
    /// Runs the instance with request.clientToken, so that a resent request returns the instance it started
    /// instead of a second one. Fills in instanceId, state and zone, or dryRunPassed.
    virtual Status
    run(const LaunchRequest& request, const LaunchPieces& pieces, LaunchResult& result, const CancelToken* cancel) = 0;
};

} // namespace gpuplan::core
