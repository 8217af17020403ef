#include "gpuplan/cloud/providers/huawei/HuaweiProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& huaweiDescriptor()
{
    static const ProviderDescriptor descriptor{
        "huawei",
        "Huawei Cloud", // wire: the provider\'s name, a proper noun (data)
        "华为云",
        {{"access_key_id", CredentialFieldKind::KeyId},
         {"secret_access_key", CredentialFieldKind::Secret},
         {"project_id", CredentialFieldKind::Plain}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
