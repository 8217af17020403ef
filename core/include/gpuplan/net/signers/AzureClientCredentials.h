#pragma once

#include "gpuplan/net/Clock.h"
#include "gpuplan/net/signers/GoogleServiceAccount.h"
#include "gpuplan/net/signers/Signing.h"

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
    /// One exchange at the token endpoint, at `now`.
    Result<AccessToken> fetch(TimePoint now);

    AzureClientSecret m_secret;
    std::string m_scope;
    HttpTransport& m_transport;
    TokenCache m_cache;
};

} // namespace gpuplan::core
