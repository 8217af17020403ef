// The probe prints exactly one JSON document (schema gpuplan-probe/1, cuda_probe/README.md) whatever
// happens. On a machine without a usable GPU it must say why, with a known error code, and exit 1;
// on a GPU machine every GPU object must carry the schema's fields.
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/probe/ProbeResult.h"
#include "gpuplan/probe/Verdict.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>

class TestCudaProbe : public QObject
{
    Q_OBJECT

private:
    struct Run
    {
        int exitCode = -1;
        QJsonObject doc;
        QByteArray output;
        qint64 elapsedMs = 0;
    };

    static Run runProbe(const QStringList& arguments, int timeoutMs)
    {
        Run run;
        QProcess probe;
        QElapsedTimer timer;
        timer.start();
        probe.start(qEnvironmentVariable("GPUPLAN_PROBE"), arguments);
        if (!probe.waitForFinished(timeoutMs)) {
            probe.kill();
            probe.waitForFinished(5000);
            return run;
        }
        run.elapsedMs = timer.elapsed();
        run.exitCode = probe.exitStatus() == QProcess::NormalExit ? probe.exitCode() : -2;
        const QByteArray out = probe.readAllStandardOutput();
        run.output = out;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(out, &error);
        if (error.error == QJsonParseError::NoError && doc.isObject())
            run.doc = doc.object();
        else
            qWarning("probe output is not one JSON object: %s", out.constData());
        return run;
    }

    static void verifyCommon(const Run& run, const QString& mode)
    {
        QVERIFY2(!run.doc.isEmpty(), "no JSON document");
        QCOMPARE(run.doc.value("schema").toString(), QString("gpuplan-probe/1"));
        const QJsonObject probe = run.doc.value("probe").toObject();
        QVERIFY(!probe.value("version").toString().isEmpty());
        QCOMPARE(probe.value("mode").toString(), mode);
        QVERIFY(probe.value("cuda_runtime").toInt() >= 11000);
        QVERIFY(probe.value("architectures").isArray());
        const QJsonArray archs = probe.value("architectures").toArray();
        QVERIFY(!archs.isEmpty());
        for (const auto& a : archs) {
            const QString arch = a.toString();
            QVERIFY2(arch.startsWith("sm_") || arch.startsWith("compute_"), qPrintable(arch));
        }
        const QJsonObject driver = run.doc.value("driver").toObject();
        QVERIFY(driver.contains("version"));
        QVERIFY(driver.value("version").isNull() || driver.value("version").isString());
        QVERIFY(driver.value("cuda_version").isDouble());
        QVERIFY(run.doc.value("ok").isBool());
        QVERIFY(run.doc.value("gpus").isArray());
        QVERIFY(run.doc.value("elapsed_s").isDouble());
        QVERIFY(run.doc.value("elapsed_s").toDouble() >= 0);
        QCOMPARE(run.exitCode, run.doc.value("ok").toBool() ? 0 : 1);
    }

    static QSet<QString> knownCodes()
    {
        return {"no_driver", "driver_too_old", "no_device", "nvml_unavailable", "bad_arguments", "internal"};
    }

    static void verifyGpu(const QJsonObject& gpu)
    {
        for (const char* key : {"index",
                                "name",
                                "uuid",
                                "compute_capability",
                                "memory_total_mib",
                                "clocks_mhz",
                                "power",
                                "temperature",
                                "ecc",
                                "retired_pages",
                                "remapped_rows",
                                "pcie",
                                "mig_enabled",
                                "throttle_reasons",
                                "measurements",
                                "correctness"})
            QVERIFY2(gpu.contains(key), key);
        const QSet<QString> names = {"fp32_fma",
                                     "gemm_fp16",
                                     "gemm_bf16",
                                     "gemm_tf32",
                                     "gemm_fp8",
                                     "wmma_fp16",
                                     "dram_copy",
                                     "dram_triad",
                                     "h2d_pinned",
                                     "d2h_pinned",
                                     "p2p"};
        const QSet<QString> methods = {"cublaslt", "wmma", "fma", "copy", "triad", "pinned", "peer"};
        for (const auto& value : gpu.value("measurements").toArray()) {
            const QJsonObject m = value.toObject();
            QVERIFY2(names.contains(m.value("name").toString()), qPrintable(m.value("name").toString()));
            QVERIFY(methods.contains(m.value("method").toString()));
            const QString unit = m.value("unit").toString();
            QVERIFY(unit == "TFLOPS" || unit == "GB/s");
            if (!m.contains("skipped")) {
                QVERIFY(m.value("value").isDouble() || m.value("value").isNull());
                QVERIFY(m.value("repetitions").toInt() >= 1);
            }
        }
        const QJsonObject c = gpu.value("correctness").toObject();
        for (const char* key : {"repeat_identical", "nan_count", "max_relative_error", "tolerance", "ok"})
            QVERIFY2(c.contains(key), key);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("GPUPLAN_PROBE").isEmpty(), "GPUPLAN_PROBE must name the probe binary");
    }

    void quickRunPrintsOneDocument()
    {
        const Run run = runProbe({"--quick"}, 60000);
        verifyCommon(run, "quick");
        QVERIFY2(run.elapsedMs < 10000, qPrintable(QString::number(run.elapsedMs)));
        const QJsonArray gpus = run.doc.value("gpus").toArray();
        if (run.doc.value("ok").toBool()) {
            QVERIFY(!gpus.isEmpty());
        } else if (gpus.isEmpty()) {
            // No usable GPU here (the usual case on a build machine): the reason is one of the known codes.
            const QJsonObject error = run.doc.value("error").toObject();
            const QString code = error.value("code").toString();
            QVERIFY2(QSet<QString>({"no_driver", "driver_too_old", "no_device"}).contains(code), qPrintable(code));
            QVERIFY(!error.value("message").toString().isEmpty());
        }
        if (run.doc.contains("error"))
            QVERIFY(knownCodes().contains(run.doc.value("error").toObject().value("code").toString()));
        for (const auto& gpu : gpus)
            verifyGpu(gpu.toObject());
        // core's parser reads what the real probe printed, and the verdict says what is wrong in words.
        gpuplan::core::Result<gpuplan::core::ProbeResult> parsed =
            gpuplan::core::parseProbeResult(run.output.toStdString(), "gpuplan-probe");
        QVERIFY2(parsed.ok(), parsed ? "" : describe(parsed.error()).c_str());
        gpuplan::core::Result<gpuplan::core::LoadedCatalog> catalog =
            gpuplan::core::loadCatalog(GPUPLAN_SOURCE_DIR "/resources/catalog", {});
        QVERIFY(catalog.ok());
        const gpuplan::core::Verdict verdict =
            gpuplan::core::judgeProbe(*parsed, catalog->catalog, {"h100-sxm5-80gb", 1});
        if (!run.doc.value("ok").toBool()) {
            QVERIFY(verdict.level == gpuplan::core::VerdictLevel::Fail);
            QVERIFY(!verdict.lines.empty());
        }
    }

    void badGpuArgument()
    {
        const Run run = runProbe({"--gpu", "abc"}, 30000);
        verifyCommon(run, "full");
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.doc.value("ok").toBool(), false);
        QCOMPARE(run.doc.value("error").toObject().value("code").toString(), QString("bad_arguments"));
        QVERIFY(!run.doc.value("error").toObject().value("message").toString().isEmpty());
        QVERIFY(run.doc.value("gpus").toArray().isEmpty());
    }

    void unknownArgument()
    {
        const Run run = runProbe({"--quick", "--frobnicate"}, 30000);
        verifyCommon(run, "quick");
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.doc.value("error").toObject().value("code").toString(), QString("bad_arguments"));
    }

    void missingGpuValue()
    {
        const Run run = runProbe({"--gpu"}, 30000);
        verifyCommon(run, "full");
        QCOMPARE(run.doc.value("error").toObject().value("code").toString(), QString("bad_arguments"));
    }
};

QTEST_GUILESS_MAIN(TestCudaProbe)
#include "TestCudaProbe.moc"
