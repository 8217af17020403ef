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
    const json price{
        {"region", "r1"},
        {"mode", "on_demand"},
        {"amount", 1.5},
        {"currency", "USD"},
        {"unit", "hour"},
        {"source", {{"url", "https://example.com/prices"}, {"as_of", "2026-01-15"}, {"retrieved", "2026-02-01"}}}};
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
    void initTestCase()
    {
        Result<LoadedCatalog> loaded = loadCatalog(kBundled);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : describe(loaded.error()).c_str());
        m_bundled = loaded->catalog;
    }

    void bundledCatalogLoadsWithoutProblems()
    {
        Result<LoadedCatalog> loaded = loadCatalog(kBundled);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : describe(loaded.error()).c_str());
        for (const Error& problem : loaded->problems) {
            qWarning("%s", describe(problem).c_str());
        }
        QCOMPARE(loaded->problems.size(), std::size_t{0});
        const Catalog& catalog = loaded->catalog;
        QVERIFY(catalog.gpus().size() >= 24);
        QVERIFY(catalog.findProvider("aws") && catalog.findProvider("alibaba") && catalog.findProvider("tencent"));
    }

    void bundledCatalogHasTheSeedOffersWithTheirTruth()
    {
        const Catalog& catalog = m_bundled;
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
        QVERIFY(!price->source.url.empty() && !price->source.asOf.empty());

        const Offer* gn6i = find("ecs.gn6i-c4g1.xlarge");
        QVERIFY(gn6i);
        QCOMPARE(gn6i->gpuId, std::string("t4"));

        // The seed article says GN10Xp carries A100s; Tencent's own table says V100.
        const Offer* gn10xp = find("GN10Xp.2XLARGE40");
        QVERIFY(gn10xp);
        const GpuSpec* gn10xpGpu = catalog.findGpu(gn10xp->gpuId);
        QVERIFY(gn10xpGpu);
        QVERIFY(gn10xpGpu->name.find("V100") != std::string::npos);
    }

    void everyPriceAndSpecCitesASourceAndDate()
    {
        const Catalog& catalog = m_bundled;
        for (const GpuSpec& gpu : catalog.gpus()) {
            QVERIFY2(gpu.source.url.starts_with("http") && gpu.source.asOf.size() == 10, gpu.id.c_str());
        }
        for (const Offer& offer : catalog.offers()) {
            QVERIFY2(offer.specSource.url.starts_with("http"), offer.instanceType.c_str());
            for (const Price& price : offer.prices) {
                // An undated source (as_of null) must say in its note what was looked for.
                QVERIFY2(price.amount > 0 && price.source.url.starts_with("http") && price.source.retrieved.size() == 10
                             && (price.source.asOf.size() == 10 || !price.source.note.empty()),
                         offer.instanceType.c_str());
            }
        }
    }

    void faultIsNamedByFileAndJsonPath_data()
    {
        // Each document has exactly one fault; the message must name the file, the JSON path and the problem.
        QTest::addColumn<QString>("document");
        QTest::addColumn<QString>("expectedWhere"); // what follows "file: " (or ":" for a line/column)
        QTest::addColumn<QString>("expectedKey");   // the reason's key
        // Parameters the reason must hold, "name=value;name=value"; a value ending in '*' is the start of one.
        QTest::addColumn<QString>("expectedParams");
        QTest::addColumn<int>("expectedCode");

        using nlohmann::json;
        const json removed = json::value_t::discarded;
        const int schema = int(ErrorCode::SchemaViolation);
        QTest::newRow("negative price") << offersWith(kPrice + "/amount", -3.06) << ": $.offers[0].prices[0].amount"
                                        << "error.json.not_positive"
                                        << "field=amount;found=-3.06" << schema;
        QTest::newRow("zero price") << offersWith(kPrice + "/amount", 0) << ": $.offers[0].prices[0].amount"
                                    << "error.json.not_positive"
                                    << "field=amount;found=0*" << schema;
        QTest::newRow("price as text") << offersWith(kPrice + "/amount", "3.06") << ": $.offers[0].prices[0].amount"
                                       << "error.json.wrong_type"
                                       << "field=amount;expected=number;found_kind=string" << schema;
        QTest::newRow("unknown currency")
            << offersWith(kPrice + "/currency", "EUR") << ": $.offers[0].prices[0].currency"
            << "error.json.unknown_value"
            << "field=currency;found=EUR;known=USD, CNY" << schema;
        QTest::newRow("wrong unit") << offersWith(kPrice + "/unit", "month") << ": $.offers[0].prices[0].unit"
                                    << "error.catalog.price_unit"
                                    << "mode=on_demand;expected=hour;found=month" << schema;
        QTest::newRow("unknown unit") << offersWith(kPrice + "/unit", "day") << ": $.offers[0].prices[0].unit"
                                      << "error.json.unknown_value"
                                      << "field=unit;found=day;known=hour, month" << schema;
        QTest::newRow("impossible date") << offersWith(kPrice + "/source/as_of", "2026-02-30")
                                         << ": $.offers[0].prices[0].source.as_of"
                                         << "error.json.not_date"
                                         << "found=2026-02-30" << schema;
        QTest::newRow("impossible first-schema date")
            << offersWith(kPrice + "/source", json{{"url", "https://example.com/p"}, {"date", "2026-02-30"}})
            << ": $.offers[0].prices[0].source.date"
            << "error.json.not_date"
            << "found=2026-02-30" << schema;
        QTest::newRow("as_of missing") << offersWith(kPrice + "/source/as_of", removed)
                                       << ": $.offers[0].prices[0].source.as_of"
                                       << "error.json.source_as_of_missing"
                                       << "" << schema;
        QTest::newRow("undated without a note")
            << offersWith(kPrice + "/source/as_of", nullptr) << ": $.offers[0].prices[0].source.as_of"
            << "error.json.source_as_of_null"
            << "" << schema;
        QTest::newRow("as_of after retrieved")
            << offersWith(kPrice + "/source/as_of", "2026-03-01") << ": $.offers[0].prices[0].source.as_of"
            << "error.json.source_as_of_late"
            << "as_of=2026-03-01;retrieved=2026-02-01" << schema;
        QTest::newRow("date beside as_of")
            << offersWith(kPrice + "/source/date", "2026-02-01") << ": $.offers[0].prices[0].source.date"
            << "error.json.source_date_twice"
            << "" << schema;
        QTest::newRow("retrieved missing")
            << offersWith(kPrice + "/source/retrieved", removed) << ": $.offers[0].prices[0].source.retrieved"
            << "error.json.required_missing"
            << "field=retrieved" << schema;
        QTest::newRow("missing source") << offersWith(kPrice + "/source", removed) << ": $.offers[0].prices[0].source"
                                        << "error.json.required_missing"
                                        << "field=source" << schema;
        QTest::newRow("missing field") << offersWith("/offers/0/vcpus", removed) << ": $.offers[0].vcpus"
                                       << "error.json.required_missing"
                                       << "field=vcpus" << schema;
        QTest::newRow("source without https")
            << offersWith(kPrice + "/source/url", "example.com") << ": $.offers[0].prices[0].source.url"
            << "error.json.source_url"
            << "found=example.com" << schema;
        QTest::newRow("unknown GPU id") << offersWith("/offers/0/gpu", "a1000") << ": $.offers[0].gpu"
                                        << "error.catalog.unknown_gpu_id"
                                        << "gpu=a1000" << int(ErrorCode::UnknownReference);
        QTest::newRow("no GPUs") << offersWith("/offers/0/gpu_count", 0) << ": $.offers[0].gpu_count"
                                 << "error.json.not_count"
                                 << "field=gpu_count;min=1;max=1000000;found=0" << schema;
        QTest::newRow("rdma as text") << offersWith("/offers/0/rdma", "yes") << ": $.offers[0].rdma"
                                      << "error.json.wrong_type"
                                      << "field=rdma;expected=boolean;found_kind=string" << schema;
        QTest::newRow("bad billing") << offersWith("/offers/0/billing", json{{"granularity", "day"}})
                                     << ": $.offers[0].billing.granularity"
                                     << "error.json.unknown_value"
                                     << "field=granularity;found=day;known=second, minute, hour" << schema;
        QTest::newRow("band on a non-spot price")
            << offersWith(kPrice + "/interruption", "<5%") << ": $.offers[0].prices[0].interruption"
            << "error.catalog.interruption_not_spot"
            << "" << schema;
        QTest::newRow("misspelt field")
            << offersWith(kPrice + "/ammount", 2) << ": $.offers[0].prices[0].ammount"
            << "error.json.unknown_field"
            << "field=ammount;known=region, mode, amount, currency, unit, interruption, source" << schema;
        QTest::newRow("root not an object") << QString("[1, 2]") << ": $"
                                            << "error.json.wrong_type"
                                            << "expected=object;found_kind=array" << schema;
        QTest::newRow("wrong schema")
            << QString("{\"schema\": \"something/2\"}") << ": $.schema"
            << "error.catalog.unknown_schema"
            << "gpus_schema=gpuplan-gpus/1;offers_schema=gpuplan-offers/1;found=\"something/2\"" << schema;
        QTest::newRow("syntax error") << QString("{\"schema\": \"gpuplan-offers/1\",\n  \"offers\": [,]}") << ":2:"
                                      << "error.json.invalid"
                                      << "said=syntax error while parsing value*" << int(ErrorCode::JsonSyntax);
        QTest::newRow("number out of range")
            << QString::fromStdString(goodOffers().dump()).replace("1.5", "1e400") << ""
            << "error.json.invalid"
            << "said=number overflow*" << int(ErrorCode::JsonSyntax);
        QTest::newRow("absurd nesting") << QString(100000, '[') + QString(100000, ']') << ""
                                        << "error.json.too_deep"
                                        << "levels=32" << int(ErrorCode::JsonSyntax);
        QTest::newRow("empty file") << QString() << ":1:"
                                    << "error.json.invalid"
                                    << "said=syntax error*" << int(ErrorCode::JsonSyntax);
    }

    void faultIsNamedByFileAndJsonPath()
    {
        QFETCH(QString, document);
        QFETCH(QString, expectedWhere);
        QFETCH(QString, expectedKey);
        QFETCH(QString, expectedParams);
        QFETCH(int, expectedCode);

        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "broken.json";
        writeFile(file, document.toStdString());
        const std::vector<Error> problems = validateCatalogFile(file, &m_bundled);
        for (const Error& problem : problems) {
            qInfo("%s", describe(problem).c_str());
        }
        QCOMPARE(problems.size(), std::size_t{1});
        const Error& only = problems.front();
        QCOMPARE(QString::fromStdString(only.where).left(int(file.string().size())),
                 QString::fromStdString(file.string()));
        QVERIFY2(only.where.substr(file.string().size()).starts_with(expectedWhere.toStdString()),
                 describe(only).c_str());
        QCOMPARE(QString::fromStdString(only.reason.key), expectedKey);
        for (const QString& param : expectedParams.split(';', Qt::SkipEmptyParts)) {
            const QString name = param.section('=', 0, 0);
            QString value = param.section('=', 1);
            const auto it = only.reason.params.find(name.toStdString());
            QVERIFY2(it != only.reason.params.end(),
                     qPrintable(name + " in " + QString::fromStdString(describe(only))));
            const QString got = QString::fromStdString(it->second);
            if (value.endsWith('*')) {
                value.chop(1);
                QVERIFY2(got.startsWith(value), qPrintable(name + ": " + got));
            } else {
                QCOMPARE(got, value);
            }
        }
        QCOMPARE(int(only.code), expectedCode);
    }

    void validDocumentHasNoProblems()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "good.json";
        writeFile(file, goodOffers().dump());
        QCOMPARE(validateCatalogFile(file, &m_bundled).size(), std::size_t{0});
        // Without a catalog to check GPU ids against, an unknown id is not held against the file.
        nlohmann::json unknownGpu = goodOffers();
        unknownGpu["offers"][0]["gpu"] = "a1000";
        writeFile(file, unknownGpu.dump());
        QCOMPARE(validateCatalogFile(file, nullptr).size(), std::size_t{0});

        // An undated source that says what was looked for; and the first schema's one date, which serves as both.
        nlohmann::json undated = goodOffers();
        undated["offers"][0]["prices"][0]["source"]["as_of"] = nullptr;
        undated["offers"][0]["prices"][0]["source"]["note"] = "the page shows no date";
        writeFile(file, undated.dump());
        QCOMPARE(validateCatalogFile(file, &m_bundled).size(), std::size_t{0});
        nlohmann::json firstSchema = goodOffers();
        firstSchema["offers"][0]["prices"][0]["source"] = {{"url", "https://example.com/p"}, {"date", "2026-02-01"}};
        writeFile(file, firstSchema.dump());
        QCOMPARE(validateCatalogFile(file, &m_bundled).size(), std::size_t{0});
    }

    void brokenProviderStillHasItsOffersChecked()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "two-faults.json";
        nlohmann::json document = goodOffers();
        document["provider"]["currency"] = "EUR";
        document["offers"][0]["vcpus"] = -1;
        writeFile(file, document.dump());
        const std::vector<Error> problems = validateCatalogFile(file, nullptr);
        QCOMPARE(problems.size(), std::size_t{2});
        QVERIFY(problems[0].where.ends_with("$.provider.currency"));
        QVERIFY(problems[1].where.ends_with("$.offers[0].vcpus"));
    }

    void folderNamedLikeAFileIsSaidToBeAFolder()
    {
        QTemporaryDir dir;
        const fs::path root(dir.path().toStdString());
        fs::copy(kBundled, root, fs::copy_options::recursive);
        fs::create_directories(root / "offers" / "x.json");
        Result<LoadedCatalog> loaded = loadCatalog(root);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->problems.size(), std::size_t{1});
        QVERIFY(loaded->problems[0].where.ends_with("x.json"));
        QCOMPARE(loaded->problems[0].reason.key, std::string("error.json.is_folder"));
        QCOMPARE(loaded->problems[0].code, ErrorCode::FileUnreadable);
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
        QVERIFY(loaded->problems[0].where.ends_with("testcloud.json: $.offers[1].gpu_count"));
        QCOMPARE(loaded->problems[0].reason.key, std::string("error.json.not_count"));
        QVERIFY2(loaded->problems[1].where.find("zzz-garbage.json:1:") != std::string::npos,
                 describe(loaded->problems[1]).c_str());
        QCOMPARE(loaded->problems[1].reason.key, std::string("error.json.invalid"));
        QCOMPARE(loaded->problems[1].code, ErrorCode::JsonSyntax);
        // The good offer of the broken file and every bundled provider are still there.
        QVERIFY(loaded->catalog.findProvider("testcloud"));
        QVERIFY(loaded->catalog.findProvider("aws"));
        const auto& offers = loaded->catalog.offers();
        QVERIFY(std::any_of(offers.begin(), offers.end(), [](const Offer& o) { return o.instanceType == "t.small"; }));
        QVERIFY(std::none_of(offers.begin(), offers.end(), [](const Offer& o) { return o.instanceType == "t.bad"; }));
    }

    // Why there is no exchange rate, with the file and JSON path, for `gpuplan plan` to refuse with (finding 16).
    void aBrokenOrMissingExchangeRateSaysWhy()
    {
        Result<LoadedCatalog> bundled = loadCatalog(kBundled);
        QVERIFY(bundled.ok());
        QVERIFY(bundled->catalog.exchangeRate());
        QVERIFY(!bundled->exchangeRateProblem);

        QTemporaryDir dir;
        const fs::path root(dir.path().toStdString());
        fs::copy(kBundled, root, fs::copy_options::recursive);
        writeFile(root / "exchange_rate.json",
                  "{\"schema\": \"gpuplan-exchange-rate/1\", \"cny_per_usd\": \"seven\", \"source\": "
                  "{\"url\": \"https://www.pbc.gov.cn/\", \"date\": \"2025-01-02\"}}");
        Result<LoadedCatalog> broken = loadCatalog(root);
        QVERIFY(broken.ok());
        QVERIFY(!broken->catalog.exchangeRate());
        QVERIFY(broken->exchangeRateProblem);
        QVERIFY2(broken->exchangeRateProblem->where == (root / "exchange_rate.json").string() + ": $.cny_per_usd",
                 describe(*broken->exchangeRateProblem).c_str());

        writeFile(root / "exchange_rate.json", "{\"schema\": ");
        Result<LoadedCatalog> syntax = loadCatalog(root);
        QVERIFY(syntax.ok() && syntax->exchangeRateProblem);
        QCOMPARE(syntax->exchangeRateProblem->code, ErrorCode::JsonSyntax);
        QVERIFY2(syntax->exchangeRateProblem->where.find("exchange_rate.json") != std::string::npos,
                 describe(*syntax->exchangeRateProblem).c_str());

        fs::remove(root / "exchange_rate.json");
        Result<LoadedCatalog> missing = loadCatalog(root);
        QVERIFY(missing.ok() && missing->exchangeRateProblem);
        QCOMPARE(missing->exchangeRateProblem->code, ErrorCode::FileNotFound);
        QCOMPARE(missing->exchangeRateProblem->where, (root / "exchange_rate.json").string());
        QCOMPARE(missing->exchangeRateProblem->reason.key, std::string("error.catalog.exchange_rate_missing"));
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
        QVERIFY2(loaded->problems[0].where.ends_with("aws.json: $.provider.id"), describe(loaded->problems[0]).c_str());
        QCOMPARE(loaded->problems[0].reason.key, std::string("error.catalog.duplicate_provider"));
        QCOMPARE(loaded->problems[0].reason.params.at("provider"), std::string("aws"));
    }

    void userOffersAddAndOverrideAndSaySo()
    {
        QTemporaryDir dir;
        const fs::path userDir(dir.path().toStdString());
        // A negotiated AWS quote for p3.2xlarge, and the campus cluster as a provider of its own.
        nlohmann::json quote = goodOffers();
        quote["provider"] = {{"id", "aws"}, {"name", "AWS"}, {"currency", "USD"}};
        quote["offers"][0]["instance_type"] = "p3.2xlarge";
        quote["offers"][0]["gpu"] = "v100-sxm2-16gb";
        quote["offers"][0]["prices"][0]["region"] = "us-east-1";
        quote["offers"][0]["prices"][0]["amount"] = 2.1;
        writeFile(userDir / "aws-quote.json", quote.dump());
        nlohmann::json campus = goodOffers();
        campus["provider"] = {
            {"id", "campus"}, {"name", "Campus cluster"}, {"name_zh", "校内集群"}, {"currency", "CNY"}};
        campus["offers"][0]["prices"][0]["currency"] = "CNY";
        writeFile(userDir / "campus.json", campus.dump());

        Result<LoadedCatalog> loaded = loadCatalog(kBundled, userDir);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->problems.size(), std::size_t{0});
        const Catalog& catalog = loaded->catalog;
        QCOMPARE(catalog.offers().size(), m_bundled.offers().size() + 1); // one replaced, one added
        int p3Count = 0;
        for (const Offer& offer : catalog.offers()) {
            if (offer.instanceType == "p3.2xlarge") {
                ++p3Count;
                QCOMPARE(offer.origin, OfferOrigin::UserOverride);
                QCOMPARE(offer.prices.size(), std::size_t{1});
                QCOMPARE(offer.prices[0].amount, 2.1);
                QVERIFY(offer.location.find("aws-quote.json") != std::string::npos);
            } else if (offer.providerId == "campus") {
                QCOMPARE(offer.origin, OfferOrigin::UserAdded);
            } else {
                QCOMPARE(offer.origin, OfferOrigin::Bundled);
            }
        }
        QCOMPARE(p3Count, 1);
        QVERIFY(catalog.findProvider("campus"));
        QCOMPARE(catalog.findProvider("aws")->name, m_bundled.findProvider("aws")->name);
    }

    void bundledExchangeRateIsSourced()
    {
        QVERIFY(m_bundled.exchangeRate().has_value());
        const ExchangeRate& rate = *m_bundled.exchangeRate();
        QVERIFY(rate.cnyPerUsd > 5 && rate.cnyPerUsd < 9);
        QVERIFY(rate.source.url.starts_with("https://"));
        QCOMPARE(rate.convert(1, Currency::USD, Currency::CNY), rate.cnyPerUsd);
        QCOMPARE(rate.convert(rate.cnyPerUsd, Currency::CNY, Currency::USD), 1.0);
        QVERIFY(!rate.userSet);
    }

    void missingGpuSpecsIsFatal()
    {
        QTemporaryDir dir;
        Result<LoadedCatalog> loaded = loadCatalog(dir.path().toStdString());
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().code, ErrorCode::FileNotFound);
        QVERIFY(loaded.error().where.ends_with("gpus.json"));
    }

private:
    Catalog m_bundled;
};

QTEST_GUILESS_MAIN(TestCatalogLoader)
#include "TestCatalogLoader.moc"
