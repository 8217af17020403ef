#pragma once

#include "gpuplan/core/Reason.h"

#include <QString>

#include <string_view>

namespace gpuplan::ui {

/// A provider's name in the interface's language, from its descriptor ("腾讯云" for tencent in Chinese,
/// "Tencent Cloud" otherwise); the id itself for a provider the registry does not know.
QString providerDisplayName(std::string_view id);
/// The name of the cloud's managed training service ("Vertex AI", "Azure Machine Learning"), in the UI's language;
/// the cloud's name where it has none.
QString managedServiceName(std::string_view id);

/// Why a provider lacks a feature, from its descriptor's reason ("unsupported.<provider>.<feature>",
/// core::ProviderDescriptor::unsupported): "EC2 has no monthly rental of an instance; …". The key itself for a key
/// it does not know (a test provider's).
QString unsupportedText(const core::Reason& reason);

/// What terminating a prepaid (subscription) instance does on this provider, for the launch confirmation: that it
/// does not refund the period, and how the provider lets one end it early.
QString subscriptionTerminateText(std::string_view provider);

/// The label of a provider's credential field ("Access key ID", "SecretId" on Tencent Cloud) in the interface's
/// language: the credential dialog's form and `gpuplan creds set` ask with it. The field's name itself for a field
/// it does not know.
QString credentialFieldLabel(std::string_view provider, std::string_view field);

} // namespace gpuplan::ui
