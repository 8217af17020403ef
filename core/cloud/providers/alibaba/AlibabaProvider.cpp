#include "gpuplan/cloud/providers/alibaba/AlibabaProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& alibabaDescriptor()
{
    static const ProviderDescriptor descriptor{"alibaba", "Alibaba Cloud", "阿里云", {}, {}};
    return descriptor;
}

} // namespace gpuplan::core
