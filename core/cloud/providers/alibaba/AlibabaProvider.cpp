#include "gpuplan/cloud/providers/alibaba/AlibabaProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& alibabaDescriptor()
{
    static const ProviderDescriptor descriptor{
        "alibaba",
        "Alibaba Cloud", // wire: the provider\'s name, a proper noun (data)
        "阿里云",
        {{"access_key_id", CredentialFieldKind::KeyId}, {"secret_access_key", CredentialFieldKind::Secret}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
