#include "gpuplan/cloud/providers/lambda/LambdaProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& lambdaDescriptor()
{
    static const ProviderDescriptor descriptor{"lambda", "Lambda", "Lambda", {}, {}};
    return descriptor;
}

} // namespace gpuplan::core
