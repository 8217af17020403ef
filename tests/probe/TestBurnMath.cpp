// The burn's arithmetic and JSON without a GPU: the 10 % windows of the per-second TFLOPS series, throttle shares
// over the under-load samples, how many output buffers fit, and the per-GPU `burn` object of the schema.
#include "burn.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace probe::burn;

class TestBurnMath : public QObject
{
    Q_OBJECT

private slots:
    void windowsOfAnEmptySeriesAreNaN()
    {
        const Windows w = windows({});
        QVERIFY(std::isnan(w.first));
        QVERIFY(std::isnan(w.last));
        QVERIFY(std::isnan(w.min));
        QVERIFY(std::isnan(windows({NAN, NAN}).min));
    }

    void windowsAreTenPercentWide()
    {
        // 20 samples: windows of 2.
        std::vector<double> series;
        for (int i = 1; i <= 20; ++i)
            series.push_back(100.0 + i);
        series[9] = 50.0;
        series[10] = 60.0;
        const Windows w = windows(series);
        QCOMPARE(w.first, 101.5);
        QCOMPARE(w.last, 119.5);
        QCOMPARE(w.min, 55.0);
    }

    void shortSeriesUseSingleSamples()
    {
        const Windows w = windows({300.0, 280.0, 290.0});
        QCOMPARE(w.first, 300.0);
        QCOMPARE(w.last, 290.0);
        QCOMPARE(w.min, 280.0);
    }

    void windowWidthRoundsUp()
    {
        // 11 samples: ceil(1.1) = 2.
        std::vector<double> series(11, 10.0);
        series[0] = 20.0;
        series[10] = 0.0;
        const Windows w = windows(series);
        QCOMPARE(w.first, 15.0);
        QCOMPARE(w.last, 5.0);
        QCOMPARE(w.min, 5.0);
    }

    void nanSamplesAreSkipped()
    {
        const Windows w = windows({NAN, 10.0, NAN, 20.0});
        QCOMPARE(w.first, 10.0);
        QCOMPARE(w.last, 20.0);
        QCOMPARE(w.min, 10.0);
    }

    void reasonNamesFollowThrottleReasons()
    {
        QCOMPARE(reasonNames(0x1 | 0x4 | 0x40), (std::vector<std::string>{"gpu_idle", "sw_power_cap", "hw_thermal"}));
        QVERIFY(reasonNames(0).empty());
        QVERIFY(reasonNames(1ull << 40).empty());
    }

    void throttleSharesCountOnlyUnderLoadSamples()
    {
        // Idle samples (bit 0x1) are left out, whatever else they carry.
        const Throttle t = throttleShares({0x1 | 0x4, 0x4, 0x4 | 0x20, 0x0, 0x20});
        QCOMPARE(t.samples, 4);
        QCOMPARE(t.shares.size(), size_t(2));
        QCOMPARE(t.shares[0].first, std::string("sw_power_cap"));
        QCOMPARE(t.shares[0].second, 0.5);
        QCOMPARE(t.shares[1].first, std::string("sw_thermal"));
        QCOMPARE(t.shares[1].second, 0.5);
    }

    void throttleSharesWithoutLoad()
    {
        const Throttle t = throttleShares({0x1, 0x1 | 0x4});
        QCOMPARE(t.samples, 0);
        QVERIFY(t.shares.empty());
        QCOMPARE(throttleShares({}).samples, 0);
    }

    void unknownReasonBitsAreNotNamed()
    {
        const Throttle t = throttleShares({1ull << 40, 0x8});
        QCOMPARE(t.samples, 2);
        QCOMPARE(t.shares.size(), size_t(1));
        QCOMPARE(t.shares[0].first, std::string("hw_slowdown"));
        QCOMPARE(t.shares[0].second, 0.5);
    }

    void outputBuffersFillHalfTheFreeMemory()
    {
        const size_t mib = size_t(1) << 20;
        // 80 GiB free, half of it less 1 GiB reserved, in 128 MiB outputs.
        QCOMPARE(outputBuffers(80 * 1024 * mib, 128 * mib, 1024 * mib, 0.5, 1024), (40 * 1024 - 1024) / 128);
        QCOMPARE(outputBuffers(80 * 1024 * mib, 128 * mib, 1024 * mib, 0.5, 16), 16);
        QCOMPARE(outputBuffers(512 * mib, 128 * mib, 1024 * mib, 0.5, 1024), 1);
        QCOMPARE(outputBuffers(512 * mib, 0, 0, 0.5, 1024), 1);
    }

    void jsonOfAFinishedBurn()
    {
        BurnReport r;
        r.index = 1;
        r.method = "cublaslt";
        r.seconds = 60.25;
        r.gemms = 12345;
        r.wrongResults = 2;
        r.nanCount = 0;
        r.xidErrors = 1;
        r.xids = {79};
        r.tflopsFirst = 700;
        r.tflopsLast = 650;
        r.tflopsMin = 640;
        r.throttle = throttleShares({0x4, 0x0});
        Sample s;
        s.tS = 1.0;
        s.smMhz = 1980;
        s.powerW = 699.5;
        r.trajectory.push_back(s);
        const nlohmann::ordered_json j = toJson(r);
        QCOMPARE(j["seconds"].get<double>(), 60.25);
        QCOMPARE(j["gemms"].get<long long>(), 12345LL);
        QCOMPARE(j["wrong_results"].get<long long>(), 2LL);
        QCOMPARE(j["nan_count"].get<long long>(), 0LL);
        QCOMPARE(j["xid_errors"].get<long long>(), 1LL);
        QCOMPARE(j["xids"].dump(), std::string("[79]"));
        QCOMPARE(j["tflops_min"].get<double>(), 640.0);
        QCOMPARE(j["throttle"].dump(), std::string(R"({"samples":2,"shares":{"sw_power_cap":0.5}})"));
        QCOMPARE(j["trajectory"].dump(),
                 std::string(R"([{"t_s":1.0,"sm_mhz":1980,"power_w":699.5,"temp_c":null,"tflops":null}])"));
        QVERIFY(!j.contains("error"));
    }

    void jsonOfAFailedBurnKeepsNulls()
    {
        BurnReport r;
        r.error = "cudaMalloc: out of memory";
        const nlohmann::ordered_json j = toJson(r);
        QVERIFY(j["xid_errors"].is_null());
        QVERIFY(j["tflops_first"].is_null());
        QVERIFY(j["method"].is_null());
        QCOMPARE(j["throttle"].dump(), std::string(R"({"samples":0,"shares":{}})"));
        QCOMPARE(j["trajectory"].dump(), std::string("[]"));
        QCOMPARE(j["error"].get<std::string>(), r.error);
        // Every member the schema names, in its order.
        std::vector<std::string> keys;
        for (const auto& item : j.items())
            keys.push_back(item.key());
        QCOMPARE(keys,
                 (std::vector<std::string>{"seconds",
                                           "method",
                                           "gemms",
                                           "wrong_results",
                                           "nan_count",
                                           "xid_errors",
                                           "xids",
                                           "tflops_first",
                                           "tflops_last",
                                           "tflops_min",
                                           "throttle",
                                           "trajectory",
                                           "error"}));
    }
};

QTEST_GUILESS_MAIN(TestBurnMath)
#include "TestBurnMath.moc"
