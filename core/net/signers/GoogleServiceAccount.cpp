#include "gpuplan/net/signers/GoogleServiceAccount.h"

#include <cctype>
#include <climits>
#include <memory>

#include <nlohmann/json.hpp>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "gpuplan/net/Crypto.h"

namespace gpuplan::core {

namespace {

constexpr std::chrono::seconds kAssertionLifetime{3600}; // the most Google accepts

struct BioFree
{
    void operator()(BIO* bio) const { BIO_free(bio); }
};
struct PkeyFree
{
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct MdCtxFree
{
    void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

// OpenSSL's reason for the last failure (never key material; empty when it gave none), and an empty error queue
// afterwards so the next OpenSSL user in this thread does not see a stale error.
std::string takeOpensslReason()
{
    const unsigned long code = ERR_peek_last_error();
    const char* reason = code != 0 ? ERR_reason_error_string(code) : nullptr;
    ERR_clear_error();
    return reason != nullptr ? std::string(reason) : std::string();
}

/// `key`: one of error.signer.private_key_unreadable, .private_key_not_pem, .rs256_*; "said" is OpenSSL's reason.
Error cryptoError(const char* key)
{
    return Error{ErrorCode::Crypto, Reason{key, {{"said", takeOpensslReason()}}}, "private_key"};
}

// Without a callback OpenSSL would ask for a passphrase on the terminal; key files from Google are not encrypted,
// so an encrypted one fails instead.
int noPassphrase(char*, int, int, void*)
{
    return 0;
}

std::string jsonText(const nlohmann::ordered_json& json)
{
    // replace, not throw, on invalid UTF-8: no exceptions out of core.
    return json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

bool isBlank(const std::string& text)
{
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

} // namespace

Result<GoogleServiceAccount> parseGoogleServiceAccount(std::string_view text)
{
    nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        return Error{ErrorCode::JsonSyntax, Reason{"error.signer.google_key_not_json", {}}, "service_account_key"};
    }
    // The parsed copy of the private key is wiped when this function returns, whatever it returns.
    struct WipeKey
    {
        nlohmann::json& target;
        ~WipeKey()
        {
            auto it = target.find("private_key");
            if (it != target.end() && it->is_string()) {
                wipe(it->get_ref<std::string&>());
            }
        }
    } wipeKey{json};

    const auto type = json.find("type");
    if (type != json.end() && (!type->is_string() || type->get<std::string>() != "service_account")) {
        return Error{ErrorCode::SchemaViolation, Reason{"error.signer.google_key_not_service_account", {}}, "type"};
    }
    auto requiredString = [&](const char* field, std::string& out) -> std::optional<Error> {
        const auto it = json.find(field);
        if (it == json.end() || !it->is_string() || isBlank(it->get_ref<const std::string&>())) {
            return Error{ErrorCode::SchemaViolation,
                         Reason{it == json.end() ? "error.signer.google_key_missing_field"
                                                 : "error.signer.google_key_field_empty",
                                {{"field", field}}},
                         field};
        }
        out = it->get<std::string>();
        return std::nullopt;
    };
    auto optionalString = [&](const char* field, std::string& out) -> std::optional<Error> {
        const auto it = json.find(field);
        if (it == json.end() || it->is_null()) {
            return std::nullopt;
        }
        if (!it->is_string()) {
            return Error{ErrorCode::SchemaViolation,
                         Reason{"error.signer.google_key_field_not_string", {{"field", field}}},
                         field};
        }
        if (!it->get_ref<const std::string&>().empty()) {
            out = it->get<std::string>();
        }
        return std::nullopt;
    };

    GoogleServiceAccount account;
    if (auto error = requiredString("client_email", account.clientEmail)) {
        return *error;
    }
    if (auto error = requiredString("private_key", account.privateKeyPem)) {
        return *error;
    }
    if (auto error = optionalString("private_key_id", account.privateKeyId)) {
        wipe(account.privateKeyPem);
        return *error;
    }
    if (auto error = optionalString("token_uri", account.tokenUri)) {
        wipe(account.privateKeyPem);
        return *error;
    }
    return account;
}

Result<std::string> rs256Sign(std::string_view privateKeyPem, std::string_view data)
{
    if (privateKeyPem.size() > std::size_t(INT_MAX)) {
        return Error{ErrorCode::Crypto, Reason{"error.signer.private_key_too_large", {}}, "private_key"};
    }
    // Read-only view of the caller's buffer: no copy of the key to wipe.
    BioPtr bio(BIO_new_mem_buf(privateKeyPem.data(), int(privateKeyPem.size())));
    if (!bio) {
        return cryptoError("error.signer.private_key_unreadable");
    }
    PkeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, &noPassphrase, nullptr));
    if (!key) {
        return cryptoError("error.signer.private_key_not_pem");
    }
    if (EVP_PKEY_is_a(key.get(), "RSA") != 1) {
        ERR_clear_error();
        return Error{ErrorCode::Crypto, Reason{"error.signer.private_key_not_rsa", {}}, "private_key"};
    }
    MdCtxPtr ctx(EVP_MD_CTX_new());
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1) {
        return cryptoError("error.signer.rs256_start_failed");
    }
    // EVP_PKEY_RSA defaults to PKCS#1 v1.5 padding, which is what RS256 is (RFC 7518 section 3.3).
    const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
    std::size_t size = 0;
    if (EVP_DigestSign(ctx.get(), nullptr, &size, bytes, data.size()) != 1) {
        return cryptoError("error.signer.rs256_size_failed");
    }
    std::string signature(size, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &size, bytes, data.size()) != 1) {
        return cryptoError("error.signer.rs256_sign_failed");
    }
    signature.resize(size);
    return signature;
}

Result<std::string> googleJwtAssertion(const GoogleServiceAccount& account, const std::string& scope, TimePoint at)
{
    // Exactly what the official google-auth-library (10.9, through gtoken) sends: header {"alg":"RS256"} only,
    // claims in the order iss, scope, aud, exp, iat. Google accepts the documented {"typ":"JWT"} form too, but
    // matching the SDK byte for byte is what the differential test (TestSdkSignatures) holds us to.
    const nlohmann::ordered_json header = {{"alg", "RS256"}};
    const long long issuedAt = unixSeconds(at);
    const nlohmann::ordered_json claims = {
        {"iss", account.clientEmail},
        {"scope", scope},
        {"aud", account.tokenUri},
        {"exp", issuedAt + kAssertionLifetime.count()},
        {"iat", issuedAt},
    };
    const std::string signingInput = base64Url(jsonText(header)) + "." + base64Url(jsonText(claims));
    Result<std::string> signature = rs256Sign(account.privateKeyPem, signingInput);
    if (!signature) {
        return signature.error();
    }
    return signingInput + "." + base64Url(*signature);
}

Result<AccessToken> parseOAuthTokenResponse(const HttpResponse& response,
                                            std::string_view provider,
                                            std::string_view endpoint,
                                            TimePoint now)
{
    const std::string where(endpoint);
    const std::string name(provider);
    const nlohmann::json json = nlohmann::json::parse(response.body, nullptr, false);
    const bool isObject = !json.is_discarded() && json.is_object();

    if (response.status < 200 || response.status > 299) {
        const auto error = isObject ? json.find("error") : json.end();
        if (!isObject || error == json.end() || !error->is_string()) {
            return Error{ErrorCode::HttpStatus,
                         Reason{"error.signer.token_status_without_oauth_error",
                                {{"provider", name}, {"status", std::to_string(response.status)}}},
                         where,
                         response.status};
        }
        // The server's words: its OAuth2 error code, and its description after ": " when it gave one.
        std::string said = error->get<std::string>();
        const auto description = json.find("error_description");
        if (description != json.end() && description->is_string() && !description->get<std::string>().empty()) {
            said += ": " + description->get<std::string>();
        }
        if (response.status == 429) {
            return Error{ErrorCode::Throttled,
                         Reason{"error.signer.token_throttled", {{"provider", name}, {"said", said}}},
                         where,
                         response.status};
        }
        if (response.status >= 500) {
            return Error{ErrorCode::HttpStatus,
                         Reason{"error.signer.token_endpoint_failed", {{"provider", name}, {"said", said}}},
                         where,
                         response.status};
        }
        return Error{ErrorCode::Credentials,
                     Reason{"error.signer.token_refused", {{"provider", name}, {"said", said}}},
                     where,
                     response.status};
    }

    if (!isObject) {
        return Error{ErrorCode::SchemaViolation,
                     Reason{"error.signer.token_reply_not_json",
                            {{"provider", name}, {"status", std::to_string(response.status)}}},
                     where,
                     response.status};
    }
    const auto token = json.find("access_token");
    if (token == json.end() || !token->is_string() || token->get_ref<const std::string&>().empty()) {
        return Error{ErrorCode::SchemaViolation,
                     Reason{"error.signer.token_reply_no_access_token", {{"provider", name}}},
                     where + " access_token",
                     response.status};
    }
    const auto type = json.find("token_type");
    if (type != json.end()) {
        std::string value = type->is_string() ? type->get<std::string>() : std::string();
        for (char& c : value) {
            c = char(std::tolower(static_cast<unsigned char>(c)));
        }
        if (value != "bearer") {
            return Error{ErrorCode::SchemaViolation,
                         Reason{"error.signer.token_type_not_bearer", {{"provider", name}}},
                         where + " token_type",
                         response.status};
        }
    }
    // A number in both services' replies; Azure's older v1 endpoint sent it as a string.
    long long seconds = 0;
    const auto expiresIn = json.find("expires_in");
    if (expiresIn != json.end()) {
        if (expiresIn->is_number_integer()) {
            seconds = expiresIn->get<long long>();
        } else if (expiresIn->is_number()) {
            seconds = static_cast<long long>(expiresIn->get<double>());
        } else if (expiresIn->is_string()) {
            const nlohmann::json number = nlohmann::json::parse(expiresIn->get<std::string>(), nullptr, false);
            if (!number.is_discarded() && number.is_number()) {
                seconds = static_cast<long long>(number.get<double>());
            }
        }
    }
    if (seconds < 0) {
        seconds = 0;
    }
    return AccessToken{token->get<std::string>(), now + std::chrono::seconds(seconds)};
}

GoogleTokenSource::GoogleTokenSource(GoogleServiceAccount account,
                                     std::string scope,
                                     HttpTransport& transport,
                                     Clock clock)
    : m_account(std::move(account))
    , m_scope(std::move(scope))
    , m_transport(transport)
    , m_cache(std::move(clock))
{ }

Result<AccessToken> GoogleTokenSource::token()
{
    return m_cache.get([this](TimePoint now) { return fetch(now); });
}

Result<AccessToken> GoogleTokenSource::fetch(TimePoint now)
{
    // https://developers.google.com/identity/protocols/oauth2/service-account#httprest
    Result<std::string> assertion = googleJwtAssertion(m_account, m_scope, now);
    if (!assertion) {
        return assertion.error();
    }
    HttpRequest request;
    request.method = "POST";
    request.url = m_account.tokenUri;
    request.setHeader("Content-Type", "application/x-www-form-urlencoded");
    request.setHeader("Accept", "application/json");
    request.body =
        "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + uriEncode(*assertion);
    request.safeToRetry = true; // a second exchange only mints a second token
    wipe(assertion.value());

    Result<HttpResponse> response = m_transport.send(request);
    wipe(request.body); // the assertion is good for an hour
    if (!response) {
        return response.error();
    }
    return parseOAuthTokenResponse(*response, "Google", m_account.tokenUri, now);
}

Status authorizeWithToken(HttpRequest& request, const Result<AccessToken>& token)
{
    if (!token) {
        return token.error();
    }
    request.setHeader("Authorization", "Bearer " + token->value);
    return Ok{};
}

Status GoogleTokenSource::authorize(HttpRequest& request)
{
    return authorizeWithToken(request, token());
}

} // namespace gpuplan::core
