#pragma once

#include "gpuplan/cloud/ProviderDescriptor.h"

namespace gpuplan::core {

/// Huawei Cloud: its credential and prices are read (core/prices); launching on it is not built yet.
const ProviderDescriptor& huaweiDescriptor();

} // namespace gpuplan::core
