#include "gpuplan/cloud/providers/huawei/HuaweiProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& huaweiDescriptor()
{
    static const ProviderDescriptor descriptor{"huawei", "Huawei Cloud", "华为云", {}, {}};
    return descriptor;
}

} // namespace gpuplan::core
