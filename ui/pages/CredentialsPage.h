#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace gpuplan::ui {

class CredentialStore;

/// The cloud credentials: one row per provider with its masked key ID and where it is kept (keychain or
/// encrypted file), Set… and Remove. Secrets are only ever typed into the dialog and handed to the store; the
/// page shows nothing but what the settings keep (CredentialStore::entries()).
class CredentialsPage final : public QWidget
{
    Q_OBJECT

public:
    enum Column
    {
        ProviderColumn,
        KeyIdColumn,
        LocationColumn,
        ColumnCount,
    };

    explicit CredentialsPage(CredentialStore* store, QWidget* parent = nullptr);

    CredentialStore* store() const { return m_store; }
    void retranslate();
    /// Opens the Set… dialog for a provider (the selected one when empty).
    void editCredential(const QString& provider = {});
    /// Asks, then removes the provider's credential (the selected one when empty).
    void removeCredential(const QString& provider = {});

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    QString selectedProvider() const;
    void updateButtons();
    void setBusy(bool busy);
    void showBackend();

    CredentialStore* m_store = nullptr;
    QLabel* m_introLabel = nullptr;
    QLabel* m_backendLabel = nullptr;
    QTableWidget* m_table = nullptr;
    QPushButton* m_setButton = nullptr;
    QPushButton* m_removeButton = nullptr;
    QLabel* m_statusLabel = nullptr;
    bool m_busy = false;
};

} // namespace gpuplan::ui
