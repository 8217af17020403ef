#pragma once

#include "wording/Format.h"

#include <cmath>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>

#include <QLocale>
#include <QString>

namespace gpuplan::ui {

/// A reason's parameters (core/Reason.h), read leniently for wording: a missing parameter reads as empty text, a
/// parameter that is no number as no number (and then shows as it is).
class ReasonParams
{
public:
    explicit ReasonParams(const std::map<std::string, std::string>& params)
        : m_params(params)
    { }

    QString text(const char* name) const
    {
        const auto it = m_params.find(name);
        return it == m_params.end() ? QString() : QString::fromStdString(it->second);
    }
    /// Set and not empty.
    bool has(const char* name) const { return !text(name).isEmpty(); }
    /// Every one of `names` is set: a wording that needs them all reads as the key and its figures otherwise.
    bool all(std::initializer_list<const char*> names) const
    {
        for (const char* name : names) {
            if (!has(name)) {
                return false;
            }
        }
        return true;
    }
    std::optional<double> number(const char* name) const
    {
        bool ok = false;
        const double value = text(name).toDouble(&ok);
        return ok && std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
    }
    int integer(const char* name) const { return text(name).toInt(); }
    /// A number with `decimals` decimals in the locale's format ("1,234.5"); anything else as it is.
    QString fixed(const char* name, int decimals) const
    {
        const std::optional<double> value = number(name);
        return value ? formatNumber(*value, decimals) : text(name);
    }
    /// Four significant digits with the locale's separators (312, 989.5, 0.0001); anything else as it is.
    QString figure(const char* name) const
    {
        const std::optional<double> value = number(name);
        return value ? QLocale().toString(*value, 'g', 4) : text(name);
    }

private:
    const std::map<std::string, std::string>& m_params;
};

} // namespace gpuplan::ui
