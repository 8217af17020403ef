#include "gpuplan/core/Redaction.h"

#include "gpuplan/core/Text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <regex>
#include <vector>

#include "gpuplan/secrets/Credential.h"

namespace gpuplan::core {

namespace {

constexpr std::string_view kRedacted = "[redacted]";
// Lines of a multi-line secret shorter than this are not matched on their own: a PEM key's last line can be a
// few characters, and matching those everywhere would only blank out unrelated text.
constexpr std::size_t kMinFragment = 8;
// The longest log line shown; the rest is cut (see redactedUnlessClosed).
constexpr std::size_t kMaxLine = 8192;

/// One text that must not be shown and what is shown instead. `origin` is the registered secret it was derived
/// from (the secret itself, or one of its encodings), so that unregistering finds all of them.
struct Pattern
{
    SecretString text;
    std::string replacement;
    SecretString origin;
};

/// The registered secrets. Never destroyed (a log line from another static's destructor must still find it), but
/// wiped at exit, after which it refuses to show anything.
struct Registry
{
    std::mutex mutex;
    std::vector<Pattern> patterns; // longest first, so that a secret is replaced before a fragment of it
    std::size_t secrets = 0;
    bool closed = false;

    void wipeAll()
    {
        for (Pattern& p : patterns) {
            wipe(p.text);
            wipe(p.origin);
        }
        patterns.clear();
        secrets = 0;
    }
};

void closeAtExit();

Registry& registry()
{
    static Registry* const instance = [] {
        auto* r = new Registry;
        std::atexit(closeAtExit);
        return r;
    }();
    return *instance;
}

void closeAtExit()
{
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    r.wipeAll();
    r.closed = true;
}

SecretString percentEncoded(std::string_view text, bool lowerHex, bool plusForSpace)
{
    static constexpr char upperDigits[] = "0123456789ABCDEF";
    static constexpr char lowerDigits[] = "0123456789abcdef";
    const char* digits = lowerHex ? lowerDigits : upperDigits;
    SecretString out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            out.push_back(char(c));
        } else if (c == ' ' && plusForSpace) {
            out.push_back('+');
        } else {
            out.push_back('%');
            out.push_back(digits[c >> 4]);
            out.push_back(digits[c & 15]);
        }
    }
    return out;
}

SecretString jsonEscaped(std::string_view text, bool escapeSlash)
{
    static constexpr char digits[] = "0123456789abcdef";
    SecretString out;
    for (unsigned char c : text) {
        switch (c) {
            case '"':
                out.append("\\\"");
                break;
            case '\\':
                out.append("\\\\");
                break;
            case '\n':
                out.append("\\n");
                break;
            case '\r':
                out.append("\\r");
                break;
            case '\t':
                out.append("\\t");
                break;
            case '/':
                out.append(escapeSlash ? "\\/" : "/");
                break;
            default:
                if (c < 0x20) {
                    out.append("\\u00");
                    out.push_back(digits[c >> 4]);
                    out.push_back(digits[c & 15]);
                } else {
                    out.push_back(char(c));
                }
        }
    }
    return out;
}

/// The forms in which `secret` may reach a log line.
std::vector<SecretString> formsOf(std::string_view secret)
{
    std::vector<SecretString> forms;
    const auto add = [&forms](SecretString form) {
        if (!form.empty() && std::find(forms.begin(), forms.end(), form) == forms.end()) {
            forms.push_back(std::move(form));
        } else {
            wipe(form);
        }
    };
    add(SecretString(secret));
    add(percentEncoded(secret, false, false)); // a URL's query
    add(percentEncoded(secret, true, false));
    add(percentEncoded(secret, false, true)); // a form body (application/x-www-form-urlencoded)
    add(jsonEscaped(secret, false));
    add(jsonEscaped(secret, true));
    if (secret.find('\n') != std::string_view::npos) {
        std::size_t start = 0;
        while (start <= secret.size()) {
            std::size_t end = secret.find('\n', start);
            if (end == std::string_view::npos) {
                end = secret.size();
            }
            std::string_view line = secret.substr(start, end - start);
            while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
                line.remove_suffix(1);
            }
            // A PEM key's BEGIN and END lines are the same in every key: not secret, and left to the PEM rule.
            if (line.size() >= kMinFragment && !line.starts_with("-----")) {
                add(SecretString(line));
            }
            start = end + 1;
        }
    }
    return forms;
}

void replaceAll(std::string& text, std::string_view pattern, std::string_view replacement)
{
    std::size_t at = text.find(pattern);
    while (at != std::string::npos) {
        text.replace(at, pattern.size(), replacement);
        at = text.find(pattern, at + replacement.size());
    }
}

/// Whole private keys in PEM, from "-----BEGIN ... PRIVATE KEY-----" to its END line, or to the end of the text
/// when the log shows only its start. (Found by hand: std::regex recurses once per character of a key.)
std::string withoutPrivateKeys(std::string text)
{
    constexpr std::string_view begin = "-----BEGIN ";
    constexpr std::string_view privateKey = "PRIVATE KEY-----";
    constexpr std::string_view end = "-----END ";
    std::size_t from = 0;
    while ((from = text.find(begin, from)) != std::string::npos) {
        const std::size_t label = text.find(privateKey, from);
        const std::size_t lineEnd = text.find('\n', from);
        if (label == std::string::npos || (lineEnd != std::string::npos && label > lineEnd)) {
            from += begin.size(); // a certificate or a public key: nothing secret
            continue;
        }
        const std::size_t bodyStart = label + privateKey.size();
        std::size_t stop = text.size();
        if (const std::size_t endAt = text.find(end, bodyStart); endAt != std::string::npos) {
            const std::size_t endLabel = text.find(privateKey, endAt);
            stop = endLabel == std::string::npos ? text.size() : endLabel + privateKey.size();
        }
        const std::string replacement =
            std::string(text, from, bodyStart - from) + " [redacted] -----END " + std::string(privateKey);
        secureWipe(text.data() + from, stop - from);
        text.replace(from, stop - from, replacement);
        from += replacement.size();
    }
    return text;
}

/// Header lines, bearer tokens and signature parameters anywhere in a text (a message that quotes a request).
std::string withoutCredentialsInText(std::string text)
{
    // "Authorization: ...", "X-Amz-Security-Token: ..." and any header named for a token, secret, signature or
    // password, to the end of its line.
    static const std::regex header("(^|[\\s>])((?:proxy-)?authorization|cookie|set-cookie|x-api-key|"
                                   "[A-Za-z0-9-]*(?:token|secret|signature|password)[A-Za-z0-9-]*):"
                                   "(?![ \\t]*\\[redacted\\])[ \\t]*[^\\r\\n]+",
                                   std::regex::icase);
    static const std::regex bearer("\\b(Bearer|Basic)[ \\t]+[A-Za-z0-9._~+/=-]+", std::regex::icase);
    // AWS SigV4 and Tencent TC3 Authorization values: "Credential=AKID/date/..., SignedHeaders=..., Signature=hex".
    static const std::regex signature("\\b((?:X-Amz-)?(?:Signature|Credential)=)[^,&\\s\"]+", std::regex::icase);
    text = std::regex_replace(text, header, "$1$2: [redacted]");
    text = std::regex_replace(text, bearer, "$1 [redacted]");
    return std::regex_replace(text, signature, "$1[redacted]");
}

} // namespace

void registerSecret(std::string_view secret, std::string_view replacement)
{
    if (secret.empty()) {
        return;
    }
    std::vector<SecretString> forms = formsOf(secret);
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    if (r.closed) {
        return;
    }
    const bool known = std::any_of(r.patterns.begin(), r.patterns.end(), [&](const Pattern& p) {
        return std::string_view(p.origin.data(), p.origin.size()) == secret;
    });
    if (known) {
        for (SecretString& form : forms) {
            wipe(form);
        }
        return;
    }
    for (SecretString& form : forms) {
        r.patterns.push_back(Pattern{std::move(form), std::string(replacement), SecretString(secret)});
    }
    ++r.secrets;
    std::stable_sort(r.patterns.begin(), r.patterns.end(), [](const Pattern& a, const Pattern& b) {
        return a.text.size() > b.text.size();
    });
}

void unregisterSecret(std::string_view secret)
{
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    const auto ofSecret = [secret](const Pattern& p) {
        return std::string_view(p.origin.data(), p.origin.size()) == secret;
    };
    if (std::none_of(r.patterns.begin(), r.patterns.end(), ofSecret)) {
        return;
    }
    for (Pattern& p : r.patterns) {
        if (ofSecret(p)) {
            wipe(p.text);
            wipe(p.origin);
        }
    }
    std::erase_if(r.patterns, [](const Pattern& p) { return p.origin.empty(); });
    --r.secrets;
}

std::size_t registeredSecretCount()
{
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    return r.secrets;
}

std::optional<std::string> redactedUnlessClosed(std::string_view text)
{
    std::string out(text);
    {
        Registry& r = registry();
        const std::lock_guard lock(r.mutex);
        if (r.closed) {
            secureWipe(out.data(), out.size());
            return std::nullopt;
        }
        for (const Pattern& p : r.patterns) {
            replaceAll(out, std::string_view(p.text.data(), p.text.size()), p.replacement);
        }
    }
    out = withoutPrivateKeys(std::move(out));
    // The rules below use std::regex, which recurses once per character it matches: a long line could exhaust a
    // worker thread's stack. Cut after the registered secrets and private keys are gone, before the rules run.
    if (out.size() > kMaxLine) {
        const std::size_t more = out.size() - kMaxLine;
        secureWipe(out.data() + kMaxLine, more);
        out.resize(kMaxLine);
        out += " ... (" + std::to_string(more) + " bytes more)";
    }
    out = withoutCredentialsInText(std::move(out));
    return redactedText(out);
}

std::string redacted(std::string_view text)
{
    return redactedUnlessClosed(text).value_or(std::string());
}

std::string redactedHeader(const std::string& name, const std::string& value)
{
    const std::string n = lowered(name);
    static const char* const secret[] = {"authorization",
                                         "proxy-authorization",
                                         "cookie",
                                         "set-cookie",
                                         "x-api-key",
                                         "x-amz-security-token",
                                         "x-tc-token",
                                         "x-acs-security-token",
                                         "x-auth-token",
                                         "x-subject-token",
                                         "x-security-token"};
    for (const char* s : secret) {
        if (n == s) {
            return std::string(kRedacted);
        }
    }
    if (n.find("token") != std::string::npos || n.find("secret") != std::string::npos
        || n.find("signature") != std::string::npos || n.find("password") != std::string::npos) {
        return std::string(kRedacted);
    }
    return value;
}

std::string redactedText(const std::string& text)
{
    // name=value in URLs and forms; "name": "value" in JSON. Names compared without case.
    static const std::regex form(
        "((?:^|[?&])(?:Signature|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|client_secret|assertion|"
        "access_token|refresh_token|id_token|password|SecurityToken|AccessKeySecret)=)[^&\\s]*",
        std::regex::icase);
    // Any JSON member whose name speaks of a token, secret, key, signature, password or authorization.
    static const std::regex json("(\"[A-Za-z0-9_.-]*(?:token|secret|authorization|signature|password|private_?key|"
                                 "api_?key)[A-Za-z0-9_.-]*\"\\s*:\\s*\")(?:[^\"\\\\]|\\\\.)*\"",
                                 std::regex::icase);
    std::string out = std::regex_replace(text, form, "$1[redacted]");
    return std::regex_replace(out, json, "$1[redacted]\"");
}

} // namespace gpuplan::core
