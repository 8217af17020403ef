#pragma once
// What the Azure VM provider and the Azure ML job service share to call Azure Resource Manager: the app's
// client-credentials token (the login host replaced by ProviderContext::endpoint when one is given: a fake, or a
// private endpoint that serves both), the subscription (the credential's, else the one the app sees), authorized calls
// that go to ARM only, and the polling of an answer's Azure-AsyncOperation. Private to core/cloud/providers/azure.

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/providers/azure/ArmApi.h"
#include "gpuplan/net/signers/AzureClientCredentials.h"

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace gpuplan::core::azure {

class ArmSession
{
public:
    /// How a caller maps ARM's error answers (azure::mapError, or a service's own advice on top of it).
    using ErrorMapper = std::function<std::optional<Error>(const HttpResponse&, const ErrorContext&)>;

    /// `where`: the name errors carry ("azure", "azureml"). `context` is the provider's, which outlives this.
    ArmSession(const ProviderContext& context, std::string where, ErrorMapper mapError);
    ArmSession(const ArmSession&) = delete;
    ArmSession& operator=(const ArmSession&) = delete;

    /// Authorizes and sends an ARM call (a path under /subscriptions, or an ARM URL an answer gave: nothing else gets
    /// the token); the 2xx answer, else the mapped Error.
    Result<HttpResponse> perform(const Call& call, const ErrorContext& context, const CancelToken* cancel);
    /// Adds "Authorization: Bearer <token>" (for a data-plane call of the same token's audience).
    Status authorize(HttpRequest& request) { return m_tokens.authorize(request); }
    /// The subscription: the credential's subscription_id, else the one enabled subscription the app sees (asked once).
    Result<std::string> subscription(const CancelToken* cancel);
    /// Polls `answer`'s Azure-AsyncOperation until it is done (Retry-After honoured, 5 s without one, 60 s at most,
    /// 120 polls); Succeeded at once when the answer names none. `polls` counts the polls.
    Result<AsyncOperation>
    waitFor(const HttpResponse& answer, const ErrorContext& context, int& polls, const CancelToken* cancel);
    /// The credential's plain field `name` (tenant_id, subscription_id, ml_workspace); empty when not set.
    std::string setting(const char* name) const;

private:
    /// The token exchange through ProviderContext::endpoint; every other request goes as it is.
    class LoginTransport final : public HttpTransport
    {
    public:
        LoginTransport(HttpTransport* inner, std::string endpoint, std::string where);
        using HttpTransport::send;
        Result<HttpResponse> send(const HttpRequest& request, const CancelToken* cancel) override;

    private:
        HttpTransport* m_inner;
        std::string m_endpoint;
        std::string m_where;
    };

    const ProviderContext& m_context;
    std::string m_where;
    ErrorMapper m_mapError;
    LoginTransport m_login;
    AzureTokenSource m_tokens;
    std::mutex m_mutex;
    std::string m_subscription; // from the list, once asked
};

} // namespace gpuplan::core::azure
