#include "CredentialDialog.h"

#include "wording/ErrorText.h"
#include "wording/ProviderText.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gpuplan::ui {

namespace {

constexpr auto kKeyFile = "key_file";

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

/// Where a provider's console shows its credentials.
QString consoleHint(std::string_view provider)
{
    if (provider == "aws") {
        return CredentialDialog::tr("IAM console > Users > your user > Security credentials > Access keys.");
    }
    if (provider == "tencent") {
        return CredentialDialog::tr("CAM console > API Key Management (SecretId and SecretKey).");
    }
    if (provider == "alibaba") {
        return CredentialDialog::tr("RAM console > Users > your user > AccessKey.");
    }
    if (provider == "huawei") {
        return CredentialDialog::tr(
            "My Credentials > Access Keys (AK and SK); the project IDs of your regions (optional) are under API "
            "Credentials.");
    }
    if (provider == "gcp") {
        return CredentialDialog::tr("IAM & Admin > Service Accounts > your account > Keys > Add key > JSON.");
    }
    if (provider == "azure") {
        return CredentialDialog::tr("Microsoft Entra ID > App registrations > your app: the tenant and client IDs on "
                                    "its overview, a client secret under Certificates & secrets.");
    }
    if (provider == "lambda") {
        return CredentialDialog::tr("Lambda Cloud dashboard > API keys.");
    }
    if (provider == "paperspace") {
        return CredentialDialog::tr("Paperspace console > Team settings > API keys.");
    }
    return {};
}

QString fieldToolTip(std::string_view provider, std::string_view field, core::CredentialFieldKind kind)
{
    if (provider == "huawei" && field == "project_id") {
        return CredentialDialog::tr("Optional. A project belongs to one region: give one ID, or several as "
                                    "region:ID pairs separated by commas (cn-north-4:0a1b…,cn-east-3:2c3d…). Left "
                                    "empty, GPU Planner asks IAM for each region's project. Not secret.");
    }
    if (field == "project_id") {
        return CredentialDialog::tr("The project the instances are launched in. Not secret.");
    }
    if (field == "subscription_id") {
        return CredentialDialog::tr("The Azure subscription billed for the instances (optional). Not secret.");
    }
    if (field == "tenant_id") {
        return CredentialDialog::tr("The directory (tenant) of the app registration. Not secret.");
    }
    switch (kind) {
        case core::CredentialFieldKind::KeyId:
            return CredentialDialog::tr("The public half of the credential. The list shows it masked.");
        case core::CredentialFieldKind::Secret:
            return CredentialDialog::tr(
                "Kept in the system keychain (or the encrypted file), never in the settings, a plan or a report.");
        case core::CredentialFieldKind::Plain:
            return CredentialDialog::tr("Not secret.");
    }
    return {};
}

} // namespace

QString credentialFieldObjectName(std::string_view field)
{
    QString name;
    bool upper = false;
    for (const char c : field) {
        if (c == '_') {
            upper = true;
            continue;
        }
        name += upper ? QChar::fromLatin1(c).toUpper() : QChar::fromLatin1(c);
        upper = false;
    }
    return name + QStringLiteral("Edit");
}

CredentialDialog::CredentialDialog(const core::CredentialSpec& spec, QWidget* parent)
    : QDialog(parent)
    , m_spec(spec)
    , m_errorLabel(new QLabel(this))
{
    setObjectName(QStringLiteral("credentialDialog"));
    const QString provider = qs(spec.provider);
    setWindowTitle(tr("%1 credentials").arg(providerDisplayName(provider.toStdString())));

    auto* intro = new QLabel(tr("Where to find them: %1").arg(consoleHint(spec.provider)), this);
    intro->setObjectName(QStringLiteral("credentialHintLabel"));
    intro->setWordWrap(true);

    auto* form = new QFormLayout;
    if (spec.provider == "gcp") {
        // A service account's key is a JSON file: the fields come from it, the private key is never typed.
        auto* edit = new QLineEdit(this);
        edit->setObjectName(QStringLiteral("keyFileEdit"));
        edit->setPlaceholderText(tr("service-account key file (.json)"));
        edit->setToolTip(tr("The JSON key file of a service account. Its private key is kept in the system keychain "
                            "(or the encrypted file); the file itself is not changed or copied."));
        auto* browse = new QPushButton(tr("Browse…"), this);
        browse->setObjectName(QStringLiteral("keyFileBrowseButton"));
        browse->setToolTip(tr("Choose the service-account key file"));
        connect(browse, &QPushButton::clicked, this, &CredentialDialog::browseKeyFile);
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(browse);
        form->addRow(tr("Key file"), row);
        m_edits.insert(QString::fromLatin1(kKeyFile), edit);
    } else {
        for (const core::CredentialFieldSpec& field : spec.fields) {
            auto* edit = new QLineEdit(this);
            edit->setObjectName(credentialFieldObjectName(field.name));
            edit->setToolTip(fieldToolTip(spec.provider, field.name, field.kind));
            if (field.kind == core::CredentialFieldKind::Secret) {
                edit->setEchoMode(QLineEdit::Password);
            }
            if (!field.required) {
                edit->setPlaceholderText(tr("optional"));
            }
            form->addRow(credentialFieldLabel(spec.provider, field.name), edit);
            m_edits.insert(qs(field.name), edit);
        }
    }

    m_errorLabel->setObjectName(QStringLiteral("credentialErrorLabel"));
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_errorLabel->hide();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->setObjectName(QStringLiteral("credentialButtons"));
    m_okButton = buttons->button(QDialogButtonBox::Ok);
    m_okButton->setObjectName(QStringLiteral("credentialDialogOkButton"));
    m_okButton->setText(tr("Store"));
    m_okButton->setToolTip(tr("Store the credential, replacing the one stored before"));
    QPushButton* cancel = buttons->button(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("credentialDialogCancelButton"));
    cancel->setText(tr("Cancel"));
    connect(buttons, &QDialogButtonBox::accepted, this, &CredentialDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &CredentialDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_errorLabel);
    layout->addWidget(buttons);
    setMinimumWidth(520);
}

CredentialDialog::~CredentialDialog()
{
    for (QLineEdit* edit : std::as_const(m_edits)) {
        edit->clear();
    }
}

void CredentialDialog::browseKeyFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Service-account key file"), QString(), tr("JSON key files (*.json);;All files (*)"));
    if (!path.isEmpty()) {
        m_edits.value(QString::fromLatin1(kKeyFile))->setText(path);
    }
}

std::optional<core::Credential> CredentialDialog::collect(Problem& problem) const
{
    if (m_spec.provider == "gcp") {
        const QString path = m_edits.value(QString::fromLatin1(kKeyFile))->text().trimmed();
        if (path.isEmpty()) {
            problem = {tr("Choose the key file."), QString::fromLatin1(kKeyFile)};
            return std::nullopt;
        }
        QFile file(path);
        if (file.size() > 1024 * 1024 || !file.open(QIODevice::ReadOnly)) {
            problem = {tr("Cannot read the key file %1.").arg(path), QString::fromLatin1(kKeyFile)};
            return std::nullopt;
        }
        QByteArray bytes = file.readAll();
        core::Result<core::Credential> credential =
            core::credentialFromServiceAccountKey(std::string_view(bytes.constData(), std::size_t(bytes.size())));
        core::secureWipe(bytes.data(), std::size_t(bytes.size()));
        if (!credential) {
            problem = {tr("%1 is not a service-account key file (%2).").arg(path, errorMessage(credential.error())),
                       QString::fromLatin1(kKeyFile)};
            return std::nullopt;
        }
        return std::move(credential).value();
    }
    core::Credential credential{std::string(m_spec.provider)};
    for (const core::CredentialFieldSpec& field : m_spec.fields) {
        QByteArray value = m_edits.value(qs(field.name))->text().trimmed().toUtf8();
        credential.set(field.name, core::SecretString(value.constData(), std::size_t(value.size())));
        core::secureWipe(value.data(), std::size_t(value.size()));
        if (field.required && !credential.has(field.name)) {
            problem = {tr("%1 is missing.").arg(credentialFieldLabel(m_spec.provider, field.name)), qs(field.name)};
            return std::nullopt;
        }
    }
    return credential;
}

void CredentialDialog::accept()
{
    Problem problem;
    std::optional<core::Credential> collected = collect(problem);
    if (!collected) {
        m_errorLabel->setText(problem.text);
        m_errorLabel->show();
        if (QLineEdit* edit = m_edits.value(problem.field)) {
            edit->setFocus();
        }
        return;
    }
    m_credential = std::move(*collected);
    for (QLineEdit* edit : std::as_const(m_edits)) {
        edit->clear();
    }
    QDialog::accept();
}

} // namespace gpuplan::ui
