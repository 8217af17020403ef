// The words of core's error.huawei.* and step.huawei.* keys (core/cloud/providers/huawei).
#include "wording/providers/ProviderWording.h"

#include <QCoreApplication>

namespace gpuplan::ui::providerwording {

namespace {

/// The translation context of these words.
struct HuaweiText
{
    Q_DECLARE_TR_FUNCTIONS(HuaweiText)
};

} // namespace

QString huaweiErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.huawei.")) {
        return {};
    }
    return {};
}

QString huaweiStepText(const std::string& key, const ReasonParams& p)
{
    (void)p;
    if (!key.starts_with("step.huawei.")) {
        return {};
    }
    return {};
}

} // namespace gpuplan::ui::providerwording
