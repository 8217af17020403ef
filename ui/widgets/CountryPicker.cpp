#include "CountryPicker.h"

#include "gpuplan/plan/Planner.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>

namespace gpuplan::ui {

namespace {

struct Area
{
    const char* name;
    const char* codes;
};

// The areas labs ask for most: data kept in mainland China (PIPL, no cross-border upload), mainland China
// with Hong Kong, the US, and Europe (EU, EEA, United Kingdom and Switzerland, for GDPR data).
constexpr Area kAreas[] = {
    {QT_TRANSLATE_NOOP("gpuplan::ui::CountryPicker", "Anywhere"), ""},
    {QT_TRANSLATE_NOOP("gpuplan::ui::CountryPicker", "Mainland China"), "CN"},
    {QT_TRANSLATE_NOOP("gpuplan::ui::CountryPicker", "Mainland China and Hong Kong"), "CN, HK"},
    {QT_TRANSLATE_NOOP("gpuplan::ui::CountryPicker", "United States"), "US"},
    {QT_TRANSLATE_NOOP("gpuplan::ui::CountryPicker", "Europe (EU, EEA, UK, Switzerland)"),
     "AT, BE, BG, HR, CY, CZ, DK, EE, FI, FR, DE, GR, HU, IE, IT, LV, LT, LU, MT, NL, PL, PT, RO, SK, SI, ES, SE, "
     "IS, LI, NO, GB, CH"},
};

/// The codes in a canonical form for comparing with an area: "cn,hk" and "CN, HK" are the same.
QString canonical(const QString& codes)
{
    core::Result<std::vector<std::string>> parsed = core::parseCountryCodes(codes.toStdString());
    if (!parsed) {
        return codes;
    }
    QStringList out;
    for (const std::string& code : *parsed) {
        out << QString::fromStdString(code);
    }
    return out.join(QStringLiteral(", "));
}

} // namespace

CountryPicker::CountryPicker(const QString& name, QWidget* parent)
    : QWidget(parent)
    , m_areas(new QComboBox(this))
    , m_codes(new QLineEdit(this))
    , m_error(new QLabel(this))
{
    setObjectName(name);
    m_areas->setObjectName(name + QStringLiteral("ComboBox"));
    m_codes->setObjectName(name + QStringLiteral("Edit"));
    m_error->setObjectName(name + QStringLiteral("ErrorLabel"));
    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_error->setWordWrap(true);
    m_error->hide();
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_areas);
    row->addWidget(m_codes, 1);
    row->addWidget(m_error, 1);
    retranslate();
    connect(m_areas, &QComboBox::activated, this, &CountryPicker::choose);
    connect(m_codes, &QLineEdit::textChanged, this, &CountryPicker::edited);
}

QString CountryPicker::text() const
{
    return m_codes->text().trimmed();
}

void CountryPicker::setText(const QString& codes)
{
    m_codes->setText(codes);
    edited();
}

std::optional<std::vector<std::string>> CountryPicker::countries() const
{
    core::Result<std::vector<std::string>> parsed = core::parseCountryCodes(text().toStdString());
    if (!parsed) {
        return std::nullopt;
    }
    return *parsed;
}

void CountryPicker::choose(int index)
{
    if (index >= 0 && index < int(std::size(kAreas))) {
        m_codes->setText(QString::fromLatin1(kAreas[index].codes));
    }
}

void CountryPicker::edited()
{
    core::Result<std::vector<std::string>> parsed = core::parseCountryCodes(text().toStdString());
    if (parsed) {
        m_error->hide();
    } else {
        QString bad;
        for (const std::string& entry : core::countryEntries(text().toStdString())) {
            if (bad.isEmpty() && !core::isCountryCode(entry)) {
                bad = QString::fromStdString(entry);
            }
        }
        m_error->setText(tr("\"%1\" is not a country code: write two letters, e.g. CN, HK, SG.").arg(bad));
        m_error->show();
    }
    // The area these codes are, or "other countries".
    const QString codes = canonical(text());
    int area = int(std::size(kAreas)); // the last entry: other countries
    for (int i = 0; i < int(std::size(kAreas)); ++i) {
        if (canonical(QString::fromLatin1(kAreas[i].codes)) == codes) {
            area = i;
        }
    }
    const QSignalBlocker block(m_areas);
    m_areas->setCurrentIndex(area);
    emit changed();
}

void CountryPicker::retranslate()
{
    {
        const QSignalBlocker block(m_areas);
        const int current = m_areas->currentIndex();
        m_areas->clear();
        for (const Area& area : kAreas) {
            m_areas->addItem(tr(area.name));
        }
        m_areas->addItem(tr("Other countries…"));
        m_areas->setCurrentIndex(current);
    }
    m_areas->setToolTip(tr("Where the run may go. Regions elsewhere are left out of the plan, each with the reason; "
                           "so is a region whose country the catalog does not give."));
    m_codes->setPlaceholderText(tr("anywhere"));
    m_codes->setToolTip(tr("ISO country codes, separated by commas: CN for mainland China, HK, SG, JP, US, DE..."));
    edited();
}

void CountryPicker::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

} // namespace gpuplan::ui
