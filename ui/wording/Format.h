#pragma once

#include <QString>
#include <QStringList>

namespace gpuplan::ui {

/// Money in the UI's locale: "¥1,234.50" or "$1,234.50" (the symbol by currency code, the grouping by locale).
/// `decimals` < 0: two below 1 000, none above.
QString formatMoney(double amount, const QString& currencyCode, int decimals = -1);
/// A duration from hours: "45 min", "7.6 h", "3.2 d".
QString formatHours(double hours);
/// A length in months as a reader says it: days under a month ("14 days", "1 day"), then "1 month", "12 months",
/// "1.5 months" (a month is 730 hours, as the planner counts it).
QString formatMonths(double months);
/// "1 year", "3 years", "1.5 years" (in Chinese "1 年", "3 年"); under a year, as formatMonths.
QString formatYears(double years);
/// A number with the locale's grouping and `decimals` digits.
QString formatNumber(double value, int decimals = 0);
/// A size in bytes as the locale says it, in binary units: "1.5 MiB", "320 KiB".
QString formatBytes(double bytes);
/// A model's parameter count as its language says it: "124 million", "7 billion" in English; "1.24 亿",
/// "2,560 万" in Chinese, which groups digits by ten thousands (万) and hundred millions (亿).
QString formatParameterCount(double parameters);
/// "¥" for CNY, "$" for USD, else the code.
QString currencySymbol(const QString& currencyCode);
/// Alternatives to choose from, "a, b or c" ("a、b 或 c"): a list core gives as one parameter, its items
/// separated by ", ".
QString alternativesText(const QString& list);
/// Items that all hold, joined as the language joins them: "a, b and c" / "a、b 和 c".
QString conjunctionText(const QStringList& items);

} // namespace gpuplan::ui
