#include "gpuplan/cloud/providers/paperspace/PaperspaceProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& paperspaceDescriptor()
{
    static const ProviderDescriptor descriptor{"paperspace", "Paperspace", "Paperspace", {}, {}};
    return descriptor;
}

} // namespace gpuplan::core
