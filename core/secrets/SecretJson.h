#pragma once

#include "gpuplan/secrets/Credential.h"

#include <nlohmann/json.hpp>

#include <cstdint>

namespace gpuplan::core {

/// nlohmann::json whose strings, arrays and object nodes all come from SecretAllocator: what the parser builds
/// from a document with secrets in it is wiped when freed.
using SecretJson = nlohmann::
    basic_json<std::map, std::vector, SecretString, bool, std::int64_t, std::uint64_t, double, SecretAllocator>;

/// A credential from its JSON object (credentialToJson()'s shape); SchemaViolation naming `where` and the
/// member. Never quotes a value.
Result<Credential> credentialFromSecretJson(const SecretJson& document, const std::string& where);

} // namespace gpuplan::core
