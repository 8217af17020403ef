#pragma once

#include "gpuplan/core/Result.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

struct HttpHeader
{
    std::string name;
    std::string value;
};

/// A URL split into what signers canonicalise. `path` and `query` are kept as written (percent-encoded,
/// the query without its "?"); `port` is 0 when the URL gives none.
struct Url
{
    std::string scheme; // "https"
    std::string host;   // lower case, without port
    int port = 0;
    std::string path = "/";
    std::string query;

    /// host, or host:port when the port is not the scheme's default: the Host header's value.
    std::string authority() const;
};

/// Splits an absolute http(s) URL. InvalidArgument naming the URL when it is not one.
Result<Url> parseUrl(std::string_view url);

/// One HTTP request as it goes on the wire. Signers add headers to it; HttpClient sends it.
struct HttpRequest
{
    std::string method = "GET";
    std::string url; // absolute, percent-encoded
    std::vector<HttpHeader> headers;
    std::string body;
    /// True when sending it twice does no harm: a read, or a write that carries an idempotency token
    /// (ClientToken, X-Client-Token, requestId). Only such requests are retried.
    bool safeToRetry = false;
    /// A download: when set, a 2xx answer's body goes to this file (created or replaced, each attempt anew)
    /// instead of memory, with no size cap (a price file is hundreds of MB); other answers stay in memory.
    std::filesystem::path saveBodyTo;
    /// Called as the body arrives with the bytes received and those announced (0 when unknown); returning
    /// false cancels the transfer (Cancelled).
    std::function<bool(std::uint64_t received, std::uint64_t expected)> onProgress;
    /// Overrides the client's total timeout for this request (a download takes longer than an API call);
    /// the stall limit (HttpOptions::lowSpeedTime) still applies.
    std::optional<std::chrono::milliseconds> totalTimeout;

    /// The first header of that name (case-insensitive), or nullopt.
    std::optional<std::string> header(std::string_view name) const;
    /// Replaces every header of that name (case-insensitive) by one with `value`.
    void setHeader(std::string_view name, std::string value);
};

struct HttpResponse
{
    int status = 0;
    std::vector<HttpHeader> headers;
    std::string body;

    std::optional<std::string> header(std::string_view name) const;
};

/// Something that sends a request and returns the response (HttpClient, or a test double). Signers that
/// need a token exchange (Google, Azure) take one.
/// Set from any thread to stop a request at the next progress callback (ErrorCode::Cancelled).
class CancelToken
{
public:
    void cancel() { m_cancelled = true; }
    bool cancelled() const { return m_cancelled; }

private:
    std::atomic<bool> m_cancelled{false};
};

class HttpTransport
{
public:
    virtual ~HttpTransport() = default;
    /// Sends the request; `cancel`, when given, stops it at the next chance (ErrorCode::Cancelled).
    virtual Result<HttpResponse> send(const HttpRequest& request, const CancelToken* cancel) = 0;
    Result<HttpResponse> send(const HttpRequest& request) { return send(request, nullptr); }
};

} // namespace gpuplan::core
