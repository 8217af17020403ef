#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;

namespace gpuplan::ui {

class CountryPicker;

class AppSettings;

/// Language (switched live), display currency and exchange rate, electricity price and PUE for buy-vs-rent,
/// and the proxy. OK writes them to AppSettings.
class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit SettingsDialog(AppSettings* settings, double catalogRate, QWidget* parent = nullptr);

    /// Writes the fields to the settings (OK does this, tests call it directly).
    void apply();

private:
    AppSettings* m_settings;
    QComboBox* m_language;
    QComboBox* m_currency;
    QCheckBox* m_ownRate;
    QDoubleSpinBox* m_rate;
    QDoubleSpinBox* m_electricity;
    QComboBox* m_electricityCurrency;
    QDoubleSpinBox* m_pue;
    CountryPicker* m_countries;
    QLineEdit* m_reportLab;
    QLineEdit* m_reportAuthor;
    QComboBox* m_reportPaper;
    QLineEdit* m_proxy;
    QLineEdit* m_caFile;
};

} // namespace gpuplan::ui
