// The cloud credentials in the OS keychain, or in the encrypted file where no keychain service runs, with the
// settings' record of where each is. Longer than 600 lines on purpose: store, load and remove each try the keychain,
// fall back to the file and keep that record in step on every branch, so the two backends and the fallback between
// them are read and checked together (TestKeychain).

#include "CredentialStore.h"

#include "gpuplan/core/Log.h"
#include "gpuplan/core/Redaction.h"
#include "gpuplan/secrets/CredentialRedaction.h"
#include "gpuplan/secrets/EncryptedCredentialFile.h"

#include <qt6keychain/keychain.h>

#include <QEventLoop>
#include <QFutureWatcher>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>

namespace gpuplan::ui {

using core::Error;
using core::ErrorCode;

namespace {

const QString kGroup = QStringLiteral("credentials");

/// A passphrase on its way to a worker thread; wiped when the last holder lets go.
struct PassphraseHolder
{
    core::SecretString value;
    ~PassphraseHolder() { core::wipe(value); }
};

void wipeText(QString& text)
{
    if (!text.isEmpty()) {
        core::secureWipe(text.data(), std::size_t(text.size()) * sizeof(QChar));
    }
    text.clear();
}

QString settingsGroup(const QString& provider)
{
    return kGroup + QLatin1Char('/') + provider;
}

Error credentialsError(core::Reason reason, const std::string& where)
{
    return Error{ErrorCode::Credentials, std::move(reason), where};
}

/// "the keychain's entry is not a GPU Planner credential (<why>)": why it is not, the reading's error, as the
/// reason's "cause.*" parameters ("cause.key", "cause.where" and each of its parameters). Its parameters name fields
/// and places, never a secret's value.
core::Reason entryNotCredential(const Error& why)
{
    core::Reason reason{"error.secrets.keychain_entry_invalid",
                        {{"cause.key", why.reason.key}, {"cause.where", why.where}}};
    for (const auto& [name, value] : why.reason.params) {
        reason.params["cause." + name] = value;
    }
    return reason;
}

/// The result of `start`, waiting for it in a local event loop.
template <typename T>
core::Result<T> waitFor(const std::function<void(CredentialStore::Done<T>)>& start)
{
    std::optional<core::Result<T>> answer;
    QEventLoop loop;
    start([&answer, &loop](core::Result<T> result) {
        answer.emplace(std::move(result));
        loop.quit();
    });
    if (!answer) {
        loop.exec();
    }
    return std::move(*answer);
}

/// Calls `done` from the event loop rather than from inside the call that was asked, so that every answer
/// comes the same way.
template <typename T>
void answerLater(QObject* context, CredentialStore::Done<T> done, core::Result<T> result)
{
    QMetaObject::invokeMethod(
        context, [done = std::move(done), result = std::move(result)] { done(result); }, Qt::QueuedConnection);
}

} // namespace

QString credentialLocationKey(CredentialLocation location)
{
    switch (location) {
        case CredentialLocation::Keychain:
            return QStringLiteral("keychain");
        case CredentialLocation::EncryptedFile:
            return QStringLiteral("encrypted_file");
    }
    return {};
}

CredentialStore::KeychainAnswer::~KeychainAnswer()
{
    wipeText(text);
}

CredentialStore::Options CredentialStore::optionsFromEnvironment()
{
    Options options;
    const QString backend = qEnvironmentVariable("GPUPLAN_CREDENTIALS_BACKEND");
    if (backend == QLatin1String("file")) {
        options.backend = Backend::EncryptedFile;
    } else if (backend == QLatin1String("keychain")) {
        options.backend = Backend::Keychain;
    }
    const QString file = qEnvironmentVariable("GPUPLAN_CREDENTIALS_FILE");
    if (!file.isEmpty()) {
        options.filePath = file.toStdString();
    }
    return options;
}

CredentialStore::CredentialStore(Options options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    if (m_options.filePath.empty()) {
        m_options.filePath = core::defaultCredentialFilePath();
    }
}

CredentialStore::~CredentialStore()
{
    core::wipe(m_passphrase);
}

void CredentialStore::setPassphraseSource(PassphraseSource source)
{
    m_passphraseSource = std::move(source);
}

void CredentialStore::forgetPassphrase()
{
    core::wipe(m_passphrase);
}

bool CredentialStore::useKeychain() const
{
    switch (m_options.backend) {
        case Backend::Keychain:
            return true;
        case Backend::EncryptedFile:
            return false;
        case Backend::Automatic:
            return m_keychainProblem.isEmpty(); // once it failed, this session goes straight to the file
    }
    return true;
}

void CredentialStore::noteKeychainUnavailable(const QString& reason)
{
    const bool first = m_keychainProblem.isEmpty();
    m_keychainProblem = reason.isEmpty() ? QStringLiteral("no keychain service") : reason;
    core::logInfo(core::LogCategory::Secrets,
                  [&] { return "the keychain is not available (" + m_keychainProblem.toStdString() + ")"; });
    if (first && m_options.backend == Backend::Automatic) {
        emit fellBackToFile(m_keychainProblem);
    }
}

std::optional<CredentialLocation> CredentialStore::recordedLocation(const QString& provider) const
{
    const QString location = QSettings().value(settingsGroup(provider) + QStringLiteral("/location")).toString();
    if (location == credentialLocationKey(CredentialLocation::Keychain)) {
        return CredentialLocation::Keychain;
    }
    if (location == credentialLocationKey(CredentialLocation::EncryptedFile)) {
        return CredentialLocation::EncryptedFile;
    }
    return std::nullopt;
}

void CredentialStore::record(const core::Credential& credential, CredentialLocation location)
{
    QSettings settings;
    settings.beginGroup(settingsGroup(QString::fromStdString(credential.provider())));
    settings.setValue(QStringLiteral("keyId"), QString::fromStdString(credential.maskedKeyId()));
    settings.setValue(QStringLiteral("location"), credentialLocationKey(location));
    settings.endGroup();
    settings.sync();
    emit changed();
}

void CredentialStore::forget(const QString& provider)
{
    QSettings settings;
    settings.remove(settingsGroup(provider));
    settings.sync();
    emit changed();
}

QList<CredentialEntry> CredentialStore::entries() const
{
    QList<CredentialEntry> entries;
    const QSettings settings;
    for (const core::CredentialSpec& spec : core::credentialSpecs()) {
        const QString provider = QString::fromUtf8(spec.provider.data(), qsizetype(spec.provider.size()));
        const std::optional<CredentialLocation> location = recordedLocation(provider);
        if (location) {
            entries.append(
                {provider, settings.value(settingsGroup(provider) + QStringLiteral("/keyId")).toString(), *location});
        }
    }
    return entries;
}

// ---- the keychain -------------------------------------------------------------------------------------------

namespace {

template <typename Answer>
Answer answerOf(const QKeychain::Job& job)
{
    Answer answer;
    answer.error = job.errorString();
    switch (job.error()) {
        case QKeychain::NoError:
            answer.outcome = decltype(answer.outcome)::Done;
            break;
        case QKeychain::EntryNotFound:
            answer.outcome = decltype(answer.outcome)::NotFound;
            break;
        // No Secret Service on the session bus (or no session bus), no KWallet: the platform has no keychain
        // we can reach. QtKeychain's libsecret backend reports a missing service as OtherError.
        case QKeychain::NoBackendAvailable:
        case QKeychain::NotImplemented:
        case QKeychain::OtherError:
            answer.outcome = decltype(answer.outcome)::Unavailable;
            break;
        case QKeychain::CouldNotDeleteEntry:
        case QKeychain::AccessDeniedByUser:
        case QKeychain::AccessDenied:
            answer.outcome = decltype(answer.outcome)::Failed;
            break;
    }
    return answer;
}

} // namespace

void CredentialStore::writeKeychain(const core::Credential& credential, std::function<void(KeychainAnswer)> done)
{
    auto* job = new QKeychain::WritePasswordJob(m_options.service, this);
    job->setAutoDelete(true);
    job->setKey(QString::fromStdString(credential.provider()));
    core::SecretString json = core::credentialToJson(credential);
    QString text = QString::fromUtf8(json.data(), qsizetype(json.size()));
    core::wipe(json);
    job->setTextData(text); // the job keeps its own UTF-8 copy
    wipeText(text);
    connect(job, &QKeychain::Job::finished, this, [done = std::move(done)](QKeychain::Job* finished) {
        done(answerOf<KeychainAnswer>(*finished));
    });
    job->start();
}

void CredentialStore::readKeychain(const QString& provider, std::function<void(KeychainAnswer)> done)
{
    auto* job = new QKeychain::ReadPasswordJob(m_options.service, this);
    job->setAutoDelete(true);
    job->setKey(provider);
    connect(job, &QKeychain::Job::finished, this, [done = std::move(done)](QKeychain::Job* finished) {
        KeychainAnswer answer = answerOf<KeychainAnswer>(*finished);
        if (answer.outcome == KeychainOutcome::Done) {
            answer.text = static_cast<QKeychain::ReadPasswordJob*>(finished)->textData();
        }
        done(std::move(answer));
    });
    job->start();
}

void CredentialStore::deleteKeychain(const QString& provider, std::function<void(KeychainAnswer)> done)
{
    auto* job = new QKeychain::DeletePasswordJob(m_options.service, this);
    job->setAutoDelete(true);
    job->setKey(provider);
    connect(job, &QKeychain::Job::finished, this, [done = std::move(done)](QKeychain::Job* finished) {
        done(answerOf<KeychainAnswer>(*finished));
    });
    job->start();
}

// ---- the encrypted file -------------------------------------------------------------------------------------

template <typename T>
void CredentialStore::withFile(bool creating,
                               std::function<core::Result<T>(std::string_view passphrase)> work,
                               Done<T> done)
{
    const std::string where = m_options.filePath.string();
    if (m_options.filePath.empty()) {
        answerLater<T>(
            this, std::move(done), credentialsError(core::Reason{"error.secrets.no_file_place"}, "credentials file"));
        return;
    }
    auto passphrase = std::make_shared<PassphraseHolder>();
    passphrase->value = m_passphrase;
    const bool remembered = !passphrase->value.empty();
    if (!remembered) {
        if (m_passphraseSource) {
            passphrase->value = m_passphraseSource(creating, QString::fromStdString(where));
        }
        core::registerSecret(std::string_view(passphrase->value.data(), passphrase->value.size()));
        if (passphrase->value.empty()) {
            answerLater<T>(this,
                           std::move(done),
                           Error{ErrorCode::Cancelled, core::Reason{"error.secrets.passphrase_not_given"}, where});
            return;
        }
    }
    using Outcome = std::shared_ptr<core::Result<T>>;
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, passphrase, done = std::move(done)] {
        const Outcome outcome = watcher->result();
        watcher->deleteLater();
        if (outcome->ok()) {
            m_passphrase = passphrase->value; // the file took it: do not ask again in this session
        } else if (outcome->error().code == ErrorCode::Credentials) {
            core::wipe(m_passphrase); // wrong, or the file is damaged: ask afresh next time
        }
        done(*outcome);
    });
    watcher->setFuture(QtConcurrent::run([work = std::move(work), passphrase] {
        return std::make_shared<core::Result<T>>(
            work(std::string_view(passphrase->value.data(), passphrase->value.size())));
    }));
}

void CredentialStore::storeInFile(core::Credential credential, Done<CredentialLocation> done)
{
    const core::EncryptedCredentialFile file(m_options.filePath);
    auto shared = std::make_shared<const core::Credential>(std::move(credential));
    withFile<CredentialLocation>(
        !file.exists(),
        [file, shared](std::string_view passphrase) -> core::Result<CredentialLocation> {
            if (core::Status put = file.put(*shared, passphrase); !put) {
                return put.error();
            }
            return CredentialLocation::EncryptedFile;
        },
        [this, shared, done = std::move(done)](core::Result<CredentialLocation> result) {
            if (result) {
                record(*shared, CredentialLocation::EncryptedFile);
            }
            done(std::move(result));
        });
}

void CredentialStore::loadFromFile(const QString& provider, Done<core::Credential> done)
{
    const core::EncryptedCredentialFile file(m_options.filePath);
    const std::string id = provider.toStdString();
    if (!file.exists()) {
        answerLater<core::Credential>(
            this, std::move(done), credentialsError(core::Reason{"error.secrets.none_stored"}, id));
        return;
    }
    withFile<core::Credential>(
        false,
        [file, id](std::string_view passphrase) -> core::Result<core::Credential> {
            core::Result<std::vector<core::Credential>> loaded = file.load(passphrase);
            if (!loaded) {
                return loaded.error();
            }
            for (core::Credential& credential : loaded.value()) {
                if (credential.provider() == id) {
                    return std::move(credential);
                }
            }
            return credentialsError(core::Reason{"error.secrets.none_stored_in", {{"path", file.path().string()}}}, id);
        },
        std::move(done));
}

void CredentialStore::removeFromFile(const QString& provider, Done<core::Ok> done, bool removedElsewhere)
{
    const core::EncryptedCredentialFile file(m_options.filePath);
    const std::string id = provider.toStdString();
    const bool recorded = removedElsewhere || recordedLocation(provider).has_value();
    if (!file.exists()) {
        if (recorded) {
            forget(provider);
            answerLater<core::Ok>(this, std::move(done), core::Ok{});
        } else {
            answerLater<core::Ok>(
                this, std::move(done), credentialsError(core::Reason{"error.secrets.none_stored"}, id));
        }
        return;
    }
    withFile<bool>(
        false,
        [file, id](std::string_view passphrase) { return file.remove(id, passphrase); },
        [this, provider, id, recorded, done = std::move(done)](core::Result<bool> removed) {
            if (!removed) {
                done(removed.error());
                return;
            }
            forget(provider);
            if (!*removed && !recorded) {
                done(credentialsError(core::Reason{"error.secrets.none_stored"}, id));
                return;
            }
            done(core::Ok{});
        });
}

// ---- what callers see ---------------------------------------------------------------------------------------

void CredentialStore::store(core::Credential credential, Done<CredentialLocation> done)
{
    // Registered before anything else is done with it: from here on no log line can show it.
    core::registerCredentialSecrets(credential);
    if (core::Status valid = credential.validate(); !valid) {
        answerLater<CredentialLocation>(this, std::move(done), valid.error());
        return;
    }
    core::logInfo(core::LogCategory::Secrets, [&] {
        return "storing the " + credential.describe() + " credential in "
               + (useKeychain() ? "the keychain" : "the encrypted file " + m_options.filePath.string());
    });
    if (!useKeychain()) {
        storeInFile(std::move(credential), std::move(done));
        return;
    }
    auto shared = std::make_shared<core::Credential>(std::move(credential));
    writeKeychain(*shared, [this, shared, done = std::move(done)](KeychainAnswer answer) mutable {
        const QString provider = QString::fromStdString(shared->provider());
        switch (answer.outcome) {
            case KeychainOutcome::Done: {
                const bool wasInFile = recordedLocation(provider) == CredentialLocation::EncryptedFile;
                record(*shared, CredentialLocation::Keychain);
                if (!wasInFile) {
                    done(CredentialLocation::Keychain);
                    return;
                }
                // The keychain is back: the older copy in the file goes, so there is one credential per provider.
                const core::EncryptedCredentialFile file(m_options.filePath);
                const std::string id = shared->provider();
                withFile<bool>(
                    false,
                    [file, id](std::string_view passphrase) { return file.remove(id, passphrase); },
                    [file, done = std::move(done)](core::Result<bool> removed) {
                        if (!removed) {
                            done(removed.error().within(core::Reason{"error.secrets.keychain_stored_file_kept"}));
                            return;
                        }
                        done(CredentialLocation::Keychain);
                    });
                return;
            }
            case KeychainOutcome::Unavailable:
                noteKeychainUnavailable(answer.error);
                if (m_options.backend == Backend::Automatic) {
                    storeInFile(std::move(*shared), std::move(done));
                    return;
                }
                done(credentialsError(
                    core::Reason{"error.secrets.keychain_unavailable", {{"said", answer.error.toStdString()}}},
                    "keychain"));
                return;
            case KeychainOutcome::NotFound:
            case KeychainOutcome::Failed:
                done(credentialsError(
                    core::Reason{"error.secrets.keychain_refused_store", {{"said", answer.error.toStdString()}}},
                    "keychain"));
                return;
        }
    });
}

void CredentialStore::load(const QString& provider, Done<core::Credential> done)
{
    const std::string id = provider.toStdString();
    if (!core::credentialSpec(id)) {
        answerLater<core::Credential>(
            this,
            std::move(done),
            Error{ErrorCode::UnknownProvider, core::Reason{"error.secrets.unknown_provider_id"}, id});
        return;
    }
    const std::optional<CredentialLocation> location = recordedLocation(provider);
    core::logDebug(core::LogCategory::Secrets, [&] {
        return "loading the " + id + " credential from "
               + (location == CredentialLocation::EncryptedFile || !useKeychain() ? "the encrypted file"
                                                                                  : "the keychain");
    });
    if (location == CredentialLocation::EncryptedFile || !useKeychain()) {
        loadFromFile(provider, std::move(done));
        return;
    }
    readKeychain(provider, [this, provider, id, location, done = std::move(done)](KeychainAnswer answer) {
        switch (answer.outcome) {
            case KeychainOutcome::Done: {
                QByteArray utf8 = answer.text.toUtf8();
                core::Result<core::Credential> credential =
                    core::credentialFromJson(std::string_view(utf8.constData(), std::size_t(utf8.size())));
                core::secureWipe(utf8.data(), std::size_t(utf8.size()));
                if (!credential) {
                    done(credentialsError(entryNotCredential(credential.error()), "keychain: " + id));
                } else if (credential->provider() != id) {
                    core::registerCredentialSecrets(*credential);
                    done(credentialsError(
                        core::Reason{"error.secrets.keychain_entry_other", {{"provider", credential->provider()}}},
                        "keychain: " + id));
                } else {
                    core::registerCredentialSecrets(*credential);
                    core::logInfo(core::LogCategory::Secrets, [&] {
                        return "loaded the " + credential->describe() + " credential from the keychain";
                    });
                    done(std::move(credential));
                }
                return;
            }
            case KeychainOutcome::NotFound:
                if (!location && m_options.backend == Backend::Automatic) {
                    loadFromFile(provider, std::move(done));
                    return;
                }
                done(credentialsError(core::Reason{"error.secrets.none_in_keychain"}, id));
                return;
            case KeychainOutcome::Unavailable:
                noteKeychainUnavailable(answer.error);
                if (m_options.backend == Backend::Automatic && location != CredentialLocation::Keychain) {
                    loadFromFile(provider, std::move(done));
                    return;
                }
                done(credentialsError(
                    core::Reason{"error.secrets.keychain_unavailable", {{"said", answer.error.toStdString()}}},
                    "keychain"));
                return;
            case KeychainOutcome::Failed:
                done(credentialsError(
                    core::Reason{"error.secrets.keychain_refused_give", {{"said", answer.error.toStdString()}}},
                    "keychain"));
                return;
        }
    });
}

void CredentialStore::remove(const QString& provider, Done<core::Ok> done)
{
    const std::string id = provider.toStdString();
    core::logInfo(core::LogCategory::Secrets, [&] { return "removing the " + id + " credential"; });
    if (!core::credentialSpec(id)) {
        answerLater<core::Ok>(this,
                              std::move(done),
                              Error{ErrorCode::UnknownProvider, core::Reason{"error.secrets.unknown_provider_id"}, id});
        return;
    }
    const std::optional<CredentialLocation> location = recordedLocation(provider);
    if (location == CredentialLocation::EncryptedFile || !useKeychain()) {
        removeFromFile(provider, std::move(done));
        return;
    }
    if (location == CredentialLocation::Keychain) {
        removeFromKeychain(provider, std::move(done));
        return;
    }
    // Not in the settings (they were reset, or another program stored it): a delete answers "done" whether or
    // not there was an entry, so look first, to say "nothing stored" when nothing was.
    readKeychain(provider, [this, provider, id, done = std::move(done)](KeychainAnswer answer) mutable {
        const bool inFile =
            m_options.backend == Backend::Automatic && core::EncryptedCredentialFile(m_options.filePath).exists();
        switch (answer.outcome) {
            case KeychainOutcome::Done:
                removeFromKeychain(provider, [this, provider, inFile, done = std::move(done)](core::Status removed) {
                    if (removed && inFile) {
                        removeFromFile(provider, std::move(done), true);
                        return;
                    }
                    done(std::move(removed));
                });
                return;
            case KeychainOutcome::NotFound:
            case KeychainOutcome::Unavailable:
                if (answer.outcome == KeychainOutcome::Unavailable) {
                    noteKeychainUnavailable(answer.error);
                }
                if (inFile) {
                    removeFromFile(provider, std::move(done));
                    return;
                }
                done(answer.outcome == KeychainOutcome::NotFound
                         ? credentialsError(core::Reason{"error.secrets.none_stored"}, id)
                         : credentialsError(
                             core::Reason{"error.secrets.keychain_unavailable", {{"said", answer.error.toStdString()}}},
                             "keychain"));
                return;
            case KeychainOutcome::Failed:
                done(credentialsError(
                    core::Reason{"error.secrets.keychain_refused_lookup", {{"said", answer.error.toStdString()}}},
                    "keychain"));
                return;
        }
    });
}

void CredentialStore::removeFromKeychain(const QString& provider, Done<core::Ok> done)
{
    deleteKeychain(provider, [this, provider, done = std::move(done)](KeychainAnswer answer) {
        switch (answer.outcome) {
            case KeychainOutcome::Done:
            case KeychainOutcome::NotFound:
                forget(provider); // a recorded entry that the keychain no longer has is gone all the same
                done(core::Ok{});
                return;
            case KeychainOutcome::Unavailable:
                noteKeychainUnavailable(answer.error);
                done(credentialsError(
                    core::Reason{"error.secrets.keychain_unavailable", {{"said", answer.error.toStdString()}}},
                    "keychain"));
                return;
            case KeychainOutcome::Failed:
                done(credentialsError(
                    core::Reason{"error.secrets.keychain_refused_remove", {{"said", answer.error.toStdString()}}},
                    "keychain"));
                return;
        }
    });
}

core::Result<CredentialLocation> CredentialStore::storeNow(core::Credential credential)
{
    auto shared = std::make_shared<core::Credential>(std::move(credential));
    return waitFor<CredentialLocation>(
        [this, shared](Done<CredentialLocation> done) { store(std::move(*shared), std::move(done)); });
}

core::Result<core::Credential> CredentialStore::loadNow(const QString& provider)
{
    return waitFor<core::Credential>(
        [this, provider](Done<core::Credential> done) { load(provider, std::move(done)); });
}

core::Status CredentialStore::removeNow(const QString& provider)
{
    return waitFor<core::Ok>([this, provider](Done<core::Ok> done) { remove(provider, std::move(done)); });
}

} // namespace gpuplan::ui
