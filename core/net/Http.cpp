#include "gpuplan/net/Http.h"

#include <algorithm>
#include <cctype>

namespace gpuplan::core {

namespace {

bool sameName(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

std::optional<std::string> find(const std::vector<HttpHeader>& headers, std::string_view name)
{
    for (const HttpHeader& h : headers) {
        if (sameName(h.name, name)) {
            return h.value;
        }
    }
    return std::nullopt;
}

} // namespace

std::string Url::authority() const
{
    const bool defaultPort = port == 0 || (scheme == "https" && port == 443) || (scheme == "http" && port == 80);
    return defaultPort ? host : host + ":" + std::to_string(port);
}

Result<Url> parseUrl(std::string_view text)
{
    auto bad = [&](const char* key) {
        return Error{ErrorCode::InvalidArgument, Reason{key, {{"url", std::string(text)}}}, "url"};
    };
    Url url;
    const std::size_t schemeEnd = text.find("://");
    if (schemeEnd == std::string_view::npos) {
        return bad("error.net.url_no_scheme");
    }
    url.scheme = std::string(text.substr(0, schemeEnd));
    std::transform(url.scheme.begin(), url.scheme.end(), url.scheme.begin(), [](unsigned char c) {
        return char(std::tolower(c));
    });
    if (url.scheme != "http" && url.scheme != "https") {
        return bad("error.net.url_scheme_not_http");
    }
    std::string_view rest = text.substr(schemeEnd + 3);
    const std::size_t authorityEnd = rest.find_first_of("/?#");
    std::string_view authority = rest.substr(0, authorityEnd);
    rest = authorityEnd == std::string_view::npos ? std::string_view() : rest.substr(authorityEnd);
    if (authority.empty() || authority.find('@') != std::string_view::npos) {
        return bad(authority.empty() ? "error.net.url_no_host" : "error.net.url_user_info");
    }
    const std::size_t colon = authority.rfind(':');
    if (colon != std::string_view::npos && authority.find(']') == std::string_view::npos) {
        const std::string_view port = authority.substr(colon + 1);
        if (port.empty() || port.size() > 5 || !std::all_of(port.begin(), port.end(), ::isdigit)) {
            return bad("error.net.url_bad_port");
        }
        url.port = std::stoi(std::string(port));
        authority = authority.substr(0, colon);
    }
    url.host = std::string(authority);
    std::transform(
        url.host.begin(), url.host.end(), url.host.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    const std::size_t hash = rest.find('#');
    rest = rest.substr(0, hash);
    const std::size_t question = rest.find('?');
    url.path = std::string(rest.substr(0, question));
    if (url.path.empty()) {
        url.path = "/";
    }
    if (question != std::string_view::npos) {
        url.query = std::string(rest.substr(question + 1));
    }
    return url;
}

std::optional<std::string> HttpRequest::header(std::string_view name) const
{
    return find(headers, name);
}

void HttpRequest::setHeader(std::string_view name, std::string value)
{
    headers.erase(
        std::remove_if(headers.begin(), headers.end(), [&](const HttpHeader& h) { return sameName(h.name, name); }),
        headers.end());
    headers.push_back(HttpHeader{std::string(name), std::move(value)});
}

std::optional<std::string> HttpResponse::header(std::string_view name) const
{
    return find(headers, name);
}

} // namespace gpuplan::core
