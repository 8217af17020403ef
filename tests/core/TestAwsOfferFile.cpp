// The streaming reader of AWS's EC2 offer file: what it keeps from the documented file shape, and how it says
// what is wrong with a file that is not one.
#include "gpuplan/prices/AwsOfferFile.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace gpuplan::core;
namespace fs = std::filesystem;

namespace {

const fs::path kSample = fs::path(GPUPLAN_SOURCE_DIR) / "tests" / "data" / "aws" / "ec2-offer-sample.json";

void writeFile(const fs::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

/// An offer file of `count` non-GPU products (and their terms) around one GPU product: big enough to report
/// progress several times.
std::string largeOfferFile(int count)
{
    std::string products;
    std::string terms;
    for (int i = 0; i < count; ++i) {
        const std::string sku = "SKU" + std::to_string(i);
        products += "\"" + sku + "\":{\"sku\":\"" + sku
                    + "\",\"productFamily\":\"Compute Instance\",\"attributes\":{\"instanceType\":\"m5.large\","
                      "\"regionCode\":\"us-east-1\",\"operatingSystem\":\"Linux\",\"tenancy\":\"Shared\","
                      "\"preInstalledSw\":\"NA\"}},";
        terms += "\"" + sku + "\":{\"" + sku + ".T\":{\"priceDimensions\":{\"" + sku
                 + ".T.R\":{\"unit\":\"Hrs\",\"pricePerUnit\":{\"USD\":\"0.096\"}}},\"termAttributes\":{}}},";
    }
    products += "\"GPU\":{\"sku\":\"GPU\",\"productFamily\":\"Compute Instance\",\"attributes\":{\"instanceType\":"
                "\"g6.xlarge\",\"regionCode\":\"us-east-1\",\"gpu\":\"1\",\"operatingSystem\":\"Linux\",\"tenancy\":"
                "\"Shared\",\"preInstalledSw\":\"NA\"}}";
    terms += "\"GPU\":{\"GPU.T\":{\"priceDimensions\":{\"GPU.T.R\":{\"unit\":\"Hrs\",\"pricePerUnit\":{\"USD\":"
             "\"0.8048\"}}},\"termAttributes\":{}}}";
    return "{\"formatVersion\":\"v1.0\",\"version\":\"1\",\"publicationDate\":\"2026-11-30T00:00:00Z\",\"products\":{"
           + products + "},\"terms\":{\"OnDemand\":{" + terms + "}}}";
}

} // namespace

class TestAwsOfferFile : public QObject
{
    Q_OBJECT

private slots:
    void keepsTheLinuxSharedGpuPricesOfTheDocumentedShape()
    {
        Result<AwsOfferFile> read = readAwsOfferFile(kSample);
        QVERIFY2(read.ok(), read.ok() ? "" : describe(read.error()).c_str());
        QCOMPARE(read->publicationDate, std::string("2026-11-30"));
        QCOMPARE(read->version, std::string("20261130150000"));
        QCOMPARE(read->products, std::uint64_t{6});
        // Windows, dedicated tenancy, SQL pre-installed and the GPU-less m5.large are left out.
        QCOMPARE(read->gpuProducts, std::uint64_t{2});
        QCOMPARE(read->bytes, std::uint64_t(fs::file_size(kSample)));

        std::vector<std::string> seen;
        for (const AwsListedPrice& p : read->prices) {
            seen.push_back(p.instanceType + " " + p.regionCode + " " + pricingModeName(p.mode) + " "
                           + std::to_string(p.usdPerHour));
        }
        std::sort(seen.begin(), seen.end());
        // On-demand, and the standard no-upfront reservations (1 and 3 years); not the convertible, partial- or
        // all-upfront ones, whose hourly figure is not what is paid per hour.
        const std::vector<std::string> expected{"g5.xlarge us-east-1 on_demand 1.006000",
                                                "p4d.24xlarge us-east-1 on_demand 32.772600",
                                                "p4d.24xlarge us-east-1 reserved_1y 19.221700",
                                                "p4d.24xlarge us-east-1 reserved_3y 12.405000"};
        QCOMPARE(seen, expected);
    }

    void progressIsReportedAndCanCancel()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "large.json";
        writeFile(file, largeOfferFile(40000));
        const std::uint64_t size = fs::file_size(file);

        std::vector<std::uint64_t> reports;
        Result<AwsOfferFile> read = readAwsOfferFile(file, [&](std::uint64_t done, std::uint64_t total) {
            reports.push_back(done);
            return total == size;
        });
        QVERIFY2(read.ok(), read.ok() ? "" : describe(read.error()).c_str());
        QCOMPARE(read->products, std::uint64_t{40001});
        QCOMPARE(read->prices.size(), std::size_t{1});
        QCOMPARE(read->prices.front().usdPerHour, 0.8048);
        QVERIFY(reports.size() >= 3);
        QVERIFY(std::is_sorted(reports.begin(), reports.end()));
        QCOMPARE(reports.back(), size);

        int calls = 0;
        Result<AwsOfferFile> cancelled =
            readAwsOfferFile(file, [&](std::uint64_t, std::uint64_t) { return ++calls < 2; });
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
        QCOMPARE(cancelled.error().reason.key, std::string("error.prices.cancelled_after"));
        QVERIFY(std::stoull(cancelled.error().reason.params.at("bytes")) > 0);
    }

    void aBrokenFileIsNamedWithWhatAndWhere_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("param");      // a parameter the reason must have, empty: none checked
        QTest::addColumn<QString>("paramValue"); // its value
        const std::string sample = readFile(kSample);
        QTest::newRow("truncated") << QString::fromStdString(sample.substr(0, 5000)) << int(ErrorCode::JsonSyntax)
                                   << "error.prices.invalid_json_at"
                                   << "byte"
                                   << "5000";
        QTest::newRow("not JSON") << "<html>503 Service Unavailable</html>" << int(ErrorCode::JsonSyntax)
                                  << "error.prices.invalid_json_at"
                                  << "byte"
                                  << "0";
        QTest::newRow("another JSON file")
            << R"({"offers": []})" << int(ErrorCode::SchemaViolation) << "error.prices.not_an_offer_file"
            << "products"
            << "0";
        QTest::newRow("terms first") << R"({"publicationDate": "2026-11-30", "terms": {}, "products": {}})"
                                     << int(ErrorCode::SchemaViolation) << "error.prices.terms_before_products"
                                     << ""
                                     << "";
    }

    void aBrokenFileIsNamedWithWhatAndWhere()
    {
        QFETCH(QString, text);
        QFETCH(int, code);
        QFETCH(QString, key);
        QFETCH(QString, param);
        QFETCH(QString, paramValue);
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "index.json";
        writeFile(file, text.toStdString());
        Result<AwsOfferFile> read = readAwsOfferFile(file);
        QVERIFY(!read.ok());
        QCOMPARE(int(read.error().code), code);
        QCOMPARE(read.error().where, file.string());
        QVERIFY2(read.error().reason.key == key.toStdString(), describe(read.error()).c_str());
        if (!param.isEmpty()) {
            const auto& params = read.error().reason.params;
            QVERIFY2(params.count(param.toStdString()) == 1, describe(read.error()).c_str());
            QCOMPARE(QString::fromStdString(params.at(param.toStdString())), paramValue);
        }
        if (key == QStringLiteral("error.prices.invalid_json_at")) {
            QVERIFY2(!read.error().reason.params.at("said").empty(), describe(read.error()).c_str()); // rapidjson's why
        }
    }

    void aMissingFileOrAFolderIsSaid()
    {
        QTemporaryDir dir;
        const fs::path root(dir.path().toStdString());
        QCOMPARE(readAwsOfferFile(root / "absent.json").error().code, ErrorCode::FileNotFound);
        QCOMPARE(readAwsOfferFile(root).error().code, ErrorCode::FileUnreadable);
        QCOMPARE(readAwsOfferFile(root / "absent.json").error().reason.key, std::string("error.prices.no_such_file"));
        QCOMPARE(readAwsOfferFile(root).error().reason.key, std::string("error.prices.offer_file_is_folder"));
    }
};

QTEST_GUILESS_MAIN(TestAwsOfferFile)
#include "TestAwsOfferFile.moc"
