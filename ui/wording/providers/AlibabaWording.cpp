// The words of core's error.alibaba.* and step.alibaba.* keys (core/cloud/providers/alibaba).
#include "wording/providers/ProviderWording.h"

#include <QCoreApplication>

namespace gpuplan::ui::providerwording {

namespace {

/// The translation context of these words.
struct AlibabaText
{
    Q_DECLARE_TR_FUNCTIONS(AlibabaText)
};

} // namespace

QString alibabaErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.alibaba.")) {
        return {};
    }
    return {};
}

QString alibabaStepText(const std::string& key, const ReasonParams& p)
{
    (void)p;
    if (!key.starts_with("step.alibaba.")) {
        return {};
    }
    return {};
}

} // namespace gpuplan::ui::providerwording
