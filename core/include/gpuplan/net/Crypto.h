#pragma once

#include <string>
#include <string_view>

namespace gpuplan::core {

// Byte strings are std::string; hex is lower case. Thread-safe (OpenSSL 3 one-shot functions).

std::string sha256(std::string_view data);
std::string sha256Hex(std::string_view data);
std::string hmacSha256(std::string_view key, std::string_view data);
std::string hmacSha1(std::string_view key, std::string_view data);
std::string toHex(std::string_view bytes);
std::string base64(std::string_view bytes);
/// RFC 4648 section 5, without padding (JWT).
std::string base64Url(std::string_view bytes);
/// RFC 3986 percent-encoding: letters, digits and -_.~ stay, everything else is %XX (upper case hex);
/// '/' stays too when `keepSlash`.
std::string uriEncode(std::string_view text, bool keepSlash = false);
/// The inverse of percent-encoding ('+' stays '+').
std::string uriDecode(std::string_view text);
/// Cryptographically random bytes (nonces, idempotency tokens).
std::string randomBytes(std::size_t count);
/// A random UUID version 4 in its usual text form.
std::string randomUuid();
/// Overwrites the string's bytes before it is freed (OPENSSL_cleanse).
void wipe(std::string& secret);

} // namespace gpuplan::core
