#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

// What keeps secrets out of the log (Log.h): every line passes redacted() before any sink sees it.
namespace gpuplan::core {

/// A header value as the log shows it: "[redacted]" for credentials (Authorization, tokens, keys, signatures,
/// cookies), else the value. Thread-safe.
std::string redactedHeader(const std::string& name, const std::string& value);
/// A URL or body with the values of secret-looking parameters (Signature, X-Amz-Signature, client_secret,
/// assertion, access_token, password, SecretKey, private_key...) replaced by [redacted]. Thread-safe.
std::string redactedText(const std::string& text);

/// Makes `secret` unprintable in the log for the life of the process (or until unregisterSecret()): every log
/// line has each occurrence replaced by `replacement` before a sink sees it, also where the secret appears
/// percent-encoded (in a URL or a form), JSON-escaped, or, for a secret of several lines (a PEM key), line by
/// line. Called wherever a secret is born or loaded: the credential store, the encrypted file, the signers'
/// credentials (SignerCredentials.cpp). An empty secret is ignored; registering a value twice keeps one entry.
///
/// The registry keeps copies of the secrets, in memory that is wiped when freed (SecretAllocator); they are
/// wiped by unregisterSecret() and at exit (std::atexit), after which nothing more is logged at all. A process
/// that holds secrets has core dumps off (keepSecretsOutOfCoreDumps), so the copies go where the originals go.
/// Thread-safe.
void registerSecret(std::string_view secret, std::string_view replacement = "[redacted]");
/// Forgets `secret` (and its encoded forms) and wipes the registry's copies. Thread-safe.
void unregisterSecret(std::string_view secret);
/// How many secrets are registered (not counting their encoded forms); for tests.
std::size_t registeredSecretCount();

/// `text` as the log may show it: every registered secret replaced, private keys ("-----BEGIN ... PRIVATE
/// KEY-----" to its END line, or to the end of the text) replaced, and the header, URL and JSON rules of
/// redactedHeader() and redactedText() applied to the text as a whole ("Authorization: ...", "Bearer ...",
/// "Signature=...", "Credential=..."). A line longer than 8 KiB is cut there (after the secrets and keys are
/// replaced, before the rules run), saying how much more there was. Thread-safe.
std::string redacted(std::string_view text);

/// redacted(), or nullopt once the registry's copies were wiped at exit: from then on nothing may be shown.
std::optional<std::string> redactedUnlessClosed(std::string_view text);

} // namespace gpuplan::core
