#include "gpuplan/cloud/providers/gcp/GcpProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& gcpDescriptor()
{
    static const ProviderDescriptor descriptor{
        "gcp",
        "Google Cloud",
        "谷歌云",
        {{"client_email", "Service account e-mail", CredentialFieldKind::KeyId},
         {"private_key", "Private key (PEM)", CredentialFieldKind::Secret},
         {"private_key_id", "Private key ID", CredentialFieldKind::Plain, false},
         {"project_id", "Project ID", CredentialFieldKind::Plain, false}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
