// Core's errors in the reader's language: the code's name, then where and what (the detail stays as core gives it).
#include "wording/ErrorText.h"

#include <QCoreApplication>

namespace gpuplan::ui {

namespace {

/// The errors' translation context: the main window's, where they were first worded.
struct Errors
{
    Q_DECLARE_TR_FUNCTIONS(gpuplan::ui::MainWindow)
};

} // namespace

QString errorCodeText(core::ErrorCode code)
{
    switch (code) {
        case core::ErrorCode::FileNotFound:
            return Errors::tr("file not found");
        case core::ErrorCode::FileUnreadable:
            return Errors::tr("file cannot be read");
        case core::ErrorCode::JsonSyntax:
            return Errors::tr("JSON syntax error");
        case core::ErrorCode::SchemaViolation:
            return Errors::tr("invalid value");
        case core::ErrorCode::UnknownReference:
            return Errors::tr("unknown reference");
        case core::ErrorCode::UnknownProvider:
            return Errors::tr("unknown provider");
        case core::ErrorCode::UnknownGpu:
            return Errors::tr("unknown GPU");
        case core::ErrorCode::InvalidArgument:
            return Errors::tr("invalid argument");
        case core::ErrorCode::Network:
            return Errors::tr("network error");
        case core::ErrorCode::Timeout:
            return Errors::tr("timed out");
        case core::ErrorCode::Cancelled:
            return Errors::tr("cancelled");
        case core::ErrorCode::TlsVerification:
            return Errors::tr("certificate not trusted");
        case core::ErrorCode::HttpStatus:
            return Errors::tr("server error");
        case core::ErrorCode::Throttled:
            return Errors::tr("rate limited");
        case core::ErrorCode::ClockSkew:
            return Errors::tr("clock out of sync");
        case core::ErrorCode::Credentials:
            return Errors::tr("credentials problem");
        case core::ErrorCode::Crypto:
            return Errors::tr("cryptography error");
        case core::ErrorCode::HostKeyChanged:
            return Errors::tr("SSH host key changed");
        case core::ErrorCode::RemoteCommandFailed:
            return Errors::tr("remote command failed");
        case core::ErrorCode::InsufficientCapacity:
            return Errors::tr("no capacity in that zone");
        case core::ErrorCode::QuotaExceeded:
            return Errors::tr("quota exceeded");
        case core::ErrorCode::PermissionDenied:
            return Errors::tr("permission missing");
        case core::ErrorCode::NotFound:
            return Errors::tr("not found");
        case core::ErrorCode::ProviderRefused:
            return Errors::tr("refused by the provider");
        case core::ErrorCode::BudgetExceeded:
            return Errors::tr("over the budget");
        case core::ErrorCode::Internal:
            return Errors::tr("internal error");
    }
    return {};
}

QString errorText(const core::Error& error)
{
    return Errors::tr("%1: %2").arg(errorCodeText(error.code), QString::fromStdString(error.message()));
}

} // namespace gpuplan::ui
