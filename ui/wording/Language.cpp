#include "wording/Language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace gpuplan::ui {

QString languageForLocale(const QString& localeName)
{
    return localeName.startsWith(QLatin1String("zh")) ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

namespace {
QString g_currentLanguage = QStringLiteral("en");
} // namespace

QString currentLanguage()
{
    return g_currentLanguage;
}

bool installTranslations(QCoreApplication& app, const QString& language)
{
    // Translators live as children of the application; remove the ones of an earlier language first.
    for (QTranslator* old : app.findChildren<QTranslator*>(QStringLiteral("gpuplanTranslator"))) {
        QCoreApplication::removeTranslator(old);
        delete old;
    }
    g_currentLanguage = QStringLiteral("en");
    if (language == QLatin1String("en")) {
        return true;
    }
    // Ours first: when it is missing, nothing is installed and the UI stays consistently English.
    auto* ours = new QTranslator(&app);
    ours->setObjectName(QStringLiteral("gpuplanTranslator"));
    if (!ours->load(QStringLiteral(":/i18n/gpuplanner_") + language)) {
        delete ours;
        return false;
    }
    // Qt's own strings (standard buttons, dialogs); optional, the package may be missing.
    auto* qtBase = new QTranslator(&app);
    qtBase->setObjectName(QStringLiteral("gpuplanTranslator"));
    if (qtBase->load(QStringLiteral("qtbase_") + language, QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qtBase);
    } else {
        delete qtBase;
    }
    g_currentLanguage = language;
    QCoreApplication::installTranslator(ours);
    return true;
}

} // namespace gpuplan::ui
