#include "gpuplan/cloud/providers/gcp/GcpProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& gcpDescriptor()
{
    static const ProviderDescriptor descriptor{
        "gcp",
        "Google Cloud", // wire: the provider\'s name, a proper noun (data)
        "谷歌云",
        {{"client_email", CredentialFieldKind::KeyId},
         {"private_key", CredentialFieldKind::Secret},
         {"private_key_id", CredentialFieldKind::Plain, false},
         {"project_id", CredentialFieldKind::Plain, false}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
