#pragma once

#include <QCoreApplication>

#include <memory>
#include <optional>
#include <string>

namespace gpuplan::ui {
class CredentialStore;
}

namespace gpuplan::cli {

enum class CredsCommand
{
    Set,
    List,
    Remove,
};

struct CredsOptions
{
    std::string provider;
    bool fromStdin = false; // set: the fields as one JSON object on stdin (gcp: the key file's JSON)
    std::string keyFile;    // set, gcp: the service-account key file
    bool json = false;      // list
};

/// `gpuplan creds set PROVIDER [--stdin | --key-file FILE]`, `gpuplan creds list [--json]` and
/// `gpuplan creds remove PROVIDER`. Credentials go to the OS keychain, or to the encrypted file where no keychain
/// runs (its passphrase from $GPUPLAN_CREDENTIALS_PASSPHRASE, else asked on the terminal); no secret is ever
/// printed. Creates the QCoreApplication the keychain jobs need. Exit 2 for an unknown provider (naming the
/// known ones) or bad fields, 1 when the keychain or the file fails.
int runCreds(int& argc, char** argv, CredsCommand command, const CredsOptions& options);

/// The QCoreApplication the keychain's jobs need (they run on Qt's event loop, D-Bus on Linux), named as the GUI is so
/// that the settings file is the GUI's.
void makeApplication(int& argc, char** argv, std::optional<QCoreApplication>& app);

/// The credential store as `gpuplan creds` uses it (the encrypted file's passphrase from
/// $GPUPLAN_CREDENTIALS_PASSPHRASE or the terminal; a notice when the keychain is not there), for the commands that
/// sign requests. Needs a QCoreApplication.
std::unique_ptr<ui::CredentialStore> openCredentialStore();

} // namespace gpuplan::cli
