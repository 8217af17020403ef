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
void redactText(std::string& text, const std::string& secret)
{
    if (secret.empty()) {
        return;
    }
    for (std::size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at)) {
        text.replace(at, secret.size(), kRedacted);
        at += kRedacted.size();
    }
}

/// Every parameter of the reason and of its context, and the place: whatever part of an Error is worded.
Error redacted(Error error, const std::string& secret)
{
    for (auto& [name, value] : error.reason.params) {
        redactText(value, secret);
    }
    for (Reason& frame : error.context) {
        for (auto& [name, value] : frame.params) {
            redactText(value, secret);
        }
    }
    redactText(error.where, secret);
    redactText(error.providerCode, secret);
    return error;
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
    struct Required
    {
        const char* key;   // error.signer.azure_no_*
        const char* where; // the settings field
        const std::string* value;
    };
    const Required required[] = {
        {"error.signer.azure_no_tenant_id", "tenant_id", &m_secret.tenantId},
        {"error.signer.azure_no_client_id", "client_id", &m_secret.clientId},
        {"error.signer.azure_no_client_secret", "client_secret", &m_secret.clientSecret},
    };
    for (const Required& field : required) {
        if (field.value->empty()) {
            return Error{ErrorCode::Credentials, Reason{field.key, {}}, field.where};
        }
    }

    // https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow
    HttpRequest request = azureTokenRequest(m_secret, m_scope);
    Result<HttpResponse> response = m_transport.send(request);
    wipe(request.body); // it holds the client secret
    if (!response) {
        return redacted(response.error(), m_secret.clientSecret);
    }
    Result<AccessToken> token = parseOAuthTokenResponse(*response, "Azure", request.url, now);
    if (!token) {
        return redacted(token.error(), m_secret.clientSecret);
    }
    return token;
}

Status AzureTokenSource::authorize(HttpRequest& request)
{
    return authorizeWithToken(request, token());
}

} // namespace gpuplan::core
