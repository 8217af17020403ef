#include "wording/Format.h"

#include "wording/Language.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace gpuplan::ui {

QString currencySymbol(const QString& code)
{
    if (code == QLatin1String("CNY")) {
        return QStringLiteral("¥");
    }
    if (code == QLatin1String("USD")) {
        return QStringLiteral("$");
    }
    return code + QLatin1Char(' ');
}

QString alternativesText(const QString& list)
{
    const QStringList items = list.split(QStringLiteral(", "), Qt::SkipEmptyParts);
    if (items.size() < 2) {
        return list;
    }
    const QString separator = QCoreApplication::translate("Format", ", ", "between alternatives but the last two");
    return QCoreApplication::translate("Format", "%1 or %2", "the last two of several alternatives")
        .arg(items.mid(0, items.size() - 1).join(separator), items.last());
}

QString conjunctionText(const QStringList& items)
{
    if (items.size() < 2) {
        return items.join(QString());
    }
    const QString separator = QCoreApplication::translate("Format", ", ", "between items of a list but the last two");
    return QCoreApplication::translate("Format", "%1 and %2", "the last two items of a list")
        .arg(items.mid(0, items.size() - 1).join(separator), items.last());
}

QString formatNumber(double value, int decimals)
{
    return QLocale().toString(value, 'f', decimals);
}

QString formatBytes(double bytes)
{
    return QLocale().formattedDataSize(static_cast<qint64>(std::max(0.0, bytes)), 1, QLocale::DataSizeIecFormat);
}

QString formatParameterCount(double parameters)
{
    if (!std::isfinite(parameters) || parameters <= 0) {
        return QCoreApplication::translate("Format", "unknown");
    }
    // Three significant digits at most, without trailing zeros: 1.24, 12.4, 124.
    const auto significant = [](double value) {
        const int decimals = value < 10 ? 2 : value < 100 ? 1 : 0;
        QString text = QLocale().toString(value, 'f', decimals);
        if (decimals > 0) {
            const QChar point = QLocale().decimalPoint().front();
            while (text.endsWith(QLatin1Char('0'))) {
                text.chop(1);
            }
            if (text.endsWith(point)) {
                text.chop(1);
            }
        }
        return text;
    };
    if (currentLanguage() == QLatin1String("zh_CN")) {
        if (parameters >= 1e8) {
            return QCoreApplication::translate("Format", "%1 hundred million").arg(significant(parameters / 1e8));
        }
        return QCoreApplication::translate("Format", "%1 ten thousand").arg(formatNumber(parameters / 1e4, 0));
    }
    if (parameters >= 1e9) {
        return QCoreApplication::translate("Format", "%1 billion").arg(significant(parameters / 1e9));
    }
    return QCoreApplication::translate("Format", "%1 million").arg(significant(parameters / 1e6));
}

QString formatMoney(double amount, const QString& currencyCode, int decimals)
{
    if (!std::isfinite(amount)) {
        return QCoreApplication::translate("Format", "unknown");
    }
    if (decimals < 0) {
        decimals = std::abs(amount) < 1000 ? 2 : 0;
    }
    const QString sign = amount < 0 ? QStringLiteral("-") : QString();
    return sign + currencySymbol(currencyCode) + formatNumber(std::abs(amount), decimals);
}

QString formatHours(double hours)
{
    if (!std::isfinite(hours)) {
        return QCoreApplication::translate("Format", "unknown");
    }
    if (hours < 1) {
        return QCoreApplication::translate("Format", "%1 min").arg(formatNumber(hours * 60, 0));
    }
    if (hours < 48) {
        return QCoreApplication::translate("Format", "%1 h").arg(formatNumber(hours, hours < 10 ? 1 : 0));
    }
    return QCoreApplication::translate("Format", "%1 d").arg(formatNumber(hours / 24, 1));
}

QString formatMonths(double months)
{
    if (!std::isfinite(months) || months < 0) {
        return QCoreApplication::translate("Format", "unknown");
    }
    constexpr double kDaysPerMonth = 730.0 / 24;
    const long days = std::lround(months * kDaysPerMonth);
    if (days < 30) {
        return days == 1 ? QCoreApplication::translate("Format", "1 day")
                         : QCoreApplication::translate("Format", "%1 days").arg(days);
    }
    const double tenths = std::max(1.0, std::round(months * 10) / 10);
    if (tenths == 1) {
        return QCoreApplication::translate("Format", "1 month");
    }
    return QCoreApplication::translate("Format", "%1 months")
        .arg(formatNumber(tenths, tenths == std::round(tenths) ? 0 : 1));
}

QString formatYears(double years)
{
    if (!std::isfinite(years) || years <= 0) {
        return QCoreApplication::translate("Format", "unknown");
    }
    if (years < 1) {
        return formatMonths(years * 12);
    }
    const double tenths = std::round(years * 10) / 10;
    if (tenths == 1) {
        return QCoreApplication::translate("Format", "1 year");
    }
    return QCoreApplication::translate("Format", "%1 years")
        .arg(formatNumber(tenths, tenths == std::round(tenths) ? 0 : 1));
}

} // namespace gpuplan::ui
