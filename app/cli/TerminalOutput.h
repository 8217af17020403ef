#pragma once

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

/// Puts a TerminalSafeBuffer in front of std::cout and std::cerr where each is a terminal; call first in main.
void makeTerminalOutputSafe();

} // namespace gpuplan::cli
