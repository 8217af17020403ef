#pragma once

// Canonicalisation steps the HMAC signers share (AWS SigV4, Tencent TC3, Alibaba ACS3, Huawei SDK-HMAC).

#include "gpuplan/core/Text.h"

#include <string>
#include <string_view>

namespace gpuplan::core::canonical {

// Header names are lowered() and values trimmed() (gpuplan/core/Text.h), as Tencent, Alibaba and Huawei sign them.

/// A query string as the schemes sign it: each name and value decoded and RFC 3986 encoded once (%20, %2A,
/// '~' kept), sorted by name, then value; a parameter without '=' signs as "name=".
std::string canonicalQuery(std::string_view query);

} // namespace gpuplan::core::canonical
