#pragma once

#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/core/Reason.h"
#include "gpuplan/core/Result.h"
#include "wording/ErrorText.h"

#include <streambuf>
#include <string>

namespace gpuplan::cli {

/// What gpuplan prints to a terminal passes through core::terminalSafe: a server's message, a plan's name or a
/// remote host's output cannot send escape sequences to the user's terminal. Output to a file or a pipe (JSON,
/// scripts) is left exactly as it is.
class TerminalSafeBuffer final : public std::streambuf
{
public:
    explicit TerminalSafeBuffer(std::streambuf* terminal)
        : m_terminal(terminal)
    { }
    ~TerminalSafeBuffer() override { sync(); }

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* text, std::streamsize count) override;
    int sync() override;

private:
    bool flushLines(bool all);

    std::streambuf* m_terminal;
    std::string m_pending;
};

/// Puts a TerminalSafeBuffer in front of std::cout and std::cerr where each is a terminal, and words numbers as
/// the C locale does (1234.5); call first in main.
void makeTerminalOutputSafe();

/// What core says (a reason, a note, a verdict line's reason) in the CLI's words: the GUI's wording (ui/wording),
/// in English.
std::string said(const core::Reason& reason);

/// "catalog/offers/aws.json: $.offers[3].gpu: unknown GPU ...": an error, where and what (no code name).
std::string said(const core::Error& error);

/// "file: $.offers[1].prices[0]: spot price 1.2 USD is above ...": a catalog finding, where and what.
std::string said(const core::Finding& finding);

} // namespace gpuplan::cli
