#include "gpuplan/secrets/EncryptedCredentialFile.h"

#include "gpuplan/core/Log.h"
#include "gpuplan/core/Paths.h"
#include "gpuplan/core/Redaction.h"
#include "gpuplan/secrets/CredentialRedaction.h"

#include "SecretJson.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <system_error>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpuplan::core {

namespace fs = std::filesystem;

namespace {

constexpr std::array<char, 8> kMagic{'G', 'P', 'U', 'P', 'C', 'R', 'E', 'D'};
constexpr std::uint8_t kFormat = 1;
constexpr std::uint8_t kKdfScrypt = 1;
constexpr std::uint8_t kCipherAes256Gcm = 1;
constexpr std::size_t kSaltSize = 16;
constexpr std::size_t kCheckSize = 16;
constexpr std::size_t kNonceSize = 12; // 96 bits: GCM's native nonce (NIST SP 800-38D 8.2)
constexpr std::size_t kTagSize = 16;
constexpr std::size_t kKeySize = 32;

// Byte offsets of the header fields.
constexpr std::size_t kFormatAt = 8;
constexpr std::size_t kKdfAt = 9;
constexpr std::size_t kLog2NAt = 10;
constexpr std::size_t kRAt = 11;
constexpr std::size_t kPAt = 12;
constexpr std::size_t kCipherAt = 13;
constexpr std::size_t kSaltAt = 14;
constexpr std::size_t kCheckAt = kSaltAt + kSaltSize;
constexpr std::size_t kNonceAt = kCheckAt + kCheckSize;
constexpr std::size_t kHeaderSize = kNonceAt + kNonceSize;
constexpr std::size_t kSmallestFile = kHeaderSize + kTagSize;

struct CipherContextDeleter
{
    void operator()(EVP_CIPHER_CTX* context) const { EVP_CIPHER_CTX_free(context); }
};
using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, CipherContextDeleter>;

/// The 64 bytes scrypt derives; wiped when it goes out of scope.
struct DerivedKey
{
    std::array<unsigned char, kKeySize + kCheckSize + 16> bytes{};
    ~DerivedKey() { secureWipe(bytes.data(), bytes.size()); }
    const unsigned char* key() const { return bytes.data(); }
    const unsigned char* check() const { return bytes.data() + kKeySize; }
};

struct ScryptCost
{
    std::uint8_t log2N = EncryptedCredentialFile::kLog2N;
    std::uint8_t r = EncryptedCredentialFile::kR;
    std::uint8_t p = EncryptedCredentialFile::kP;
};

/// The most a header may ask of scrypt: 1 GiB for its table (128 * r * N bytes; new files take 128 MiB) and 16 times
/// the work of new files (N * r * p, about 5 s). Each byte alone is in bounds for 2^22 and r = 32, which together
/// ask for 16 GiB: a changed header cannot make opening the file take the machine's memory or minutes.
constexpr std::uint64_t kMaxScryptMemory = std::uint64_t{1} << 30;
constexpr std::uint64_t kMaxScryptWork = (std::uint64_t{1} << EncryptedCredentialFile::kLog2N)
                                         * EncryptedCredentialFile::kR * EncryptedCredentialFile::kP * 16;

bool withinBounds(ScryptCost cost)
{
    if (cost.log2N < 14 || cost.log2N > 22 || cost.r < 1 || cost.r > 32 || cost.p < 1 || cost.p > 16) {
        return false;
    }
    const std::uint64_t n = std::uint64_t{1} << cost.log2N;
    return std::uint64_t{128} * cost.r * n <= kMaxScryptMemory && n * cost.r * cost.p <= kMaxScryptWork;
}

Error fileError(ErrorCode code, const fs::path& path, Reason reason)
{
    return Error{code, std::move(reason), path.string()};
}

std::string systemReason(int error)
{
    return std::system_category().message(error);
}

Status derive(std::string_view passphrase, const unsigned char* salt, ScryptCost cost, DerivedKey& out)
{
    const std::uint64_t n = std::uint64_t{1} << cost.log2N;
    // OpenSSL needs p*128*r bytes for B and 128*r*(N+2) for V (crypto/evp/pbe_scrypt.c); leave it some room.
    const std::uint64_t maxMemory = std::uint64_t{128} * cost.r * (n + 2 + cost.p) + (std::uint64_t{1} << 20);
    if (EVP_PBE_scrypt(passphrase.data(),
                       passphrase.size(),
                       salt,
                       kSaltSize,
                       n,
                       cost.r,
                       cost.p,
                       maxMemory,
                       out.bytes.data(),
                       out.bytes.size())
        != 1) {
        return Error{ErrorCode::Crypto, Reason{"error.secrets.scrypt_failed"}, "scrypt"};
    }
    return Ok{};
}

/// The plaintext: {"format":1,"credentials":[<credentialToJson>...]}.
SecretString serialize(const std::vector<Credential>& credentials)
{
    SecretString out = "{\"format\":1,\"credentials\":[";
    for (std::size_t i = 0; i < credentials.size(); ++i) {
        if (i > 0) {
            out += ',';
        }
        SecretString one = credentialToJson(credentials[i]);
        out += one;
        wipe(one);
    }
    out += "]}";
    return out;
}

Result<std::vector<Credential>> deserialize(const SecretString& plaintext, const fs::path& path)
{
    const SecretJson document = SecretJson::parse(plaintext.begin(), plaintext.end(), nullptr, false);
    if (document.is_discarded() || !document.is_object() || !document.contains("credentials")
        || !document["credentials"].is_array()) {
        return fileError(ErrorCode::SchemaViolation, path, Reason{"error.secrets.not_a_credentials_list"});
    }
    std::vector<Credential> credentials;
    const SecretJson& list = document["credentials"];
    for (std::size_t i = 0; i < list.size(); ++i) {
        Result<Credential> credential = credentialFromSecretJson(list[i], "$.credentials[" + std::to_string(i) + "]");
        if (!credential) {
            Error error = credential.error();
            error.where = path.string() + ": " + error.where;
            return error;
        }
        credentials.push_back(std::move(credential).value());
    }
    return credentials;
}

Result<std::string> readWhole(const fs::path& path)
{
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        return fileError(ErrorCode::FileNotFound, path, Reason{"error.secrets.no_file_yet"});
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return fileError(
            ErrorCode::FileUnreadable, path, Reason{"error.secrets.cannot_open", {{"said", systemReason(errno)}}});
    }
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        return fileError(
            ErrorCode::FileUnreadable, path, Reason{"error.secrets.cannot_read", {{"said", systemReason(errno)}}});
    }
    return bytes;
}

/// Writes `bytes` to a new file of mode 0600 beside `path`, flushes it to disk and renames it over `path`; a
/// missing folder is made 0700.
Status writeAtomically(const fs::path& path, const std::string& bytes)
{
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::exists(dir, ec)) {
        if (Status made = ensurePrivateDir(dir); !made) {
            return made;
        }
    }
    return writeFileAtomically(path, bytes, FileAccess::Private);
}

/// An advisory lock on `<file>.lock` for a read-modify-write; released when it goes out of scope.
class FileLock
{
public:
    explicit FileLock(const fs::path& file)
    {
        std::error_code ec;
        if (file.has_parent_path() && !fs::exists(file.parent_path(), ec)) {
            fs::create_directories(file.parent_path(), ec);
            fs::permissions(file.parent_path(), fs::perms::owner_all, fs::perm_options::replace, ec);
        }
        m_fd = ::open((file.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, S_IRUSR | S_IWUSR);
        if (m_fd >= 0) {
            while (::flock(m_fd, LOCK_EX) != 0 && errno == EINTR) { }
        }
    }
    ~FileLock()
    {
        if (m_fd >= 0) {
            ::close(m_fd); // releases the lock
        }
    }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

private:
    int m_fd = -1;
};

} // namespace

fs::path defaultCredentialFilePath()
{
    const fs::path data = userDataDir();
    return data.empty() ? fs::path() : data / "credentials.enc";
}

EncryptedCredentialFile::EncryptedCredentialFile(fs::path path)
    : m_path(std::move(path))
{ }

bool EncryptedCredentialFile::exists() const
{
    std::error_code ec;
    return fs::exists(m_path, ec);
}

Result<std::vector<Credential>> EncryptedCredentialFile::load(std::string_view passphrase) const
{
    registerSecret(passphrase); // also a wrong one: it is likely a near miss of the right one, or another password
    logDebug(LogCategory::Secrets, [&] { return "opening the encrypted credentials file " + m_path.string(); });
    Result<std::string> read = readWhole(m_path);
    if (!read) {
        return read.error();
    }
    const std::string& file = *read;
    if (file.size() >= kMagic.size() && std::memcmp(file.data(), kMagic.data(), kMagic.size()) != 0) {
        return fileError(ErrorCode::FileUnreadable, m_path, Reason{"error.secrets.not_a_credentials_file"});
    }
    if (file.size() < kSmallestFile) {
        return fileError(ErrorCode::FileUnreadable,
                         m_path,
                         Reason{"error.secrets.truncated",
                                {{"bytes", std::to_string(file.size())}, {"smallest", std::to_string(kSmallestFile)}}});
    }
    const auto byteAt = [&](std::size_t at) { return static_cast<std::uint8_t>(file[at]); };
    if (byteAt(kFormatAt) != kFormat) {
        return fileError(ErrorCode::SchemaViolation,
                         m_path,
                         Reason{"error.secrets.other_format", {{"format", std::to_string(byteAt(kFormatAt))}}});
    }
    if (byteAt(kKdfAt) != kKdfScrypt || byteAt(kCipherAt) != kCipherAes256Gcm) {
        return fileError(ErrorCode::SchemaViolation, m_path, Reason{"error.secrets.unknown_cipher"});
    }
    const ScryptCost cost{byteAt(kLog2NAt), byteAt(kRAt), byteAt(kPAt)};
    // Bounds keep a changed header from asking for gigabytes; the passphrase check then fails anyway.
    if (!withinBounds(cost)) {
        return fileError(ErrorCode::Credentials, m_path, Reason{"error.secrets.cost_out_of_bounds"});
    }
    if (passphrase.empty()) {
        return fileError(ErrorCode::Credentials, m_path, Reason{"error.secrets.no_passphrase"});
    }

    const auto* bytes = reinterpret_cast<const unsigned char*>(file.data());
    DerivedKey derived;
    if (Status ok = derive(passphrase, bytes + kSaltAt, cost, derived); !ok) {
        return ok.error();
    }
    if (CRYPTO_memcmp(derived.check(), bytes + kCheckAt, kCheckSize) != 0) {
        return fileError(ErrorCode::Credentials, m_path, Reason{"error.secrets.wrong_passphrase"});
    }

    const std::size_t cipherSize = file.size() - kHeaderSize - kTagSize;
    SecretString plaintext(cipherSize, '\0');
    CipherContext context(EVP_CIPHER_CTX_new());
    int length = 0;
    std::array<unsigned char, kTagSize> tag{};
    std::memcpy(tag.data(), bytes + kHeaderSize + cipherSize, kTagSize);
    const bool decrypted = context
                           && EVP_DecryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) == 1
                           && EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_IVLEN, int(kNonceSize), nullptr) == 1
                           && EVP_DecryptInit_ex(context.get(), nullptr, nullptr, derived.key(), bytes + kNonceAt) == 1
                           && EVP_DecryptUpdate(context.get(), nullptr, &length, bytes, int(kHeaderSize)) == 1
                           && EVP_DecryptUpdate(context.get(),
                                                reinterpret_cast<unsigned char*>(plaintext.data()),
                                                &length,
                                                bytes + kHeaderSize,
                                                int(cipherSize))
                                  == 1
                           && EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, int(kTagSize), tag.data()) == 1;
    int finalLength = 0;
    const bool authentic =
        decrypted
        && EVP_DecryptFinal_ex(context.get(), reinterpret_cast<unsigned char*>(plaintext.data()) + length, &finalLength)
               == 1;
    if (!authentic) {
        wipe(plaintext); // what a failed tag leaves is not to be trusted or kept
        return fileError(ErrorCode::Credentials, m_path, Reason{"error.secrets.not_authentic"});
    }
    Result<std::vector<Credential>> credentials = deserialize(plaintext, m_path);
    wipe(plaintext);
    if (credentials) {
        std::string described;
        for (const Credential& credential : *credentials) {
            registerCredentialSecrets(credential);
            described += (described.empty() ? "" : ", ") + credential.describe();
        }
        logInfo(LogCategory::Secrets, [&] {
            return "loaded " + std::to_string(credentials->size()) + " credential(s) from " + m_path.string() + " ("
                   + described + ")";
        });
    }
    return credentials;
}

Status EncryptedCredentialFile::save(const std::vector<Credential>& credentials, std::string_view passphrase) const
{
    if (passphrase.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.secrets.empty_passphrase"}, "passphrase"};
    }
    registerSecret(passphrase);
    for (const Credential& credential : credentials) {
        registerCredentialSecrets(credential);
    }
    std::string file(kHeaderSize, '\0');
    std::memcpy(file.data(), kMagic.data(), kMagic.size());
    file[kFormatAt] = char(kFormat);
    file[kKdfAt] = char(kKdfScrypt);
    file[kLog2NAt] = char(kLog2N);
    file[kRAt] = char(kR);
    file[kPAt] = char(kP);
    file[kCipherAt] = char(kCipherAes256Gcm);
    auto* header = reinterpret_cast<unsigned char*>(file.data());
    if (RAND_bytes(header + kSaltAt, int(kSaltSize)) != 1 || RAND_bytes(header + kNonceAt, int(kNonceSize)) != 1) {
        return Error{ErrorCode::Crypto, Reason{"error.secrets.no_random_bytes"}, "RAND_bytes"};
    }
    DerivedKey derived;
    if (Status ok = derive(passphrase, header + kSaltAt, ScryptCost{}, derived); !ok) {
        return ok.error();
    }
    std::memcpy(header + kCheckAt, derived.check(), kCheckSize);

    SecretString plaintext = serialize(credentials);
    file.resize(kHeaderSize + plaintext.size() + kTagSize);
    header = reinterpret_cast<unsigned char*>(file.data()); // resize may have moved it
    CipherContext context(EVP_CIPHER_CTX_new());
    int length = 0;
    int finalLength = 0;
    const bool encrypted =
        context && EVP_EncryptInit_ex(context.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr) == 1
        && EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_IVLEN, int(kNonceSize), nullptr) == 1
        && EVP_EncryptInit_ex(context.get(), nullptr, nullptr, derived.key(), header + kNonceAt) == 1
        && EVP_EncryptUpdate(context.get(), nullptr, &length, header, int(kHeaderSize)) == 1
        && EVP_EncryptUpdate(context.get(),
                             header + kHeaderSize,
                             &length,
                             reinterpret_cast<const unsigned char*>(plaintext.data()),
                             int(plaintext.size()))
               == 1
        && EVP_EncryptFinal_ex(context.get(), header + kHeaderSize + length, &finalLength) == 1
        && EVP_CIPHER_CTX_ctrl(
               context.get(), EVP_CTRL_GCM_GET_TAG, int(kTagSize), header + kHeaderSize + plaintext.size())
               == 1;
    wipe(plaintext);
    if (!encrypted) {
        return Error{ErrorCode::Crypto, Reason{"error.secrets.encryption_failed"}, m_path.string()};
    }
    Status written = writeAtomically(m_path, file);
    logInfo(LogCategory::Secrets, [&] {
        return (written ? "saved " : "could not save ") + std::to_string(credentials.size()) + " credential(s) to "
               + m_path.string();
    });
    return written;
}

Status EncryptedCredentialFile::put(const Credential& credential, std::string_view passphrase) const
{
    const FileLock lock(m_path);
    std::vector<Credential> credentials;
    if (exists()) {
        Result<std::vector<Credential>> loaded = load(passphrase);
        if (!loaded) {
            return loaded.error();
        }
        credentials = std::move(loaded).value();
    }
    bool replaced = false;
    for (Credential& existing : credentials) {
        if (existing.provider() == credential.provider()) {
            existing = credential;
            replaced = true;
        }
    }
    if (!replaced) {
        credentials.push_back(credential);
    }
    return save(credentials, passphrase);
}

Result<bool> EncryptedCredentialFile::remove(std::string_view provider, std::string_view passphrase) const
{
    const FileLock lock(m_path);
    if (!exists()) {
        return false;
    }
    Result<std::vector<Credential>> loaded = load(passphrase);
    if (!loaded) {
        return loaded.error();
    }
    std::vector<Credential> credentials = std::move(loaded).value();
    const std::size_t before = credentials.size();
    std::erase_if(credentials, [&](const Credential& c) { return c.provider() == provider; });
    if (credentials.size() == before) {
        return false;
    }
    if (Status saved = save(credentials, passphrase); !saved) {
        return saved.error();
    }
    return true;
}

} // namespace gpuplan::core
