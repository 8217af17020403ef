// The token-based signers: RS256 against RFC 7515's published vector, the Google service-account JWT, the Google
// and Azure token sources (caching, request form, error replies) and the API-key bearer header.
#include "gpuplan/net/Crypto.h"
#include "gpuplan/net/signers/ApiKey.h"
#include "gpuplan/net/signers/AzureClientCredentials.h"
#include "gpuplan/net/signers/GoogleServiceAccount.h"

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <QFile>
#include <QTest>

using namespace gpuplan::core;
using namespace std::chrono_literals;

// So that a failed QCOMPARE of std::strings prints both.
namespace QTest {
template <>
inline char* toString(const std::string& text)
{
    return QTest::toString(QString::fromStdString(text));
}
} // namespace QTest

namespace {

const QString kData = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/");

// 2024-01-02T03:04:05Z
const TimePoint kT0 = std::chrono::sys_seconds{std::chrono::seconds{1704164645}};

const std::string kScope = "https://www.googleapis.com/auth/cloud-platform";
const std::string kAzureSecret = "test-secret~Value.With/Special+Chars=&";

std::string readData(const QString& name)
{
    QFile file(kData + name);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return file.readAll().toStdString();
}

std::string fromBase64Url(const std::string& text)
{
    return QByteArray::fromBase64(QByteArray::fromStdString(text),
                                  QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals)
        .toStdString();
}

std::vector<std::string> split(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t at = text.find(separator); at != std::string::npos; at = text.find(separator, start)) {
        parts.push_back(text.substr(start, at - start));
        start = at + 1;
    }
    parts.push_back(text.substr(start));
    return parts;
}

struct PkeyFree
{
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

PkeyPtr readKey(const std::string& pem, bool isPublic)
{
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), int(pem.size())), &BIO_free);
    if (!bio) {
        return nullptr;
    }
    return PkeyPtr(isPublic ? PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr)
                            : PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

// An independent check of an RS256 signature: OpenSSL's verifier with the public key, not our signer.
bool verifyRs256(const std::string& publicPem, const std::string& data, const std::string& signature)
{
    PkeyPtr key = readKey(publicPem, true);
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!key || !ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1) {
        return false;
    }
    return EVP_DigestVerify(ctx.get(),
                            reinterpret_cast<const unsigned char*>(signature.data()),
                            signature.size(),
                            reinterpret_cast<const unsigned char*>(data.data()),
                            data.size())
           == 1;
}

// A big-endian RSA key component of `key`, as JWK stores it.
std::string keyComponent(EVP_PKEY* key, const char* name)
{
    BIGNUM* number = nullptr;
    if (EVP_PKEY_get_bn_param(key, name, &number) != 1) {
        return {};
    }
    std::string bytes(std::size_t(BN_num_bytes(number)), '\0');
    BN_bn2bin(number, reinterpret_cast<unsigned char*>(bytes.data()));
    BN_clear_free(number);
    return bytes;
}

std::string tokenReply(const std::string& token, int expiresIn = 3599)
{
    return nlohmann::json{{"access_token", token}, {"expires_in", expiresIn}, {"token_type", "Bearer"}}.dump();
}

HttpResponse response(int status, const std::string& body)
{
    HttpResponse r;
    r.status = status;
    r.headers.push_back({"Content-Type", "application/json; charset=utf-8"});
    r.body = body;
    return r;
}

int headerCount(const HttpRequest& request, const std::string& name)
{
    int count = 0;
    for (const HttpHeader& h : request.headers) {
        count += QString::fromStdString(h.name).compare(QString::fromStdString(name), Qt::CaseInsensitive) == 0;
    }
    return count;
}

// Stands in for the Google and Azure token endpoints: records every request it is given and answers with canned
// replies in order. A real endpoint would need real credentials; what is under test is what the client sends and
// how it reads the documented replies.
class RecordingTransport final : public HttpTransport
{
public:
    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken*) override
    {
        if (slow) {
            // Gives concurrent callers time to pile up, so a missing lock shows as extra requests.
            std::this_thread::sleep_for(20ms);
        }
        std::lock_guard lock(m_mutex);
        requests.push_back(request);
        if (replies.empty()) {
            return Error{ErrorCode::Network, Reason{"error.test.no_canned_reply", {}}, request.url};
        }
        Result<HttpResponse> reply = replies.front();
        replies.pop_front();
        return reply;
    }

    std::vector<HttpRequest> requests;
    std::deque<Result<HttpResponse>> replies;
    bool slow = false;

private:
    std::mutex m_mutex;
};

enum Provider
{
    Google,
    Azure,
};

// One token source of either kind, with the transport and the clock it reads; the test moves `now`.
class Harness
{
public:
    explicit Harness(Provider provider)
        : m_provider(provider)
    {
        Clock clock = [this] { return now; };
        if (provider == Google) {
            account.clientEmail = "planner-test@example-project.iam.gserviceaccount.com";
            account.privateKeyPem = readData("test-service-account-key.pem");
            account.privateKeyId = "0123456789abcdef0123456789abcdef01234567";
            m_google = std::make_unique<GoogleTokenSource>(account, kScope, transport, clock);
        } else {
            azure = {"72f988bf-86f1-41af-91ab-2d7cd011db47", "11111111-2222-3333-4444-555555555555", kAzureSecret};
            m_azure = std::make_unique<AzureTokenSource>(azure, "", transport, clock);
        }
    }

    Result<AccessToken> token() { return m_google ? m_google->token() : m_azure->token(); }
    Status authorize(HttpRequest& request)
    {
        return m_google ? m_google->authorize(request) : m_azure->authorize(request);
    }
    // What must never show in an error: the private key (any line of its PEM) or the client secret.
    bool leaksSecret(const std::string& text) const
    {
        if (m_provider == Azure) {
            return text.find(kAzureSecret) != std::string::npos;
        }
        for (const std::string& line : split(account.privateKeyPem, '\n')) {
            if (!line.empty() && text.find(line) != std::string::npos) {
                return true;
            }
        }
        return false;
    }

    TimePoint now = kT0;
    RecordingTransport transport;
    GoogleServiceAccount account;
    AzureClientSecret azure;

private:
    Provider m_provider;
    std::unique_ptr<GoogleTokenSource> m_google;
    std::unique_ptr<AzureTokenSource> m_azure;
};

void addProviderRows()
{
    QTest::addColumn<int>("provider");
    QTest::newRow("google") << int(Google);
    QTest::newRow("azure") << int(Azure);
}

} // namespace

class TestTokenSigners : public QObject
{
    Q_OBJECT

private slots:
    void rfc7515KeyIsTheJwk_data();
    void rfc7515KeyIsTheJwk();
    void rfc7515A2Signature();
    void rs256SignRejectsBadKeys_data();
    void rs256SignRejectsBadKeys();
    void googleJwtAssertion_data();
    void googleJwtAssertion();
    void parseServiceAccount();
    void parseServiceAccountRejects_data();
    void parseServiceAccountRejects();
    void tokenCachedUntilFiveMinutesBeforeExpiry_data();
    void tokenCachedUntilFiveMinutesBeforeExpiry();
    void googleTokenRequest();
    void azureTokenRequest();
    void azureMissingCredential_data();
    void azureMissingCredential();
    void tokenErrors_data();
    void tokenErrors();
    void tokenReplyExpiry_data();
    void tokenReplyExpiry();
    void authorizeSetsBearer_data();
    void authorizeSetsBearer();
    void concurrentCallersShareOneFetch_data();
    void concurrentCallersShareOneFetch();
    void apiKeyBearer_data();
    void apiKeyBearer();
};

// tests/data/rfc7515-a2-key.pem was built from the JWK of RFC 7515 Appendix A.2.1
// (https://www.rfc-editor.org/rfc/rfc7515#appendix-A.2.1) with `openssl asn1parse -genconf`; each row checks one
// of its components against the RFC's text, so the signature test below signs with the RFC's key.
void TestTokenSigners::rfc7515KeyIsTheJwk_data()
{
    QTest::addColumn<QByteArray>("param");
    QTest::addColumn<QByteArray>("jwk");
    QTest::newRow("n") << QByteArray(OSSL_PKEY_PARAM_RSA_N)
                       << QByteArray("ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddx"
                                     "HmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMs"
                                     "D1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSH"
                                     "SXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdV"
                                     "MTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8"
                                     "NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ");
    QTest::newRow("e") << QByteArray(OSSL_PKEY_PARAM_RSA_E) << QByteArray("AQAB");
    QTest::newRow("d") << QByteArray(OSSL_PKEY_PARAM_RSA_D)
                       << QByteArray("Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97I"
                                     "jlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui395IW_GO-pWJ1O0"
                                     "BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn"
                                     "439X0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYT"
                                     "CBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLh"
                                     "BOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ");
    QTest::newRow("p") << QByteArray(OSSL_PKEY_PARAM_RSA_FACTOR1)
                       << QByteArray("4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdi"
                                     "YrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDcmnPG"
                                     "BY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc");
    QTest::newRow("q") << QByteArray(OSSL_PKEY_PARAM_RSA_FACTOR2)
                       << QByteArray("uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxa"
                                     "ewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-TnBA"
                                     "-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc");
    QTest::newRow("dp") << QByteArray(OSSL_PKEY_PARAM_RSA_EXPONENT1)
                        << QByteArray("BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3Q"
                                      "CLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu1R6HsJeDCjn12Sk3vmAktV2zb"
                                      "34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0");
    QTest::newRow("dq") << QByteArray(OSSL_PKEY_PARAM_RSA_EXPONENT2)
                        << QByteArray("h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa"
                                      "7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0ajaHF-NKJnwgjMd2w9cjz3_-kyN"
                                      "lxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU");
    QTest::newRow("qi") << QByteArray(OSSL_PKEY_PARAM_RSA_COEFFICIENT1)
                        << QByteArray("IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2o"
                                      "y26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY7YIBi87w93IKLEdfnbJtoOPLU"
                                      "W0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U");
}

void TestTokenSigners::rfc7515KeyIsTheJwk()
{
    QFETCH(QByteArray, param);
    QFETCH(QByteArray, jwk);
    PkeyPtr key = readKey(readData("rfc7515-a2-key.pem"), false);
    QVERIFY(key);
    const std::string expected = fromBase64Url(jwk.toStdString());
    QVERIFY(!expected.empty());
    QCOMPARE(toHex(keyComponent(key.get(), param.constData())), toHex(expected));
}

// RFC 7515 Appendix A.2 (https://www.rfc-editor.org/rfc/rfc7515#appendix-A.2): RSASSA-PKCS1-v1_5 is
// deterministic, so our signature must equal the RFC's byte for byte. The expected value is the RFC's
// A.2.1 result (the same string appears in the JOSE test suites of several independent libraries).
void TestTokenSigners::rfc7515A2Signature()
{
    const std::string signingInput = "eyJhbGciOiJSUzI1NiJ9"
                                     "."
                                     "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9p"
                                     "c19yb290Ijp0cnVlfQ";
    // The encoded parts are those of the RFC's JOSE header and payload (CRLF line breaks included).
    QCOMPARE(fromBase64Url(split(signingInput, '.')[0]), std::string("{\"alg\":\"RS256\"}"));
    QCOMPARE(fromBase64Url(split(signingInput, '.')[1]),
             std::string("{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}"));
    const std::string expected = "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7"
                                 "AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4"
                                 "BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K"
                                 "0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqv"
                                 "hJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrB"
                                 "p0igcN_IoypGlUPQGe77Rw";

    const std::string pem = readData("rfc7515-a2-key.pem");
    QVERIFY(!pem.empty());
    Result<std::string> signature = rs256Sign(pem, signingInput);
    QVERIFY2(signature.ok(), signature.ok() ? "" : describe(signature.error()).c_str());
    QCOMPARE(signature->size(), std::size_t(256));
    QCOMPARE(base64Url(*signature), expected);
    // The RFC's signature verifies under the key's public half (a check of the key file, not of our signer).
    PkeyPtr key = readKey(pem, false);
    QVERIFY(key);
    std::unique_ptr<BIO, decltype(&BIO_free)> out(BIO_new(BIO_s_mem()), &BIO_free);
    QVERIFY(PEM_write_bio_PUBKEY(out.get(), key.get()) == 1);
    char* data = nullptr;
    const long size = BIO_get_mem_data(out.get(), &data);
    QVERIFY(verifyRs256(std::string(data, std::size_t(size)), signingInput, fromBase64Url(expected)));
}

void TestTokenSigners::rs256SignRejectsBadKeys_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("pem");
    QTest::addColumn<QByteArray>("reasonKey");
    QTest::newRow("empty") << QString() << QByteArray() << QByteArray("error.signer.private_key_not_pem");
    QTest::newRow("not PEM") << QString() << QByteArray("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw")
                             << QByteArray("error.signer.private_key_not_pem");
    QTest::newRow("truncated PEM") << QStringLiteral("test-service-account-key.pem") << QByteArray("truncate")
                                   << QByteArray("error.signer.private_key_not_pem");
    // Must fail, not stop to ask for a passphrase on the terminal.
    QTest::newRow("encrypted PKCS#8") << QStringLiteral("test-encrypted-key.pem") << QByteArray()
                                      << QByteArray("error.signer.private_key_not_pem");
    QTest::newRow("EC key") << QStringLiteral("test-ec-key.pem") << QByteArray()
                            << QByteArray("error.signer.private_key_not_rsa");
}

void TestTokenSigners::rs256SignRejectsBadKeys()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, pem);
    QFETCH(QByteArray, reasonKey);
    std::string key = file.isEmpty() ? pem.toStdString() : readData(file);
    if (pem == "truncate") {
        key = key.substr(0, key.size() / 2);
    }
    Result<std::string> signature = rs256Sign(key, "payload");
    QVERIFY(!signature.ok());
    QCOMPARE(int(signature.error().code), int(ErrorCode::Crypto));
    QCOMPARE(signature.error().reason.key, reasonKey.toStdString());
    QCOMPARE(signature.error().where, std::string("private_key"));
    // Everything the error carries (where, key, every parameter): no line of the key.
    const std::string carried = describe(signature.error());
    for (const std::string& line : split(key, '\n')) {
        QVERIFY(line.size() < 8 || carried.find(line) == std::string::npos);
    }
}

void TestTokenSigners::googleJwtAssertion_data()
{
    QTest::addColumn<QByteArray>("keyId");
    QTest::addColumn<QByteArray>("tokenUri");
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("claims");
    const QByteArray claims = "{\"iss\":\"planner-test@example-project.iam.gserviceaccount.com\","
                              "\"scope\":\"https://www.googleapis.com/auth/cloud-platform\","
                              "\"aud\":\"https://oauth2.googleapis.com/token\","
                              "\"exp\":1704168245,\"iat\":1704164645}";
    QTest::newRow("with key id") << QByteArray("0123456789abcdef0123456789abcdef01234567")
                                 << QByteArray("https://oauth2.googleapis.com/token")
                                 << QByteArray("{\"alg\":\"RS256\"}") // the SDK sends no kid either
                                 << claims;
    QTest::newRow("without key id") << QByteArray() << QByteArray("https://oauth2.googleapis.com/token")
                                    << QByteArray("{\"alg\":\"RS256\"}") << claims;
    QTest::newRow("key file's token_uri is the audience")
        << QByteArray() << QByteArray("https://oauth2.example-sovereign.test/token")
        << QByteArray("{\"alg\":\"RS256\"}")
        << QByteArray(claims).replace("https://oauth2.googleapis.com/token",
                                      "https://oauth2.example-sovereign.test/token");
}

void TestTokenSigners::googleJwtAssertion()
{
    QFETCH(QByteArray, keyId);
    QFETCH(QByteArray, tokenUri);
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, claims);
    GoogleServiceAccount account;
    account.clientEmail = "planner-test@example-project.iam.gserviceaccount.com";
    account.privateKeyPem = readData("test-service-account-key.pem");
    account.privateKeyId = keyId.toStdString();
    account.tokenUri = tokenUri.toStdString();
    QVERIFY(!account.privateKeyPem.empty());

    const Clock clock = fixedClock(kT0);
    Result<std::string> jwt = gpuplan::core::googleJwtAssertion(account, kScope, clock());
    QVERIFY2(jwt.ok(), jwt.ok() ? "" : describe(jwt.error()).c_str());
    const std::vector<std::string> parts = split(*jwt, '.');
    QCOMPARE(parts.size(), std::size_t(3));
    for (const std::string& part : parts) {
        QVERIFY(!part.empty());
        QVERIFY(part.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
                == std::string::npos);
    }
    QCOMPARE(fromBase64Url(parts[0]), header.toStdString());
    QCOMPARE(fromBase64Url(parts[1]), claims.toStdString());
    QVERIFY(
        verifyRs256(readData("test-service-account-key.pub.pem"), parts[0] + "." + parts[1], fromBase64Url(parts[2])));
    // A signature over other claims must not verify: the check above can fail.
    QVERIFY(!verifyRs256(
        readData("test-service-account-key.pub.pem"), parts[0] + "." + base64Url("{}"), fromBase64Url(parts[2])));
}

// The shape of a key file as the Google Cloud console downloads it
// (https://cloud.google.com/iam/docs/keys-create-delete), with the throwaway test key.
static nlohmann::json keyFile()
{
    return {
        {"type", "service_account"},
        {"project_id", "example-project"},
        {"private_key_id", "0123456789abcdef0123456789abcdef01234567"},
        {"private_key", readData("test-service-account-key.pem")},
        {"client_email", "planner-test@example-project.iam.gserviceaccount.com"},
        {"client_id", "123456789012345678901"},
        {"auth_uri", "https://accounts.google.com/o/oauth2/auth"},
        {"token_uri", "https://oauth2.googleapis.com/token"},
        {"auth_provider_x509_cert_url", "https://www.googleapis.com/oauth2/v1/certs"},
        {"client_x509_cert_url",
         "https://www.googleapis.com/robot/v1/metadata/x509/planner-test%40example-project.iam.gserviceaccount.com"},
        {"universe_domain", "googleapis.com"},
    };
}

void TestTokenSigners::parseServiceAccount()
{
    const std::string text = keyFile().dump(2);
    QVERIFY(text.find("\\n") != std::string::npos); // the PEM's newlines are escaped, as in a real key file
    Result<GoogleServiceAccount> account = parseGoogleServiceAccount(text);
    QVERIFY2(account.ok(), account.ok() ? "" : describe(account.error()).c_str());
    QCOMPARE(account->clientEmail, std::string("planner-test@example-project.iam.gserviceaccount.com"));
    QCOMPARE(account->privateKeyPem, readData("test-service-account-key.pem"));
    QCOMPARE(account->privateKeyId, std::string("0123456789abcdef0123456789abcdef01234567"));
    QCOMPARE(account->tokenUri, std::string("https://oauth2.googleapis.com/token"));
    QVERIFY(rs256Sign(account->privateKeyPem, "usable").ok());

    nlohmann::json minimal = keyFile();
    minimal.erase("token_uri");
    minimal.erase("private_key_id");
    Result<GoogleServiceAccount> defaults = parseGoogleServiceAccount(minimal.dump());
    QVERIFY(defaults.ok());
    QCOMPARE(defaults->tokenUri, std::string("https://oauth2.googleapis.com/token"));
    QCOMPARE(defaults->privateKeyId, std::string());
}

void TestTokenSigners::parseServiceAccountRejects_data()
{
    QTest::addColumn<QByteArray>("field");
    QTest::addColumn<QByteArray>("replacement"); // JSON, or empty to remove the field
    QTest::addColumn<int>("code");
    QTest::addColumn<QByteArray>("where");
    QTest::addColumn<QByteArray>("key");
    const int schema = int(ErrorCode::SchemaViolation);
    QTest::newRow("missing private_key") << QByteArray("private_key") << QByteArray() << schema
                                         << QByteArray("private_key")
                                         << QByteArray("error.signer.google_key_missing_field");
    QTest::newRow("private_key not a string")
        << QByteArray("private_key") << QByteArray("42") << schema << QByteArray("private_key")
        << QByteArray("error.signer.google_key_field_empty");
    QTest::newRow("private_key empty") << QByteArray("private_key") << QByteArray("\"\"") << schema
                                       << QByteArray("private_key")
                                       << QByteArray("error.signer.google_key_field_empty");
    QTest::newRow("missing client_email")
        << QByteArray("client_email") << QByteArray() << schema << QByteArray("client_email")
        << QByteArray("error.signer.google_key_missing_field");
    QTest::newRow("token_uri not a string")
        << QByteArray("token_uri") << QByteArray("[]") << schema << QByteArray("token_uri")
        << QByteArray("error.signer.google_key_field_not_string");
    QTest::newRow("user credentials, not a service account")
        << QByteArray("type") << QByteArray("\"authorized_user\"") << schema << QByteArray("type")
        << QByteArray("error.signer.google_key_not_service_account");
    QTest::newRow("not JSON") << QByteArray() << QByteArray() << int(ErrorCode::JsonSyntax)
                              << QByteArray("service_account_key") << QByteArray("error.signer.google_key_not_json");
}

void TestTokenSigners::parseServiceAccountRejects()
{
    QFETCH(QByteArray, field);
    QFETCH(QByteArray, replacement);
    QFETCH(int, code);
    QFETCH(QByteArray, where);
    QFETCH(QByteArray, key);
    nlohmann::json json = keyFile();
    std::string text;
    if (field.isEmpty()) {
        text = json.dump().substr(0, 200); // a truncated file
    } else {
        if (replacement.isEmpty()) {
            json.erase(field.toStdString());
        } else {
            json[field.toStdString()] = nlohmann::json::parse(replacement.toStdString());
        }
        text = json.dump();
    }
    Result<GoogleServiceAccount> account = parseGoogleServiceAccount(text);
    QVERIFY(!account.ok());
    QCOMPARE(int(account.error().code), code);
    QCOMPARE(account.error().where, where.toStdString());
    QCOMPARE(account.error().reason.key, key.toStdString());
    if (!field.isEmpty() && field != "type") {
        QCOMPARE(account.error().reason.params.at("field"), field.toStdString());
    }
    // Everything the error carries (where, key, every parameter): no line of the private key.
    const std::string carried = describe(account.error());
    for (const std::string& line : split(readData("test-service-account-key.pem"), '\n')) {
        QVERIFY(line.empty() || carried.find(line) == std::string::npos);
    }
}

void TestTokenSigners::tokenCachedUntilFiveMinutesBeforeExpiry_data()
{
    addProviderRows();
}

void TestTokenSigners::tokenCachedUntilFiveMinutesBeforeExpiry()
{
    QFETCH(int, provider);
    Harness h{Provider(provider)};
    h.transport.replies = {response(200, tokenReply("first-token")), response(200, tokenReply("second-token"))};

    Result<AccessToken> first = h.token();
    QVERIFY2(first.ok(), first.ok() ? "" : describe(first.error()).c_str());
    QCOMPARE(first->value, std::string("first-token"));
    QVERIFY(first->expires == kT0 + 3599s);
    QCOMPARE(h.transport.requests.size(), std::size_t(1));

    h.now = kT0 + 10min;
    QCOMPARE(h.token()->value, std::string("first-token"));
    h.now = kT0 + 3599s - 5min - 1s; // the last second the cached token is used
    QCOMPARE(h.token()->value, std::string("first-token"));
    QCOMPARE(h.transport.requests.size(), std::size_t(1));

    h.now = kT0 + 3599s - 5min;
    Result<AccessToken> second = h.token();
    QVERIFY(second.ok());
    QCOMPARE(second->value, std::string("second-token"));
    QVERIFY(second->expires == h.now + 3599s);
    QCOMPARE(h.transport.requests.size(), std::size_t(2));
    QCOMPARE(h.token()->value, std::string("second-token"));
    QCOMPARE(h.transport.requests.size(), std::size_t(2));
}

void TestTokenSigners::googleTokenRequest()
{
    Harness h{Google};
    h.transport.replies = {response(200, tokenReply("first-token")), response(200, tokenReply("second-token"))};
    QVERIFY(h.token().ok());
    h.now = kT0 + 2h;
    QVERIFY(h.token().ok());
    QCOMPARE(h.transport.requests.size(), std::size_t(2));

    // Each exchange signs a fresh assertion at the clock's time; RS256 is deterministic, so the whole body is known.
    const TimePoint times[] = {kT0, kT0 + 2h};
    for (std::size_t i = 0; i < 2; ++i) {
        const HttpRequest& request = h.transport.requests[i];
        QCOMPARE(request.method, std::string("POST"));
        QCOMPARE(request.url, std::string("https://oauth2.googleapis.com/token"));
        QCOMPARE(request.header("Content-Type"), std::optional<std::string>("application/x-www-form-urlencoded"));
        QVERIFY(!request.header("Authorization"));
        QVERIFY(request.safeToRetry);
        Result<std::string> assertion = gpuplan::core::googleJwtAssertion(h.account, kScope, times[i]);
        QVERIFY(assertion.ok());
        QCOMPARE(request.body,
                 "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + *assertion);
    }
}

void TestTokenSigners::azureTokenRequest()
{
    const AzureClientSecret secret{
        "72f988bf-86f1-41af-91ab-2d7cd011db47", "11111111-2222-3333-4444-555555555555", kAzureSecret};
    const std::string url = "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/oauth2/v2.0/token";
    const std::string body = "grant_type=client_credentials&client_id=11111111-2222-3333-4444-555555555555"
                             "&client_secret=test-secret~Value.With%2FSpecial%2BChars%3D%26"
                             "&scope=https%3A%2F%2Fmanagement.azure.com%2F.default";

    HttpRequest request = gpuplan::core::azureTokenRequest(secret, "https://management.azure.com/.default");
    QCOMPARE(request.method, std::string("POST"));
    QCOMPARE(request.url, url);
    QCOMPARE(request.header("Content-Type"), std::optional<std::string>("application/x-www-form-urlencoded"));
    QVERIFY(request.safeToRetry);
    QCOMPARE(request.body, body);
    QCOMPARE(gpuplan::core::azureTokenRequest(secret, "").body, body); // the ARM scope by default

    // The token source sends exactly that request.
    Harness h{Azure};
    h.transport.replies = {response(200, tokenReply("first-token"))};
    QVERIFY(h.token().ok());
    QCOMPARE(h.transport.requests.size(), std::size_t(1));
    QCOMPARE(h.transport.requests[0].url, url);
    QCOMPARE(h.transport.requests[0].body, body);
    QVERIFY(h.transport.requests[0].safeToRetry);
}

void TestTokenSigners::azureMissingCredential_data()
{
    QTest::addColumn<int>("blank");
    QTest::addColumn<QByteArray>("name"); // the field left blank
    QTest::addColumn<QByteArray>("key");
    QTest::newRow("tenant") << 0 << QByteArray("tenant_id") << QByteArray("error.signer.azure_no_tenant_id");
    QTest::newRow("client id") << 1 << QByteArray("client_id") << QByteArray("error.signer.azure_no_client_id");
    QTest::newRow("client secret") << 2 << QByteArray("client_secret")
                                   << QByteArray("error.signer.azure_no_client_secret");
}

void TestTokenSigners::azureMissingCredential()
{
    QFETCH(int, blank);
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, key);
    AzureClientSecret secret{"tenant", "client", kAzureSecret};
    std::string* fields[] = {&secret.tenantId, &secret.clientId, &secret.clientSecret};
    fields[blank]->clear();
    RecordingTransport transport;
    AzureTokenSource source(secret, "", transport, fixedClock(kT0));
    Result<AccessToken> token = source.token();
    QVERIFY(!token.ok());
    QCOMPARE(int(token.error().code), int(ErrorCode::Credentials));
    QCOMPARE(token.error().reason.key, key.toStdString());
    QCOMPARE(token.error().where, name.toStdString()); // the credential's field
    QVERIFY(describe(token.error()).find(kAzureSecret) == std::string::npos);
    QCOMPARE(transport.requests.size(), std::size_t(0));
}

// Error replies as the services document them: Google's token endpoint
// (https://developers.google.com/identity/protocols/oauth2/service-account#error-codes) and Entra ID
// (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow#error-response).
void TestTokenSigners::tokenErrors_data()
{
    QTest::addColumn<int>("provider");
    QTest::addColumn<int>("status"); // 0: the transport fails
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("code");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QStringList>("mentions"); // in what the error carries: where, key, parameters
    const int credentials = int(ErrorCode::Credentials);
    QTest::newRow("google invalid_grant")
        << int(Google) << 400
        << QByteArray("{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}") << credentials
        << QByteArray("error.signer.token_refused") << QStringList{"Google", "invalid_grant", "Invalid JWT Signature."};
    QTest::newRow("google invalid_scope")
        << int(Google) << 400
        << QByteArray("{\"error\":\"invalid_scope\",\"error_description\":\"Invalid OAuth scope or ID token "
                      "audience provided.\"}")
        << credentials << QByteArray("error.signer.token_refused")
        << QStringList{"Google", "invalid_scope", "Invalid OAuth scope"};
    QTest::newRow("azure invalid_client")
        << int(Azure) << 401
        << QByteArray("{\"error\":\"invalid_client\",\"error_description\":\"AADSTS7000215: Invalid client secret "
                      "provided.\",\"error_codes\":[7000215]}")
        << credentials << QByteArray("error.signer.token_refused")
        << QStringList{"Azure", "invalid_client", "AADSTS7000215: Invalid client secret provided."};
    QTest::newRow("azure error without description")
        << int(Azure) << 400 << QByteArray("{\"error\":\"unauthorized_client\"}") << credentials
        << QByteArray("error.signer.token_refused") << QStringList{"Azure", "unauthorized_client"};
    QTest::newRow("azure reply quoting the secret")
        << int(Azure) << 400
        << QByteArray("{\"error\":\"invalid_request\",\"error_description\":\"AADSTS900144: bad value "
                      "test-secret~Value.With/Special+Chars=&\"}")
        << credentials << QByteArray("error.signer.token_refused")
        << QStringList{"Azure", "invalid_request", "[redacted]"};
    QTest::newRow("google throttled") << int(Google) << 429
                                      << QByteArray("{\"error\":\"rate_limit_exceeded\",\"error_description\":"
                                                    "\"Rate Limit Exceeded\"}")
                                      << int(ErrorCode::Throttled) << QByteArray("error.signer.token_throttled")
                                      << QStringList{"Google", "rate_limit_exceeded"};
    QTest::newRow("google server error with JSON")
        << int(Google) << 500 << QByteArray("{\"error\":\"internal_failure\"}") << int(ErrorCode::HttpStatus)
        << QByteArray("error.signer.token_endpoint_failed") << QStringList{"Google", "internal_failure"};
    QTest::newRow("google 502 HTML") << int(Google) << 502 << QByteArray("<html><body>Bad Gateway</body></html>")
                                     << int(ErrorCode::HttpStatus)
                                     << QByteArray("error.signer.token_status_without_oauth_error")
                                     << QStringList{"Google", "502"};
    QTest::newRow("azure 503 empty") << int(Azure) << 503 << QByteArray() << int(ErrorCode::HttpStatus)
                                     << QByteArray("error.signer.token_status_without_oauth_error")
                                     << QStringList{"Azure", "503"};
    QTest::newRow("azure 200 without access_token")
        << int(Azure) << 200 << QByteArray("{\"token_type\":\"Bearer\",\"expires_in\":3599}")
        << int(ErrorCode::SchemaViolation) << QByteArray("error.signer.token_reply_no_access_token")
        << QStringList{"Azure", "access_token"};
    QTest::newRow("google 200 not JSON") << int(Google) << 200 << QByteArray("access_token=abc")
                                         << int(ErrorCode::SchemaViolation)
                                         << QByteArray("error.signer.token_reply_not_json")
                                         << QStringList{"Google", "200"};
    QTest::newRow("google 200 not a bearer token")
        << int(Google) << 200 << QByteArray("{\"access_token\":\"abc\",\"expires_in\":3599,\"token_type\":\"MAC\"}")
        << int(ErrorCode::SchemaViolation) << QByteArray("error.signer.token_type_not_bearer")
        << QStringList{"token_type"};
    QTest::newRow("google transport fails") << int(Google) << 0 << QByteArray() << int(ErrorCode::Network)
                                            << QByteArray("error.net.unreachable") << QStringList{"connection reset"};
    QTest::newRow("azure transport fails") << int(Azure) << 0 << QByteArray() << int(ErrorCode::Network)
                                           << QByteArray("error.net.unreachable") << QStringList{"connection reset"};
}

void TestTokenSigners::tokenErrors()
{
    QFETCH(int, provider);
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(int, code);
    QFETCH(QByteArray, key);
    QFETCH(QStringList, mentions);
    Harness h{Provider(provider)};
    if (status == 0) {
        h.transport.replies.push_back(
            Error{ErrorCode::Network,
                  Reason{"error.net.unreachable", {{"host", "token endpoint"}, {"said", "connection reset by peer"}}},
                  "token endpoint"});
    } else {
        h.transport.replies.push_back(response(status, body.toStdString()));
    }
    h.transport.replies.push_back(response(200, tokenReply("after-the-error")));

    Result<AccessToken> token = h.token();
    QVERIFY(!token.ok());
    const Error& error = token.error();
    QCOMPARE(int(error.code), code);
    QCOMPARE(error.httpStatus, status);
    QCOMPARE(error.reason.key, key.toStdString());
    const std::string carried = describe(error); // where, key, every parameter
    for (const QString& mention : mentions) {
        QVERIFY2(carried.find(mention.toStdString()) != std::string::npos, carried.c_str());
    }
    QVERIFY2(!h.leaksSecret(carried), carried.c_str());

    // Nothing was cached: the next call asks again and gets the good reply.
    Result<AccessToken> retry = h.token();
    QVERIFY(retry.ok());
    QCOMPARE(retry->value, std::string("after-the-error"));
    QCOMPARE(h.transport.requests.size(), std::size_t(2));
}

void TestTokenSigners::tokenReplyExpiry_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("seconds");
    QTest::newRow("number") << QByteArray("{\"access_token\":\"t\",\"expires_in\":3599,\"token_type\":\"Bearer\"}")
                            << 3599;
    // Entra ID's v1 endpoint sent it as a string.
    QTest::newRow("string") << QByteArray("{\"access_token\":\"t\",\"expires_in\":\"3599\",\"token_type\":\"bearer\"}")
                            << 3599;
    QTest::newRow("missing: not cached") << QByteArray("{\"access_token\":\"t\"}") << 0;
    QTest::newRow("negative") << QByteArray("{\"access_token\":\"t\",\"expires_in\":-5}") << 0;
}

void TestTokenSigners::tokenReplyExpiry()
{
    QFETCH(QByteArray, body);
    QFETCH(int, seconds);
    Result<AccessToken> token = parseOAuthTokenResponse(
        response(200, body.toStdString()), "Google", "https://oauth2.googleapis.com/token", kT0);
    QVERIFY2(token.ok(), token.ok() ? "" : describe(token.error()).c_str());
    QCOMPARE(token->value, std::string("t"));
    QCOMPARE(qint64(std::chrono::duration_cast<std::chrono::seconds>(token->expires - kT0).count()), qint64(seconds));
}

void TestTokenSigners::authorizeSetsBearer_data()
{
    addProviderRows();
}

void TestTokenSigners::authorizeSetsBearer()
{
    QFETCH(int, provider);
    Harness h{Provider(provider)};
    h.transport.replies = {response(200, tokenReply("first-token")), response(401, "{\"error\":\"invalid_client\"}")};

    HttpRequest request;
    request.url = "https://compute.googleapis.com/compute/v1/projects/p/zones/z/instances";
    request.headers = {{"authorization", "Bearer stale"}, {"Accept", "application/json"}};
    Status status = h.authorize(request);
    QVERIFY(status.ok());
    QCOMPARE(request.header("Authorization"), std::optional<std::string>("Bearer first-token"));
    QCOMPARE(headerCount(request, "Authorization"), 1);
    QCOMPARE(request.header("Accept"), std::optional<std::string>("application/json"));

    // A refused refresh fails the request's authorization and leaves the request as it was.
    h.now = kT0 + 1h;
    HttpRequest another;
    Status refused = h.authorize(another);
    QVERIFY(!refused.ok());
    QCOMPARE(int(refused.error().code), int(ErrorCode::Credentials));
    QVERIFY(!another.header("Authorization"));
}

void TestTokenSigners::concurrentCallersShareOneFetch_data()
{
    addProviderRows();
}

void TestTokenSigners::concurrentCallersShareOneFetch()
{
    QFETCH(int, provider);
    Harness h{Provider(provider)};
    h.transport.slow = true;
    for (int i = 0; i < 8; ++i) {
        h.transport.replies.push_back(response(200, tokenReply("token-" + std::to_string(i))));
    }
    std::vector<std::string> values(8);
    {
        std::vector<std::jthread> callers;
        for (std::size_t i = 0; i < values.size(); ++i) {
            callers.emplace_back([&h, &values, i] {
                Result<AccessToken> token = h.token();
                values[i] = token.ok() ? token->value : describe(token.error());
            });
        }
    }
    QCOMPARE(h.transport.requests.size(), std::size_t(1));
    for (const std::string& value : values) {
        QCOMPARE(value, std::string("token-0"));
    }
}

// Lambda Cloud (https://docs.lambda.ai/public-cloud/cloud-api/) and Paperspace
// (https://docs.digitalocean.com/reference/paperspace/) take the API key as a bearer token.
void TestTokenSigners::apiKeyBearer_data()
{
    QTest::addColumn<QByteArray>("url");
    QTest::addColumn<QByteArray>("key");
    QTest::newRow("lambda") << QByteArray("https://cloud.lambda.ai/api/v1/instances")
                            << QByteArray("secret_test-key_0123456789abcdef.0123456789abcdef");
    QTest::newRow("paperspace") << QByteArray("https://api.paperspace.com/v1/machines")
                                << QByteArray("0123456789abcdef0123456789abcd");
}

void TestTokenSigners::apiKeyBearer()
{
    QFETCH(QByteArray, url);
    QFETCH(QByteArray, key);
    HttpRequest request;
    request.url = url.toStdString();
    request.headers = {{"Accept", "application/json"}};
    authorizeWithApiKey(request, key.toStdString());
    QCOMPARE(request.header("Authorization"), std::optional<std::string>("Bearer " + key.toStdString()));
    QCOMPARE(headerCount(request, "Authorization"), 1);

    // A second call (a changed key) replaces the header rather than adding one.
    authorizeWithApiKey(request, "replacement-key");
    QCOMPARE(request.header("Authorization"), std::optional<std::string>("Bearer replacement-key"));
    QCOMPARE(headerCount(request, "Authorization"), 1);
    QCOMPARE(request.header("Accept"), std::optional<std::string>("application/json"));
    QCOMPARE(request.headers.size(), std::size_t(2));
}

QTEST_GUILESS_MAIN(TestTokenSigners)
#include "TestTokenSigners.moc"
