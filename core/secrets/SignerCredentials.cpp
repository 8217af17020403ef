#include "gpuplan/secrets/SignerCredentials.h"

#include "gpuplan/core/Log.h"
#include "gpuplan/secrets/CredentialRedaction.h"

#include <algorithm>
#include <initializer_list>

namespace gpuplan::core {

namespace {

/// Credentials when the provider's credential is not of the shape `fields` make (its spec lacks one: it signs
/// another way) or when this credential lacks one of them.
Status require(const Credential& credential, std::initializer_list<std::string_view> fields)
{
    const CredentialSpec* spec = credential.spec();
    const bool shaped = spec && std::all_of(fields.begin(), fields.end(), [&](std::string_view f) {
                            return spec->field(f) != nullptr;
                        });
    if (!shaped) {
        return Error{ErrorCode::Credentials,
                     Reason{"error.secrets.cannot_sign", {{"provider", credential.provider()}}},
                     credential.provider()};
    }
    for (std::string_view field : fields) {
        if (!credential.has(field)) {
            return Error{ErrorCode::Credentials,
                         Reason{"error.secrets.credential_lacks_field",
                                {{"provider", credential.provider()}, {"field", std::string(field)}}},
                         credential.provider()};
        }
    }
    // Every credential that signs passes here, wherever it was loaded from: from now on the log cannot show it.
    registerCredentialSecrets(credential);
    logDebug(LogCategory::Secrets,
             [&] { return "handing the " + credential.describe() + " credential to its signer"; });
    return Ok{};
}

std::string plain(const SecretString& value)
{
    return std::string(value.data(), value.size());
}

} // namespace

Result<AccessKey> accessKeyFrom(const Credential& credential)
{
    if (Status ok = require(credential, {"access_key_id", "secret_access_key"}); !ok) {
        return ok.error();
    }
    return AccessKey{plain(credential.value("access_key_id")), plain(credential.value("secret_access_key")), {}};
}

Result<AccessKey> providerKeyFrom(const Credential& credential)
{
    std::string_view keyId;
    std::string_view secret;
    if (const CredentialSpec* spec = credential.spec()) {
        for (const CredentialFieldSpec& field : spec->fields) {
            if (field.kind == CredentialFieldKind::KeyId && keyId.empty()) {
                keyId = field.name;
            } else if (field.kind == CredentialFieldKind::Secret && secret.empty()) {
                secret = field.name;
            }
        }
    }
    if (keyId.empty()) {
        if (Status ok = require(credential, {secret}); !ok) {
            return ok.error();
        }
        return AccessKey{{}, plain(credential.value(secret)), {}};
    }
    if (Status ok = require(credential, {keyId, secret}); !ok) {
        return ok.error();
    }
    return AccessKey{plain(credential.value(keyId)), plain(credential.value(secret)), {}};
}

Result<GoogleServiceAccount> googleAccountFrom(const Credential& credential)
{
    if (Status ok = require(credential, {"client_email", "private_key"}); !ok) {
        return ok.error();
    }
    GoogleServiceAccount account;
    account.clientEmail = plain(credential.value("client_email"));
    account.privateKeyPem = plain(credential.value("private_key"));
    account.privateKeyId = plain(credential.value("private_key_id"));
    return account;
}

Result<AzureClientSecret> azureSecretFrom(const Credential& credential)
{
    if (Status ok = require(credential, {"tenant_id", "client_id", "client_secret"}); !ok) {
        return ok.error();
    }
    return AzureClientSecret{plain(credential.value("tenant_id")),
                             plain(credential.value("client_id")),
                             plain(credential.value("client_secret"))};
}

Result<std::string> apiKeyFrom(const Credential& credential)
{
    if (Status ok = require(credential, {"api_key"}); !ok) {
        return ok.error();
    }
    return plain(credential.value("api_key"));
}

} // namespace gpuplan::core
