#pragma once

#include <optional>

#include "gpuplan/secrets/Credential.h"

#include <QDialog>
#include <QMap>

class QLabel;
class QLineEdit;
class QPushButton;

namespace gpuplan::ui {

/// Asks for one provider's credential: the fields of its CredentialSpec (secret ones in password mode), or for
/// Google Cloud the service-account key file. OK checks the fields and stays open, naming what is missing, until
/// they are complete; credential() then holds what was entered, and the fields are cleared.
class CredentialDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit CredentialDialog(const core::CredentialSpec& spec, QWidget* parent = nullptr);
    ~CredentialDialog() override;

    /// What OK accepted (empty until then).
    const core::Credential& credential() const { return m_credential; }
    /// The edit of a field by its name ("secret_access_key"), or the key file's edit for "key_file".
    QLineEdit* fieldEdit(const QString& field) const { return m_edits.value(field); }

    void accept() override;

private:
    /// What the form asks for is missing or unreadable: said in the dialog, with the field to put the focus on.
    struct Problem
    {
        QString text;
        QString field;
    };
    /// The credential the form holds, or nullopt with `problem` set.
    std::optional<core::Credential> collect(Problem& problem) const;
    void browseKeyFile();

    const core::CredentialSpec& m_spec;
    QMap<QString, QLineEdit*> m_edits;
    QLabel* m_errorLabel = nullptr;
    QPushButton* m_okButton = nullptr;
    core::Credential m_credential;
};

/// "secret_access_key" -> "secretAccessKeyEdit": the objectName of a field's edit.
QString credentialFieldObjectName(std::string_view field);

} // namespace gpuplan::ui
