#include "gpuplan/secrets/CredentialRedaction.h"

#include "gpuplan/core/Redaction.h"

namespace gpuplan::core {

void registerCredentialSecrets(const Credential& credential)
{
    const CredentialSpec* spec = credential.spec();
    for (const auto& [name, value] : credential.fields()) {
        const CredentialFieldSpec* field = spec ? spec->field(name) : nullptr;
        // A field the spec does not know is treated as a secret: only what is known to be plain is shown.
        const CredentialFieldKind kind = field ? field->kind : CredentialFieldKind::Secret;
        const std::string_view text(value.data(), value.size());
        if (kind == CredentialFieldKind::Secret) {
            registerSecret(text);
        } else if (kind == CredentialFieldKind::KeyId) {
            const std::string masked = maskKeyId(text);
            registerSecret(text, masked.empty() ? "[redacted]" : masked);
        }
    }
}

} // namespace gpuplan::core
