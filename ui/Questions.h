#pragma once

#include <QString>
#include <QVariant>

#include <optional>

namespace gpuplan::ui {

/// A question the GUI asks the user in a dialog.
enum class Question
{
    SaveChanges,          // the plan has unsaved changes: SaveAnswer
    FileName,             // an open or save dialog: the path (QString)
    ConfirmLaunch,        // launch (or check) this instance: bool
    ConfirmTerminate,     // terminate these instances: bool
    RemoveCredential,     // remove a provider's credential: bool
    TrustHostKey,         // trust a host key seen for the first time: bool
    KeyPassphrase,        // the passphrase of an SSH key file: QString
    CredentialPassphrase, // the passphrase of the encrypted credentials file: QString
};

/// The one test seam for every question the GUI asks (as KeePassXC's MessageBox::setNextAnswer): a page asks
/// `takeNextAnswer(kind)` before it shows its dialog, and uses a queued answer instead of showing it. Not for use
/// outside tests; the UI thread only.
class Questions
{
public:
    /// The next question of `kind` gets `answer` without a dialog.
    static void setNextAnswer(Question kind, const QVariant& answer);
    /// The answer queued for `kind`, taken; nullopt: ask the user.
    static std::optional<QVariant> takeNextAnswer(Question kind);
    /// Records the text of the last question of `kind` that was asked (or answered from the queue).
    static void recordAsked(Question kind, const QString& text);
    /// The text of the last question of `kind`, for tests that check what the user was asked.
    static QString lastAsked(Question kind);
};

} // namespace gpuplan::ui
