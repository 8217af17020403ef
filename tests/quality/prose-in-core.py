#!/usr/bin/env python3
"""Lists English prose in core's string literals: core says things as keys (core-says-keys.sh).

A literal is prose when it holds two words of letters side by side ("cannot read", "no GPU"). Not prose, and so
not listed: comments; the log (everything inside a logError/logWarning/logInfo/logDebug/logTrace call is English
for developers) and static_assert; raw strings R"(...)" (scripts and SQL kept whole); SQL (a literal with an upper-case SQL word);
and a statement that says why it holds text that is no sentence for the user with a `// wire:` comment, on one of
its lines or just above it (an API's value, a shell command run on the remote machine, an HTTP header), or with a
`// source:` comment (a price's provenance as its API names it, saved with the price like resources/catalog's
sources, which are English data).
Usage: prose-in-core.py SOURCE_DIR; prints file:line: "literal" for each and exits 1 when there is any.
"""
import os
import re
import sys

PROSE = re.compile(r"[A-Za-z]{2,}[,:;.')]? +[(']?[a-z]{2,}")
# The developer log's own files: its text is English by design (Log.h).
LOG_FILES = {"core/core/Log.cpp", "core/core/Redaction.cpp"}
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|PRAGMA|FROM|WHERE|VALUES|TABLE|INTEGER|TEXT|BEGIN|COMMIT|ROLLBACK|JOIN|ORDER BY|NOT NULL|PRIMARY KEY|DEFAULT|INDEX|SET)\b")
LOG_CALL = re.compile(r"\b(log(Error|Warning|Info|Debug|Trace)|static_assert)\s*\(")


def literals(text):
    """Yields (line, literal, in_log) for each ordinary string literal outside comments."""
    i, n, line = 0, len(text), 1
    depth = 0           # parenthesis depth
    log_depths = []     # depths at which a log call opened
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            line += text.count("\n", i, end)
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            yield line, text[i + 1:j], bool(log_depths)
            i = j + 1
        elif c == "'":
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c == "(":
            if LOG_CALL.search(text[max(0, i - 20):i + 1]) and LOG_CALL.search(text[max(0, i - 20):i + 1]).end() == i + 1 - max(0, i - 20):
                log_depths.append(depth)
            depth += 1
            i += 1
        elif c == ")":
            depth -= 1
            if log_depths and log_depths[-1] == depth:
                log_depths.pop()
            i += 1
        else:
            i += 1


def marked(lines, index):
    """The statement holding line `index` carries a `// wire:` comment: on one of its lines, or on the comment lines
    just above it."""
    start = index
    while start > 0 and not lines[start - 1].split("//")[0].rstrip().endswith((";", "{", "}")):
        start -= 1
    end = index
    while end < len(lines) - 1 and not lines[end].split("//")[0].rstrip().endswith((";", "{", "}", ",")):
        end += 1
    return any("// wire:" in line or "// source:" in line for line in lines[start:end + 1])


def main():
    root = sys.argv[1]
    found = 0
    for folder, _, files in os.walk(os.path.join(root, "core")):
        for name in sorted(files):
            if not name.endswith((".cpp", ".h")):
                continue
            path = os.path.join(folder, name)
            if os.path.relpath(path, root) in LOG_FILES:
                continue
            text = open(path, encoding="utf-8").read()
            lines = text.split("\n")
            for number, literal, in_log in literals(text):
                if in_log or not PROSE.search(literal) or SQL.search(literal):
                    continue
                if marked(lines, number - 1):
                    continue
                print(f'{os.path.relpath(path, root)}:{number}: "{literal}"')
                found += 1
    if found:
        print(f"{found} literals of English prose in core: say it as a key with parameters (core/Reason.h), worded "
              "in ui/wording; or mark text that is no sentence for the user with `// wire: why` or `// source: why`")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
