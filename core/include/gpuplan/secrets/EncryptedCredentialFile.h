#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/secrets/Credential.h"

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace gpuplan::core {

/// Where the encrypted credentials file lives: `$XDG_DATA_HOME/gpuplanner/credentials.enc`, else
/// `~/.local/share/gpuplanner/credentials.enc`. Empty when neither XDG_DATA_HOME nor HOME is set.
std::filesystem::path defaultCredentialFilePath();

/// The credentials store for systems where no keychain service runs: one file of every provider's credential,
/// encrypted with a passphrase.
///
/// Format 1 (all integers one byte):
///
///     "GPUPCRED" | format 1 | kdf 1 (scrypt) | log2 N | r | p | cipher 1 (AES-256-GCM)
///     | salt (16) | passphrase check (16) | nonce (12) | ciphertext | GCM tag (16)
///
/// scrypt (RFC 7914) derives 64 bytes from the passphrase and a random salt: the first 32 are the AES key, the
/// next 16 are stored as the passphrase check, so a wrong passphrase and a changed file are told apart. The
/// whole header (nonce included) is the GCM additional data, so no byte of the file can change unnoticed. Every write
/// draws a new salt and nonce, writes a temporary file of mode 0600 beside the target and renames it over the
/// target. Keys and plaintext are wiped from memory when done.
///
/// The object itself is immutable and may be used from several threads; put() and remove() hold an advisory
/// lock (`<file>.lock`) so that two processes do not lose each other's change.
class EncryptedCredentialFile
{
public:
    /// scrypt cost of new files: N = 2^17, r = 8, p = 1 (128 MiB, about 0.3 s), the OWASP Password Storage Cheat
    /// Sheet's minimum for scrypt. Files written with the earlier 2^15 still open, and are rewritten at this cost
    /// on their next change.
    static constexpr std::uint8_t kLog2N = 17;
    static constexpr std::uint8_t kR = 8;
    static constexpr std::uint8_t kP = 1;

    explicit EncryptedCredentialFile(std::filesystem::path path);

    const std::filesystem::path& path() const { return m_path; }
    bool exists() const;

    /// Every credential in the file. Errors, all naming the file: FileNotFound; FileUnreadable when it cannot
    /// be read, is not such a file or is too short to be one; SchemaViolation for a format this version does not
    /// read; Credentials when the passphrase is wrong, or when the file was changed or damaged after it was
    /// written (it does not authenticate). Never returns what a wrong key decrypted.
    Result<std::vector<Credential>> load(std::string_view passphrase) const;
    /// Replaces the file with one that holds exactly `credentials`. InvalidArgument for an empty passphrase;
    /// FileUnreadable (naming the path and the system's reason) when it cannot be written; the old file stays
    /// as it was on any failure.
    Status save(const std::vector<Credential>& credentials, std::string_view passphrase) const;
    /// Adds the credential or replaces the one of the same provider; creates the file when there is none.
    /// load()'s errors when the file exists but cannot be opened with `passphrase`.
    Status put(const Credential& credential, std::string_view passphrase) const;
    /// Removes the provider's credential. True when there was one; false (and no change) when there was not.
    Result<bool> remove(std::string_view provider, std::string_view passphrase) const;

private:
    std::filesystem::path m_path;
};

} // namespace gpuplan::core
