// The parsers of the providers' price APIs, on the answers their documentation prints (tests/data/<provider>/,
// each README names the page), and on answers that are broken in the ways a server's can be.
#include "gpuplan/prices/PriceAnswers.h"

#include "gpuplan/estimate/Assumptions.h"

#include <QTest>

#include <filesystem>
#include <fstream>

using namespace gpuplan::core;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string readData(const std::string& path)
{
    std::ifstream in(fs::path(GPUPLAN_SOURCE_DIR) / "tests" / "data" / path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

json dataJson(const std::string& path)
{
    return json::parse(readData(path));
}

} // namespace

class TestPriceAnswers : public QObject
{
    Q_OBJECT

private slots:
    void awsSpotHistoryKeepsEachItemAndTheToken()
    {
        Result<AwsSpotPage> page = parseSpotPriceHistory(readData("aws/describe-spot-price-history.xml"));
        QVERIFY(page);
        QCOMPARE(page->prices.size(), std::size_t(2));
        QCOMPARE(page->prices[0].instanceType, std::string("m3.medium"));
        QCOMPARE(page->prices[0].zone, std::string("us-west-2a"));
        QCOMPARE(page->prices[0].productDescription, std::string("Linux/UNIX"));
        QCOMPARE(page->prices[0].usdPerHour, 0.287);
        QCOMPARE(page->prices[1].productDescription, std::string("Windows"));
        QVERIFY(page->nextToken.empty()); // <nextToken/>: the last page

        // A price that is not a number is left out, not read as zero; another document is refused.
        Result<AwsSpotPage> odd = parseSpotPriceHistory(
            "<DescribeSpotPriceHistoryResponse><spotPriceHistorySet><item><instanceType>p5.48xlarge</instanceType>"
            "<spotPrice>n/a</spotPrice></item></spotPriceHistorySet><nextToken>abc</nextToken>"
            "</DescribeSpotPriceHistoryResponse>");
        QVERIFY(odd);
        QVERIFY(odd->prices.empty());
        QCOMPARE(odd->nextToken, std::string("abc"));
        Result<AwsSpotPage> other = parseSpotPriceHistory("<Response><Errors/></Response>");
        QVERIFY(!other);
        QCOMPARE(other.error().reason.key, std::string("error.prices.spot_answer_other_root"));
        QCOMPARE(other.error().reason.params.at("element"), std::string("Response"));
        QVERIFY(!parseSpotPriceHistory("not xml <"));
    }

    void gcpMachineIsItsVcpuRamAndGpuSkus()
    {
        // The recorded page (opencost's fixture): A100, A2 core and A2 RAM in USD; others in IDR, left out.
        const std::vector<GcpSku> skus = parseGcpSkus(dataJson("gcp/skus-page.json"));
        QCOMPARE(skus.size(), std::size_t(3));
        std::string used;
        // a2-highgpu-1g: 12 vCPUs, 85 GiB, 1 A100.
        const std::optional<double> price =
            gcpMachinePrice(skus, "A2", "Nvidia Tesla A100 GPU", 12, 85, 1, "us-central1", false, &used);
        QVERIFY(price);
        QVERIFY(std::abs(*price - (12 * 0.031611 + 85 * 0.004237 + 2.933908)) < 1e-9);
        QVERIFY(used.find("039F-D0DA-4055") != std::string::npos);
        // Not in a region its SKUs serve; no spot SKU on the page; the 80 GB GPU is another SKU.
        QVERIFY(!gcpMachinePrice(skus, "A2", "Nvidia Tesla A100 GPU", 12, 85, 1, "europe-west4", false));
        QVERIFY(!gcpMachinePrice(skus, "A2", "Nvidia Tesla A100 GPU", 12, 85, 1, "us-central1", true));
        QVERIFY(!gcpMachinePrice(skus, "A2", "Nvidia Tesla A100 80GB GPU", 12, 170, 1, "us-central1", false));

        // Spot SKUs by their description; A4's GPU SKU is the whole machine.
        json page = dataJson("gcp/skus-page.json");
        json spotGpu = page["skus"][0];
        spotGpu["skuId"] = "SPOT-GPU";
        spotGpu["description"] = "Spot Preemptible Nvidia Tesla A100 GPU running in Americas";
        spotGpu["category"]["usageType"] = "Preemptible";
        spotGpu["pricingInfo"][0]["pricingExpression"]["tieredRates"][0]["unitPrice"] = {
            {"currencyCode", "USD"}, {"units", "1"}, {"nanos", 0}};
        page["skus"].push_back(spotGpu);
        const std::vector<GcpSku> withSpot = parseGcpSkus(page);
        QVERIFY(
            !gcpMachinePrice(withSpot, "A2", "Nvidia Tesla A100 GPU", 12, 85, 1, "us-central1", true)); // no spot core
        QCOMPARE(*gcpMachinePrice(withSpot, "", "Nvidia Tesla A100 GPU", 0, 0, 8, "us-central1", true), 8.0);
    }

    void alibabaPriceAndSpotHistory()
    {
        // The documented example has no DetailInfos: the configuration's OriginalPrice.
        const auto price = alibabaInstancePrice(dataJson("alibaba/describe-price.json"));
        QVERIFY(price);
        QCOMPARE(price->first, 4368.0);
        QCOMPARE(price->second, Currency::CNY);
        // With DetailInfos, the instance alone, without its disk; the older SDKs' list name too.
        for (const char* list : {"DetailInfo", "ResourcePriceModel"}) {
            json detailed = dataJson("alibaba/describe-price.json");
            detailed["PriceInfo"]["Price"]["DetailInfos"][list] =
                json::array({{{"Resource", "systemDisk"}, {"OriginalPrice", 20.0}},
                             {{"Resource", "instanceType"}, {"OriginalPrice", 4348.0}}});
            QCOMPARE(alibabaInstancePrice(detailed)->first, 4348.0);
        }
        json noCurrency = dataJson("alibaba/describe-price.json");
        noCurrency["PriceInfo"]["Price"].erase("Currency");
        QVERIFY(!alibabaInstancePrice(noCurrency));
        QVERIFY(!alibabaInstancePrice(dataJson("alibaba/error-example.json")));

        // The newest entry per zone is its price now; the cheapest zone wins.
        json history = dataJson("alibaba/describe-spot-price-history.json");
        QCOMPARE(alibabaCheapestSpot(history)->second, 0.036);
        history["SpotPrices"]["SpotPriceType"].push_back(
            {{"ZoneId", "cn-hangzhou-h"}, {"SpotPrice", 0.05}, {"Timestamp", "2019-11-19T05:00:00Z"}});
        history["SpotPrices"]["SpotPriceType"].push_back(
            {{"ZoneId", "cn-hangzhou-h"}, {"SpotPrice", 0.02}, {"Timestamp", "2019-11-19T08:00:00Z"}});
        const auto cheapest = alibabaCheapestSpot(history);
        QCOMPARE(cheapest->first, std::string("cn-hangzhou-h"));
        QCOMPARE(cheapest->second, 0.02);
        QVERIFY(!alibabaCheapestSpot(json::object()));
        // Only the type asked about.
        QCOMPARE(alibabaCheapestSpot(history, "ecs.g5.large")->second, 0.036);
        QVERIFY(!alibabaCheapestSpot(history, "ecs.gn7e-c16g1.4xlarge"));
    }

    void alibabaSpotAdviceGivesTheZonesBand()
    {
        // The documented example: one zone, one type, its band as Alibaba writes it, its rate and discount in %.
        const json documented = dataJson("alibaba/describe-spot-advice.json");
        const std::vector<AlibabaSpotAdvice> advice = parseAlibabaSpotAdvice(documented);
        QCOMPARE(advice.size(), std::size_t(1));
        QCOMPARE(advice[0].zone, std::string("cn-hangzhou-i"));
        QCOMPARE(advice[0].instanceType, std::string("ecs.c5.large"));
        QCOMPARE(advice[0].band, std::string("0-3%"));
        QCOMPARE(advice[0].ratePercent, std::optional<double>(0.0));
        QCOMPARE(advice[0].discountPercent, std::optional<double>(20.0));
        // The catalog's name of the band: prefixed, as regions.json names Alibaba's bands.
        QCOMPARE(alibabaSpotBand(advice, "ecs.c5.large", "cn-hangzhou-i"), std::string("alibaba:0-3%"));
        QCOMPARE(alibabaSpotBand(advice, "ecs.c5.large", "cn-hangzhou-h"), std::string()); // no band in that zone
        QCOMPARE(alibabaSpotBand(advice, "ecs.g5.large", "cn-hangzhou-i"), std::string()); // nor for that type

        // Two zones with different bands: each zone's own, not the first one's nor the worst.
        json twoZones = documented;
        json other = twoZones["AvailableSpotZones"]["AvailableSpotZone"][0];
        other["ZoneId"] = "cn-hangzhou-h";
        other["AvailableSpotResources"]["AvailableSpotResource"][0]["InterruptRateDesc"] = "10-100%";
        other["AvailableSpotResources"]["AvailableSpotResource"][0]["InterruptionRate"] = "12.5"; // text: read too
        twoZones["AvailableSpotZones"]["AvailableSpotZone"].insert(
            twoZones["AvailableSpotZones"]["AvailableSpotZone"].begin(), other);
        const std::vector<AlibabaSpotAdvice> both = parseAlibabaSpotAdvice(twoZones);
        QCOMPARE(both.size(), std::size_t(2));
        QCOMPARE(both[0].ratePercent, std::optional<double>(12.5));
        QCOMPARE(alibabaSpotBand(both, "ecs.c5.large", "cn-hangzhou-i"), std::string("alibaba:0-3%"));
        QCOMPARE(alibabaSpotBand(both, "ecs.c5.large", "cn-hangzhou-h"), std::string("alibaba:10-100%"));

        // The 2021 example puts ZoneId and the resources in two different zone objects: no row has a zone, so
        // none is taken (it cannot be given to a zone's spot price).
        QVERIFY(parseAlibabaSpotAdvice(dataJson("alibaba/describe-spot-advice-2021.json")).empty());
        // A row without a band, another answer, an error body: nothing, and no exception.
        json noBand = documented;
        noBand["AvailableSpotZones"]["AvailableSpotZone"][0]["AvailableSpotResources"]["AvailableSpotResource"][0]
            .erase("InterruptRateDesc");
        QVERIFY(parseAlibabaSpotAdvice(noBand).empty());
        QVERIFY(parseAlibabaSpotAdvice(dataJson("alibaba/error-example.json")).empty());
        QVERIFY(parseAlibabaSpotAdvice(json::array()).empty());
        QVERIFY(parseAlibabaSpotAdvice(json{{"AvailableSpotZones", {{"AvailableSpotZone", "x"}}}}).empty());
        QVERIFY(parseAlibabaSpotAdvice(json{{"AvailableSpotZones", json::array({1, 2})}}).empty());
    }

    void alibabaBandsAreInTheCatalog()
    {
        // Each band DescribeSpotAdvice can return (InterruptRateDesc's valid values, tests/data/alibaba/README.md)
        // has its monthly probability in the bundled regions.json, under its prefixed name, apart from AWS's bands
        // (its "5-10%" is AWS's name too) and read by the same loader the planner uses.
        const LoadedAssumptions loaded = loadAssumptions(fs::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog");
        QVERIFY(loaded.problems.empty());
        const Assumptions& a = loaded.assumptions;
        QVERIFY(!a.provider("alibaba") || !a.provider("alibaba")->spot); // no default: an unbanded price is unranked
        QVERIFY(!a.spotRate("alibaba", ""));
        const std::optional<InterruptionRate> aws = a.spotRate("aws", "5-10%");
        QVERIFY(aws);
        double previousHigh = 0;
        for (const char* band : {"0-3%", "3-5%", "5-10%", "10-100%"}) {
            const std::string name = std::string("alibaba:") + band;
            const std::optional<InterruptionRate> rate = a.spotRate("alibaba", name);
            QVERIFY2(rate, name.c_str());
            QVERIFY2(rate->source.url.find("describespotadvice") != std::string::npos, name.c_str());
            QVERIFY2(rate->source.note.find("ASSUMPTION") != std::string::npos, name.c_str());
            const Range& p = rate->monthlyProbability;
            // The edges are Alibaba's: the band's numbers as fractions; the bands follow each other.
            const double low = std::stod(band) / 100;
            const double high = std::stod(std::string(band).substr(std::string(band).find('-') + 1)) / 100;
            QCOMPARE(p.low, low);
            QCOMPARE(p.high, high);
            QCOMPARE(p.low, previousHigh);
            QVERIFY(p.low <= p.value && p.value <= p.high);
            previousHigh = p.high;
        }
        QVERIFY(a.spotRate("alibaba", "alibaba:5-10%")->source.url != aws->source.url);
        QVERIFY(!a.spotRate("alibaba", "0-3%")); // unprefixed: not a catalog band
    }

    void tencentZonePricesAndPrepaidQuote()
    {
        const json zones = dataJson("tencent/describe-zone-instance-config-infos.json")["Response"];
        const std::vector<TencentZonePrice> rows = parseTencentZonePrices(zones);
        QVERIFY(!rows.empty());
        QCOMPARE(rows[0].zone, std::string("ap-guangzhou-6"));
        QCOMPARE(rows[0].instanceType, std::string("S2.SMALL1"));
        QCOMPARE(rows[0].chargeType, std::string("POSTPAID_BY_HOUR"));
        QVERIFY(rows[0].selling);
        QCOMPARE(*rows[0].unitPrice, 0.0); // the example's hourly fields are 0: the reader skips such rows
        QVERIFY(!rows[0].stepped);

        // The prepaid example: the whole period's list price.
        QCOMPARE(*parseTencentPrepaidPrice(dataJson("tencent/inquiry-price-run-instances-prepaid.json")["Response"]),
                 8884.5);
        // The postpaid example has no prepaid total.
        QVERIFY(!parseTencentPrepaidPrice(dataJson("tencent/inquiry-price-run-instances.json")["Response"]));
    }

    void huaweiRatingsInYuan()
    {
        const json period = dataJson("huawei/period-rating.json");
        QCOMPARE(*huaweiYuan(period["official_website_rating_result"]), 32.2);
        const std::map<std::string, double> byId = parseHuaweiRatings(period);
        QCOMPARE(byId.size(), std::size_t(1));
        QCOMPARE(byId.at("1"), 32.2);
        // measure_id 3 is fen; an unknown unit or a missing amount is no price.
        QCOMPARE(*huaweiYuan(json{{"official_website_amount", 3220}, {"measure_id", 3}}), 32.2);
        QVERIFY(!huaweiYuan(json{{"official_website_amount", 1}, {"measure_id", 9}}));
        QVERIFY(!huaweiYuan(json{{"measure_id", 1}}));
        QVERIFY(parseHuaweiRatings(dataJson("huawei/error-example.json")).empty());
    }
};

QTEST_APPLESS_MAIN(TestPriceAnswers)
#include "TestPriceAnswers.moc"
