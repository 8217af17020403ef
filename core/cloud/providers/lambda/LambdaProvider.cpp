#include "gpuplan/cloud/providers/lambda/LambdaProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& lambdaDescriptor()
{
    static const ProviderDescriptor descriptor{
        "lambda",
        "Lambda",
        "Lambda",
        {{"api_key", "API key", CredentialFieldKind::Secret}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
