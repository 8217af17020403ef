#pragma once

#include "gpuplan/net/HttpClient.h"

#include <QObject>
#include <QStringList>

#include <optional>

namespace gpuplan::ui {

/// The user's settings, kept with QSettings in the XDG config dir. Never holds a secret.
class AppSettings final : public QObject
{
    Q_OBJECT

public:
    explicit AppSettings(QObject* parent = nullptr);

    QString language() const;
    void setLanguage(const QString& language);
    QString displayCurrency() const; // "CNY" or "USD"
    void setDisplayCurrency(const QString& code);
    std::optional<double> cnyPerUsd() const; // the user's rate; nullopt: the catalog's sourced rate
    void setCnyPerUsd(std::optional<double> rate);
    std::optional<double> electricityPrice() const; // per kWh in electricityCurrency(); nullopt: unknown
    QString electricityCurrency() const;
    void setElectricity(std::optional<double> price, const QString& currencyCode);
    std::optional<double> pue() const; // of the user's own server room; nullopt: ownership.json's default
    void setPue(std::optional<double> pue);
    /// Countries new plans may run in ("CN, HK"); empty: anywhere.
    QString regionCountries() const;
    void setRegionCountries(const QString& countries);
    /// The cover and paper of exported PDF reports.
    QString reportLab() const;
    void setReportLab(const QString& lab);
    QString reportAuthor() const;
    void setReportAuthor(const QString& author);
    QString reportPaper() const; // "a4" or "letter"
    void setReportPaper(const QString& paper);
    QString proxy() const; // "http://host:port"; empty: the environment's
    void setProxy(const QString& proxy);
    /// A CA certificate file (PEM) trusted beside the system's, for networks that inspect TLS; empty: none.
    QString extraCaFile() const;
    void setExtraCaFile(const QString& file);

    /// What core's HttpClient is given from these settings: the proxy and the extra CA file.
    core::HttpOptions httpOptions() const;

    QStringList recentFiles() const;
    void addRecentFile(const QString& file);
    bool exampleShown() const;
    void setExampleShown();

signals:
    void changed();
};

} // namespace gpuplan::ui
