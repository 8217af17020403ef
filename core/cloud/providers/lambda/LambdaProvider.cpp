#include "gpuplan/cloud/providers/lambda/LambdaProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& lambdaDescriptor()
{
    static const ProviderDescriptor descriptor{
        "lambda",
        "Lambda", // wire: the provider\'s name, a proper noun (data)
        "Lambda",
        {{"api_key", CredentialFieldKind::Secret}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
