#include "AppSettings.h"

#include <QLocale>
#include <QSettings>

namespace gpuplan::ui {

namespace {

constexpr int kRecentFiles = 8;

std::optional<double> optionalNumber(const QSettings& settings, const QString& key)
{
    bool ok = false;
    const double value = settings.value(key).toDouble(&ok);
    return ok && value > 0 ? std::optional<double>(value) : std::nullopt;
}

void setOptionalNumber(QSettings& settings, const QString& key, std::optional<double> value)
{
    if (value) {
        settings.setValue(key, *value);
    } else {
        settings.remove(key);
    }
}

} // namespace

AppSettings::AppSettings(QObject* parent)
    : QObject(parent)
{ }

QString AppSettings::language() const
{
    return QSettings().value(QStringLiteral("ui/language")).toString();
}

void AppSettings::setLanguage(const QString& language)
{
    QSettings().setValue(QStringLiteral("ui/language"), language);
    emit changed();
}

QString AppSettings::displayCurrency() const
{
    const QString code = QSettings().value(QStringLiteral("money/currency"), QStringLiteral("CNY")).toString();
    return code == QLatin1String("USD") ? code : QStringLiteral("CNY");
}

void AppSettings::setDisplayCurrency(const QString& code)
{
    QSettings().setValue(QStringLiteral("money/currency"), code);
    emit changed();
}

std::optional<double> AppSettings::cnyPerUsd() const
{
    return optionalNumber(QSettings(), QStringLiteral("money/cnyPerUsd"));
}

void AppSettings::setCnyPerUsd(std::optional<double> rate)
{
    QSettings settings;
    setOptionalNumber(settings, QStringLiteral("money/cnyPerUsd"), rate);
    emit changed();
}

std::optional<double> AppSettings::electricityPrice() const
{
    return optionalNumber(QSettings(), QStringLiteral("ownership/electricityPrice"));
}

QString AppSettings::electricityCurrency() const
{
    return QSettings().value(QStringLiteral("ownership/electricityCurrency"), QStringLiteral("CNY")).toString();
}

void AppSettings::setElectricity(std::optional<double> price, const QString& code)
{
    QSettings settings;
    setOptionalNumber(settings, QStringLiteral("ownership/electricityPrice"), price);
    settings.setValue(QStringLiteral("ownership/electricityCurrency"), code);
    emit changed();
}

std::optional<double> AppSettings::pue() const
{
    return optionalNumber(QSettings(), QStringLiteral("ownership/pue"));
}

void AppSettings::setPue(std::optional<double> pue)
{
    QSettings settings;
    setOptionalNumber(settings, QStringLiteral("ownership/pue"), pue);
    emit changed();
}

QString AppSettings::regionCountries() const
{
    return QSettings().value(QStringLiteral("plan/countries")).toString();
}

void AppSettings::setRegionCountries(const QString& countries)
{
    QSettings().setValue(QStringLiteral("plan/countries"), countries);
    emit changed();
}

QString AppSettings::reportLab() const
{
    return QSettings().value(QStringLiteral("report/lab")).toString();
}

void AppSettings::setReportLab(const QString& lab)
{
    QSettings().setValue(QStringLiteral("report/lab"), lab);
}

QString AppSettings::reportAuthor() const
{
    return QSettings().value(QStringLiteral("report/author")).toString();
}

void AppSettings::setReportAuthor(const QString& author)
{
    QSettings().setValue(QStringLiteral("report/author"), author);
}

QString AppSettings::reportPaper() const
{
    const QString paper = QSettings().value(QStringLiteral("report/paper")).toString();
    if (paper == QLatin1String("a4") || paper == QLatin1String("letter")) {
        return paper;
    }
    // Letter where the locale uses it (the Americas' Letter countries), A4 elsewhere.
    return QLocale::system().measurementSystem() == QLocale::ImperialUSSystem ? QStringLiteral("letter")
                                                                              : QStringLiteral("a4");
}

void AppSettings::setReportPaper(const QString& paper)
{
    QSettings().setValue(QStringLiteral("report/paper"), paper);
}

QString AppSettings::proxy() const
{
    return QSettings().value(QStringLiteral("network/proxy")).toString();
}

void AppSettings::setProxy(const QString& proxy)
{
    QSettings().setValue(QStringLiteral("network/proxy"), proxy);
    emit changed();
}

QString AppSettings::extraCaFile() const
{
    return QSettings().value(QStringLiteral("network/extraCaFile")).toString();
}

void AppSettings::setExtraCaFile(const QString& file)
{
    QSettings().setValue(QStringLiteral("network/extraCaFile"), file);
    emit changed();
}

core::HttpOptions AppSettings::httpOptions() const
{
    core::HttpOptions options;
    options.proxy = proxy().trimmed().toStdString();
    options.extraCaFile = extraCaFile().trimmed().toStdString();
    return options;
}

QStringList AppSettings::recentFiles() const
{
    return QSettings().value(QStringLiteral("files/recent")).toStringList();
}

void AppSettings::addRecentFile(const QString& file)
{
    QStringList files = recentFiles();
    files.removeAll(file);
    files.prepend(file);
    while (files.size() > kRecentFiles) {
        files.removeLast();
    }
    QSettings().setValue(QStringLiteral("files/recent"), files);
}

bool AppSettings::exampleShown() const
{
    return QSettings().value(QStringLiteral("files/exampleShown"), false).toBool();
}

void AppSettings::setExampleShown()
{
    QSettings().setValue(QStringLiteral("files/exampleShown"), true);
}

} // namespace gpuplan::ui
