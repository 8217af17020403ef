#include "gpuplan/net/signers/AzureClientCredentials.h"

#include "gpuplan/net/Crypto.h"

namespace gpuplan::core {

namespace {

constexpr const char* kDefaultScope = "https://management.azure.com/.default";
constexpr std::string_view kRedacted = "[redacted]";

std::string tokenUrl(const AzureClientSecret& secret)
{
    return "https://login.microsoftonline.com/" + uriEncode(secret.tenantId) + "/oauth2/v2.0/token";
}

// Entra ID does not echo the secret, but a proxy or a future message might: the secret never reaches an Error.
void redact(std::string& text, const std::string& secret)
{
    if (secret.empty()) {
        return;
    }
    for (std::size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at)) {
        text.replace(at, secret.size(), kRedacted);
        at += kRedacted.size();
    }
}

} // namespace

HttpRequest azureTokenRequest(const AzureClientSecret& secret, const std::string& scope)
{
    HttpRequest request;
    request.method = "POST";
    request.url = tokenUrl(secret);
    request.setHeader("Content-Type", "application/x-www-form-urlencoded");
    request.setHeader("Accept", "application/json");
    request.body = "grant_type=client_credentials&client_id=" + uriEncode(secret.clientId)
                   + "&client_secret=" + uriEncode(secret.clientSecret)
                   + "&scope=" + uriEncode(scope.empty() ? std::string(kDefaultScope) : scope);
    request.safeToRetry = true; // a second exchange only mints a second token
    return request;
}

AzureTokenSource::AzureTokenSource(AzureClientSecret secret, std::string scope, HttpTransport& transport, Clock clock)
    : m_secret(std::move(secret))
    , m_scope(scope.empty() ? std::string(kDefaultScope) : std::move(scope))
    , m_transport(transport)
    , m_cache(std::move(clock))
{ }

Result<AccessToken> AzureTokenSource::token()
{
    return m_cache.get([this](TimePoint now) { return fetch(now); });
}

Result<AccessToken> AzureTokenSource::fetch(TimePoint now)
{
    const std::pair<const char*, const std::string*> required[] = {
        {"tenant ID", &m_secret.tenantId},
        {"client ID", &m_secret.clientId},
        {"client secret", &m_secret.clientSecret},
    };
    for (const auto& [name, value] : required) {
        if (value->empty()) {
            return Error{ErrorCode::Credentials,
                         std::string("the Azure app registration has no ") + name
                             + "; enter it in the provider's settings",
                         "azure " + std::string(name)};
        }
    }

    // https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow
    HttpRequest request = azureTokenRequest(m_secret, m_scope);
    Result<HttpResponse> response = m_transport.send(request);
    wipe(request.body); // it holds the client secret
    if (!response) {
        Error error = response.error();
        redact(error.detail, m_secret.clientSecret);
        return error;
    }
    Result<AccessToken> token = parseOAuthTokenResponse(*response, "Azure", request.url, now);
    if (!token) {
        Error error = token.error();
        redact(error.detail, m_secret.clientSecret);
        return error;
    }
    return token;
}

Status AzureTokenSource::authorize(HttpRequest& request)
{
    return authorizeWithToken(request, token());
}

} // namespace gpuplan::core
