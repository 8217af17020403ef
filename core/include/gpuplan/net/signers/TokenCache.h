#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/signers/Signing.h"

#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace gpuplan::core {

/// An OAuth2 access token with the time it stops being good.
struct AccessToken
{
    std::string value;
    TimePoint expires;
};

/// The one token cache of every OAuth-style signer (Google's service account, Azure's client credentials, and the
/// token-based clouds to come): a token is kept until five minutes before it expires (as google-auth-library and
/// MSAL do), so that a request signed with it does not reach the server with a token that has just run out.
/// Thread-safe: the lock is held across a fetch, so callers that arrive meanwhile wait for its token instead of
/// fetching their own.
class TokenCache
{
public:
    explicit TokenCache(Clock clock);

    /// The cached token while it is good, else fetch(now)'s (kept when it succeeds, and when it expires later
    /// than five minutes from now).
    Result<AccessToken> get(const std::function<Result<AccessToken>(TimePoint now)>& fetch);

private:
    Clock m_clock;
    std::mutex m_mutex;
    std::optional<AccessToken> m_cached;
};

} // namespace gpuplan::core
