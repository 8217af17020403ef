#pragma once
// Catches what the log (gpuplan/core/Log.h) hands its sink while it lives, at the thresholds it was given, and puts
// back the process's settings and sink when it dies.

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "gpuplan/core/Log.h"

namespace gpuplan::testing {

class LogCapture
{
public:
    struct Line
    {
        core::LogLevel level;
        core::LogCategory category;
        std::string text;
    };

    explicit LogCapture(const core::LogSettings& settings)
        : m_settings(core::logSettings())
    {
        core::setLogSettings(settings);
        m_sink = core::setLogSink([this](core::LogLevel level, core::LogCategory category, std::string_view text) {
            const std::lock_guard lock(m_mutex);
            m_lines.push_back(Line{level, category, std::string(text)});
        });
    }
    /// Every category at `level`.
    explicit LogCapture(core::LogLevel level)
        : LogCapture(core::LogSettings{level, {}})
    { }
    ~LogCapture()
    {
        core::setLogSink(std::move(m_sink));
        core::setLogSettings(m_settings);
    }
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    std::vector<Line> lines() const
    {
        const std::lock_guard lock(m_mutex);
        return m_lines;
    }
    /// Every line's text, one a line.
    std::string text() const
    {
        std::string all;
        for (const Line& line : lines()) {
            all += line.text + "\n";
        }
        return all;
    }
    void clear()
    {
        const std::lock_guard lock(m_mutex);
        m_lines.clear();
    }

private:
    core::LogSettings m_settings;
    core::LogSink m_sink;
    mutable std::mutex m_mutex;
    std::vector<Line> m_lines;
};

} // namespace gpuplan::testing
