#pragma once

#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;

namespace gpuplan::ui {

/// Where a run may go: a choice of common areas (anywhere, mainland China, ...) and the country codes they
/// stand for, which the user may edit ("CN, HK"). A code that is not two letters is named beside the field.
class CountryPicker final : public QWidget
{
    Q_OBJECT

public:
    /// `name` prefixes the children's objectNames: <name>ComboBox, <name>Edit, <name>ErrorLabel.
    explicit CountryPicker(const QString& name, QWidget* parent = nullptr);

    /// The codes as written ("CN, HK"); empty: anywhere.
    QString text() const;
    void setText(const QString& codes);
    /// The codes, upper case; empty: anywhere; nullopt when one is not a country code (the message shows).
    std::optional<std::vector<std::string>> countries() const;
    void retranslate();

signals:
    void changed();

protected:
    void changeEvent(QEvent* event) override;

private:
    void choose(int index);
    void edited();

    QComboBox* m_areas;
    QLineEdit* m_codes;
    QLabel* m_error;
};

} // namespace gpuplan::ui
