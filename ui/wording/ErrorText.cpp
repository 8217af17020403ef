// Core's errors in the reader's language: the code's name, then where and what. What is worded from the error's
// reason and context keys by the files of ui/wording/errors/, one per core module.
#include "wording/ErrorText.h"

#include "wording/PlanText.h"
#include "wording/errors/ErrorWording.h"
#include "wording/providers/ProviderWording.h"

#include <QStringList>

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

core::Error frontEndError(core::ErrorCode code, const QString& text, std::string where)
{
    return frontEndError(code, text.toStdString(), std::move(where));
}

core::Error frontEndError(core::ErrorCode code, const std::string& text, std::string where)
{
    return core::Error{code, core::Reason{"error.front_end.text", {{"text", text}}}, std::move(where)};
}

core::Error frontEndError(core::ErrorCode code, const char* text, std::string where)
{
    return frontEndError(code, std::string(text), std::move(where));
}

QString errorReasonText(const core::Reason& reason)
{
    if (reason.key == "error.front_end.text") {
        return QString::fromStdString(reason.params.count("text") ? reason.params.at("text") : std::string());
    }
    using namespace errorwording;
    QString worded;
    for (const auto family : {netErrorText,
                              sshErrorText,
                              probeErrorText,
                              ledgerErrorText,
                              providerErrorText,
                              cloudErrorText,
                              priceErrorText,
                              secretErrorText,
                              dataErrorText,
                              runErrorText,
                              providerwording::alibabaErrorText,
                              providerwording::huaweiErrorText,
                              providerwording::gcpErrorText,
                              providerwording::azureErrorText,
                              providerwording::lambdaErrorText,
                              providerwording::paperspaceErrorText,
                              providerwording::vertexErrorText,
                              providerwording::azureMlErrorText}) {
        worded = family(reason);
        if (!worded.isNull()) {
            break;
        }
    }
    const ReasonParams p(reason.params);
    if (worded.isNull() && !reason.key.starts_with("error.")) {
        // A reason of the plan, the verdict or a saved text ("saved.text"), or a key this version does not word.
        return reasonText(reason);
    }
    if (worded.isNull()) {
        // A key this version does not word: its key and figures, never nothing.
        QStringList params;
        for (const auto& [name, value] : reason.params) {
            params << QStringLiteral("%1=%2").arg(QString::fromStdString(name), QString::fromStdString(value));
        }
        worded = QString::fromStdString(reason.key);
        if (!params.isEmpty()) {
            worded += QStringLiteral(" (%1)").arg(params.join(QStringLiteral(", ")));
        }
        return worded;
    }
    // A check that found several problems reports the first and counts the others.
    if (p.integer("more_problems") > 0) {
        worded = Errors::tr("%1 (and %2 more problem(s))").arg(worded).arg(p.integer("more_problems"));
    }
    return worded;
}

QString errorDetailText(const core::Error& error)
{
    QString text = errorReasonText(error.reason);
    for (const core::Reason& frame : error.context) {
        text = Errors::tr("%1: %2").arg(errorReasonText(frame), text);
    }
    return text;
}

QString errorMessage(const core::Error& error)
{
    const QString detail = errorDetailText(error);
    return error.where.empty() ? detail : Errors::tr("%1: %2").arg(QString::fromStdString(error.where), detail);
}

QString errorText(const core::Error& error)
{
    return Errors::tr("%1: %2").arg(errorCodeText(error.code), errorMessage(error));
}

} // namespace gpuplan::ui
