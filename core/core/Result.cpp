#include "gpuplan/core/Result.h"

namespace gpuplan::core {

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
        case ErrorCode::FileNotFound:
            return "file_not_found";
        case ErrorCode::FileUnreadable:
            return "file_unreadable";
        case ErrorCode::JsonSyntax:
            return "json_syntax";
        case ErrorCode::SchemaViolation:
            return "schema_violation";
        case ErrorCode::UnknownReference:
            return "unknown_reference";
        case ErrorCode::UnknownProvider:
            return "unknown_provider";
        case ErrorCode::UnknownGpu:
            return "unknown_gpu";
        case ErrorCode::InvalidArgument:
            return "invalid_argument";
        case ErrorCode::Network:
            return "network";
        case ErrorCode::Timeout:
            return "timeout";
        case ErrorCode::Cancelled:
            return "cancelled";
        case ErrorCode::TlsVerification:
            return "tls_verification";
        case ErrorCode::HttpStatus:
            return "http_status";
        case ErrorCode::Throttled:
            return "throttled";
        case ErrorCode::ClockSkew:
            return "clock_skew";
        case ErrorCode::Credentials:
            return "credentials";
        case ErrorCode::Crypto:
            return "crypto";
        case ErrorCode::HostKeyChanged:
            return "host_key_changed";
        case ErrorCode::RemoteCommandFailed:
            return "remote_command_failed";
        case ErrorCode::InsufficientCapacity:
            return "insufficient_capacity";
        case ErrorCode::QuotaExceeded:
            return "quota_exceeded";
        case ErrorCode::PermissionDenied:
            return "permission_denied";
        case ErrorCode::NotFound:
            return "not_found";
        case ErrorCode::ProviderRefused:
            return "provider_refused";
        case ErrorCode::BudgetExceeded:
            return "budget_exceeded";
        case ErrorCode::Internal:
            return "internal";
    }
    return "unknown";
}

} // namespace gpuplan::core

namespace gpuplan::core {

std::string describe(const Error& error)
{
    std::string text = errorCodeName(error.code);
    if (!error.where.empty()) {
        text += " at " + error.where;
    }
    const auto add = [&text](const Reason& reason) {
        text += ": " + reason.key;
        const char* separator = " (";
        for (const auto& [name, value] : reason.params) {
            text += separator + name + "=" + value;
            separator = ", ";
        }
        if (!reason.params.empty()) {
            text += ")";
        }
    };
    for (auto frame = error.context.rbegin(); frame != error.context.rend(); ++frame) {
        add(*frame);
    }
    add(error.reason);
    return text;
}

} // namespace gpuplan::core
