#include "gpuplan/cloud/providers/huawei/HuaweiProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& huaweiDescriptor()
{
    static const ProviderDescriptor descriptor{
        "huawei",
        "Huawei Cloud",
        "华为云",
        {{"access_key_id", "Access key ID (AK)", CredentialFieldKind::KeyId},
         {"secret_access_key", "Secret access key (SK)", CredentialFieldKind::Secret},
         {"project_id", "Project ID", CredentialFieldKind::Plain}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
