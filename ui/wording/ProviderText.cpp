#include "wording/ProviderText.h"

#include "wording/Language.h"

#include "gpuplan/cloud/ProviderRegistry.h"

namespace gpuplan::ui {

QString providerDisplayName(std::string_view id)
{
    const core::ProviderDescriptor* provider = core::ProviderRegistry::builtIn().find(id);
    if (!provider) {
        return QString::fromUtf8(id.data(), qsizetype(id.size()));
    }
    const bool chinese = currentLanguage() == QLatin1String("zh_CN") && !provider->nameZh.empty();
    return QString::fromStdString(chinese ? provider->nameZh : provider->name);
}

} // namespace gpuplan::ui
