#pragma once

#include "gpuplan/core/Redaction.h" // redactedHeader, redactedText
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Http.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// When a request is tried again: connection errors, resets, timeouts and truncated bodies, 429, 5xx, and
/// the providers' throttling codes in a response body. Only requests marked safeToRetry are repeated.
struct RetryPolicy
{
    int maxAttempts = 4;
    std::chrono::milliseconds baseDelay{500}; // exponential backoff with full jitter from here
    std::chrono::milliseconds maxDelay{20000};
    /// Error codes in a body that mean "slow down" (EC2 XML <Code>, Tencent Response.Error.Code,
    /// Alibaba Code, Huawei error_code).
    std::vector<std::string> throttlingCodes{"RequestLimitExceeded",
                                             "Throttling",
                                             "Throttling.User",
                                             "Throttling.Api",
                                             "APIGW.0308",
                                             "TooManyRequests",
                                             "rateLimitExceeded",
                                             "userRateLimitExceeded"};
};

struct HttpOptions
{
    std::chrono::milliseconds connectTimeout{10000};
    std::chrono::milliseconds totalTimeout{120000};
    long lowSpeedBytesPerSecond = 1; // slower than this for lowSpeedTime is a stall
    std::chrono::seconds lowSpeedTime{30};
    /// "http://host:port" (or socks5://...); empty: the environment's https_proxy / http_proxy / no_proxy.
    std::string proxy;
    /// A corporate or campus CA certificate (PEM) trusted in addition to the system's. Verification of the
    /// server's certificate and host name is always on; there is no option to turn it off.
    std::string extraCaFile;
    /// The largest answer accepted, after decompression: a cloud API's answer is kilobytes; a server (or a proxy)
    /// that sends more is refused (a Network error saying so) rather than filling memory.
    std::size_t maxResponseBytes = 64u << 20;
    RetryPolicy retry;
};

/// HTTP(S) over libcurl: one easy handle per request, TLS verified against the system CA store, proxy,
/// timeouts, cancellation, retries with backoff for requests that are safe to repeat. Thread-safe: each send
/// uses its own handle (curl_global_init must have run once, see initializeHttp). Logs to the net category
/// (gpuplan/core/Log.h): each request line and answer status at debug, headers and the first 2 KiB of bodies at
/// trace (credential headers and secret parameters redacted), retries at info.
class HttpClient final : public HttpTransport
{
public:
    explicit HttpClient(HttpOptions options = {});

    using HttpTransport::send;
    /// The response of the last attempt, or the error of the last attempt with how many were made. An HTTP error
    /// status is a response, not an Error.
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken* cancel) override;

    /// The server's clock minus ours, from the Date header of the last response; nullopt before one came.
    std::optional<std::chrono::seconds> clockOffset() const;

    /// Test seams: how the client waits between attempts, and the random source of the jitter.
    void setSleeper(std::function<void(std::chrono::milliseconds)> sleeper) { m_sleep = std::move(sleeper); }
    void setClock(Clock clock) { m_clock = std::move(clock); }

private:
    /// One try. `transientFailure`: the transport failed in a way another try may not (reset, timeout...).
    Result<HttpResponse> attempt(const HttpRequest& request, const CancelToken* cancel, bool& transientFailure);
    std::chrono::milliseconds backoff(int attempt, const std::optional<HttpResponse>& response) const;
    bool throttled(const HttpResponse& response) const;

    HttpOptions m_options;
    std::function<void(std::chrono::milliseconds)> m_sleep;
    Clock m_clock;
    std::atomic<long long> m_offsetSeconds{0};
    std::atomic<bool> m_haveOffset{false};
};

/// Once per process, before any thread sends (curl_global_init). Safe to call more than once.
void initializeHttp();

/// "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110 IMF-fixdate) -> that time; nullopt when it is not one.
std::optional<std::chrono::system_clock::time_point> parseHttpDate(const std::string& text);
/// A clock that is off by more than the provider allows, as error.net.clock_slow or error.net.clock_fast
/// {minutes, provider, allowed_minutes} (worded "your clock is 7 minutes fast; Tencent Cloud allows 5: ...");
/// nullopt when it is within `allowed`.
std::optional<Reason>
clockSkewReason(std::chrono::seconds serverMinusLocal, std::chrono::minutes allowed, const std::string& provider);

} // namespace gpuplan::core
