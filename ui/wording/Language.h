#pragma once

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace gpuplan::ui {

/// The languages the UI ships in.
inline const QStringList kSupportedLanguages{QStringLiteral("en"), QStringLiteral("zh_CN")};

/// "zh_CN" for any Chinese locale (simplified Chinese is the one we ship), else "en".
QString languageForLocale(const QString& localeName);

/// Installs Qt's own translations and ours for `language` ("en" or "zh_CN") on `app`, replacing any earlier
/// ones. Returns false when our translation for a non-English language is missing from the resources.
bool installTranslations(QCoreApplication& app, const QString& language);

/// The language last installed by installTranslations ("en" until then), for data that carries its own
/// names per language (a provider's Chinese name).
QString currentLanguage();

} // namespace gpuplan::ui
