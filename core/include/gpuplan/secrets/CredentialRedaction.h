#pragma once

#include "gpuplan/secrets/Credential.h"

namespace gpuplan::core {

/// Makes the credential unprintable in the log (registerSecret in Redaction.h): every Secret field is shown as
/// "[redacted]", and the KeyId field as its masked form (maskKeyId: "AKID****MPLE"), so that a log can tell
/// which key was used, as `gpuplan creds list` does, without showing it. The whole key id stays out because it
/// is half of the credential and names the account (AWS STS GetAccessKeyInfo answers the account of any key
/// id); logs end up pasted into bug reports. Plain fields (tenant, project) are left as they are.
///
/// Called wherever a credential is born or loaded outside Credential.cpp: the credential store (ui), the
/// encrypted file, and the signers' credentials (SignerCredentials.cpp), which every use of a credential passes
/// through. Thread-safe.
void registerCredentialSecrets(const Credential& credential);

} // namespace gpuplan::core
