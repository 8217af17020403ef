// Selecting offers: filters by provider, GPU and region, their errors, and the table rows.
#include "gpuplan/catalog/CatalogLoader.h"

#include <QTest>

using namespace gpuplan::core;

class TestCatalogSelect : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        Result<LoadedCatalog> loaded = loadCatalog(std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog");
        QVERIFY(loaded.ok());
        m_catalog = loaded->catalog;
    }

    void noFilterSelectsEverything()
    {
        Result<std::vector<Offer>> all = m_catalog.select({});
        QVERIFY(all.ok());
        QCOMPARE(all->size(), m_catalog.offers().size());
    }

    void providerFilterIsCaseInsensitive()
    {
        Result<std::vector<Offer>> aws = m_catalog.select({.provider = "AWS"});
        QVERIFY(aws.ok());
        QVERIFY(!aws->empty());
        for (const Offer& offer : *aws) {
            QCOMPARE(offer.providerId, std::string("aws"));
        }
    }

    void unknownProviderListsTheKnownOnes()
    {
        Result<std::vector<Offer>> result = m_catalog.select({.provider = "nosuch"});
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::UnknownProvider);
        QCOMPARE(result.error().reason.key, std::string("error.catalog.unknown_provider"));
        QCOMPARE(result.error().reason.params.at("provider"), std::string("nosuch"));
        const std::string known = result.error().reason.params.at("known");
        for (const Provider& provider : m_catalog.providers()) {
            QVERIFY2(known.find(provider.id) != std::string::npos, provider.id.c_str());
        }
        QVERIFY2(known.starts_with("alibaba, aws, "), known.c_str()); // sorted
    }

    void gpuFilterMatchesEveryVariant()
    {
        Result<std::vector<Offer>> a100 = m_catalog.select({.gpu = "a100"});
        QVERIFY(a100.ok());
        QVERIFY(a100->size() >= 2);
        for (const Offer& offer : *a100) {
            QVERIFY2(m_catalog.findGpu(offer.gpuId)->name.find("A100") != std::string::npos, offer.gpuId.c_str());
        }
        Result<std::vector<Offer>> none = m_catalog.select({.gpu = "voodoo"});
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, ErrorCode::UnknownGpu);
    }

    void regionFilterRestrictsPrices()
    {
        Result<std::vector<Offer>> east = m_catalog.select({.provider = "aws", .region = "us-east-1"});
        QVERIFY(east.ok());
        QVERIFY(!east->empty());
        for (const Offer& offer : *east) {
            for (const Price& price : offer.prices) {
                QCOMPARE(price.region, std::string("us-east-1"));
            }
        }
        Result<std::vector<Offer>> mars = m_catalog.select({.region = "mars-north-1"});
        QVERIFY(!mars.ok());
        QCOMPARE(mars.error().reason.key, std::string("error.catalog.no_region_match"));
        QCOMPARE(mars.error().reason.params.at("region"), std::string("mars-north-1"));
        QVERIFY(mars.error().reason.params.at("known").find("us-east-1") != std::string::npos);
    }

    void rowsPerRegionAndUnknownPricesStayVisible()
    {
        const std::vector<RegionalOffer> rows = m_catalog.regionalOffers(m_catalog.offers());
        int p3Rows = 0;
        int unpricedOffers = 0;
        int unpricedRows = 0;
        for (const Offer& offer : m_catalog.offers()) {
            unpricedOffers += offer.prices.empty() ? 1 : 0;
        }
        for (const RegionalOffer& row : rows) {
            if (row.offer.instanceType == "p3.2xlarge") {
                ++p3Rows;
                QVERIFY(row.onDemandHourly.has_value());
                QCOMPARE(row.onDemandHourly->region, row.region);
                QCOMPARE(row.priceDate(), row.onDemandHourly->source.asOf);
            }
            if (row.offer.prices.empty()) {
                ++unpricedRows; // one row per unpriced offer, region left empty, price unknown
                QVERIFY(row.region.empty());
                QVERIFY(!row.onDemandHourly.has_value());
            }
        }
        QVERIFY(p3Rows >= 3);
        QCOMPARE(unpricedRows, unpricedOffers);
    }

    void moneyIsFormattedWithItsCurrency()
    {
        QCOMPARE(formatMoney(3.06, Currency::USD), std::string("3.06 USD"));
        QCOMPARE(formatMoney(8999, Currency::CNY), std::string("8999.00 CNY"));
        QCOMPARE(formatMoney(21.957642, Currency::USD), std::string("21.9576 USD"));
    }

private:
    Catalog m_catalog;
};

QTEST_GUILESS_MAIN(TestCatalogSelect)
#include "TestCatalogSelect.moc"
