#include "gpuplan/secrets/Credential.h"

#include "SecretJson.h"

#include "gpuplan/cloud/ProviderRegistry.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gpuplan::core {

namespace {

const SecretString& emptySecret()
{
    static const SecretString empty;
    return empty;
}

/// Appends `text` as a JSON string literal (RFC 8259 section 7).
void appendJsonString(SecretString& out, std::string_view text)
{
    out += '"';
    for (const char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    std::array<char, 8> escaped{};
                    std::snprintf(escaped.data(), escaped.size(), "\\u%04x", static_cast<unsigned>(c));
                    out += escaped.data();
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

std::string toStd(const SecretJson::string_t& text)
{
    return std::string(text.data(), text.size());
}

/// Copies a flat object's string members into `credential`; InvalidArgument naming `where` and the member.
Status readFields(const SecretJson& object, Credential& credential, const std::string& where)
{
    const CredentialSpec* spec = credentialSpec(credential.provider());
    for (const auto& [name, value] : object.items()) {
        const std::string field = toStd(name);
        if (spec && !spec->field(field)) {
            std::vector<std::string> known;
            for (const CredentialFieldSpec& f : spec->fields) {
                known.emplace_back(f.name);
            }
            std::string list;
            for (const std::string& k : known) {
                list += (list.empty() ? "" : ", ") + k;
            }
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.secrets.unknown_field",
                                {{"field", field}, {"provider", credential.provider()}, {"fields", list}}},
                         where};
        }
        if (!value.is_string()) {
            return Error{ErrorCode::InvalidArgument, Reason{"error.secrets.must_be_string"}, where + "." + field};
        }
        credential.set(field, SecretString(value.get_ref<const SecretJson::string_t&>()));
    }
    return Ok{};
}

} // namespace

void secureWipe(void* data, std::size_t size)
{
    if (data && size > 0) {
        OPENSSL_cleanse(data, size);
    }
}

Status keepSecretsOutOfCoreDumps()
{
    const rlimit none{0, 0};
    if (::setrlimit(RLIMIT_CORE, &none) != 0) {
        return Error{ErrorCode::Internal,
                     Reason{"error.secrets.core_dumps_on", {{"said", std::strerror(errno)}}},
                     "RLIMIT_CORE"};
    }
    if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        return Error{ErrorCode::Internal,
                     Reason{"error.secrets.still_dumpable", {{"said", std::strerror(errno)}}},
                     "PR_SET_DUMPABLE"};
    }
    return Ok{};
}

void wipe(SecretString& secret)
{
    secureWipe(secret.data(), secret.size());
    secret.clear();
}

const CredentialFieldSpec* CredentialSpec::keyIdField() const
{
    for (const CredentialFieldSpec& f : fields) {
        if (f.kind == CredentialFieldKind::KeyId) {
            return &f;
        }
    }
    return nullptr;
}

const CredentialFieldSpec* CredentialSpec::field(std::string_view name) const
{
    for (const CredentialFieldSpec& f : fields) {
        if (f.name == name) {
            return &f;
        }
    }
    return nullptr;
}

const std::vector<CredentialSpec>& credentialSpecs()
{
    // Each provider's folder declares its credential's fields in its descriptor.
    static const std::vector<CredentialSpec> specs = [] {
        std::vector<CredentialSpec> out;
        for (const ProviderDescriptor& provider : ProviderRegistry::builtIn().all()) {
            if (!provider.credentialFields.empty()) {
                out.push_back(CredentialSpec{provider.id, provider.name, provider.credentialFields});
            }
        }
        return out;
    }();
    return specs;
}

const CredentialSpec* credentialSpec(std::string_view provider)
{
    for (const CredentialSpec& spec : credentialSpecs()) {
        if (spec.provider == provider) {
            return &spec;
        }
    }
    return nullptr;
}

std::vector<std::string> credentialProviderIds()
{
    std::vector<std::string> ids;
    for (const CredentialSpec& spec : credentialSpecs()) {
        ids.emplace_back(spec.provider);
    }
    return ids;
}

std::string maskKeyId(std::string_view key)
{
    constexpr std::string_view stars = "****";
    if (const std::size_t at = key.find('@'); at != std::string_view::npos && at > 0) {
        const std::string_view local = key.substr(0, at);
        return std::string(local.substr(0, local.size() > 4 ? 4 : local.size() / 2)) + std::string(stars)
               + std::string(key.substr(at));
    }
    if (key.size() >= 12) {
        return std::string(key.substr(0, 4)) + std::string(stars) + std::string(key.substr(key.size() - 4));
    }
    if (key.size() >= 6) {
        return std::string(key.substr(0, 2)) + std::string(stars) + std::string(key.substr(key.size() - 2));
    }
    return std::string(stars);
}

Credential::Credential(std::string provider)
    : m_provider(std::move(provider))
{ }

Credential& Credential::operator=(const Credential& other)
{
    if (this != &other) {
        wipeAll();
        m_provider = other.m_provider;
        m_fields = other.m_fields;
    }
    return *this;
}

Credential& Credential::operator=(Credential&& other) noexcept
{
    if (this != &other) {
        wipeAll();
        m_provider = std::move(other.m_provider);
        m_fields = std::move(other.m_fields);
    }
    return *this;
}

Credential::~Credential()
{
    wipeAll();
}

void Credential::wipeAll() noexcept
{
    for (auto& entry : m_fields) {
        wipe(entry.second);
    }
    m_fields.clear();
}

const CredentialSpec* Credential::spec() const
{
    return credentialSpec(m_provider);
}

void Credential::set(std::string_view field, SecretString value)
{
    auto found = m_fields.find(field);
    if (found != m_fields.end()) {
        wipe(found->second);
        if (value.empty()) {
            m_fields.erase(found);
        } else {
            found->second = std::move(value);
        }
    } else if (!value.empty()) {
        m_fields.emplace(std::string(field), std::move(value));
    }
    wipe(value); // what is left of it, when it was copied rather than moved
}

const SecretString& Credential::value(std::string_view field) const
{
    const auto found = m_fields.find(field);
    return found == m_fields.end() ? emptySecret() : found->second;
}

bool Credential::has(std::string_view field) const
{
    return m_fields.find(field) != m_fields.end();
}

std::string Credential::keyId() const
{
    const CredentialSpec* s = spec();
    const CredentialFieldSpec* keyField = s ? s->keyIdField() : nullptr;
    if (!keyField) {
        return {};
    }
    const SecretString& id = value(keyField->name);
    return std::string(id.data(), id.size());
}

std::string Credential::maskedKeyId() const
{
    const CredentialSpec* s = spec();
    if (s && !s->keyIdField()) {
        // An API key alone: a short fingerprint of it, which says nothing about the key itself.
        for (const CredentialFieldSpec& f : s->fields) {
            const SecretString& key = value(f.name);
            if (f.kind == CredentialFieldKind::Secret && !key.empty()) {
                std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
                unsigned int length = 0;
                if (EVP_Digest(key.data(), key.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1) {
                    return "****";
                }
                std::string hex = "sha256:";
                for (unsigned int i = 0; i < 4 && i < length; ++i) {
                    std::array<char, 3> pair{};
                    std::snprintf(pair.data(), pair.size(), "%02x", digest[i]);
                    hex += pair.data();
                }
                return hex;
            }
        }
        return {};
    }
    const std::string id = keyId();
    return id.empty() ? std::string() : maskKeyId(id);
}

std::string Credential::describe() const
{
    const std::string masked = maskedKeyId();
    return masked.empty() ? m_provider : m_provider + " " + masked;
}

Status Credential::validate() const
{
    const CredentialSpec* s = spec();
    if (!s) {
        std::string known;
        for (const std::string& id : credentialProviderIds()) {
            known += (known.empty() ? "" : ", ") + id;
        }
        return Error{ErrorCode::UnknownProvider,
                     Reason{"error.secrets.unknown_provider", {{"provider", m_provider}, {"known", known}}},
                     "provider"};
    }
    for (const auto& entry : m_fields) {
        if (!s->field(entry.first)) {
            return Error{ErrorCode::InvalidArgument,
                         Reason{"error.secrets.not_a_field", {{"provider", m_provider}}},
                         entry.first};
        }
    }
    for (const CredentialFieldSpec& f : s->fields) {
        if (f.required && !has(f.name)) {
            return Error{
                ErrorCode::InvalidArgument,
                Reason{"error.secrets.missing_field", {{"provider", m_provider}, {"field", std::string(f.name)}}},
                std::string(f.name)};
        }
    }
    return Ok{};
}

SecretString credentialToJson(const Credential& credential)
{
    SecretString out;
    out.reserve(256);
    out += "{\"provider\":";
    appendJsonString(out, credential.provider());
    out += ",\"fields\":{";
    bool first = true;
    for (const auto& [name, value] : credential.fields()) {
        if (!first) {
            out += ',';
        }
        first = false;
        appendJsonString(out, name);
        out += ':';
        appendJsonString(out, std::string_view(value.data(), value.size()));
    }
    out += "}}";
    return out;
}

Result<Credential> credentialFromSecretJson(const SecretJson& document, const std::string& where)
{
    if (!document.is_object() || !document.contains("provider") || !document["provider"].is_string()) {
        return Error{ErrorCode::SchemaViolation, Reason{"error.secrets.missing_provider"}, where + ".provider"};
    }
    if (!document.contains("fields") || !document["fields"].is_object()) {
        return Error{ErrorCode::SchemaViolation, Reason{"error.secrets.missing_fields"}, where + ".fields"};
    }
    Credential credential(toStd(document["provider"].get_ref<const SecretJson::string_t&>()));
    if (Status read = readFields(document["fields"], credential, where + ".fields"); !read) {
        Error error = read.error();
        error.code = ErrorCode::SchemaViolation;
        return error;
    }
    return credential;
}

Result<Credential> credentialFromJson(std::string_view json)
{
    const SecretJson document = SecretJson::parse(json.begin(), json.end(), nullptr, false);
    if (document.is_discarded()) {
        return Error{ErrorCode::JsonSyntax, Reason{"error.secrets.not_json"}, "$"};
    }
    return credentialFromSecretJson(document, "$");
}

Result<Credential> credentialFromFieldsJson(std::string_view provider, std::string_view json)
{
    const SecretJson document = SecretJson::parse(json.begin(), json.end(), nullptr, false);
    if (document.is_discarded()) {
        return Error{ErrorCode::JsonSyntax, Reason{"error.secrets.not_json"}, "stdin"};
    }
    if (!document.is_object()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.secrets.fields_not_object"}, "stdin"};
    }
    Credential credential{std::string(provider)};
    if (Status read = readFields(document, credential, "stdin"); !read) {
        return read.error();
    }
    return credential;
}

Result<Credential> credentialFromServiceAccountKey(std::string_view keyFileJson)
{
    const SecretJson document = SecretJson::parse(keyFileJson.begin(), keyFileJson.end(), nullptr, false);
    if (document.is_discarded() || !document.is_object()) {
        return Error{ErrorCode::JsonSyntax, Reason{"error.secrets.not_json_key_file"}, "$"};
    }
    if (!document.contains("type") || document["type"] != "service_account") {
        return Error{ErrorCode::SchemaViolation, Reason{"error.secrets.not_service_account"}, "$.type"};
    }
    Credential credential("gcp");
    for (const char* member : {"client_email", "private_key", "private_key_id", "project_id"}) {
        if (!document.contains(member)) {
            if (credentialSpec("gcp")->field(member)->required) {
                return Error{ErrorCode::SchemaViolation, Reason{"error.secrets.missing"}, std::string("$.") + member};
            }
            continue;
        }
        const SecretJson& value = document[member];
        if (!value.is_string()) {
            return Error{
                ErrorCode::SchemaViolation, Reason{"error.secrets.must_be_string"}, std::string("$.") + member};
        }
        credential.set(member, SecretString(value.get_ref<const SecretJson::string_t&>()));
    }
    return credential;
}

} // namespace gpuplan::core
