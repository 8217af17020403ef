#pragma once

#include "gpuplan/core/Reason.h"

#include <string>
#include <utility>
#include <variant>
#include <vector>

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
    RemoteCommandFailed, // a command on the remote machine failed; the reason holds its exit status and last output
    // Cloud APIs (core/cloud): what the provider refused, with Error::providerCode and plain advice.
    InsufficientCapacity, // none of this instance type free in that zone now: try another zone or later
    QuotaExceeded,        // the account's vCPU / GPU / instance quota is used up: request more
    PermissionDenied,     // the credentials work but lack a permission (named in the reason)
    NotFound,             // the instance, image, key or group is not there
    ProviderRefused,      // any other refusal (bad parameter, unsupported in the region...)
    BudgetExceeded,       // the plan's budget guard refused a launch
    Internal,             // a fault of ours caught at a boundary (an exception from a library): nothing more was done
};

/// The stable, English name of a code ("schema_violation"), used in JSON output and logs.
const char* errorCodeName(ErrorCode code);

/// What went wrong and where, as data: core holds no sentences (DESIGN.md, "Wording"). `reason` says what is wrong
/// as a key ("error.ssh.key_refused") and raw parameters; ui/wording words it for both front ends, in the
/// reader's language (errorText(), errorMessage()). Text that comes from outside (a server's message, a library's
/// error string, a remote command's output) travels as a parameter, conventionally "said".
struct Error
{
    ErrorCode code = ErrorCode::InvalidArgument;
    Reason reason;
    std::string where;        // the place: a file, a JSON path, a field, a host
    int httpStatus = 0;       // 0 when the error did not come from an HTTP response
    std::string providerCode; // the provider's own error code ("InsufficientInstanceCapacity"), when it gave one
    /// What the callers on the way up added, innermost first ("error.ssh.via_jump_host" {host}): worded before the
    /// reason, outermost first ("jump host bastion: cannot connect ...").
    std::vector<Reason> context;

    /// The same error seen from a caller: `frame` is worded in front of what is already said.
    Error within(Reason frame) const&
    {
        Error outer = *this;
        outer.context.push_back(std::move(frame));
        return outer;
    }
};

/// For the developer's log only, never for the user: "schema_violation at where: key (a=1, b=2)".
std::string describe(const Error& error);

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
