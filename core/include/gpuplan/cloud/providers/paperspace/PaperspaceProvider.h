#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

namespace gpuplan::core {

/// Paperspace: its credential and prices are read (core/prices); launching on it is not built yet.
const ProviderDescriptor& paperspaceDescriptor();

} // namespace gpuplan::core
