#pragma once

#include "gpuplan/core/Result.h"

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// Overwrites `size` bytes at `data` so that the compiler cannot drop the write (OPENSSL_cleanse).
void secureWipe(void* data, std::size_t size);

/// Keeps this process's memory, with the credentials it loads, out of core dumps and away from other processes
/// of the same user (RLIMIT_CORE 0, PR_SET_DUMPABLE 0: no core file, no ptrace attach, /proc/PID/mem closed), as
/// ssh-agent does. Both programs call it first thing; a failure is reported, and the program goes on.
Status keepSecretsOutOfCoreDumps();

/// An allocator that wipes what it hands back before freeing it, so a secret leaves no copy in freed memory
/// when its string grows, shrinks or dies.
template <typename T>
struct SecretAllocator
{
    using value_type = T;

    SecretAllocator() noexcept = default;
    template <typename U>
    SecretAllocator(const SecretAllocator<U>&) noexcept
    { }

    T* allocate(std::size_t count) { return std::allocator<T>().allocate(count); }
    void deallocate(T* pointer, std::size_t count) noexcept
    {
        secureWipe(pointer, count * sizeof(T));
        std::allocator<T>().deallocate(pointer, count);
    }

    template <typename U>
    bool operator==(const SecretAllocator<U>&) const noexcept
    {
        return true;
    }
};

/// A string for secrets: its heap buffer is wiped when freed. Short strings live inside the object (SSO);
/// Credential wipes those itself, and so should any other holder (wipe()).
using SecretString = std::basic_string<char, std::char_traits<char>, SecretAllocator<char>>;

/// Empties `secret` after overwriting every byte it holds, including a short string's inline buffer.
void wipe(SecretString& secret);

/// What a credential field holds, which decides how it is shown and stored.
enum class CredentialFieldKind
{
    KeyId,  // the public half of the credential (access key id, client email, client id): shown masked
    Secret, // never shown, logged or written anywhere but the keychain or the encrypted file
    Plain,  // not secret (tenant id, project id): shown as is
};

/// One field a provider's credential has. `name` is the stable key in JSON (`gpuplan creds set --stdin`) and
/// in storage; the CLI and the GUI word its label by provider and name (ui/wording/ProviderText, credentialFieldLabel).
struct CredentialFieldSpec
{
    std::string_view name;
    CredentialFieldKind kind = CredentialFieldKind::Secret;
    bool required = true;
};

/// The fields of one provider's credential, in the order a form asks for them.
struct CredentialSpec
{
    std::string_view provider; // "aws"
    std::string_view displayName;
    std::vector<CredentialFieldSpec> fields;

    /// The field of kind KeyId, or nullptr when the provider has none (an API key alone).
    const CredentialFieldSpec* keyIdField() const;
    const CredentialFieldSpec* field(std::string_view name) const;
};

/// Every provider that has credentials, in a fixed order: aws, tencent, alibaba, huawei, gcp, azure, lambda,
/// paperspace. Thread-safe (immutable).
const std::vector<CredentialSpec>& credentialSpecs();
/// The provider's spec, or nullptr when `provider` is not one of credentialSpecs().
const CredentialSpec* credentialSpec(std::string_view provider);
/// The provider ids of credentialSpecs(), in order.
std::vector<std::string> credentialProviderIds();

/// `key` shown without most of it: "AKIA****MPLE" (the first and last four of 12 or more characters, two
/// and two of 6 to 11, nothing of fewer); an e-mail address keeps its domain ("plan****@proj.iam...").
std::string maskKeyId(std::string_view key);

/// A provider's credential. Holds its fields by name (CredentialSpec); every value is wiped when the credential
/// is destroyed or a value is replaced. Nothing that renders it as text (describe(), maskedKeyId()) ever shows
/// a secret field; only credentialToJson() writes secrets, for the keychain and the encrypted file.
class Credential
{
public:
    Credential() = default;
    explicit Credential(std::string provider);
    Credential(const Credential& other) = default;
    Credential(Credential&& other) noexcept = default;
    Credential& operator=(const Credential& other);
    Credential& operator=(Credential&& other) noexcept;
    ~Credential();

    const std::string& provider() const { return m_provider; }
    /// The provider's spec, or nullptr when the provider is unknown.
    const CredentialSpec* spec() const;

    /// Sets a field (an empty value removes it).
    void set(std::string_view field, SecretString value);
    /// The field's value, empty when it is not set.
    const SecretString& value(std::string_view field) const;
    bool has(std::string_view field) const;
    const std::map<std::string, SecretString, std::less<>>& fields() const { return m_fields; }

    /// The public key id (access key id, client email, client id); empty when the provider has none.
    std::string keyId() const;
    /// maskKeyId(keyId()); for a provider without a key id (an API key alone), "sha256:" and the first eight
    /// hex digits of the key's SHA-256, so two keys can be told apart without showing either.
    std::string maskedKeyId() const;
    /// "aws AKIA****MPLE": for messages and logs. Never a secret.
    std::string describe() const;

    /// Ok when the provider is known, every required field is set and no field is unknown; InvalidArgument
    /// naming the provider and the field otherwise.
    Status validate() const;

private:
    void wipeAll() noexcept;

    std::string m_provider;
    std::map<std::string, SecretString, std::less<>> m_fields;
};

/// The credential as JSON, `{"provider":"aws","fields":{...}}`, secrets included: only for the keychain and
/// the encrypted file. The caller wipes the result.
SecretString credentialToJson(const Credential& credential);
/// Reads credentialToJson()'s output. JsonSyntax or SchemaViolation (naming the JSON path) when it is not one;
/// the message never quotes a value.
Result<Credential> credentialFromJson(std::string_view json);
/// A credential of `provider` from a flat JSON object of field names to strings (`gpuplan creds set --stdin`).
/// InvalidArgument naming an unknown field or a value that is not a string; the result is not validated.
Result<Credential> credentialFromFieldsJson(std::string_view provider, std::string_view json);
/// A gcp credential from a Google service-account key file's JSON (client_email, private_key, private_key_id,
/// project_id). SchemaViolation naming a missing field or a file of another type; never quotes the key.
Result<Credential> credentialFromServiceAccountKey(std::string_view keyFileJson);

} // namespace gpuplan::core
