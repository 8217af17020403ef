#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

namespace gpuplan::core {

/// Microsoft Azure: its credential and prices are read (core/prices); launching on it is not built yet.
const ProviderDescriptor& azureDescriptor();

} // namespace gpuplan::core
