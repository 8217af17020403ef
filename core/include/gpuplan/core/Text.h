#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

// Text that comes from outside (files, servers, remote hosts), checked or made safe before it is used or shown.
namespace gpuplan::core {

/// ASCII lower case ("Authorization" -> "authorization", an ssh_config keyword).
std::string lowered(std::string_view text);

/// Without leading and trailing white space.
std::string trimmed(std::string_view text);

/// The byte offset of the first byte that is not part of well-formed UTF-8 (overlong forms, surrogates and code
/// points above U+10FFFF are not well-formed); nullopt when all of `text` is UTF-8.
std::optional<std::size_t> invalidUtf8At(std::string_view text);

/// `text` made safe to write to a terminal: C0 control characters other than newline and tab (ESC, BEL, CR,
/// backspace...), DEL and the C1 controls (U+0080..U+009F) become '?', so that a server message, a file or a
/// remote host's output cannot move the cursor, retitle the window, clear the screen or hide text. UTF-8 text
/// (Chinese included) passes unchanged.
std::string terminalSafe(std::string_view text);

} // namespace gpuplan::core
