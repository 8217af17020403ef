#include "SettingsDialog.h"

#include "AppSettings.h"
#include "widgets/CountryPicker.h"
#include "widgets/WheelGuard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gpuplan::ui {

namespace { } // namespace

SettingsDialog::SettingsDialog(AppSettings* settings, double catalogRate, QWidget* parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_language(new QComboBox(this))
    , m_currency(new QComboBox(this))
    , m_ownRate(new QCheckBox(this))
    , m_rate(new QDoubleSpinBox(this))
    , m_electricity(new QDoubleSpinBox(this))
    , m_electricityCurrency(new QComboBox(this))
    , m_pue(new QDoubleSpinBox(this))
    , m_countries(new CountryPicker(QStringLiteral("settingsCountries"), this))
    , m_reportLab(new QLineEdit(this))
    , m_reportAuthor(new QLineEdit(this))
    , m_reportPaper(new QComboBox(this))
    , m_proxy(new QLineEdit(this))
    , m_caFile(new QLineEdit(this))
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    m_language->setObjectName(QStringLiteral("languageComboBox"));
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_language->setCurrentIndex(std::max(0, m_language->findData(settings->language())));
    m_language->setToolTip(tr("Switches the whole window at once; no restart."));

    m_currency->setObjectName(QStringLiteral("settingsCurrencyComboBox"));
    m_currency->addItem(QStringLiteral("CNY ¥"), QStringLiteral("CNY"));
    m_currency->addItem(QStringLiteral("USD $"), QStringLiteral("USD"));
    m_currency->setCurrentIndex(std::max(0, m_currency->findData(settings->displayCurrency())));
    m_currency->setToolTip(tr("The currency a new plan starts in."));

    m_ownRate->setObjectName(QStringLiteral("ownRateCheckBox"));
    m_ownRate->setText(tr("Use my rate instead of the catalog's"));
    m_rate->setObjectName(QStringLiteral("settingsRateSpinBox"));
    m_rate->setRange(1, 20);
    m_rate->setDecimals(4);
    m_rate->setValue(settings->cnyPerUsd().value_or(catalogRate));
    m_rate->setSuffix(QStringLiteral(" CNY/USD"));
    m_ownRate->setChecked(settings->cnyPerUsd().has_value());
    m_rate->setEnabled(m_ownRate->isChecked());
    m_rate->setToolTip(tr("The catalog's rate is dated and sourced; yours is used for new plans and marked as "
                          "entered by you."));
    connect(m_ownRate, &QCheckBox::toggled, m_rate, &QWidget::setEnabled);

    m_electricity->setObjectName(QStringLiteral("electricitySpinBox"));
    m_electricity->setRange(0, 100);
    m_electricity->setDecimals(3);
    m_electricity->setSpecialValueText(tr("unknown"));
    m_electricity->setValue(settings->electricityPrice().value_or(0));
    m_electricity->setToolTip(tr("What your institution pays per kWh. Unknown leaves electricity out of buying, and "
                                 "the chart says so."));
    m_electricityCurrency->setObjectName(QStringLiteral("electricityCurrencyComboBox"));
    m_electricityCurrency->addItem(QStringLiteral("CNY/kWh"), QStringLiteral("CNY"));
    m_electricityCurrency->addItem(QStringLiteral("USD/kWh"), QStringLiteral("USD"));
    m_electricityCurrency->setCurrentIndex(
        std::max(0, m_electricityCurrency->findData(settings->electricityCurrency())));
    auto* electricity = new QWidget(this);
    auto* row = new QHBoxLayout(electricity);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_electricity, 1);
    row->addWidget(m_electricityCurrency);

    m_pue->setObjectName(QStringLiteral("pueSpinBox"));
    m_pue->setRange(0, 3);
    m_pue->setDecimals(2);
    m_pue->setSingleStep(0.05);
    m_pue->setSpecialValueText(tr("default (ownership.json)"));
    m_pue->setValue(settings->pue().value_or(0));
    m_pue->setToolTip(tr("Power usage effectiveness of your server room: 1.0 is ideal, 1.5 is typical, an office "
                         "room can be worse."));

    // Prices and rates change only when the user means to, never under a wheel scrolling the dialog.
    WheelGuard::install({m_currency, m_rate, m_electricity, m_electricityCurrency, m_pue});

    m_countries->setText(settings->regionCountries());

    m_reportLab->setObjectName(QStringLiteral("reportLabEdit"));
    m_reportLab->setText(settings->reportLab());
    m_reportLab->setPlaceholderText(tr("e.g. Vision Lab, School of Computer Science"));
    m_reportLab->setToolTip(tr("Printed on the cover of exported PDF reports."));
    m_reportAuthor->setObjectName(QStringLiteral("reportAuthorEdit"));
    m_reportAuthor->setText(settings->reportAuthor());
    m_reportAuthor->setToolTip(tr("Printed on the cover of exported PDF reports."));
    m_reportPaper->setObjectName(QStringLiteral("reportPaperComboBox"));
    m_reportPaper->addItem(QStringLiteral("A4"), QStringLiteral("a4"));
    m_reportPaper->addItem(QStringLiteral("Letter"), QStringLiteral("letter"));
    m_reportPaper->setCurrentIndex(std::max(0, m_reportPaper->findData(settings->reportPaper())));
    m_proxy->setObjectName(QStringLiteral("proxyEdit"));
    m_proxy->setText(settings->proxy());
    m_proxy->setPlaceholderText(tr("from the environment (https_proxy)"));
    m_proxy->setToolTip(tr("HTTP(S) proxy for the cloud APIs, e.g. http://proxy.example.edu.cn:3128."));

    m_caFile->setObjectName(QStringLiteral("extraCaFileEdit"));
    m_caFile->setText(settings->extraCaFile());
    m_caFile->setPlaceholderText(tr("none: the system's certificates only"));
    m_caFile->setToolTip(
        tr("If your campus or company network inspects HTTPS with its own certificate authority, its "
           "CA certificate (PEM). It is trusted beside the system's; certificates are always checked."));
    auto* browseCa = new QPushButton(tr("Browse…"), this);
    browseCa->setObjectName(QStringLiteral("extraCaFileBrowseButton"));
    connect(browseCa, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("CA certificate"), QString(), tr("Certificates (*.pem *.crt *.cer);;All files (*)"));
        if (!file.isEmpty()) {
            m_caFile->setText(file);
        }
    });
    auto* caRow = new QWidget(this);
    auto* caLayout = new QHBoxLayout(caRow);
    caLayout->setContentsMargins(0, 0, 0, 0);
    caLayout->addWidget(m_caFile, 1);
    caLayout->addWidget(browseCa);

    auto* form = new QFormLayout;
    form->addRow(tr("Language:"), m_language);
    form->addRow(tr("Currency of new plans:"), m_currency);
    form->addRow(m_ownRate);
    form->addRow(tr("Exchange rate:"), m_rate);
    form->addRow(tr("Electricity price:"), electricity);
    form->addRow(tr("PUE of your server room:"), m_pue);
    form->addRow(tr("Regions of new plans:"), m_countries);
    form->addRow(tr("Lab / project (reports):"), m_reportLab);
    form->addRow(tr("Author (reports):"), m_reportAuthor);
    form->addRow(tr("Report paper:"), m_reportPaper);
    form->addRow(tr("Proxy:"), m_proxy);
    form->addRow(tr("Extra CA certificate:"), caRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->setObjectName(QStringLiteral("settingsButtons"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_countries, &CountryPicker::changed, this, [this, buttons] {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(m_countries->countries().has_value());
    });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

void SettingsDialog::apply()
{
    m_settings->setDisplayCurrency(m_currency->currentData().toString());
    m_settings->setCnyPerUsd(m_ownRate->isChecked() ? std::optional<double>(m_rate->value()) : std::nullopt);
    m_settings->setElectricity(m_electricity->value() > 0 ? std::optional<double>(m_electricity->value())
                                                          : std::nullopt,
                               m_electricityCurrency->currentData().toString());
    m_settings->setPue(m_pue->value() > 0 ? std::optional<double>(m_pue->value()) : std::nullopt);
    m_settings->setRegionCountries(m_countries->text());
    m_settings->setReportLab(m_reportLab->text().trimmed());
    m_settings->setReportAuthor(m_reportAuthor->text().trimmed());
    m_settings->setReportPaper(m_reportPaper->currentData().toString());
    m_settings->setProxy(m_proxy->text().trimmed());
    m_settings->setExtraCaFile(m_caFile->text().trimmed());
    m_settings->setLanguage(m_language->currentData().toString()); // last: it retranslates the window
}

} // namespace gpuplan::ui
