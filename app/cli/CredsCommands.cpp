#include "CredsCommands.h"

#include "CatalogCommands.h"
#include "TerminalOutput.h"
#include "TextTable.h"
#include "secrets/CredentialStore.h"
#include "wording/Format.h"
#include "wording/ProviderText.h"

#include "gpuplan/core/Names.h"
#include "gpuplan/secrets/Credential.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace gpuplan::cli {

namespace {

using core::SecretString;
using ui::CredentialLocation;
using ui::CredentialStore;

// ---- the terminal -------------------------------------------------------------------------------------------

// The terminal's settings while echo is off, restored by the SIGINT handler so Ctrl-C never leaves it mute.
int g_ttyFd = -1;
struct termios g_savedTermios;
volatile std::sig_atomic_t g_echoOff = 0;

extern "C" void restoreTerminalAndExit(int signal)
{
    if (g_echoOff) {
        ::tcsetattr(g_ttyFd, TCSAFLUSH, &g_savedTermios);
        [[maybe_unused]] const ssize_t n = ::write(g_ttyFd, "\n", 1);
    }
    ::_exit(128 + signal);
}

/// The controlling terminal, for prompts (also when stdin is a pipe). -1 when there is none.
int terminal()
{
    if (g_ttyFd < 0) {
        g_ttyFd = ::open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
    }
    return g_ttyFd;
}

void writeTo(int fd, const std::string& text)
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n <= 0) {
            return;
        }
        done += std::size_t(n);
    }
}

/// One line typed on the terminal, without its newline; with echo off for secrets. nullopt at end of input.
std::optional<SecretString> prompt(const std::string& question, bool secret)
{
    const int fd = terminal();
    if (fd < 0) {
        return std::nullopt;
    }
    writeTo(fd, question);
    if (secret && ::tcgetattr(fd, &g_savedTermios) == 0) {
        struct termios quiet = g_savedTermios;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        quiet.c_lflag |= ECHONL;
        std::signal(SIGINT, restoreTerminalAndExit);
        std::signal(SIGTERM, restoreTerminalAndExit);
        g_echoOff = 1;
        ::tcsetattr(fd, TCSAFLUSH, &quiet);
    }
    SecretString line;
    char c = 0;
    bool ended = false;
    for (;;) {
        const ssize_t n = ::read(fd, &c, 1);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            ended = line.empty();
            break;
        }
        if (c == '\n') {
            break;
        }
        line += c;
    }
    c = 0;
    if (g_echoOff) {
        ::tcsetattr(fd, TCSAFLUSH, &g_savedTermios);
        g_echoOff = 0;
    }
    if (ended) {
        return std::nullopt;
    }
    if (!line.empty() && line.back() == '\r') {
        line.pop_back();
    }
    return line;
}

std::string providerList()
{
    std::string list;
    for (const std::string& id : core::credentialProviderIds()) {
        list += (list.empty() ? "" : ", ") + id;
    }
    return list;
}

int badInput(const std::string& message)
{
    std::cerr << "gpuplan: " << message << '\n';
    return kExitBadInput;
}

int failure(const core::Error& error)
{
    std::cerr << "gpuplan: " << said(error) << '\n';
    const bool bad = error.code == core::ErrorCode::InvalidArgument || error.code == core::ErrorCode::UnknownProvider
                     || error.code == core::ErrorCode::SchemaViolation || error.code == core::ErrorCode::JsonSyntax;
    return bad ? kExitBadInput : kExitFailure;
}

std::string locationText(CredentialLocation location, const CredentialStore& store)
{
    return location == CredentialLocation::Keychain ? "the system keychain"
                                                    : "the encrypted file " + store.filePath().string();
}

// ---- reading a credential -----------------------------------------------------------------------------------

core::Result<std::string> readFile(const std::string& path, const std::string& what)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return ui::frontEndError(core::ErrorCode::FileNotFound, "cannot open the " + what, path);
    }
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

core::Result<core::Credential> serviceAccountFrom(std::string keyJson, const std::string& where)
{
    core::Result<core::Credential> credential = core::credentialFromServiceAccountKey(keyJson);
    core::secureWipe(keyJson.data(), keyJson.size());
    if (!credential) {
        core::Error error = credential.error();
        error.where = where + ": " + error.where;
        return error;
    }
    return credential;
}

/// The credential from --stdin, --key-file or the terminal's prompts; not yet validated.
core::Result<core::Credential> readCredential(const core::CredentialSpec& spec, const CredsOptions& options)
{
    const std::string provider(spec.provider);
    if (!options.keyFile.empty()) {
        if (provider != "gcp") {
            return ui::frontEndError(core::ErrorCode::InvalidArgument,
                                     "--key-file is for gcp's service-account key; " + provider
                                         + " takes its fields on the terminal or with --stdin",
                                     "--key-file");
        }
        core::Result<std::string> key = readFile(options.keyFile, "service-account key file");
        if (!key) {
            return key.error();
        }
        return serviceAccountFrom(std::move(key).value(), options.keyFile);
    }
    if (options.fromStdin) {
        std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        core::Result<core::Credential> credential =
            provider == "gcp" ? serviceAccountFrom(input, "stdin") : core::credentialFromFieldsJson(provider, input);
        core::secureWipe(input.data(), input.size());
        return credential;
    }
    if (terminal() < 0) {
        return ui::frontEndError(core::ErrorCode::InvalidArgument,
                                 "no terminal to ask on: give the fields as JSON with --stdin"
                                     + std::string(provider == "gcp" ? ", or the key file with --key-file" : ""),
                                 "creds set");
    }
    if (provider == "gcp") {
        std::optional<SecretString> path = prompt("Service-account key file (.json): ", false);
        if (!path || path->empty()) {
            return ui::frontEndError(core::ErrorCode::InvalidArgument, "no key file given", "--key-file");
        }
        const std::string file(path->data(), path->size());
        core::Result<std::string> key = readFile(file, "service-account key file");
        if (!key) {
            return key.error();
        }
        return serviceAccountFrom(std::move(key).value(), file);
    }
    core::Credential credential(provider);
    for (const core::CredentialFieldSpec& field : spec.fields) {
        const bool secret = field.kind == core::CredentialFieldKind::Secret;
        std::string question =
            std::string(spec.displayName) + " " + ui::credentialFieldLabel(spec.provider, field.name).toStdString();
        question += field.required ? "" : " (optional, Enter to skip)";
        question += secret ? " (not shown): " : ": ";
        std::optional<SecretString> value = prompt(question, secret);
        if (!value) {
            return ui::frontEndError(core::ErrorCode::Cancelled, "input ended", std::string(field.name));
        }
        credential.set(field.name, std::move(*value));
    }
    return credential;
}

/// The encrypted file's passphrase: $GPUPLAN_CREDENTIALS_PASSPHRASE (for scripts), else typed twice on the
/// terminal for a new file and once for an existing one. Empty: none.
SecretString passphrase(bool creating, const QString& file)
{
    if (const char* given = std::getenv("GPUPLAN_CREDENTIALS_PASSPHRASE"); given && *given) {
        return SecretString(given);
    }
    if (terminal() < 0) {
        std::cerr << "gpuplan: the encrypted credentials file " << file.toStdString()
                  << " needs a passphrase: run in a terminal, or set GPUPLAN_CREDENTIALS_PASSPHRASE\n";
        return {};
    }
    if (!creating) {
        return prompt("Passphrase of " + file.toStdString() + " (not shown): ", true).value_or(SecretString());
    }
    writeTo(
        terminal(),
        "The credentials will be kept in the encrypted file " + file.toStdString()
            + ".\nChoose its passphrase. It cannot be recovered: without it the credentials have to be set again.\n");
    for (int attempt = 0; attempt < 3; ++attempt) {
        std::optional<SecretString> first = prompt("New passphrase (not shown): ", true);
        if (!first || first->empty()) {
            return {};
        }
        std::optional<SecretString> second = prompt("The same again: ", true);
        if (second && *second == *first) {
            return std::move(*first);
        }
        writeTo(terminal(), "The two differ; once more.\n");
    }
    return {};
}

void tellAboutFallback(CredentialStore& store)
{
    QObject::connect(&store, &CredentialStore::fellBackToFile, &store, [&store](const QString& reason) {
        std::cerr << "gpuplan: the system keychain is not available here (" << reason.toStdString()
                  << "); credentials are kept in the encrypted file " << store.filePath().string()
                  << " instead, locked with a passphrase.\n";
    });
}

int runSet(CredentialStore& store, const core::CredentialSpec& spec, const CredsOptions& options)
{
    core::Result<core::Credential> credential = readCredential(spec, options);
    if (!credential) {
        return failure(credential.error());
    }
    if (core::Status valid = credential->validate(); !valid) {
        return failure(valid.error());
    }
    const std::string described = credential->describe();
    core::Result<CredentialLocation> stored = store.storeNow(std::move(credential).value());
    if (!stored) {
        return failure(stored.error());
    }
    std::cout << "Stored the " << described << " credential in " << locationText(*stored, store) << ".\n";
    return kExitOk;
}

int runList(CredentialStore& store, const CredsOptions& options)
{
    const QList<ui::CredentialEntry> entries = store.entries();
    if (options.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const ui::CredentialEntry& entry : entries) {
            list.push_back({{"provider", entry.provider.toStdString()},
                            {"key_id", entry.maskedKeyId.toStdString()},
                            {"stored_in", ui::credentialLocationKey(entry.location).toStdString()}});
        }
        std::cout << nlohmann::json{{"credentials", list}, {"encrypted_file", store.filePath().string()}}.dump(2)
                  << '\n';
        return kExitOk;
    }
    if (entries.isEmpty()) {
        std::cout << "No credentials are stored. Set one with: gpuplan creds set PROVIDER (" << providerList() << ")\n";
        return kExitOk;
    }
    TextTable table({{"PROVIDER"}, {"KEY ID"}, {"STORED IN"}});
    for (const ui::CredentialEntry& entry : entries) {
        table.addRow({entry.provider.toStdString(),
                      entry.maskedKeyId.isEmpty() ? "-" : entry.maskedKeyId.toStdString(),
                      entry.location == CredentialLocation::Keychain ? "keychain" : "encrypted file"});
    }
    table.print(std::cout);
    return kExitOk;
}

int runRemove(CredentialStore& store, const std::string& provider)
{
    if (core::Status removed = store.removeNow(QString::fromStdString(provider)); !removed) {
        return failure(removed.error());
    }
    std::cout << "Removed the " << provider << " credential.\n";
    return kExitOk;
}

} // namespace

void makeApplication(int& argc, char** argv, std::optional<QCoreApplication>& app)
{
    app.emplace(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gpuplanner"));
    QCoreApplication::setOrganizationName(QStringLiteral("gpuplanner"));
}

std::unique_ptr<ui::CredentialStore> openCredentialStore()
{
    auto store = std::make_unique<ui::CredentialStore>();
    store->setPassphraseSource(passphrase);
    tellAboutFallback(*store);
    return store;
}

int runCreds(int& argc, char** argv, CredsCommand command, const CredsOptions& options)
{
    const core::CredentialSpec* spec = nullptr;
    if (command != CredsCommand::List) {
        spec = core::credentialSpec(options.provider);
        if (!spec) {
            std::string message = "unknown provider \"" + options.provider + "\"; known: " + providerList();
            const std::vector<std::string> close = core::closestNames(options.provider, core::credentialProviderIds());
            if (!close.empty()) {
                message += " (did you mean "
                           + ui::alternativesText(QString::fromStdString(core::joinedNames(close))).toStdString()
                           + "?)";
            }
            return badInput(message);
        }
    }
    std::optional<QCoreApplication> app;
    makeApplication(argc, argv, app);
    CredentialStore store;
    store.setPassphraseSource(passphrase);
    tellAboutFallback(store);
    switch (command) {
        case CredsCommand::Set:
            return runSet(store, *spec, options);
        case CredsCommand::List:
            return runList(store, options);
        case CredsCommand::Remove:
            return runRemove(store, options.provider);
    }
    return kExitFailure;
}

} // namespace gpuplan::cli
