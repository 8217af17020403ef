#include "dialogs/SshQuestions.h"

#include "Questions.h"

#include <QCoreApplication>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>

namespace gpuplan::ui {

namespace {

/// The translation context of these questions.
struct SshQuestions
{
    Q_DECLARE_TR_FUNCTIONS(SshQuestions)
};

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

bool askToTrustHostKey(QWidget* parent, const core::HostKey& key)
{
    if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::TrustHostKey)) {
        return next->toBool();
    }
    QMessageBox box(QMessageBox::Question,
                    SshQuestions::tr("Unknown host key"),
                    SshQuestions::tr("This is the first connection to %1. Its %2 key fingerprint is:\n\n%3\n\nCompare "
                                     "it with the one the provider's console shows for the instance. Trust it and add "
                                     "it to known_hosts?")
                        .arg(q(key.host), q(key.type), q(key.fingerprint)),
                    QMessageBox::Yes | QMessageBox::No,
                    parent);
    box.setDefaultButton(QMessageBox::No);
    box.setTextInteractionFlags(Qt::TextSelectableByMouse);
    return box.exec() == QMessageBox::Yes;
}

std::optional<std::string> askForKeyPassphrase(QWidget* parent, const std::string& keyFile)
{
    if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::KeyPassphrase)) {
        return next->toString().toStdString();
    }
    bool ok = false;
    const QString given = QInputDialog::getText(parent,
                                                SshQuestions::tr("Key passphrase"),
                                                SshQuestions::tr("The passphrase of %1:").arg(q(keyFile)),
                                                QLineEdit::Password,
                                                QString(),
                                                &ok);
    return ok ? std::optional<std::string>(given.toStdString()) : std::nullopt;
}

UiThreadPrompter::Answers sshLoginAnswers(QWidget* page)
{
    UiThreadPrompter::Answers answers;
    answers.trustNewHostKey = [page](const core::HostKey& key) { return askToTrustHostKey(page, key); };
    answers.passphrase = [page](const std::string& keyFile) { return askForKeyPassphrase(page, keyFile); };
    return answers;
}

} // namespace gpuplan::ui
