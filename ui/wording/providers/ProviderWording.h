#pragma once

#include "gpuplan/core/Reason.h"
#include "wording/ReasonParams.h"

#include <QString>

#include <string>

// The words of one provider's own keys, one file per provider that launches: its errors ("error.<provider>.*", with
// the advice a user of that cloud needs) and its launch steps ("step.<provider>.*"). Each function returns a null
// QString for a key it does not know; ui/wording/ErrorText.cpp and LaunchText.cpp ask them in turn. Private to
// ui/wording.
namespace gpuplan::ui::providerwording {

QString alibabaErrorText(const core::Reason& reason);                      // error.alibaba.*
QString alibabaStepText(const std::string& key, const ReasonParams& p);    // step.alibaba.*
QString huaweiErrorText(const core::Reason& reason);                       // error.huawei.*
QString huaweiStepText(const std::string& key, const ReasonParams& p);     // step.huawei.*
QString gcpErrorText(const core::Reason& reason);                          // error.gcp.*
QString gcpStepText(const std::string& key, const ReasonParams& p);        // step.gcp.*
QString azureErrorText(const core::Reason& reason);                        // error.azure.*
QString azureStepText(const std::string& key, const ReasonParams& p);      // step.azure.*
QString lambdaErrorText(const core::Reason& reason);                       // error.lambda.*
QString lambdaStepText(const std::string& key, const ReasonParams& p);     // step.lambda.*
QString paperspaceErrorText(const core::Reason& reason);                   // error.paperspace.*
QString paperspaceStepText(const std::string& key, const ReasonParams& p); // step.paperspace.*
QString vertexErrorText(const core::Reason& reason);                       // error.vertex.*
QString vertexStepText(const std::string& key, const ReasonParams& p);     // step.vertex.*
QString vertexUnsupportedText(const std::string& key);                     // unsupported.vertex.*
QString azureMlErrorText(const core::Reason& reason);                      // error.azureml.*
QString azureMlStepText(const std::string& key, const ReasonParams& p);    // step.azureml.*
QString azureMlUnsupportedText(const std::string& key);                    // unsupported.azureml.*

} // namespace gpuplan::ui::providerwording
