// The encrypted credentials file's header and format (core/secrets/EncryptedCredentialFile.cpp load), and the
// credential JSON that the keychain, `gpuplan creds set --stdin` and a Google service-account key file hand to core
// (core/secrets/Credential.cpp).
//
// load() is called without a passphrase: it then checks the whole header and stops before scrypt, so each run stays
// fast. The oracle below holds load() to the promise of its header check, that a changed header cannot make it ask
// scrypt for gigabytes: a header that passes the check must cost at most kMaxScryptBytes and kMaxScryptWork.
#include "FuzzSupport.h"

#include "gpuplan/secrets/Credential.h"
#include "gpuplan/secrets/EncryptedCredentialFile.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>

using namespace gpuplan;

namespace {

// The header layout of format 1 (EncryptedCredentialFile.h): magic (8), format, kdf, log2 N, r, p, cipher, ...
constexpr std::size_t kLog2NAt = 10;
constexpr std::size_t kRAt = 11;
constexpr std::size_t kPAt = 12;
/// 1 GiB of scrypt table (128 * r * N; new files take 128 MiB) and N * r * p at most 2^24 (16 times new files, a few
/// seconds): fixed figures, so that a change of the file's own limits shows up here.
constexpr std::uint64_t kMaxScryptBytes = std::uint64_t{1} << 30;
constexpr std::uint64_t kMaxScryptWork = std::uint64_t{1} << 24;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::filesystem::path file = fuzz::writeInput("credentials.enc", data, size);
    const core::Result<std::vector<core::Credential>> loaded = core::EncryptedCredentialFile(file).load("");
    // "no passphrase given" (error.secrets.no_passphrase) is the one error left after the header was accepted.
    if (!loaded && loaded.error().reason.key == "error.secrets.no_passphrase") {
        const std::uint64_t n = std::uint64_t{1} << data[kLog2NAt];
        const std::uint64_t bytes = std::uint64_t{128} * data[kRAt] * n;
        const std::uint64_t work = n * data[kRAt] * data[kPAt];
        if (bytes > kMaxScryptBytes || work > kMaxScryptWork) {
            std::fprintf(stderr,
                         "accepted header asks scrypt for %llu bytes, work %llu (log2 N %u, r %u, p %u)\n",
                         static_cast<unsigned long long>(bytes),
                         static_cast<unsigned long long>(work),
                         data[kLog2NAt],
                         data[kRAt],
                         data[kPAt]);
            __builtin_trap();
        }
    }

    const std::string_view text = fuzz::asText(data, size);
    if (core::Result<core::Credential> credential = core::credentialFromJson(text)) {
        core::SecretString back = core::credentialToJson(*credential);
        (void)credential->validate();
        core::wipe(back);
    }
    (void)core::credentialFromFieldsJson("aws", text);
    (void)core::credentialFromFieldsJson("tencent", text);
    (void)core::credentialFromServiceAccountKey(text);
    return 0;
}
