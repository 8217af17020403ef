#include "gpuplan/cloud/providers/paperspace/PaperspaceProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& paperspaceDescriptor()
{
    static const ProviderDescriptor descriptor{
        "paperspace",
        "Paperspace",
        "Paperspace",
        {{"api_key", "API key", CredentialFieldKind::Secret}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
