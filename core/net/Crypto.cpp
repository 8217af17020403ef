#include "gpuplan/net/Crypto.h"

#include "gpuplan/net/signers/Signing.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <cstdio>

namespace gpuplan::core {

namespace {

std::string digest(const EVP_MD* md, std::string_view data)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
    unsigned int size = 0;
    if (EVP_Digest(data.data(), data.size(), out.data(), &size, md, nullptr) != 1) {
        return {};
    }
    return std::string(reinterpret_cast<const char*>(out.data()), size);
}

std::string hmac(const EVP_MD* md, std::string_view key, std::string_view data)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
    unsigned int size = 0;
    if (!HMAC(md,
              key.data(),
              int(key.size()),
              reinterpret_cast<const unsigned char*>(data.data()),
              data.size(),
              out.data(),
              &size)) {
        return {};
    }
    return std::string(reinterpret_cast<const char*>(out.data()), size);
}

} // namespace

std::string sha256(std::string_view data)
{
    return digest(EVP_sha256(), data);
}

std::string sha256Hex(std::string_view data)
{
    return toHex(sha256(data));
}

std::string hmacSha256(std::string_view key, std::string_view data)
{
    return hmac(EVP_sha256(), key, data);
}

std::string hmacSha1(std::string_view key, std::string_view data)
{
    return hmac(EVP_sha1(), key, data);
}

std::string toHex(std::string_view bytes)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

std::string base64(std::string_view bytes)
{
    std::string out(4 * ((bytes.size() + 2) / 3), '\0');
    const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                        reinterpret_cast<const unsigned char*>(bytes.data()),
                                        int(bytes.size()));
    out.resize(std::size_t(std::max(0, written)));
    return out;
}

std::string base64Url(std::string_view bytes)
{
    std::string out = base64(bytes);
    for (char& c : out) {
        c = c == '+' ? '-' : c == '/' ? '_' : c;
    }
    while (!out.empty() && out.back() == '=') {
        out.pop_back();
    }
    return out;
}

std::string uriEncode(std::string_view text, bool keepSlash)
{
    static constexpr char digits[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size() * 3);
    for (unsigned char c : text) {
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
                                || c == '_' || c == '.' || c == '~' || (keepSlash && c == '/');
        if (unreserved) {
            out += char(c);
        } else {
            out += '%';
            out += digits[c >> 4];
            out += digits[c & 15];
        }
    }
    return out;
}

std::string uriDecode(std::string_view text)
{
    auto value = [](char c) -> int {
        return c >= '0' && c <= '9'   ? c - '0'
               : c >= 'a' && c <= 'f' ? c - 'a' + 10
               : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                      : -1;
    };
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && value(text[i + 1]) >= 0 && value(text[i + 2]) >= 0) {
            out += char(value(text[i + 1]) * 16 + value(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string randomBytes(std::size_t count)
{
    std::string out(count, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), int(count)) != 1) {
        return {};
    }
    return out;
}

std::string randomUuid()
{
    std::string b = randomBytes(16);
    if (b.size() != 16) {
        return {};
    }
    b[6] = char((b[6] & 0x0f) | 0x40);
    b[8] = char((b[8] & 0x3f) | 0x80);
    const std::string hex = toHex(b);
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-"
           + hex.substr(20);
}

AccessKey::~AccessKey()
{
    wipe(secret);
    wipe(sessionToken);
}

void wipe(std::string& secret)
{
    if (!secret.empty()) {
        OPENSSL_cleanse(secret.data(), secret.size());
    }
    secret.clear();
}

} // namespace gpuplan::core
