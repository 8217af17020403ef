#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/secrets/Credential.h"

#include <QList>
#include <QObject>
#include <QString>

#include <filesystem>
#include <functional>
#include <optional>

namespace gpuplan::ui {

/// Where a credential is kept.
enum class CredentialLocation
{
    Keychain,      // the OS keychain (Secret Service, KWallet, macOS Keychain, Windows Credential Manager)
    EncryptedFile, // core::EncryptedCredentialFile, where no keychain service runs
};

/// "keychain" or "encrypted_file": stable, for QSettings, JSON output and scripts.
QString credentialLocationKey(CredentialLocation location);

/// What the settings remember of a stored credential: never a secret.
struct CredentialEntry
{
    QString provider;
    QString maskedKeyId; // Credential::maskedKeyId()
    CredentialLocation location = CredentialLocation::Keychain;
};

/// The cloud credentials of the user: each provider's credential is kept in the OS keychain through QtKeychain
/// (service "gpuplanner", key = provider id, data = core::credentialToJson()). Where no keychain service runs
/// (QtKeychain answers NoBackendAvailable, NotImplemented or OtherError), the credential goes to the encrypted
/// file instead, which needs a passphrase, and fellBackToFile() says why. QSettings keeps only the list of
/// providers with their masked key ids and where each is, so the list is shown without unlocking anything.
///
/// The asynchronous calls answer on this object's thread once the keychain or the file has; file work (scrypt
/// takes a tenth of a second) runs on the thread pool. The *Now calls wait for the answer in a local event loop,
/// for the CLI and tests. Use from one thread (the one it lives in).
class CredentialStore final : public QObject
{
    Q_OBJECT

public:
    enum class Backend
    {
        Automatic,     // the keychain; the encrypted file where there is no keychain
        Keychain,      // the keychain only: an error where there is none
        EncryptedFile, // the encrypted file only (a headless server, or a test)
    };
    struct Options
    {
        Backend backend = Backend::Automatic;
        std::filesystem::path filePath; // empty: core::defaultCredentialFilePath()
        QString service = QStringLiteral("gpuplanner");
    };
    /// From the environment: $GPUPLAN_CREDENTIALS_BACKEND (auto, keychain or file) and
    /// $GPUPLAN_CREDENTIALS_FILE. Unknown values are ignored (Automatic, the default file).
    static Options optionsFromEnvironment();

    /// Asked for the encrypted file's passphrase when it is needed and none is remembered. `creating`: the file
    /// does not exist yet, so the passphrase is a new one (confirm it). An empty answer cancels.
    using PassphraseSource = std::function<core::SecretString(bool creating, const QString& filePath)>;

    template <typename T>
    using Done = std::function<void(core::Result<T>)>;

    explicit CredentialStore(Options options = optionsFromEnvironment(), QObject* parent = nullptr);
    ~CredentialStore() override;

    void setPassphraseSource(PassphraseSource source);
    /// Forgets the passphrase remembered since it was last given.
    void forgetPassphrase();

    /// Validates and stores the credential (replacing the provider's earlier one); answers where it went.
    void store(core::Credential credential, Done<CredentialLocation> done);
    /// The provider's credential. Credentials when none is stored, or the file's passphrase is wrong.
    void load(const QString& provider, Done<core::Credential> done);
    /// Removes the provider's credential from wherever it is. Credentials when none was stored.
    void remove(const QString& provider, Done<core::Ok> done);

    core::Result<CredentialLocation> storeNow(core::Credential credential);
    core::Result<core::Credential> loadNow(const QString& provider);
    core::Status removeNow(const QString& provider);

    /// The stored credentials, in credentialSpecs() order, from the settings alone.
    QList<CredentialEntry> entries() const;
    /// Why the keychain could not be used, in its own words; empty while it works or has not been tried.
    QString keychainProblem() const { return m_keychainProblem; }
    const std::filesystem::path& filePath() const { return m_options.filePath; }
    Backend backend() const { return m_options.backend; }

signals:
    /// entries() changed.
    void changed();
    /// The keychain is not available (`reason`, its own words): credentials now go to the encrypted file.
    void fellBackToFile(const QString& reason);

private:
    enum class KeychainOutcome
    {
        Done,
        NotFound,
        Unavailable, // no keychain service: fall back
        Failed,
    };
    struct KeychainAnswer
    {
        KeychainOutcome outcome = KeychainOutcome::Failed;
        QString error;
        QString text; // what a read returned (the credential's JSON)
        ~KeychainAnswer();
    };

    void writeKeychain(const core::Credential& credential, std::function<void(KeychainAnswer)> done);
    void readKeychain(const QString& provider, std::function<void(KeychainAnswer)> done);
    void deleteKeychain(const QString& provider, std::function<void(KeychainAnswer)> done);
    /// Runs `work(passphrase)` on the thread pool with the file's passphrase (asked for when not remembered)
    /// and calls `done` here with its result; the passphrase is remembered once the file accepted it.
    template <typename T>
    void withFile(bool creating, std::function<core::Result<T>(std::string_view passphrase)> work, Done<T> done);

    void storeInFile(core::Credential credential, Done<CredentialLocation> done);
    void loadFromFile(const QString& provider, Done<core::Credential> done);
    void removeFromKeychain(const QString& provider, Done<core::Ok> done);
    /// `removedElsewhere`: the keychain had it, so the file not having it is no error.
    void removeFromFile(const QString& provider, Done<core::Ok> done, bool removedElsewhere = false);
    void noteKeychainUnavailable(const QString& reason);
    bool useKeychain() const;
    std::optional<CredentialLocation> recordedLocation(const QString& provider) const;
    void record(const core::Credential& credential, CredentialLocation location);
    void forget(const QString& provider);

    Options m_options;
    PassphraseSource m_passphraseSource;
    core::SecretString m_passphrase; // remembered after the file accepted it
    QString m_keychainProblem;
};

} // namespace gpuplan::ui
