#pragma once

#include <string>
#include <utility>
#include <variant>

namespace gpuplan::core {

/// Stable error codes: the UI maps them to translated text, scripts may rely on them.
enum class ErrorCode
{
    FileNotFound,
    FileUnreadable,
    JsonSyntax,
    SchemaViolation,
    UnknownReference,
    UnknownProvider,
    UnknownGpu,
    InvalidArgument,
    // Network (core/net): transport, HTTP status and provider meaning stay apart.
    Network,             // could not connect, reset, DNS, proxy refused, truncated body
    Timeout,             // connect, total or low-speed timeout
    Cancelled,           // the caller's cancel token
    TlsVerification,     // the server's certificate did not verify
    HttpStatus,          // the server answered with an error status; httpStatus has it
    Throttled,           // 429 or a provider's rate-limit code, retries used up
    ClockSkew,           // the provider refused the request's time
    Credentials,         // missing, unreadable or refused credentials
    Crypto,              // a signing or encryption step failed
    HostKeyChanged,      // an SSH server's host key differs from the one in known_hosts
    RemoteCommandFailed, // a command on the remote machine failed; the detail quotes its exit status and last output
    // Cloud APIs (core/cloud): what the provider refused, with Error::providerCode and plain advice.
    InsufficientCapacity, // none of this instance type free in that zone now: try another zone or later
    QuotaExceeded,        // the account's vCPU / GPU / instance quota is used up: request more
    PermissionDenied,     // the credentials work but lack a permission (named in the detail)
    NotFound,             // the instance, image, key or group is not there
    ProviderRefused,      // any other refusal (bad parameter, unsupported in the region...)
    BudgetExceeded,       // the plan's budget guard refused a launch
    Internal,             // a fault of ours caught at a boundary (an exception from a library): nothing more was done
};

/// The stable, English name of a code ("schema_violation"), used in JSON output and logs.
const char* errorCodeName(ErrorCode code);

/// What went wrong and where. `where` names the place (file, JSON path, field, host);
/// `detail` says what is wrong there and, where it helps, what to do.
struct Error
{
    ErrorCode code = ErrorCode::InvalidArgument;
    std::string detail;
    std::string where;
    int httpStatus = 0;       // 0 when the error did not come from an HTTP response
    std::string providerCode; // the provider's own error code ("InsufficientInstanceCapacity"), when it gave one

    /// "where: detail", or just the detail when there is no place to name.
    std::string message() const { return where.empty() ? detail : where + ": " + detail; }
};

/// Either a value or an Error; core never lets exceptions cross its boundary.
template <typename T>
class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_state(std::move(value))
    { }
    Result(Error error)
        : m_state(std::move(error))
    { }

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    const T& value() const& { return std::get<T>(m_state); }
    T& value() & { return std::get<T>(m_state); }
    T&& value() && { return std::get<T>(std::move(m_state)); }
    const T& operator*() const& { return value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const { return std::get<Error>(m_state); }

private:
    std::variant<T, Error> m_state;
};

/// For operations that return nothing but can fail.
struct Ok
{ };
using Status = Result<Ok>;

} // namespace gpuplan::core
