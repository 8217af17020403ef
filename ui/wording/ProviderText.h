#pragma once

#include <QString>

#include <string_view>

namespace gpuplan::ui {

/// A provider's name in the interface's language, from its descriptor ("腾讯云" for tencent in Chinese,
/// "Tencent Cloud" otherwise); the id itself for a provider the registry does not know.
QString providerDisplayName(std::string_view id);

} // namespace gpuplan::ui
