// The outlier rules: each fires on a crafted catalog, and every finding on the bundled catalog is explained.
#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/catalog/CatalogLoader.h"

#include "wording/CatalogText.h"

#include <QLocale>
#include <QTest>

#include <algorithm>

using namespace gpuplan::core;

namespace {

/// The finding as `gpuplan catalog validate` and the Catalog page say it in English (ui/wording/CatalogText).
std::string said(const Finding& finding)
{
    QLocale::setDefault(QLocale::c());
    return gpuplan::ui::findingDetailText(finding).toStdString();
}

/// Where and what, for a failure message.
std::string message(const Finding& finding)
{
    return finding.where + ": " + said(finding);
}

Price price(const std::string& region,
            PricingMode mode,
            double amount,
            const std::string& date = "2026-11-01",
            Currency currency = Currency::USD)
{
    Price p;
    p.region = region;
    p.mode = mode;
    p.amount = amount;
    p.currency = currency;
    p.unit = expectedUnit(mode);
    p.source = {.url = "https://example.com/prices",
                .asOf = date,
                .retrieved = "2026-12-02",
                .note = date.empty() ? "the page shows no date" : ""};
    p.location = "crafted.json: $.offers[" + region + "]";
    return p;
}

Offer offer(const std::string& type,
            int gpus,
            std::vector<Price> prices,
            const std::string& gpu = "t4",
            const std::string& provider = "crafted")
{
    Offer o;
    o.providerId = provider;
    o.instanceType = type;
    o.gpuId = gpu;
    o.gpuCount = gpus;
    o.vcpus = 8;
    o.ramGib = 32;
    o.prices = std::move(prices);
    return o;
}

Catalog crafted(std::vector<Offer> offers)
{
    Catalog catalog;
    GpuSpec t4;
    t4.id = "t4";
    t4.name = "T4";
    t4.memoryGb = 16;
    catalog.addGpu(t4);
    catalog.addProvider({"crafted", "Crafted", "", Currency::USD, ""});
    for (Offer& o : offers) {
        catalog.addOffer(std::move(o));
    }
    return catalog;
}

CheckOptions on(const std::string& today)
{
    CheckOptions options;
    options.today = today;
    return options;
}

std::vector<Finding> of(const std::vector<Finding>& findings, Finding::Kind kind)
{
    std::vector<Finding> result;
    for (const Finding& finding : findings) {
        if (finding.kind == kind) {
            result.push_back(finding);
        }
    }
    return result;
}

} // namespace

class TestCatalogChecks : public QObject
{
    Q_OBJECT

private slots:
    void spotAboveOnDemandIsFlagged()
    {
        const Catalog catalog = crafted({offer("a",
                                               1,
                                               {price("r1", PricingMode::OnDemand, 1.0),
                                                price("r1", PricingMode::Spot, 1.2),
                                                price("r2", PricingMode::OnDemand, 1.0),
                                                price("r2", PricingMode::Spot, 0.4)})});
        const auto findings = of(checkCatalog(catalog, on("2026-12-02")), Finding::Kind::SpotAboveOnDemand);
        QCOMPARE(findings.size(), std::size_t{1});
        QVERIFY(findings[0].where.find("r1") != std::string::npos);
        QCOMPARE(said(findings[0]), std::string("spot price 1.2 USD is above the on-demand price 1 USD in r1"));
    }

    void priceFarFromOtherProvidersIsFlagged()
    {
        // Per GPU-hour, one provider each: 1.0, 1.1, 0.9 (8 GPUs at 7.2), then 3.5 (too high) and 0.3 (too low).
        const Catalog catalog = crafted({offer("a", 1, {price("r1", PricingMode::OnDemand, 1.0)}, "t4", "pa"),
                                         offer("b", 1, {price("r2", PricingMode::OnDemand, 1.1)}, "t4", "pb"),
                                         offer("c", 8, {price("r3", PricingMode::OnDemand, 7.2)}, "t4", "pc"),
                                         offer("d", 1, {price("r4", PricingMode::OnDemand, 3.5)}, "t4", "pd"),
                                         offer("e", 1, {price("r5", PricingMode::OnDemand, 0.3)}, "t4", "pe")});
        const auto findings = of(checkCatalog(catalog, on("2026-12-02")), Finding::Kind::PriceOutlier);
        QCOMPARE(findings.size(), std::size_t{2});
        QVERIFY(findings[0].where.find("r4") != std::string::npos);
        QVERIFY(findings[1].where.find("r5") != std::string::npos);
        QCOMPARE(said(findings[0]),
                 std::string("3.5 USD per GPU-hour is more than 3× away from 0.95, the median of 4 other providers' "
                             "on-demand prices for T4"));
    }

    void oneProvidersManyRegionsVoteOnce()
    {
        // Ten regions of one dear provider against three others: the dear one is flagged, the others are not,
        // as they would be against a median that counts every region.
        std::vector<Price> dear;
        for (int i = 0; i < 10; ++i) {
            dear.push_back(price("dear" + std::to_string(i), PricingMode::OnDemand, 4.0));
        }
        const Catalog catalog = crafted({offer("big", 1, dear, "t4", "big"),
                                         offer("x", 1, {price("x1", PricingMode::OnDemand, 1.0)}, "t4", "px"),
                                         offer("y", 1, {price("y1", PricingMode::OnDemand, 1.2)}, "t4", "py"),
                                         offer("z", 1, {price("z1", PricingMode::OnDemand, 1.1)}, "t4", "pz")});
        const auto findings = of(checkCatalog(catalog, on("2026-12-02")), Finding::Kind::PriceOutlier);
        QCOMPARE(findings.size(), std::size_t{10});
        for (const Finding& finding : findings) {
            QVERIFY2(finding.where.find("dear") != std::string::npos, message(finding).c_str());
        }
    }

    void eachPricingModeIsComparedWithItsOwn()
    {
        // A spot price a fifth of the others' spot prices is flagged; on-demand prices are not spot's yardstick.
        const Catalog catalog = crafted(
            {offer("a", 1, {price("r1", PricingMode::OnDemand, 3.0), price("r1", PricingMode::Spot, 0.2)}, "t4", "pa"),
             offer("b", 1, {price("r2", PricingMode::OnDemand, 3.0), price("r2", PricingMode::Spot, 1.0)}, "t4", "pb"),
             offer(
                 "c", 1, {price("r3", PricingMode::OnDemand, 3.0), price("r3", PricingMode::Spot, 1.0)}, "t4", "pc")});
        const auto findings = of(checkCatalog(catalog, on("2026-12-02")), Finding::Kind::PriceOutlier);
        QCOMPARE(findings.size(), std::size_t{1});
        QVERIFY2(said(findings[0]).find("other providers' spot prices") != std::string::npos,
                 said(findings[0]).c_str());
    }

    void medianRuleNeedsEnoughOtherProviders()
    {
        // One other provider says nothing about what is normal; neither do many offers of one provider.
        const Catalog two = crafted({offer("a", 1, {price("r1", PricingMode::OnDemand, 1.0)}, "t4", "pa"),
                                     offer("b", 1, {price("r2", PricingMode::OnDemand, 9.0)}, "t4", "pb")});
        QVERIFY(of(checkCatalog(two, on("2026-12-02")), Finding::Kind::PriceOutlier).empty());
        const Catalog one = crafted({offer("a", 1, {price("r1", PricingMode::OnDemand, 1.0)}),
                                     offer("b", 1, {price("r2", PricingMode::OnDemand, 1.1)}),
                                     offer("c", 1, {price("r3", PricingMode::OnDemand, 9.0)})});
        QVERIFY(of(checkCatalog(one, on("2026-12-02")), Finding::Kind::PriceOutlier).empty());
    }

    void cnyPricesAreComparedThroughTheExchangeRate()
    {
        Catalog catalog = crafted(
            {offer("a", 1, {price("r1", PricingMode::OnDemand, 1.0)}, "t4", "pa"),
             offer("b", 1, {price("r2", PricingMode::OnDemand, 1.0)}, "t4", "pb"),
             offer("c", 1, {price("cn", PricingMode::OnDemand, 7.0, "2026-11-01", Currency::CNY)}, "t4", "pc"),
             offer("d", 1, {price("cn2", PricingMode::OnDemand, 70.0, "2026-11-01", Currency::CNY)}, "t4", "pd")});
        catalog.setExchangeRate({7.0, {"https://example.com/rate", "2026-11-01", "2026-11-01", ""}, false});
        const auto findings = of(checkCatalog(catalog, on("2026-12-02")), Finding::Kind::PriceOutlier);
        QCOMPARE(findings.size(), std::size_t{1}); // 70 CNY = 10 USD against a median of 1 USD; 7 CNY is normal
        QVERIFY(findings[0].where.find("cn2") != std::string::npos);
        QVERIFY(said(findings[0]).find("converted at 7 CNY/USD") != std::string::npos);
    }

    void oldAndFutureDatesAreFlagged()
    {
        const Catalog catalog = crafted({offer("a",
                                               1,
                                               {price("old", PricingMode::OnDemand, 1.0, "2024-11-30"),
                                                price("fresh", PricingMode::Spot, 0.5, "2026-06-01"),
                                                price("future", PricingMode::Reserved1Year, 0.7, "2027-01-01")})});
        const auto findings = checkCatalog(catalog, on("2026-12-02"));
        const auto stale = of(findings, Finding::Kind::StalePrice);
        QCOMPARE(stale.size(), std::size_t{1});
        QCOMPARE(said(stale[0]),
                 std::string("price as of 2024-11-30 is 732 days old (older than 365); check it against the source"));
        QCOMPARE(of(findings, Finding::Kind::FutureDate).size(), std::size_t{1});

        CheckOptions strict = on("2026-12-02");
        strict.maxPriceAgeDays = 90;
        QCOMPARE(of(checkCatalog(catalog, strict), Finding::Kind::StalePrice).size(), std::size_t{2});
    }

    void freshnessIsTheSourcesDateNotTheDayItWasRead()
    {
        // Read yesterday, but the snapshot it was read from is two years old; and one source states no date.
        const Catalog catalog = crafted({offer("a",
                                               1,
                                               {price("snapshot", PricingMode::OnDemand, 1.0, "2024-10-10"),
                                                price("undated", PricingMode::Spot, 0.5, "")})});
        const auto findings = checkCatalog(catalog, on("2026-12-03"));
        const auto stale = of(findings, Finding::Kind::StalePrice);
        QCOMPARE(stale.size(), std::size_t{1});
        QVERIFY(stale[0].where.find("snapshot") != std::string::npos);
        const auto undated = of(findings, Finding::Kind::UndatedPrice);
        QCOMPARE(undated.size(), std::size_t{1});
        QVERIFY(undated[0].where.find("undated") != std::string::npos);
        QCOMPARE(said(undated[0]),
                 std::string("the source states no date (read 2026-12-02), so the price counts as old; check it "
                             "against the source"));
        QCOMPARE(std::string(findingKindName(Finding::Kind::UndatedPrice)), std::string("undated_price"));
    }

    void datesAreCountedInDays()
    {
        QCOMPARE(daysBetween("2026-12-01", "2026-12-02"), std::optional<int>(1));
        QCOMPARE(daysBetween("2024-02-28", "2024-03-01"), std::optional<int>(2)); // leap year
        QCOMPARE(daysBetween("2026-12-02", "2026-11-02"), std::optional<int>(-30));
        QVERIFY(!daysBetween("2026-13-01", "2026-12-02").has_value());
        QCOMPARE(todayUtc().size(), std::size_t{10});
    }

    void bundledCatalogFindingsAreAllExplained()
    {
        Result<LoadedCatalog> loaded = loadCatalog(std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog");
        QVERIFY(loaded.ok());
        // The day this catalog was last refreshed; a later day may rightly find more stale prices. The findings
        // that remain are real and documented in docs/catalog.md ("What the checks find").
        const std::vector<std::string> documentedOutliers{"gpu_1x_h100_sxm5",
                                                          "gpu_2x_h100_sxm5",
                                                          "gpu_4x_h100_sxm5",
                                                          "gpu_8x_h100_sxm5",
                                                          "g4dn.4xlarge",
                                                          "Standard_NC4as_T4_v3",
                                                          "Standard_NC64as_T4_v3",
                                                          "azureml/Standard_NC4as_T4_v3",
                                                          "azureml/Standard_NC64as_T4_v3",
                                                          "ecs.gn6i-c40g1.10xlarge"};
        const std::vector<Finding> findings = checkCatalog(loaded->catalog, on("2026-12-02"));
        QVERIFY(!findings.empty());
        for (const Finding& finding : findings) {
            const Offer* offer = nullptr;
            const Price* price = nullptr;
            for (const Offer& candidate : loaded->catalog.offers()) {
                for (const Price& p : candidate.prices) {
                    if (p.location == finding.where) {
                        offer = &candidate;
                        price = &p;
                    }
                }
            }
            QVERIFY2(offer && price, message(finding).c_str());
            const bool documented =
                finding.kind == Finding::Kind::PriceOutlier
                    ? std::find(documentedOutliers.begin(), documentedOutliers.end(), offer->instanceType)
                          != documentedOutliers.end()
                : finding.kind == Finding::Kind::StalePrice
                    ? daysBetween(price->source.asOf, "2026-12-02").value_or(0) > 365
                    : finding.kind == Finding::Kind::UndatedPrice && price->source.asOf.empty();
            QVERIFY2(documented, message(finding).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestCatalogChecks)
#include "TestCatalogChecks.moc"
