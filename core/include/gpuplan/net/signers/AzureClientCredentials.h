#pragma once

#include "gpuplan/net/Clock.h"
#include "gpuplan/net/signers/GoogleServiceAccount.h"
#include "gpuplan/net/signers/Signing.h"

#include <mutex>
#include <optional>

namespace gpuplan::core {

/// A Microsoft Entra app registration's client secret.
struct AzureClientSecret
{
    std::string tenantId;
    std::string clientId;
    std::string clientSecret;
};

/// The client-credentials token request
/// (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow): POST
/// https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token with the form body.
HttpRequest azureTokenRequest(const AzureClientSecret& secret, const std::string& scope);

/// Azure access tokens for one app and scope (default https://management.azure.com/.default), cached until
/// five minutes before they expire. Thread-safe.
class AzureTokenSource
{
public:
    AzureTokenSource(AzureClientSecret secret, std::string scope, HttpTransport& transport, Clock clock);

    Result<AccessToken> token();
    Status authorize(HttpRequest& request);

private:
    AzureClientSecret m_secret;
    std::string m_scope;
    HttpTransport& m_transport;
    Clock m_clock;
    std::mutex m_mutex;
    std::optional<AccessToken> m_cached;
};

} // namespace gpuplan::core
