#include "CredentialsPage.h"

#include "MainWindow.h"
#include "Questions.h"
#include "dialogs/CredentialDialog.h"
#include "secrets/CredentialStore.h"
#include "wording/ProviderText.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace gpuplan::ui {

namespace {

constexpr int kProviderRole = Qt::UserRole;

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString locationText(CredentialLocation location)
{
    switch (location) {
        case CredentialLocation::Keychain:
            return CredentialsPage::tr("System keychain");
        case CredentialLocation::EncryptedFile:
            return CredentialsPage::tr("Encrypted file");
    }
    return {};
}

/// A cancel here is always an unanswered passphrase question.
QString storeErrorText(const core::Error& error)
{
    if (error.code == core::ErrorCode::Cancelled) {
        return CredentialsPage::tr("Cancelled: no passphrase was given.");
    }
    return errorText(error);
}

core::SecretString toSecret(QString text)
{
    QByteArray utf8 = text.toUtf8();
    core::SecretString secret(utf8.constData(), std::size_t(utf8.size()));
    core::secureWipe(utf8.data(), std::size_t(utf8.size()));
    core::secureWipe(text.data(), std::size_t(text.size()) * sizeof(QChar));
    return secret;
}

/// Asks for the encrypted file's passphrase; twice, to be sure of it, when the file is new. Empty: cancelled.
QString askPassphrase(QWidget* parent, bool creating, const QString& path)
{
    if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::CredentialPassphrase)) {
        return next->toString();
    }
    QDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("passphraseDialog"));
    dialog.setWindowTitle(CredentialsPage::tr("Passphrase of the credentials file"));
    auto* text = new QLabel(
        creating ? CredentialsPage::tr("No keychain service is available here, so the credentials are kept in an "
                                       "encrypted file:\n%1\n\nChoose a passphrase for it. It cannot be recovered: "
                                       "without it the credentials have to be set again.")
                       .arg(path)
                 : CredentialsPage::tr("Enter the passphrase of the encrypted credentials file:\n%1").arg(path),
        &dialog);
    text->setObjectName(QStringLiteral("passphraseTextLabel"));
    text->setWordWrap(true);
    auto* passphrase = new QLineEdit(&dialog);
    passphrase->setObjectName(QStringLiteral("passphraseEdit"));
    passphrase->setEchoMode(QLineEdit::Password);
    passphrase->setToolTip(CredentialsPage::tr("Remembered until the program closes, never saved"));
    auto* confirm = new QLineEdit(&dialog);
    confirm->setObjectName(QStringLiteral("passphraseConfirmEdit"));
    confirm->setEchoMode(QLineEdit::Password);
    confirm->setPlaceholderText(CredentialsPage::tr("the same passphrase again"));
    confirm->setToolTip(CredentialsPage::tr("Type the passphrase again, to be sure of it"));
    confirm->setVisible(creating);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->setObjectName(QStringLiteral("passphraseButtons"));
    QPushButton* ok = buttons->button(QDialogButtonBox::Ok);
    ok->setObjectName(QStringLiteral("passphraseOkButton"));
    ok->setEnabled(false);
    buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("passphraseCancelButton"));
    auto check = [=] {
        ok->setEnabled(!passphrase->text().isEmpty() && (!creating || confirm->text() == passphrase->text()));
    };
    QObject::connect(passphrase, &QLineEdit::textChanged, &dialog, check);
    QObject::connect(confirm, &QLineEdit::textChanged, &dialog, check);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(text);
    layout->addWidget(passphrase);
    layout->addWidget(confirm);
    layout->addWidget(buttons);
    const bool accepted = dialog.exec() == QDialog::Accepted;
    const QString answer = accepted ? passphrase->text() : QString();
    passphrase->clear();
    confirm->clear();
    return answer;
}

} // namespace

CredentialsPage::CredentialsPage(CredentialStore* store, QWidget* parent)
    : QWidget(parent)
    , m_store(store)
    , m_introLabel(new QLabel(this))
    , m_backendLabel(new QLabel(this))
    , m_table(new QTableWidget(this))
    , m_setButton(new QPushButton(this))
    , m_removeButton(new QPushButton(this))
    , m_statusLabel(new QLabel(this))
{
    setObjectName(QStringLiteral("credentialsPage"));
    m_introLabel->setObjectName(QStringLiteral("credentialsIntroLabel"));
    m_introLabel->setWordWrap(true);
    m_backendLabel->setObjectName(QStringLiteral("credentialsBackendLabel"));
    m_backendLabel->setWordWrap(true);
    m_statusLabel->setObjectName(QStringLiteral("credentialsStatusLabel"));
    m_statusLabel->setWordWrap(true);

    m_table->setObjectName(QStringLiteral("credentialsTable"));
    m_table->setColumnCount(ColumnCount);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setRowCount(int(core::credentialSpecs().size()));
    for (int row = 0; row < m_table->rowCount(); ++row) {
        for (int column = 0; column < ColumnCount; ++column) {
            auto* item = new QTableWidgetItem;
            item->setData(kProviderRole, qs(core::credentialSpecs()[std::size_t(row)].provider));
            m_table->setItem(row, column, item);
        }
    }

    m_setButton->setObjectName(QStringLiteral("setCredentialButton"));
    m_removeButton->setObjectName(QStringLiteral("removeCredentialButton"));
    connect(m_setButton, &QPushButton::clicked, this, [this] { editCredential(); });
    connect(m_removeButton, &QPushButton::clicked, this, [this] { removeCredential(); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &CredentialsPage::updateButtons);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this] { editCredential(); });
    connect(m_store, &CredentialStore::changed, this, &CredentialsPage::refresh);
    connect(m_store, &CredentialStore::fellBackToFile, this, &CredentialsPage::showBackend);
    m_store->setPassphraseSource(
        [this](bool creating, const QString& path) { return toSecret(askPassphrase(this, creating, path)); });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_setButton);
    buttons->addWidget(m_removeButton);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_introLabel);
    layout->addWidget(m_backendLabel);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_statusLabel);

    retranslate();
    m_table->selectRow(0);
}

void CredentialsPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

void CredentialsPage::retranslate()
{
    m_introLabel->setText(tr("The keys GPU Planner uses to launch and stop instances at each provider. Secrets are "
                             "kept in the system keychain; the settings keep only the provider and a masked key ID, "
                             "and no secret ever goes into a plan, a report or a log."));
    m_table->setHorizontalHeaderLabels({tr("Provider"), tr("Key ID"), tr("Stored in")});
    m_table->horizontalHeaderItem(ProviderColumn)->setToolTip(tr("The cloud provider"));
    m_table->horizontalHeaderItem(KeyIdColumn)
        ->setToolTip(tr("The public key ID, masked; for an API key alone, a short fingerprint of it"));
    m_table->horizontalHeaderItem(LocationColumn)->setToolTip(tr("Where the secret is kept"));
    m_table->setToolTip(tr("Double-click a provider to set its credential"));
    m_setButton->setText(tr("Set…"));
    m_setButton->setToolTip(tr("Enter the selected provider's credential; it replaces the one stored before"));
    m_removeButton->setText(tr("Remove"));
    m_removeButton->setToolTip(tr("Remove the selected provider's credential from wherever it is kept"));
    showBackend();
    refresh();
}

void CredentialsPage::showBackend()
{
    const QString file = QString::fromStdString(m_store->filePath().string());
    if (m_store->backend() == CredentialStore::Backend::EncryptedFile) {
        m_backendLabel->setText(tr("Credentials are kept in the encrypted file %1 (as configured), locked with a "
                                   "passphrase you choose.")
                                    .arg(file));
    } else if (!m_store->keychainProblem().isEmpty()) {
        m_backendLabel->setText(tr("The system keychain is not available here (%1). Credentials are kept in the "
                                   "encrypted file %2 instead, locked with a passphrase you choose.")
                                    .arg(m_store->keychainProblem(), file));
    } else {
        m_backendLabel->setText(tr("Credentials are kept in the system keychain under the service \"gpuplanner\"."));
    }
}

void CredentialsPage::refresh()
{
    const QList<CredentialEntry> entries = m_store->entries();
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QString provider = m_table->item(row, ProviderColumn)->data(kProviderRole).toString();
        m_table->item(row, ProviderColumn)->setText(providerDisplayName(provider.toStdString()));
        const auto entry = std::find_if(
            entries.begin(), entries.end(), [&](const CredentialEntry& e) { return e.provider == provider; });
        if (entry != entries.end()) {
            m_table->item(row, KeyIdColumn)->setText(entry->maskedKeyId);
            m_table->item(row, LocationColumn)->setText(locationText(entry->location));
        } else {
            m_table->item(row, KeyIdColumn)->setText(QStringLiteral("—"));
            m_table->item(row, LocationColumn)->setText(tr("Not set"));
        }
    }
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(KeyIdColumn, std::max(m_table->columnWidth(KeyIdColumn), 160)); // room for AKIA****MPLE
    updateButtons();
}

QString CredentialsPage::selectedProvider() const
{
    const QList<QTableWidgetItem*> selected = m_table->selectedItems();
    return selected.isEmpty() ? QString() : selected.first()->data(kProviderRole).toString();
}

void CredentialsPage::updateButtons()
{
    const QString provider = selectedProvider();
    bool stored = false;
    for (const CredentialEntry& entry : m_store->entries()) {
        stored = stored || entry.provider == provider;
    }
    m_setButton->setEnabled(!m_busy && !provider.isEmpty());
    m_removeButton->setEnabled(!m_busy && stored);
}

void CredentialsPage::setBusy(bool busy)
{
    m_busy = busy;
    if (busy) {
        m_statusLabel->setText(tr("Working…"));
    }
    updateButtons();
}

void CredentialsPage::editCredential(const QString& given)
{
    const QString provider = given.isEmpty() ? selectedProvider() : given;
    const core::CredentialSpec* spec = core::credentialSpec(provider.toStdString());
    if (!spec || m_busy) {
        return;
    }
    auto* dialog = new CredentialDialog(*spec, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, provider] {
        setBusy(true);
        const QPointer<CredentialsPage> self(this);
        m_store->store(dialog->credential(), [self, provider](core::Result<CredentialLocation> stored) {
            if (!self) {
                return;
            }
            self->setBusy(false);
            const QString name = providerDisplayName(provider.toStdString());
            if (!stored) {
                self->m_statusLabel->setText(
                    tr("The %1 credential was not stored. %2").arg(name, storeErrorText(stored.error())));
                return;
            }
            self->m_statusLabel->setText(
                *stored == CredentialLocation::Keychain
                    ? tr("The %1 credential is stored in the system keychain.").arg(name)
                    : tr("The %1 credential is stored in the encrypted file %2.")
                          .arg(name, QString::fromStdString(self->m_store->filePath().string())));
        });
    });
    dialog->open();
}

void CredentialsPage::removeCredential(const QString& given)
{
    const QString provider = given.isEmpty() ? selectedProvider() : given;
    if (provider.isEmpty() || m_busy) {
        return;
    }
    const QString name = providerDisplayName(provider.toStdString());
    bool remove = false;
    if (const std::optional<QVariant> next = Questions::takeNextAnswer(Question::RemoveCredential)) {
        remove = next->toBool();
    } else {
        remove = QMessageBox::question(this,
                                       tr("Remove the credential"),
                                       tr("Remove the %1 credential? GPU Planner can then no longer launch or stop "
                                          "instances there until it is set again. The key itself stays valid at "
                                          "the provider; revoke it in the provider's console if it should not be "
                                          "used any more.")
                                           .arg(name),
                                       QMessageBox::Yes | QMessageBox::No,
                                       QMessageBox::No)
                 == QMessageBox::Yes;
    }
    if (!remove) {
        return;
    }
    setBusy(true);
    const QPointer<CredentialsPage> self(this);
    m_store->remove(provider, [self, name](core::Status removed) {
        if (!self) {
            return;
        }
        self->setBusy(false);
        self->m_statusLabel->setText(
            removed ? tr("The %1 credential is removed.").arg(name)
                    : tr("The %1 credential was not removed. %2").arg(name, storeErrorText(removed.error())));
    });
}

} // namespace gpuplan::ui
