#include "ArmSession.h"

#include <algorithm>
#include <utility>

namespace gpuplan::core::azure {

namespace {

using namespace std::chrono_literals;

/// How often and how long an async operation is asked for its status when ARM gives no Retry-After: a VM's create
/// takes a few minutes, a VNet, an NSG or an Azure ML cluster seconds to a minute.
constexpr int kMaxPolls = 120;
constexpr auto kPollInterval = 5s;
constexpr auto kMaxPollInterval = 60s;

} // namespace

ArmSession::LoginTransport::LoginTransport(HttpTransport* inner, std::string endpoint, std::string where)
    : m_inner(inner)
    , m_endpoint(std::move(endpoint))
    , m_where(std::move(where))
{ }

Result<HttpResponse> ArmSession::LoginTransport::send(const HttpRequest& request, const CancelToken* cancel)
{
    if (!m_inner) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.azure.no_transport", {}}, m_where};
    }
    const std::string login(kLoginHost);
    if (m_endpoint.empty() || !request.url.starts_with(login)) {
        return m_inner->send(request, cancel);
    }
    HttpRequest moved = request;
    moved.url = loginBase(m_endpoint) + request.url.substr(login.size());
    return m_inner->send(moved, cancel);
}

ArmSession::ArmSession(const ProviderContext& context, std::string where, ErrorMapper mapError)
    : m_context(context)
    , m_where(std::move(where))
    , m_mapError(std::move(mapError))
    , m_login(context.http, context.endpoint, m_where)
    , m_tokens(AzureClientSecret{setting("tenant_id"), context.key.id, context.key.secret},
               std::string(kScope),
               m_login,
               context.clock)
{ }

std::string ArmSession::setting(const char* name) const
{
    const auto found = m_context.settings.find(name);
    return found == m_context.settings.end() ? std::string() : found->second;
}

Result<HttpResponse> ArmSession::perform(const Call& call, const ErrorContext& context, const CancelToken* cancel)
{
    if (!m_context.http) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.azure.no_transport", {}}, m_where};
    }
    if (cancel && cancel->cancelled()) {
        return Error{ErrorCode::Cancelled, Reason{"error.azure.stopped_before", {{"action", call.action}}}, m_where};
    }
    const bool absolute = call.path.starts_with("http://") || call.path.starts_with("https://");
    if ((absolute && !isArmUrl(call.path, m_context.endpoint))
        || (!absolute && !call.path.starts_with("/subscriptions"))) {
        // The token goes to ARM only: an operation or page URL elsewhere is not followed.
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.azure.foreign_url", {{"action", call.action}, {"url", call.path}}},
                     m_where + " " + call.action};
    }
    HttpRequest request = buildRequest(call, m_context.endpoint);
    if (Status authorized = m_tokens.authorize(request); !authorized) {
        return authorized.error();
    }
    Result<HttpResponse> response = m_context.http->send(request, cancel);
    if (!response) {
        return response.error().within(Reason{"error.provider.call", {{"action", call.action}}});
    }
    if (std::optional<Error> error = m_mapError(*response, context)) {
        return *error;
    }
    return response;
}

Result<std::string> ArmSession::subscription(const CancelToken* cancel)
{
    if (const std::string given = setting("subscription_id"); !given.empty()) {
        return given;
    }
    {
        std::lock_guard lock(m_mutex);
        if (!m_subscription.empty()) {
            return m_subscription;
        }
    }
    const Call call = listSubscriptionsCall();
    ErrorContext context;
    context.action = call.action;
    Result<HttpResponse> answer = perform(call, context, cancel);
    if (!answer) {
        return answer.error();
    }
    Result<std::vector<Subscription>> listed = parseSubscriptions(answer->body);
    if (!listed) {
        return listed.error();
    }
    Result<std::string> chosen = chooseSubscription(*listed);
    if (chosen) {
        std::lock_guard lock(m_mutex);
        m_subscription = *chosen;
    }
    return chosen;
}

Result<AsyncOperation>
ArmSession::waitFor(const HttpResponse& answer, const ErrorContext& context, int& polls, const CancelToken* cancel)
{
    polls = 0;
    const std::optional<std::string> url = answer.header("Azure-AsyncOperation");
    if (!url || url->empty()) {
        return AsyncOperation{"Succeeded", {}, {}};
    }
    std::optional<std::chrono::seconds> wait = retryAfter(answer);
    while (polls < kMaxPolls) {
        pauseFor(m_context, std::min<std::chrono::milliseconds>(wait.value_or(kPollInterval), kMaxPollInterval));
        ++polls;
        const Call call = getUrlCall(context.action, *url);
        Result<HttpResponse> status = perform(call, context, cancel);
        if (!status) {
            return status.error();
        }
        Result<AsyncOperation> operation = parseAsyncOperation(status->body, context.action);
        if (!operation) {
            return operation.error();
        }
        if (operation->done()) {
            return operation;
        }
        wait = retryAfter(*status);
    }
    return Error{
        ErrorCode::Timeout,
        Reason{"error.azure.operation_timeout", {{"action", context.action}, {"polls", std::to_string(polls)}}},
        m_where + " " + context.action};
}

} // namespace gpuplan::core::azure
