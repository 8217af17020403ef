#pragma once

#include "gpuplan/net/Clock.h"
#include "gpuplan/net/signers/Signing.h"
#include "gpuplan/net/signers/TokenCache.h"

#include <optional>

namespace gpuplan::core {

/// The fields of a Google service-account key file that signing needs.
struct GoogleServiceAccount
{
    std::string clientEmail;
    std::string privateKeyPem; // PKCS#8 PEM, as in the key file
    std::string privateKeyId;
    std::string tokenUri = "https://oauth2.googleapis.com/token";
};

/// Reads a service-account key file's JSON. SchemaViolation naming the missing field.
Result<GoogleServiceAccount> parseGoogleServiceAccount(std::string_view json);

/// RSASSA-PKCS1-v1_5 with SHA-256 over `data` with the PEM private key (RFC 7518 RS256); the raw signature.
/// Crypto when the key cannot be read.
Result<std::string> rs256Sign(std::string_view privateKeyPem, std::string_view data);

/// The signed JWT a service account exchanges for an access token
/// (https://developers.google.com/identity/protocols/oauth2/service-account#httprest), as google-auth-library
/// writes it: header {"alg":"RS256"}, claims iss, scope, aud = tokenUri, exp = iat + 3600, iat = `at`.
Result<std::string> googleJwtAssertion(const GoogleServiceAccount& account, const std::string& scope, TimePoint at);

/// Reads an OAuth2 token endpoint's reply (RFC 6749 sections 5.1 and 5.2), shared by the Google and Azure token
/// sources. `provider` ("Google", "Azure") and `endpoint` (the token URL) name the place in errors; `now` plus
/// expires_in is the token's expiry (a reply without expires_in gives a token that expires now, so it is not
/// cached). Errors: Credentials for a 4xx with an OAuth2 error (the server's error code and description),
/// Throttled for 429, HttpStatus for any other non-2xx (httpStatus set), SchemaViolation for a 2xx without a
/// Bearer access_token. Never includes the reply's access token in an error.
Result<AccessToken> parseOAuthTokenResponse(const HttpResponse& response,
                                            std::string_view provider,
                                            std::string_view endpoint,
                                            TimePoint now);

/// Sets Authorization: Bearer <token> on `request`, or returns the token's error and leaves the request alone.
Status authorizeWithToken(HttpRequest& request, const Result<AccessToken>& token);

/// Google access tokens for one account and scope: fetched through `transport` with the JWT bearer grant, and
/// cached until five minutes before they expire. Thread-safe.
class GoogleTokenSource
{
public:
    GoogleTokenSource(GoogleServiceAccount account, std::string scope, HttpTransport& transport, Clock clock);

    /// A good token, from the cache or fresh. Credentials when the server refuses the key (its error named).
    Result<AccessToken> token();
    /// Adds Authorization: Bearer to `request`.
    Status authorize(HttpRequest& request);

private:
    /// One exchange at the token endpoint, at `now`.
    Result<AccessToken> fetch(TimePoint now);

    GoogleServiceAccount m_account;
    std::string m_scope;
    HttpTransport& m_transport;
    TokenCache m_cache;
};

} // namespace gpuplan::core
