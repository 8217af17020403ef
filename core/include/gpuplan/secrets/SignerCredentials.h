#pragma once

#include "gpuplan/net/signers/AzureClientCredentials.h"
#include "gpuplan/net/signers/GoogleServiceAccount.h"
#include "gpuplan/net/signers/Signing.h"
#include "gpuplan/secrets/Credential.h"

namespace gpuplan::core {

// A stored credential handed to the signers as values. Each checks that the provider's credential has the shape it
// needs (its spec declares the fields) and that the fields are set;
// Credentials naming the provider and the missing field otherwise (never a value). The caller wipes the result.

/// aws, tencent, alibaba, huawei: the access key pair.
Result<AccessKey> accessKeyFrom(const Credential& credential);
/// gcp: the service account's e-mail, private key and key id.
Result<GoogleServiceAccount> googleAccountFrom(const Credential& credential);
/// azure: tenant, client id and client secret.
Result<AzureClientSecret> azureSecretFrom(const Credential& credential);
/// lambda, paperspace: the API key.
Result<std::string> apiKeyFrom(const Credential& credential);
/// Any provider, as its ProviderContext carries the credential: the spec's key-id field (none for an API key) as the
/// id and its secret field as the secret (an access key's secret, a service account's private key, a client secret,
/// an API key). The provider's other fields are its settings (cloudAccessFrom).
Result<AccessKey> providerKeyFrom(const Credential& credential);

} // namespace gpuplan::core
