#include "TerminalOutput.h"

#include "wording/CatalogText.h"
#include "wording/ErrorText.h"
#include "wording/PlanText.h"

#include <QLocale>

#include "gpuplan/core/Text.h"

#include <iostream>

#include <unistd.h>

namespace gpuplan::cli {

TerminalSafeBuffer::int_type TerminalSafeBuffer::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof())) {
        return traits_type::not_eof(c);
    }
    m_pending += traits_type::to_char_type(c);
    return (c == '\n' || m_pending.size() >= 4096) && !flushLines(false) ? traits_type::eof() : c;
}

std::streamsize TerminalSafeBuffer::xsputn(const char* text, std::streamsize count)
{
    m_pending.append(text, static_cast<std::size_t>(count));
    return flushLines(false) ? count : 0;
}

int TerminalSafeBuffer::sync()
{
    return flushLines(true) && m_terminal->pubsync() == 0 ? 0 : -1;
}

// Writes the complete lines (all of it when `all`), made safe. A trailing 0xC2 waits for its next byte: with it,
// it may be a C1 control (U+0080..U+009F) that terminalSafe must see whole.
bool TerminalSafeBuffer::flushLines(bool all)
{
    std::size_t end = all ? m_pending.size() : m_pending.rfind('\n');
    if (end == std::string::npos) {
        if (m_pending.size() < 4096) {
            return true;
        }
        end = m_pending.size();
    } else if (!all) {
        ++end;
    }
    if (end > 0 && end == m_pending.size() && static_cast<unsigned char>(m_pending[end - 1]) == 0xC2) {
        --end;
    }
    const std::string safe = core::terminalSafe(std::string_view(m_pending).substr(0, end));
    m_pending.erase(0, end);
    return m_terminal->sputn(safe.data(), std::streamsize(safe.size())) == std::streamsize(safe.size());
}

namespace {

// Puts the safe buffer in front of `stream` until the program ends, then hands the stream its own buffer back
// (std::cout is flushed once more after static objects are gone).
struct SafeStream
{
    SafeStream(std::ostream& s)
        : stream(s)
        , original(s.rdbuf())
        , safe(original)
    {
        stream.rdbuf(&safe);
    }
    ~SafeStream()
    {
        stream.flush();
        stream.rdbuf(original);
    }
    std::ostream& stream;
    std::streambuf* original;
    TerminalSafeBuffer safe;
};

} // namespace

void makeTerminalOutputSafe()
{
    QLocale::setDefault(QLocale::c()); // `gpuplan report --lang` sets the report's own
    if (::isatty(STDOUT_FILENO)) {
        static SafeStream out(std::cout);
    }
    if (::isatty(STDERR_FILENO)) {
        static SafeStream err(std::cerr);
    }
}

std::string said(const core::Reason& reason)
{
    return ui::reasonText(reason).toStdString();
}

std::string said(const core::Error& error)
{
    return ui::errorMessage(error).toStdString();
}

std::string said(const core::Finding& finding)
{
    return finding.where + ": " + ui::findingDetailText(finding).toStdString();
}

} // namespace gpuplan::cli
