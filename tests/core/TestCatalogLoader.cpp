// The catalog loader: the bundled catalog loads cleanly, and every kind of fault names file, JSON path and problem.
#include "gpuplan/catalog/CatalogLoader.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace gpuplan::core;
namespace fs = std::filesystem;

namespace {

const fs::path kBundled = fs::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog";

void writeFile(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

/// A valid offers document with one offer of one price; tests break one thing in it.
nlohmann::json goodOffers()
{
    using nlohmann::json;
    const json price{{"region", "r1"},
                     {"mode", "on_demand"},
                     {"amount", 1.5},
                     {"currency", "USD"},
                     {"unit", "hour"},
                     {"source", {{"url", "https://example.com/prices"}, {"date", "2026-02-01"}}}};
    const json offer{{"instance_type", "t.small"},
                     {"gpu", "t4"},
                     {"gpu_count", 1},
                     {"vcpus", 4},
                     {"ram_gib", 16},
                     {"spec_source", {{"url", "https://example.com/specs"}, {"date", "2026-01-31"}}},
                     {"prices", json::array({price})}};
    return json{{"schema", "gpuplan-offers/1"},
                {"provider", {{"id", "testcloud"}, {"name", "Test Cloud"}, {"currency", "USD"}}},
                {"offers", json::array({offer})}};
}

/// goodOffers() with the value at `pointer` replaced (or removed when `value` is discarded).
QString offersWith(const std::string& pointer, const nlohmann::json& value)
{
    nlohmann::json document = goodOffers();
    const nlohmann::json::json_pointer at(pointer);
    if (value.is_discarded()) {
        document[at.parent_pointer()].erase(at.back());
    } else {
        document[at] = value;
    }
    return QString::fromStdString(document.dump(2));
}

const std::string kPrice = "/offers/0/prices/0";

} // namespace

class TestCatalogLoader : public QObject
{
    Q_OBJECT

private slots:
    void bundledCatalogLoadsWithoutProblems()
    {
        Result<LoadedCatalog> loaded = loadCatalog(kBundled);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message().c_str());
        for (const Error& problem : loaded->problems) {
            qWarning("%s", problem.message().c_str());
        }
        QCOMPARE(loaded->problems.size(), std::size_t{0});
        const Catalog& catalog = loaded->catalog;
        QVERIFY(catalog.gpus().size() >= 24);
        QVERIFY(catalog.findProvider("aws") && catalog.findProvider("alibaba") && catalog.findProvider("tencent"));
    }

    void bundledCatalogHasTheSeedOffersWithTheirTruth()
    {
        const Catalog catalog = loadCatalog(kBundled)->catalog;
        auto find = [&](const std::string& type) -> const Offer* {
            for (const Offer& offer : catalog.offers()) {
                if (offer.instanceType == type) {
                    return &offer;
                }
            }
            return nullptr;
        };
        const Offer* p3 = find("p3.2xlarge");
        QVERIFY(p3);
        QCOMPARE(p3->gpuId, std::string("v100-sxm2-16gb"));
        QCOMPARE(p3->gpuCount, 1);
        const Price* price = p3->findPrice("us-east-1", PricingMode::OnDemand);
        QVERIFY(price);
        QCOMPARE(price->currency, Currency::USD);
        QVERIFY(!price->source.url.empty() && !price->source.date.empty());

        const Offer* gn6i = find("ecs.gn6i-c4g1.xlarge");
        QVERIFY(gn6i);
        QCOMPARE(gn6i->gpuId, std::string("t4"));

        // The seed article says GN10Xp carries A100s; Tencent's own table says V100.
        const Offer* gn10xp = find("GN10Xp.2XLARGE40");
        QVERIFY(gn10xp);
        QVERIFY(catalog.findGpu(gn10xp->gpuId)->name.find("V100") != std::string::npos);
    }

    void everyPriceAndSpecCitesASourceAndDate()
    {
        const Catalog catalog = loadCatalog(kBundled)->catalog;
        for (const GpuSpec& gpu : catalog.gpus()) {
            QVERIFY2(gpu.source.url.starts_with("http") && gpu.source.date.size() == 10, gpu.id.c_str());
        }
        for (const Offer& offer : catalog.offers()) {
            QVERIFY2(offer.specSource.url.starts_with("http"), offer.instanceType.c_str());
            for (const Price& price : offer.prices) {
                QVERIFY2(price.amount > 0 && price.source.url.starts_with("http") && price.source.date.size() == 10,
                         offer.instanceType.c_str());
            }
        }
    }

    void faultIsNamedByFileAndJsonPath_data()
    {
        QTest::addColumn<QString>("document");
        QTest::addColumn<QString>("expectedWhere");
        QTest::addColumn<QString>("expectedDetail");
        QTest::addColumn<int>("expectedCode");

        using nlohmann::json;
        const json removed = json::value_t::discarded;
        QTest::newRow("negative price") << offersWith(kPrice + "/amount", -3.06) << "$.offers[0].prices[0].amount"
                                        << "must be greater than 0, found -3.06" << int(ErrorCode::SchemaViolation);
        QTest::newRow("zero price") << offersWith(kPrice + "/amount", 0) << "$.offers[0].prices[0].amount"
                                    << "found 0" << int(ErrorCode::SchemaViolation);
        QTest::newRow("price as text") << offersWith(kPrice + "/amount", "3.06") << "$.offers[0].prices[0].amount"
                                       << "must be a number, found a string" << int(ErrorCode::SchemaViolation);
        QTest::newRow("unknown currency") << offersWith(kPrice + "/currency", "EUR") << "$.offers[0].prices[0].currency"
                                          << "unknown currency \"EUR\"" << int(ErrorCode::SchemaViolation);
        QTest::newRow("hourly mode quoted per month")
            << offersWith(kPrice + "/unit", "month") << "$.offers[0].prices[0].unit"
            << "on_demand prices are quoted per hour" << int(ErrorCode::SchemaViolation);
        QTest::newRow("impossible date") << offersWith(kPrice + "/source/date", "2026-02-30")
                                         << "$.offers[0].prices[0].source.date"
                                         << "YYYY-MM-DD" << int(ErrorCode::SchemaViolation);
        QTest::newRow("missing source") << offersWith(kPrice + "/source", removed) << "$.offers[0].prices[0].source"
                                        << "required field is missing" << int(ErrorCode::SchemaViolation);
        QTest::newRow("source without https")
            << offersWith(kPrice + "/source/url", "example.com") << "$.offers[0].prices[0].source.url"
            << "must be a web address" << int(ErrorCode::SchemaViolation);
        QTest::newRow("unknown GPU id") << offersWith("/offers/0/gpu", "a1000") << "$.offers[0].gpu"
                                        << "unknown GPU id \"a1000\"" << int(ErrorCode::UnknownReference);
        QTest::newRow("no GPUs") << offersWith("/offers/0/gpu_count", 0) << "$.offers[0].gpu_count"
                                 << "must be a whole number of at least 1" << int(ErrorCode::SchemaViolation);
        QTest::newRow("misspelt field") << offersWith(kPrice + "/ammount", 2) << "$.offers[0].prices[0].ammount"
                                        << "unknown field 'ammount'" << int(ErrorCode::SchemaViolation);
        QTest::newRow("syntax error") << QString("{\"schema\": \"gpuplan-offers/1\",\n  \"offers\": [,]}") << ":2:"
                                      << "invalid JSON" << int(ErrorCode::JsonSyntax);
        QTest::newRow("wrong schema") << QString("{\"schema\": \"something/2\"}") << "$.schema"
                                      << "must be \"gpuplan-gpus/1\" (GPU specs) or" << int(ErrorCode::SchemaViolation);
    }

    void faultIsNamedByFileAndJsonPath()
    {
        QFETCH(QString, document);
        QFETCH(QString, expectedWhere);
        QFETCH(QString, expectedDetail);
        QFETCH(int, expectedCode);

        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "broken.json";
        writeFile(file, document.toStdString());
        const Catalog gpus = loadCatalog(kBundled)->catalog;

        const std::vector<Error> problems = validateCatalogFile(file, gpus);
        QVERIFY(!problems.empty());
        const Error& first = problems.front();
        QVERIFY2(first.where.starts_with(file.string()), first.message().c_str());
        QVERIFY2(first.where.find(expectedWhere.toStdString()) != std::string::npos, first.message().c_str());
        QVERIFY2(first.detail.find(expectedDetail.toStdString()) != std::string::npos, first.message().c_str());
        QCOMPARE(int(first.code), expectedCode);
    }

    void validDocumentHasNoProblems()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "good.json";
        writeFile(file, goodOffers().dump());
        QCOMPARE(validateCatalogFile(file, loadCatalog(kBundled)->catalog).size(), std::size_t{0});
    }

    void brokenOffersFileIsReportedAndTheRestLoads()
    {
        QTemporaryDir dir;
        const fs::path root(dir.path().toStdString());
        fs::copy(kBundled, root, fs::copy_options::recursive);
        // One good and one bad offer in a new file, and a file that is not JSON at all.
        nlohmann::json twoOffers = goodOffers();
        nlohmann::json badOffer = twoOffers["offers"][0];
        badOffer["instance_type"] = "t.bad";
        badOffer["gpu_count"] = 0;
        twoOffers["offers"].push_back(badOffer);
        writeFile(root / "offers" / "testcloud.json", twoOffers.dump(2));
        writeFile(root / "offers" / "zzz-garbage.json", "this is not json");

        Result<LoadedCatalog> loaded = loadCatalog(root);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->problems.size(), std::size_t{2});
        QVERIFY(loaded->problems[0].message().find("testcloud.json: $.offers[1].gpu_count") != std::string::npos);
        QVERIFY(loaded->problems[1].message().find("zzz-garbage.json:1:") != std::string::npos);
        QCOMPARE(loaded->problems[1].code, ErrorCode::JsonSyntax);
        // The good offer of the broken file and every bundled provider are still there.
        QVERIFY(loaded->catalog.findProvider("testcloud"));
        QVERIFY(loaded->catalog.findProvider("aws"));
        const auto& offers = loaded->catalog.offers();
        QVERIFY(std::any_of(offers.begin(), offers.end(), [](const Offer& o) { return o.instanceType == "t.small"; }));
        QVERIFY(std::none_of(offers.begin(), offers.end(), [](const Offer& o) { return o.instanceType == "t.bad"; }));
    }

    void duplicateProviderIsRefused()
    {
        QTemporaryDir dir;
        const fs::path root(dir.path().toStdString());
        fs::copy(kBundled, root, fs::copy_options::recursive);
        fs::copy_file(root / "offers" / "aws.json", root / "offers" / "aws-copy.json");
        Result<LoadedCatalog> loaded = loadCatalog(root);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->problems.size(), std::size_t{1});
        QVERIFY(loaded->problems[0].message().find("aws.json: $.provider.id") != std::string::npos);
    }

    void missingGpuSpecsIsFatal()
    {
        QTemporaryDir dir;
        Result<LoadedCatalog> loaded = loadCatalog(dir.path().toStdString());
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().code, ErrorCode::FileNotFound);
        QVERIFY(loaded.error().where.ends_with("gpus.json"));
    }
};

QTEST_GUILESS_MAIN(TestCatalogLoader)
#include "TestCatalogLoader.moc"
