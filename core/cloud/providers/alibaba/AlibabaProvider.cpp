#include "gpuplan/cloud/providers/alibaba/AlibabaProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& alibabaDescriptor()
{
    static const ProviderDescriptor descriptor{
        "alibaba",
        "Alibaba Cloud",
        "阿里云",
        {{"access_key_id", "AccessKey ID", CredentialFieldKind::KeyId},
         {"secret_access_key", "AccessKey Secret", CredentialFieldKind::Secret}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
