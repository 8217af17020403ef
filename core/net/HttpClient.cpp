#include "gpuplan/net/HttpClient.h"

#include "gpuplan/core/Log.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>
#include <random>
#include <regex>
#include <thread>

namespace gpuplan::core {

namespace {

/// Owns one easy handle and the header list of one request.
struct EasyHandle
{
    CURL* curl = curl_easy_init();
    curl_slist* headers = nullptr;
    ~EasyHandle()
    {
        curl_slist_free_all(headers);
        if (curl) {
            curl_easy_cleanup(curl);
        }
    }
    EasyHandle() = default;
    EasyHandle(const EasyHandle&) = delete;
    EasyHandle& operator=(const EasyHandle&) = delete;
};

struct Transfer
{
    HttpResponse response;
    const CancelToken* cancel = nullptr;
    bool statusLineSeen = false;
    std::size_t maxBodyBytes = 0;
    bool tooLarge = false;
    // Downloads (HttpRequest::saveBodyTo): a 2xx body goes to the file.
    const HttpRequest* request = nullptr;
    int status = 0; // of the response being received, from its status line
    std::FILE* file = nullptr;
    bool writeFailed = false;
    bool progressRefused = false;
};

size_t onBody(char* data, size_t size, size_t count, void* user)
{
    auto* transfer = static_cast<Transfer*>(user);
    if (transfer->file && transfer->status >= 200 && transfer->status < 300) {
        if (std::fwrite(data, 1, size * count, transfer->file) != size * count) {
            transfer->writeFailed = true;
            return 0;
        }
        return size * count;
    }
    if (transfer->response.body.size() + size * count > transfer->maxBodyBytes) {
        transfer->tooLarge = true;
        return 0; // curl stops with CURLE_WRITE_ERROR
    }
    transfer->response.body.append(data, size * count);
    return size * count;
}

size_t onHeader(char* data, size_t size, size_t count, void* user)
{
    auto* transfer = static_cast<Transfer*>(user);
    std::string line(data, size * count);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
        line.pop_back();
    }
    if (line.rfind("HTTP/", 0) == 0) {
        transfer->response.headers.clear(); // a new response (after 100 Continue or a proxy's CONNECT reply)
        const std::size_t space = line.find(' ');
        transfer->status = space == std::string::npos ? 0 : std::atoi(line.c_str() + space + 1);
        return size * count;
    }
    const std::size_t colon = line.find(':');
    if (colon != std::string::npos) {
        std::string value = line.substr(colon + 1);
        const std::size_t start = value.find_first_not_of(" \t");
        value = start == std::string::npos ? std::string() : value.substr(start);
        transfer->response.headers.push_back(HttpHeader{line.substr(0, colon), value});
    }
    return size * count;
}

int onProgress(void* user, curl_off_t expected, curl_off_t received, curl_off_t, curl_off_t)
{
    auto* transfer = static_cast<Transfer*>(user);
    if (transfer->cancel && transfer->cancel->cancelled()) {
        return 1; // non-zero aborts the transfer
    }
    if (transfer->request->onProgress && received > 0
        && !transfer->request->onProgress(std::uint64_t(received), std::uint64_t(std::max<curl_off_t>(expected, 0)))) {
        transfer->progressRefused = true;
        return 1;
    }
    return 0;
}

/// Whether a transport error is worth another attempt (for a request that is safe to repeat).
bool transient(CURLcode code)
{
    switch (code) {
        case CURLE_COULDNT_CONNECT:
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY:
        case CURLE_OPERATION_TIMEDOUT:
        case CURLE_SEND_ERROR:
        case CURLE_RECV_ERROR:
        case CURLE_GOT_NOTHING:
        case CURLE_PARTIAL_FILE:
        case CURLE_HTTP2:
        case CURLE_HTTP2_STREAM:
            return true;
        default:
            return false;
    }
}

/// `said`: libcurl's own words for the failure.
Error transportError(CURLcode code, const std::string& said, const Url& url)
{
    const std::string host = url.authority();
    switch (code) {
        case CURLE_OPERATION_TIMEDOUT:
            return Error{ErrorCode::Timeout, Reason{"error.net.timeout", {{"host", host}, {"said", said}}}, host};
        case CURLE_ABORTED_BY_CALLBACK:
            return Error{ErrorCode::Cancelled, Reason{"error.net.cancelled", {}}, host};
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CACERT_BADFILE:
        case CURLE_SSL_CERTPROBLEM:
            return Error{
                ErrorCode::TlsVerification, Reason{"error.net.tls_untrusted", {{"host", host}, {"said", said}}}, host};
        case CURLE_PARTIAL_FILE:
            return Error{
                ErrorCode::Network, Reason{"error.net.partial_answer", {{"host", host}, {"said", said}}}, host};
        default:
            return Error{ErrorCode::Network, Reason{"error.net.unreachable", {{"host", host}, {"said", said}}}, host};
    }
}

/// The first option libcurl refused, as error.net.curl_option {option, said}; later refusals are not recorded.
bool check(CURLcode code, std::optional<Reason>& failure, const char* option)
{
    if (code != CURLE_OK && !failure) {
        failure = Reason{"error.net.curl_option", {{"option", option}, {"said", curl_easy_strerror(code)}}};
    }
    return code == CURLE_OK;
}

} // namespace

void initializeHttp()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

HttpClient::HttpClient(HttpOptions options)
    : m_options(std::move(options))
    , m_sleep([](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); })
    , m_clock(systemClock())
{
    initializeHttp();
}

Result<HttpResponse> HttpClient::send(const HttpRequest& request, const CancelToken* cancel)
{
    const int attempts = request.safeToRetry ? std::max(1, m_options.retry.maxAttempts) : 1;
    for (int i = 1;; ++i) {
        bool transientFailure = false;
        Result<HttpResponse> result = attempt(request, cancel, transientFailure);
        const bool retryable =
            result ? (result->status == 429 || result->status >= 500 || throttled(*result)) : transientFailure;
        if (!retryable) {
            return result;
        }
        if (i >= attempts) {
            if (!result) {
                // Worded after the transport's reason (ui/wording/errors/NetErrors.cpp): "attempts", or
                // "not_retried" for a request that is not safe to repeat.
                Error error = result.error();
                if (request.safeToRetry) {
                    error.reason.params["attempts"] = std::to_string(i);
                } else {
                    error.reason.params["not_retried"] = "unsafe_to_repeat";
                }
                return error;
            }
            if (throttled(*result) || result->status == 429) {
                logInfo(LogCategory::Net, [&] { return "! still throttled after " + std::to_string(i) + " attempts"; });
            }
            return result;
        }
        const std::optional<HttpResponse> response =
            result ? std::optional<HttpResponse>(*result) : std::optional<HttpResponse>();
        const std::chrono::milliseconds wait = backoff(i, response);
        logInfo(LogCategory::Net, [&] {
            return "! attempt " + std::to_string(i) + " failed ("
                   + (result ? "HTTP " + std::to_string(result->status) : describe(result.error())) + "); retrying in "
                   + std::to_string(wait.count()) + " ms";
        });
        if (cancel && cancel->cancelled()) {
            return Error{ErrorCode::Cancelled, Reason{"error.net.cancelled", {}}, request.url};
        }
        m_sleep(wait);
    }
}

std::chrono::milliseconds HttpClient::backoff(int attempt, const std::optional<HttpResponse>& response) const
{
    // Retry-After (seconds or an HTTP date) is the server's own word: follow it, within maxDelay.
    if (response) {
        if (std::optional<std::string> after = response->header("Retry-After")) {
            char* end = nullptr;
            const long seconds = std::strtol(after->c_str(), &end, 10);
            std::optional<std::chrono::milliseconds> wait;
            if (end && *end == '\0' && seconds >= 0) {
                wait = std::chrono::seconds(seconds);
            } else if (std::optional<std::chrono::system_clock::time_point> at = parseHttpDate(*after)) {
                wait = std::chrono::duration_cast<std::chrono::milliseconds>(*at - m_clock());
            }
            if (wait) {
                return std::clamp(*wait, std::chrono::milliseconds(0), m_options.retry.maxDelay);
            }
        }
    }
    // Exponential backoff with full jitter (https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/).
    const double cap = std::min(double(m_options.retry.maxDelay.count()),
                                double(m_options.retry.baseDelay.count()) * std::pow(2.0, attempt - 1));
    thread_local std::mt19937_64 random{std::random_device{}()};
    return std::chrono::milliseconds(
        static_cast<long long>(std::uniform_real_distribution<double>(cap / 2, cap)(random)));
}

bool HttpClient::throttled(const HttpResponse& response) const
{
    if (response.status == 429) {
        return true;
    }
    // EC2 answers <Code>RequestLimitExceeded</Code> (503), Tencent "Code": "RequestLimitExceeded" with HTTP 200,
    // Alibaba "Code": "Throttling.User" (400), Huawei "error_code": "APIGW.0308" (429), Google "reason":
    // "rateLimitExceeded" (403).
    for (const std::string& code : m_options.retry.throttlingCodes) {
        if (response.body.find("<Code>" + code + "</Code>") != std::string::npos
            || std::regex_search(
                response.body,
                std::regex("\"(Code|code|error_code|reason)\"\\s*:\\s*\"" + code + "(\\.[A-Za-z]+)?\""))) {
            return true;
        }
    }
    return false;
}

Result<HttpResponse> HttpClient::attempt(const HttpRequest& request, const CancelToken* cancel, bool& transientFailure)
{
    transientFailure = false;
    Result<Url> url = parseUrl(request.url);
    if (!url) {
        return url.error();
    }
    EasyHandle handle;
    if (!handle.curl) {
        return Error{ErrorCode::Network, Reason{"error.net.curl_init", {}}, url->authority()};
    }
    CURL* curl = handle.curl;
    Transfer transfer;
    transfer.cancel = cancel;
    transfer.maxBodyBytes = m_options.maxResponseBytes;
    transfer.request = &request;
    struct FileCloser
    {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    std::unique_ptr<std::FILE, FileCloser> file;
    if (!request.saveBodyTo.empty()) {
        file.reset(std::fopen(request.saveBodyTo.c_str(), "wb"));
        if (!file) {
            return Error{
                ErrorCode::FileUnreadable, Reason{"error.net.download_unwritable", {}}, request.saveBodyTo.string()};
        }
        transfer.file = file.get();
    }
    char errorBuffer[CURL_ERROR_SIZE] = {0};
    std::optional<Reason> failure;
    check(curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str()), failure, "URL");
    check(curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L), failure, "NOSIGNAL");
    check(curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer), failure, "ERRORBUFFER");
    check(curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https"), failure, "PROTOCOLS");
    check(curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L), failure, "SSL_VERIFYPEER");
    check(curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L), failure, "SSL_VERIFYHOST");
    if (!m_options.extraCaFile.empty()) {
        // CAINFO is the extra file; CAPATH stays the system's hashed directory, so both are trusted.
        check(curl_easy_setopt(curl, CURLOPT_CAINFO, m_options.extraCaFile.c_str()), failure, "CAINFO");
        check(curl_easy_setopt(curl, CURLOPT_CAPATH, "/etc/ssl/certs"), failure, "CAPATH");
    }
    if (!m_options.proxy.empty()) {
        check(curl_easy_setopt(curl, CURLOPT_PROXY, m_options.proxy.c_str()), failure, "PROXY");
    }
    check(curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(m_options.connectTimeout.count())),
          failure,
          "CONNECTTIMEOUT");
    check(
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(request.totalTimeout.value_or(m_options.totalTimeout).count())),
        failure,
        "TIMEOUT");
    check(
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, m_options.lowSpeedBytesPerSecond), failure, "LOW_SPEED_LIMIT");
    check(curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, long(m_options.lowSpeedTime.count())),
          failure,
          "LOW_SPEED_TIME");
    check(curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, ""), failure, "ACCEPT_ENCODING");
    check(curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, onBody), failure, "WRITEFUNCTION");
    check(curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer), failure, "WRITEDATA");
    check(curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, onHeader), failure, "HEADERFUNCTION");
    check(curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer), failure, "HEADERDATA");
    check(curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, onProgress), failure, "XFERINFOFUNCTION");
    check(curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer), failure, "XFERINFODATA");
    check(curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L), failure, "NOPROGRESS");
    check(curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str()), failure, "CUSTOMREQUEST");
    if (request.method == "HEAD") {
        check(curl_easy_setopt(curl, CURLOPT_NOBODY, 1L), failure, "NOBODY");
    } else if (!request.body.empty() || request.method == "POST" || request.method == "PUT"
               || request.method == "PATCH") {
        check(curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data()), failure, "POSTFIELDS");
        check(curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size())),
              failure,
              "POSTFIELDSIZE");
    }
    // What was signed is what is sent: no Expect: 100-continue, no content type curl would add on its own.
    handle.headers = curl_slist_append(handle.headers, "Expect:");
    if (!request.header("Content-Type")) {
        handle.headers = curl_slist_append(handle.headers, "Content-Type:");
    }
    for (const HttpHeader& h : request.headers) {
        const std::string line = h.value.empty() ? h.name + ";" : h.name + ": " + h.value;
        handle.headers = curl_slist_append(handle.headers, line.c_str());
    }
    check(curl_easy_setopt(curl, CURLOPT_HTTPHEADER, handle.headers), failure, "HTTPHEADER");
    if (failure) {
        return Error{ErrorCode::InvalidArgument, std::move(*failure), url->authority()};
    }

    // The request line at debug, its headers and body at trace; the log redacts every line again as a whole.
    logDebug(LogCategory::Net, [&] { return "> " + request.method + " " + redactedText(request.url); });
    if (logEnabled(LogCategory::Net, LogLevel::Trace)) {
        for (const HttpHeader& h : request.headers) {
            logTrace(LogCategory::Net, [&] { return "> " + h.name + ": " + redactedHeader(h.name, h.value); });
        }
        if (!request.body.empty()) {
            logTrace(LogCategory::Net, [&] { return "> " + redactedText(request.body.substr(0, 2048)); });
        }
    }
    const CURLcode code = curl_easy_perform(curl);
    if (file && std::fflush(file.get()) != 0) {
        transfer.writeFailed = true;
    }
    if (transfer.writeFailed) {
        return Error{
            ErrorCode::FileUnreadable, Reason{"error.net.download_write_failed", {}}, request.saveBodyTo.string()};
    }
    if (transfer.progressRefused) {
        return Error{ErrorCode::Cancelled, Reason{"error.net.cancelled", {}}, url->authority()};
    }
    if (transfer.tooLarge) {
        return Error{ErrorCode::Network,
                     Reason{"error.net.answer_too_large",
                            {{"host", url->authority()}, {"mib", std::to_string(m_options.maxResponseBytes >> 20)}}},
                     url->authority()};
    }
    if (code != CURLE_OK) {
        const std::string said = errorBuffer[0] ? std::string(errorBuffer) : curl_easy_strerror(code);
        logDebug(LogCategory::Net, [&] { return "! " + url->authority() + ": " + said; });
        transientFailure = transient(code);
        return transportError(code, said, *url);
    }
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    transfer.response.status = int(status);
    logDebug(LogCategory::Net, [&] { return "< " + std::to_string(status) + " from " + url->authority(); });
    if (logEnabled(LogCategory::Net, LogLevel::Trace)) {
        for (const HttpHeader& h : transfer.response.headers) {
            logTrace(LogCategory::Net, [&] { return "< " + h.name + ": " + redactedHeader(h.name, h.value); });
        }
        if (!transfer.response.body.empty()) {
            logTrace(LogCategory::Net, [&] { return "< " + redactedText(transfer.response.body.substr(0, 2048)); });
        }
    }
    if (std::optional<std::string> date = transfer.response.header("Date")) {
        if (std::optional<std::chrono::system_clock::time_point> server = parseHttpDate(*date)) {
            m_offsetSeconds = std::chrono::duration_cast<std::chrono::seconds>(*server - m_clock()).count();
            m_haveOffset = true;
        }
    }
    return std::move(transfer.response);
}

std::optional<std::chrono::seconds> HttpClient::clockOffset() const
{
    if (!m_haveOffset) {
        return std::nullopt;
    }
    return std::chrono::seconds(m_offsetSeconds.load());
}

std::optional<std::chrono::system_clock::time_point> parseHttpDate(const std::string& text)
{
    static const char* const months[] = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char weekday[4] = {0};
    char month[4] = {0};
    std::tm t{};
    if (std::sscanf(text.c_str(),
                    "%3s, %2d %3s %4d %2d:%2d:%2d GMT",
                    weekday,
                    &t.tm_mday,
                    month,
                    &t.tm_year,
                    &t.tm_hour,
                    &t.tm_min,
                    &t.tm_sec)
        != 7) {
        return std::nullopt;
    }
    const auto* found =
        std::find_if(std::begin(months), std::end(months), [&](const char* m) { return std::strcmp(m, month) == 0; });
    if (found == std::end(months)) {
        return std::nullopt;
    }
    t.tm_mon = int(found - std::begin(months));
    t.tm_year -= 1900;
    return std::chrono::system_clock::from_time_t(timegm(&t));
}

std::optional<Reason>
clockSkewReason(std::chrono::seconds serverMinusLocal, std::chrono::minutes allowed, const std::string& provider)
{
    const long long seconds = serverMinusLocal.count();
    if (std::llabs(seconds) <= std::chrono::duration_cast<std::chrono::seconds>(allowed).count()) {
        return std::nullopt;
    }
    const long long minutes = (std::llabs(seconds) + 30) / 60;
    // Our clock behind the server's (server - local > 0) means ours is slow.
    return Reason{seconds > 0 ? "error.net.clock_slow" : "error.net.clock_fast",
                  {{"minutes", std::to_string(minutes)},
                   {"provider", provider},
                   {"allowed_minutes", std::to_string(allowed.count())}}};
}

} // namespace gpuplan::core
