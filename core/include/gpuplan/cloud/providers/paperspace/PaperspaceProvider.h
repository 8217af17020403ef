#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

#include <memory>

namespace gpuplan::core {

/// Paperspace (api.paperspace.com/v1): its credential (the API key), what it lacks, and launching on it.
const ProviderDescriptor& paperspaceDescriptor();

/// The provider for one session. Not thread-safe: one launch at a time per object.
std::unique_ptr<CloudProvider> makePaperspaceProvider(ProviderContext context);

} // namespace gpuplan::core
