#include "gpuplan/cloud/providers/paperspace/PaperspaceProvider.h"

namespace gpuplan::core {

const ProviderDescriptor& paperspaceDescriptor()
{
    static const ProviderDescriptor descriptor{
        "paperspace",
        "Paperspace", // wire: the provider\'s name, a proper noun (data)
        "Paperspace",
        {{"api_key", CredentialFieldKind::Secret}},
        {},
        {},
    };
    return descriptor;
}

} // namespace gpuplan::core
