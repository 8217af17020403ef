#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

#include <memory>

namespace gpuplan::core {

/// Lambda Cloud over its REST API (JSON, the API key as a bearer token: ProviderContext::key.secret, the credential's
/// api_key). The API takes no idempotency key, so an instance's name is the launch's client token: run() lists the
/// account's instances first and sends the launch only when none carries that name (SkyPilot and dstack reconcile by
/// name alike). Regions have one zone each, named as the region.
std::unique_ptr<CloudProvider> makeLambdaProvider(ProviderContext context);
/// What Lambda is and lacks (ProviderRegistry); its credential and prices are read by core/prices too.
const ProviderDescriptor& lambdaDescriptor();

} // namespace gpuplan::core
