// The burn's arithmetic without a GPU: the 10 % windows of the per-second TFLOPS series and how many output
// buffers fit. Its JSON is the probe's writer's (TestProbeHost).
#include "burn.h"

#include <QTest>

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

    void outputBuffersFillHalfTheFreeMemory()
    {
        const size_t mib = size_t(1) << 20;
        // 80 GiB free, half of it less 1 GiB reserved, in 128 MiB outputs.
        QCOMPARE(outputBuffers(80 * 1024 * mib, 128 * mib, 1024 * mib, 0.5, 1024), (40 * 1024 - 1024) / 128);
        QCOMPARE(outputBuffers(80 * 1024 * mib, 128 * mib, 1024 * mib, 0.5, 16), 16);
        QCOMPARE(outputBuffers(512 * mib, 128 * mib, 1024 * mib, 0.5, 1024), 1);
        QCOMPARE(outputBuffers(512 * mib, 0, 0, 0.5, 1024), 1);
    }
};

QTEST_GUILESS_MAIN(TestBurnMath)
#include "TestBurnMath.moc"
