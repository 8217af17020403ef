// The probe's JSON document (cuda_probe/README.md, schema gpuplan-probe/1) parsed and judged against the bundled
// catalog, on the hand-written recordings in tests/data/probe (see its README: modelled on the schema, not
// measurements).
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/probe/ProbeResult.h"
#include "gpuplan/probe/Verdict.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace gpuplan::core;

Q_DECLARE_METATYPE(gpuplan::core::ErrorCode)

namespace {

const std::filesystem::path kDataDir = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "tests" / "data" / "probe";

std::string readData(const std::string& file)
{
    std::ifstream in(kDataDir / file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// "gpu:check:level:reason" for every line that is not a pass or unknown, sorted; "-" for instance-wide lines.
QStringList problems(const Verdict& verdict)
{
    QStringList list;
    for (const VerdictLine& line : verdict.lines) {
        if (line.level == VerdictLevel::Warn || line.level == VerdictLevel::Fail) {
            list << QString::fromStdString((line.gpu ? std::to_string(*line.gpu) : std::string("-")) + ":" + line.check
                                           + ":" + verdictLevelName(line.level) + ":" + line.reason.key);
        }
    }
    list.sort();
    return list;
}

/// A reason parameter, or a marker that names the missing key.
std::string param(const VerdictLine* line, const std::string& key)
{
    if (!line) {
        return "<no line>";
    }
    auto it = line->reason.params.find(key);
    return it == line->reason.params.end() ? "<no " + key + ">" : it->second;
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

} // namespace

class TestProbeVerdict : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        Result<LoadedCatalog> catalog =
            loadCatalog(std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog");
        QVERIFY(catalog.ok());
        m_catalog = catalog->catalog;
        Result<ProbeResult> healthy = parseProbeResult(readData("a100-sxm4-80gb-healthy.json"), "healthy");
        QVERIFY2(healthy.ok(), healthy.ok() ? "" : describe(healthy.error()).c_str());
        m_healthy = *healthy;
    }

    void parsesHealthyDocument()
    {
        const ProbeResult& r = m_healthy;
        QCOMPARE(r.probe.cudaRuntime, 13000);
        QCOMPARE(r.probe.mode, std::string("full"));
        QCOMPARE(r.driver.version.value_or(""), std::string("580.82.07"));
        QVERIFY(r.ok);
        QVERIFY(!r.error);
        QCOMPARE(r.gpus.size(), std::size_t{1});
        const ProbeGpu& gpu = r.gpus[0];
        QCOMPARE(gpu.name, std::string("NVIDIA A100-SXM4-80GB"));
        QCOMPARE(gpu.memoryTotalMib, 81920LL);
        QCOMPARE(gpu.power.limitW.value_or(0), 400.0);
        QVERIFY(!gpu.retiredPages);
        QVERIFY(gpu.remappedRows && !gpu.remappedRows->failure);
        QCOMPARE(gpu.pcie->genUnderLoad.value_or(0), 4);
        QCOMPARE(gpu.throttleReasons, std::vector<std::string>{"sw_power_cap"});
        const ProbeMeasurement* bf16 = gpu.measurement("gemm_bf16");
        QVERIFY(bf16);
        QCOMPARE(bf16->value.value_or(0), 252.1);
        QCOMPARE(bf16->method, std::string("cublaslt"));
        const ProbeMeasurement* fp8 = gpu.measurement("gemm_fp8");
        QVERIFY(fp8 && fp8->skipped && !fp8->value);
        QVERIFY(gpu.correctness && gpu.correctness->ok);
    }

    /// A login banner before the document and "logout" after it, as an SSH session may print.
    void findsDocumentAfterBanner()
    {
        Result<ProbeResult> r = parseProbeResult(readData("banner-before-json.json"), "banner");
        QVERIFY2(r.ok(), r.ok() ? "" : describe(r.error()).c_str());
        QCOMPARE(r->gpus.size(), std::size_t{1});
        QCOMPARE(judgeProbe(*r, m_catalog, {"a100-sxm4-80gb", 1}).level, VerdictLevel::Pass);
    }

    /// What the probe writes for figures it could not get (report.cpp: NaN becomes null, unknown link null).
    void acceptsNulls()
    {
        nlohmann::json doc = nlohmann::json::parse(readData("a100-sxm4-80gb-healthy.json"));
        nlohmann::json& gpu = doc["gpus"][0];
        gpu["uuid"] = "";
        gpu["pcie"]["gen_max"] = nullptr;
        gpu["measurements"][1]["value"] = nullptr; // gemm_fp16
        gpu["measurements"][4]["shape"] = nullptr; // gemm_fp8, skipped
        gpu["correctness"]["tolerance"] = nullptr;
        gpu["correctness"]["max_relative_error"] = nullptr;
        gpu["correctness"]["ok"] = false;
        doc["elapsed_s"] = nullptr;
        Result<ProbeResult> r = parseProbeResult(doc.dump(2), "nulls");
        QVERIFY2(r.ok(), r.ok() ? "" : describe(r.error()).c_str());
        QVERIFY(!r->gpus[0].pcie->genMax);
        QVERIFY(!r->gpus[0].measurement("gemm_fp16")->value);
        const Verdict verdict = judgeProbe(*r, m_catalog, {"a100-sxm4-80gb", 1});
        QCOMPARE(problems(verdict), QStringList{});
        QCOMPARE(verdict.find("gemm_fp16", 0)->reason.key, std::string("probe.measurement.no_value"));
        QCOMPARE(verdict.find("pcie", 0)->level, VerdictLevel::Unknown);
        QCOMPARE(verdict.find("correctness", 0)->reason.key, std::string("probe.correctness.unknown"));

        // A relative error that is not finite, against a known tolerance, is a wrong result.
        ProbeResult notFinite = *r;
        notFinite.gpus[0].correctness->tolerance = 0.01;
        const Verdict nan = judgeProbe(notFinite, m_catalog, {"a100-sxm4-80gb", 1});
        QCOMPARE(problems(nan), QStringList{"0:correctness:fail:probe.correctness.failed"});

        // Absent is not null: the schema names the field.
        gpu["measurements"][1].erase("value");
        Result<ProbeResult> missing = parseProbeResult(doc.dump(2), "nulls");
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().where == "nulls: $.gpus[0].measurements[1].value", missing.error().where.c_str());
    }

    void rejectsMalformed_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("text"); // used when file is empty
        QTest::addColumn<ErrorCode>("code");
        QTest::addColumn<QString>("where"); // the error's place, as a suffix
        QTest::addColumn<QString>("key");   // the reason's key
        QTest::addColumn<QString>("param"); // "name=value" of the reason, or empty

        QTest::newRow("truncated") << "malformed-truncated.json"
                                   << "" << ErrorCode::JsonSyntax << "malformed-truncated.json:112:29"
                                   << "error.probe.truncated"
                                   << "";
        QTest::newRow("not JSON") << "malformed-not-json.json"
                                  << "" << ErrorCode::JsonSyntax << "malformed-not-json.json"
                                  << "error.probe.no_document"
                                  << "";
        QTest::newRow("wrong schema") << "malformed-wrong-schema.json"
                                      << "" << ErrorCode::SchemaViolation << "malformed-wrong-schema.json: $.schema"
                                      << "error.probe.other_schema"
                                      << "found=gpuplan-probe/0";
        QTest::newRow("missing field") << "malformed-missing-field.json"
                                       << "" << ErrorCode::SchemaViolation << ": $.gpus[0].memory_total_mib"
                                       << "error.json.required_missing"
                                       << "field=memory_total_mib";
        QTest::newRow("wrong type") << "malformed-wrong-type.json"
                                    << "" << ErrorCode::SchemaViolation << ": $.gpus[0].measurements[2].value"
                                    << "error.json.wrong_type"
                                    << "found_kind=string";
        QTest::newRow("empty output") << ""
                                      << "" << ErrorCode::JsonSyntax << "probe"
                                      << "error.probe.no_output"
                                      << "";
        QTest::newRow("array, not object") << ""
                                           << "[1, 2]\n"
                                           << ErrorCode::JsonSyntax << "probe"
                                           << "error.probe.no_document"
                                           << "begins=[1, 2]";
        QTest::newRow("object of another program") << ""
                                                   << "{\"hello\": 1}\n"
                                                   << ErrorCode::SchemaViolation << "probe: $.schema"
                                                   << "error.probe.schema_missing"
                                                   << "";
        QTest::newRow("banner and broken JSON") << ""
                                                << "Last login: today\n{\"schema\": \"gpuplan-probe/1\",,}\n"
                                                << ErrorCode::JsonSyntax << "probe:2:30"
                                                << "error.json.invalid"
                                                << "";
        QTest::newRow("error without code") << ""
                                            << "{\"schema\": \"gpuplan-probe/1\", \"probe\": {\"version\": \"1\", "
                                               "\"mode\": \"quick\", \"cuda_runtime\": 13000}, \"driver\": "
                                               "{\"version\": null, \"cuda_version\": 0}, \"ok\": false, \"error\": "
                                               "{\"message\": \"x\"}, \"gpus\": [], \"elapsed_s\": 0.1}"
                                            << ErrorCode::SchemaViolation << "probe: $.error.code"
                                            << "error.json.required_missing"
                                            << "field=code";
        QTest::newRow("negative count")
            << ""
            << "{\"schema\": \"gpuplan-probe/1\", \"probe\": {\"version\": \"1\", \"mode\": \"slow\", "
               "\"cuda_runtime\": 13000}, \"driver\": {\"version\": null, \"cuda_version\": -1}, \"ok\": true, "
               "\"gpus\": [], \"elapsed_s\": 0.1}"
            << ErrorCode::SchemaViolation << "probe: $.probe.mode"
            << "error.probe.bad_mode"
            << "more_problems=1";
    }

    void rejectsMalformed()
    {
        QFETCH(QString, file);
        QFETCH(QString, text);
        QFETCH(ErrorCode, code);
        QFETCH(QString, where);
        QFETCH(QString, key);
        QFETCH(QString, param);
        const std::string output = file.isEmpty() ? text.toStdString() : readData(file.toStdString());
        const std::string source = file.isEmpty() ? "probe" : file.toStdString();
        Result<ProbeResult> r = parseProbeResult(output, source);
        QVERIFY(!r.ok());
        const Error& error = r.error();
        QCOMPARE(errorCodeName(error.code), errorCodeName(code));
        QVERIFY2(QString::fromStdString(error.where).endsWith(where), error.where.c_str());
        QCOMPARE(QString::fromStdString(error.reason.key), key);
        if (!param.isEmpty()) {
            const std::string name = param.section('=', 0, 0).toStdString();
            QVERIFY2(error.reason.params.count(name), describe(error).c_str());
            QCOMPARE(QString::fromStdString(error.reason.params.at(name)), param.section('=', 1));
        }
    }

    void judgesRecordings_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("promisedGpu");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("level");
        QTest::addColumn<QStringList>("problems");

        QTest::newRow("healthy A100") << "a100-sxm4-80gb-healthy.json"
                                      << "a100-sxm4-80gb" << 1 << "pass" << QStringList{};
        QTest::newRow("healthy A100, promised by alias") << "a100-sxm4-80gb-healthy.json"
                                                         << "A100 80GB" << 1 << "pass" << QStringList{};
        QTest::newRow("throttled") << "a100-sxm4-80gb-throttled.json"
                                   << "a100-sxm4-80gb" << 1 << "fail"
                                   << QStringList{"0:gemm_fp16:fail:probe.measurement.slow",
                                                  "0:gemm_bf16:fail:probe.measurement.slow",
                                                  "0:gemm_tf32:warn:probe.measurement.low",
                                                  "0:temperature:fail:probe.temperature.slowdown",
                                                  "0:power:fail:probe.power.low",
                                                  "0:throttle:fail:probe.throttle.hardware"};
        QTest::newRow("ECC errors, remap failed")
            << "a100-sxm4-80gb-ecc-errors.json"
            << "a100-sxm4-80gb" << 1 << "fail"
            << QStringList{"0:ecc:fail:probe.ecc.uncorrectable", "0:remapped_rows:fail:probe.remapped_rows.failure"};
        QTest::newRow("GEMM mismatch") << "a100-sxm4-80gb-gemm-mismatch.json"
                                       << "a100-sxm4-80gb" << 1 << "fail"
                                       << QStringList{"0:correctness:fail:probe.correctness.failed"};
        QTest::newRow("A100 40GB for an H100")
            << "wrong-model-a100-40gb-for-h100.json"
            << "h100-sxm5-80gb" << 1 << "fail"
            << QStringList{"0:model:fail:probe.model.mismatch", "0:memory:fail:probe.memory.short"};
        QTest::newRow("A100 80GB for an H100")
            << "a100-sxm4-80gb-healthy.json"
            << "h100-sxm5-80gb" << 1 << "fail" << QStringList{"0:model:fail:probe.model.mismatch"};
        QTest::newRow("one GPU of two") << "a100-sxm4-80gb-healthy.json"
                                        << "a100-sxm4-80gb" << 2 << "fail"
                                        << QStringList{"-:gpu_count:fail:probe.gpu_count.missing"};
        QTest::newRow("unknown promise") << "a100-sxm4-80gb-healthy.json"
                                         << "a100-sxm9" << 1 << "fail"
                                         << QStringList{"0:model:fail:probe.model.unknown_promise"};
        QTest::newRow("driver too old") << "driver-too-old.json"
                                        << "a100-sxm4-80gb" << 1 << "fail"
                                        << QStringList{"-:driver:fail:probe.driver.too_old"};
        QTest::newRow("no GPU") << "no-gpu.json"
                                << "a100-sxm4-80gb" << 8 << "fail"
                                << QStringList{"-:probe_error:fail:probe.error.no_device"};
        // Nothing promised (no launch chosen, no GPU stated): the reason never reads "promised 1 x ." (issue 20, 12).
        QTest::newRow("no GPU, nothing promised")
            << "no-gpu.json"
            << "" << 1 << "fail" << QStringList{"-:probe_error:fail:probe.error.no_device_unpromised"};
    }

    void judgesRecordings()
    {
        QFETCH(QString, file);
        QFETCH(QString, promisedGpu);
        QFETCH(int, count);
        QFETCH(QString, level);
        QFETCH(QStringList, problems);
        Result<ProbeResult> r = parseProbeResult(readData(file.toStdString()), file.toStdString());
        QVERIFY2(r.ok(), r.ok() ? "" : describe(r.error()).c_str());
        const Verdict verdict = judgeProbe(*r, m_catalog, {promisedGpu.toStdString(), count});
        QCOMPARE(::problems(verdict), sorted(problems));
        QCOMPARE(QString(verdictLevelName(verdict.level)), level);
        for (const VerdictLine& line : verdict.lines) {
            // Every line says why, as a key of the verdict's family that ui/wording words.
            QVERIFY2(line.reason.key.rfind("probe.", 0) == 0 && line.reason.key.size() > 6, line.check.c_str());
        }
    }

    /// The figures and words of a few lines, as a user reads them.
    void explainsLines()
    {
        const Verdict healthy = judgeProbe(m_healthy, m_catalog, {"a100-sxm4-80gb", 1});
        const VerdictLine* bf16 = healthy.find("gemm_bf16", 0);
        QVERIFY(bf16);
        QCOMPARE(bf16->level, VerdictLevel::Pass);
        // The figures as data (ui/wording's figureText() words them "252.1 TFLOPS (0.81 of 312)" and
        // ">= 0.65 of 312 TFLOPS (fail < 0.50)", TestVerifyGui holds that).
        QCOMPARE(bf16->measured.key, std::string("figure.share"));
        QCOMPARE(QString::number(std::stod(bf16->measured.params.at("value")), 'g', 4), QString("252.1"));
        QCOMPARE(QString::number(std::stod(bf16->measured.params.at("ratio")), 'f', 2), QString("0.81"));
        QCOMPARE(bf16->measured.params.at("peak"), std::string("312"));
        QCOMPARE(bf16->measured.params.at("unit"), std::string("TFLOPS"));
        QCOMPARE(bf16->expected,
                 (Reason{"figure.share_threshold",
                         {{"pass", "0.65"}, {"peak", "312"}, {"unit", "TFLOPS"}, {"fail", "0.5"}}}));
        QCOMPARE(param(bf16, "ratio"), std::string("0.808"));
        QCOMPARE(param(bf16, "rule"), std::string("sxm_hbm"));
        const VerdictLine* copy = healthy.find("dram_copy", 0);
        QCOMPARE(copy->level, VerdictLevel::Pass);
        QCOMPARE(param(copy, "peak"), std::string("2039"));
        const VerdictLine* h2d = healthy.find("h2d_pinned", 0);
        QCOMPARE(h2d->level, VerdictLevel::Pass);
        QCOMPARE(param(h2d, "peak"), std::string("31.5"));
        const VerdictLine* fp8 = healthy.find("gemm_fp8", 0);
        QCOMPARE(fp8->level, VerdictLevel::Unknown);
        QCOMPARE(fp8->reason.key, std::string("probe.measurement.skipped"));
        // No published threshold for FP32 FMA and our WMMA kernel: their share is shown, not judged.
        QCOMPARE(healthy.find("fp32_fma", 0)->reason.key, std::string("probe.measurement.no_threshold"));
        QCOMPARE(healthy.find("wmma_fp16", 0)->level, VerdictLevel::Unknown);
        QCOMPARE(healthy.find("model", 0)->level, VerdictLevel::Pass);
        QCOMPARE(healthy.find("driver")->level, VerdictLevel::Pass);

        Result<ProbeResult> old = parseProbeResult(readData("driver-too-old.json"), "old");
        QVERIFY(old.ok());
        const Verdict tooOld = judgeProbe(*old, m_catalog, {"a100-sxm4-80gb", 1});
        const VerdictLine* driver = tooOld.find("driver");
        QVERIFY(driver);
        QCOMPARE(QString::fromStdString(param(driver, "build_min_driver")), QString("580.65.06"));
        QCOMPARE(param(driver, "driver_cuda"), std::string("12.2"));
        QCOMPARE(param(driver, "build_cuda"), std::string("13.0"));
        // The CUDA 11.8 build runs there: deploying again picks it ("too_old", not "too_old_for_any_build").
        QCOMPARE(driver->reason.key, std::string("probe.driver.too_old"));
        QCOMPARE(param(driver, "cuda11_min_driver"), std::string("450.80.02"));
        QCOMPARE(param(driver, "driver"), std::string("535.183.01"));

        Result<ProbeResult> wrong = parseProbeResult(readData("wrong-model-a100-40gb-for-h100.json"), "wrong");
        QVERIFY(wrong.ok());
        const Verdict mismatch = judgeProbe(*wrong, m_catalog, {"h100-sxm5-80gb", 1});
        QCOMPARE(param(mismatch.find("model", 0), "found"), std::string("a100-sxm4-40gb"));
        // Judged as what it is: an A100 40GB's 1555 GB/s, not the H100's 3350.
        QCOMPARE(param(mismatch.find("dram_copy", 0), "peak"), std::string("1555"));
        QCOMPARE(mismatch.find("dram_copy", 0)->level, VerdictLevel::Pass);

        // A card the catalog does not know: its copies are GB/s all the same, with no datasheet peak to judge by.
        ProbeResult unknownCard = m_healthy;
        unknownCard.gpus[0].name = "NVIDIA Imaginary X9";
        const Verdict unknown = judgeProbe(unknownCard, m_catalog, {"", 1});
        for (const char* copyTest : {"dram_copy", "dram_triad", "h2d_pinned", "d2h_pinned"}) {
            const VerdictLine* line = unknown.find(copyTest, 0);
            QVERIFY2(line, copyTest);
            QCOMPARE(line->level, VerdictLevel::Unknown);
            QVERIFY2(line->reason.key != "probe.measurement.unit", line->reason.key.c_str()); // no unit mix-up
        }
    }

    /// Variations of the healthy recording for the rules no recording covers.
    void judgesVariations_data()
    {
        QTest::addColumn<QString>("variation");
        QTest::addColumn<QString>("level");
        QTest::addColumn<QStringList>("problems");
        QTest::addColumn<QString>("check"); // a line to look at
        QTest::addColumn<QString>("checkLevel");
        QTest::addColumn<QString>("checkReason");

        QTest::newRow("PCIe trained down in a VM")
            << "pcie-vm"
            << "warn" << QStringList{"0:pcie:warn:probe.pcie.degraded_vm"} << "pcie"
            << "warn"
            << "probe.pcie.degraded_vm";
        QTest::newRow("PCIe trained down, bare metal")
            << "pcie-metal"
            << "fail" << QStringList{"0:pcie:fail:probe.pcie.degraded"} << "h2d_pinned"
            << "pass"
            << "probe.measurement.ok"; // against the Gen3 link it ran on
        QTest::newRow("SW thermal slowdown")
            << "sw-thermal"
            << "warn" << QStringList{"0:throttle:warn:probe.throttle.thermal"} << "throttle"
            << "warn"
            << "probe.throttle.thermal";
        QTest::newRow("ECC off") << "ecc-off"
                                 << "warn" << QStringList{"0:ecc:warn:probe.ecc.off"} << "ecc"
                                 << "warn"
                                 << "probe.ecc.off";
        QTest::newRow("V100: no BF16/TF32 peak") << "v100"
                                                 << "pass" << QStringList{} << "gemm_bf16"
                                                 << "unknown"
                                                 << "probe.measurement.no_peak";
        QTest::newRow("V100: page retirement pending")
            << "v100-pending"
            << "fail" << QStringList{"0:retired_pages:fail:probe.retired_pages.pending"} << "retired_pages"
            << "fail"
            << "probe.retired_pages.pending";
        QTest::newRow("L4 power short: only a warning")
            << "l4-power"
            << "warn" << QStringList{"0:power:warn:probe.power.low"} << "power"
            << "warn"
            << "probe.power.low";
        QTest::newRow("GPU could not be measured")
            << "gpu-error"
            << "fail" << QStringList{"0:gpu_error:fail:probe.gpu_error"} << "gpu_error"
            << "fail"
            << "probe.gpu_error";
        QTest::newRow("NVML unavailable")
            << "nvml"
            << "warn" << QStringList{"-:nvml:warn:probe.error.nvml_unavailable"} << "model"
            << "pass"
            << "probe.model.ok";
        QTest::newRow("MIG on") << "mig"
                                << "warn" << QStringList{"0:mig:warn:probe.mig.on"} << "gemm_bf16"
                                << "unknown"
                                << "probe.measurement.mig";
        QTest::newRow("BF16 between warn and fail")
            << "bf16-low"
            << "warn" << QStringList{"0:gemm_bf16:warn:probe.measurement.low"} << "gemm_bf16"
            << "warn"
            << "probe.measurement.low";
        QTest::newRow("H100 NVL: unknown variant")
            << "h100-nvl"
            << "warn" << QStringList{"0:model:warn:probe.model.unconfirmed"} << "model"
            << "warn"
            << "probe.model.unconfirmed";
        QTest::newRow("not ok, no reason")
            << "not-ok"
            << "warn" << QStringList{"-:probe_incomplete:warn:probe.incomplete"} << "probe_incomplete"
            << "warn"
            << "probe.incomplete";
        QTest::newRow("internal error") << "internal"
                                        << "fail" << QStringList{"-:probe_error:fail:probe.error.internal"}
                                        << "probe_error"
                                        << "fail"
                                        << "probe.error.internal";
    }

    void judgesVariations()
    {
        QFETCH(QString, variation);
        QFETCH(QString, level);
        QFETCH(QStringList, problems);
        QFETCH(QString, check);
        QFETCH(QString, checkLevel);
        QFETCH(QString, checkReason);

        ProbeResult r = m_healthy;
        ProbeGpu& gpu = r.gpus[0];
        ExpectedHardware promised{"a100-sxm4-80gb", 1};
        auto setValue = [&](const char* name, double value) {
            for (ProbeMeasurement& m : gpu.measurements) {
                if (m.name == name) {
                    m.value = value;
                }
            }
        };
        if (variation == "pcie-vm" || variation == "pcie-metal") {
            gpu.pcie->genUnderLoad = 3;
            setValue("h2d_pinned", 12.4);
            setValue("d2h_pinned", 13.1);
            promised.virtualMachine = variation == "pcie-vm";
        } else if (variation == "sw-thermal") {
            gpu.throttleReasons = {"sw_power_cap", "sw_thermal"};
        } else if (variation == "ecc-off") {
            gpu.ecc->enabled = false;
        } else if (variation == "v100" || variation == "v100-pending") {
            gpu.name = "Tesla V100-SXM2-16GB";
            gpu.memoryTotalMib = 16160;
            gpu.computeCapability = "7.0";
            gpu.power.limitW = 300;
            gpu.power.underLoadW = 281;
            gpu.remappedRows.reset();
            gpu.retiredPages = ProbeRetiredPages{2, variation == "v100-pending" ? 1 : 0};
            gpu.pcie = ProbePcie{3, 16, 3, 16};
            setValue("gemm_fp16", 96.1);
            setValue("fp32_fma", 14.9);
            setValue("dram_copy", 790);
            setValue("dram_triad", 801);
            setValue("h2d_pinned", 11.9);
            setValue("d2h_pinned", 12.6);
            promised.gpuId = "v100-sxm2-16gb";
        } else if (variation == "l4-power") {
            gpu.name = "NVIDIA L4";
            gpu.memoryTotalMib = 23034;
            gpu.power = ProbePower{72, 72, 45};
            setValue("gemm_fp16", 60.2);
            setValue("gemm_bf16", 59.8);
            setValue("gemm_tf32", 31.0);
            setValue("dram_copy", 258);
            setValue("dram_triad", 262);
            promised.gpuId = "l4";
        } else if (variation == "gpu-error") {
            gpu.error = ProbeError{"internal", "cudaErrorIllegalAddress in the GEMM test"};
            gpu.correctness.reset();
            gpu.measurements.resize(3);
            r.ok = false;
        } else if (variation == "nvml") {
            r.error = ProbeError{"nvml_unavailable", "libnvidia-ml.so.1: cannot open shared object file"};
        } else if (variation == "mig") {
            gpu.migEnabled = true;
            setValue("gemm_bf16", 40.2);
        } else if (variation == "bf16-low") {
            setValue("gemm_bf16", 180.0); // 0.58 of 312: under 0.65, over 0.50
        } else if (variation == "h100-nvl") {
            gpu.name = "NVIDIA H100 NVL";
            gpu.memoryTotalMib = 95830;
            promised.gpuId = "h100-pcie-80gb";
            promised.memoryGbPerGpu = 94;
            gpu.measurements.clear();
        } else if (variation == "not-ok") {
            r.ok = false;
        } else if (variation == "internal") {
            r.ok = false;
            r.error = ProbeError{"internal", "std::bad_alloc"};
            r.gpus.clear();
        } else {
            QFAIL("unknown variation");
        }
        const Verdict verdict = judgeProbe(r, m_catalog, promised);
        QCOMPARE(::problems(verdict), sorted(problems));
        QCOMPARE(QString(verdictLevelName(verdict.level)), level);
        const VerdictLine* line =
            verdict.find(check.toStdString(), check.startsWith("probe_") ? std::nullopt : std::optional<int>(0));
        QVERIFY2(line, qPrintable(check));
        QCOMPARE(QString(verdictLevelName(line->level)), checkLevel);
        QCOMPARE(QString::fromStdString(line->reason.key), checkReason);
    }

    /// A two-GPU H100 recording with what the probe added for issue 19: the libraries it used, power from the
    /// energy counter, throttling per busy sample, our own GEMM (informational), P2P per pair, NCCL and a burn-in.
    void parsesTheAdditions()
    {
        Result<ProbeResult> parsed = parseProbeResult(readData("h100-sxm5-2gpu-burn.json"), "h100");
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : describe(parsed.error()).c_str());
        const ProbeResult& r = *parsed;
        QVERIFY(r.libraries.cublasLt);
        QVERIFY(r.libraries.cublasLt->path.find("nvidia/cu13/lib/libcublasLt.so.13") != std::string::npos);
        QCOMPARE(r.libraries.cublasLt->version, 130100LL);
        QVERIFY(r.libraries.nccl);
        QCOMPARE(r.burnSeconds, std::optional<int>(60));
        QCOMPARE(r.multiGpu.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(r.multiGpu[0].method), QString("nccl"));
        QCOMPARE(r.gpus.size(), std::size_t(2));
        const ProbeGpu& g = r.gpus[1];
        QCOMPARE(QString::fromStdString(g.power.method), QString("energy"));
        QVERIFY(g.throttle);
        QCOMPARE(g.throttle->samples, 120);
        QCOMPARE(g.throttle->shares.at("sw_power_cap"), 0.41);
        QCOMPARE(g.hostNumaNode, std::optional<int>(0));
        const ProbeMeasurement* p2p = g.measurement("p2p");
        QVERIFY(p2p && p2p->peer == 0 && p2p->link == "nvlink");
        const ProbeMeasurement* own = g.measurement("gemm_own_bf16");
        QVERIFY(own && own->informational && own->method == "wgmma");
        QVERIFY(g.burn);
        QCOMPARE(g.burn->gemms, 52210LL);
        QCOMPARE(g.burn->xidErrors, std::optional<long long>(0));
        QCOMPARE(g.burn->trajectory.size(), std::size_t(6));
        QVERIFY(!g.burn->trajectory[0].tflops);
        QCOMPARE(g.burn->throttle->shares.at("sw_power_cap"), 0.95);

        // A share over 1 and an unknown method name where it matters.
        nlohmann::json broken = nlohmann::json::parse(readData("h100-sxm5-2gpu-burn.json"));
        broken["gpus"][0]["throttle"]["shares"]["hw_slowdown"] = 3;
        Result<ProbeResult> bad = parseProbeResult(broken.dump(), "h100");
        QVERIFY(!bad.ok());
        QCOMPARE(QString::fromStdString(bad.error().where), QString("h100: $.gpus[0].throttle.shares.hw_slowdown"));
    }

    void judgesTheAdditions_data()
    {
        QTest::addColumn<QString>("variation");
        QTest::addColumn<QString>("level");
        QTest::addColumn<QStringList>("problems");
        QTest::addColumn<QString>("check");
        QTest::addColumn<int>("gpu"); // -1: instance-wide
        QTest::addColumn<QString>("checkLevel");
        QTest::addColumn<QString>("checkReason");
        QTest::addColumn<QStringList>("params"); // "name=value" pairs the line's reason carries

        QTest::newRow("healthy") << "healthy"
                                 << "pass" << QStringList{} << "p2p" << 0 << "pass"
                                 << "probe.p2p.ok" << QStringList{"peer=1", "link=nvlink", "peak=450"};
        QTest::newRow("own kernel: informational")
            << "healthy"
            << "pass" << QStringList{} << "gemm_own_fp16" << 0 << "unknown"
            << "probe.measurement.informational" << QStringList{"test=gemm_own_fp16", "reference=782"};
        QTest::newRow("NCCL against NVLink") << "healthy"
                                             << "pass" << QStringList{} << "nccl_allreduce" << -1 << "pass"
                                             << "probe.nccl.ok" << QStringList{"link=nvlink", "peak=450", "value=331"};
        QTest::newRow("burn-in steady") << "healthy"
                                        << "pass" << QStringList{} << "burn_speed" << 1 << "pass"
                                        << "probe.burn.steady" << QStringList{"first=771", "last=752.4"};
        QTest::newRow("quick run: power not judged") << "quick"
                                                     << "pass" << QStringList{} << "power" << 0 << "unknown"
                                                     << "probe.power.quick" << QStringList{};
        QTest::newRow("one hw_slowdown sample is a blip")
            << "hw-brief"
            << "warn" << QStringList{"0:throttle:warn:probe.throttle.hardware_brief"} << "throttle" << 0 << "warn"
            << "probe.throttle.hardware_brief" << QStringList{"reason=hw_slowdown", "phase=gemm", "samples=120"};
        QTest::newRow("hw_slowdown in a third of the samples")
            << "hw-sustained"
            << "fail" << QStringList{"0:throttle:fail:probe.throttle.hardware_sustained"} << "throttle" << 0 << "fail"
            << "probe.throttle.hardware_sustained" << QStringList{"reason=hw_slowdown", "share=0.33", "phase=gemm"};
        QTest::newRow("gpu_idle and sw_thermal blips are no throttling")
            << "idle-blip"
            << "pass" << QStringList{} << "throttle" << 0 << "pass"
            << "probe.throttle.ok_shares" << QStringList{"phase=gemm", "samples=120"};
        QTest::newRow("burn-in: wrong results")
            << "burn-wrong"
            << "fail" << QStringList{"1:burn_errors:fail:probe.burn.wrong_results"} << "burn_errors" << 1 << "fail"
            << "probe.burn.wrong_results"
            << QStringList{"wrong=3", "nan=0", "gemms=52210", "uuid=GPU-1a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4e"};
        QTest::newRow("burn-in: Xid") << "burn-xid"
                                      << "fail" << QStringList{"1:burn_errors:fail:probe.burn.xid"} << "burn_errors"
                                      << 1 << "fail"
                                      << "probe.burn.xid" << QStringList{"xid=1", "xids=79"};
        QTest::newRow("burn-in: sags") << "burn-sags"
                                       << "warn" << QStringList{"1:burn_speed:warn:probe.burn.sags"} << "burn_speed"
                                       << 1 << "warn"
                                       << "probe.burn.sags" << QStringList{"first=771"};
        QTest::newRow("burn-in: slows down") << "burn-slow"
                                             << "fail"
                                             << QStringList{"1:burn_speed:fail:probe.burn.slowdown",
                                                            "1:burn_throttle:fail:probe.throttle.hardware_sustained"}
                                             << "burn_speed" << 1 << "fail"
                                             << "probe.burn.slowdown" << QStringList{"first=771"};
        QTest::newRow("P2P through the host on an NVLink GPU")
            << "p2p-staged"
            << "warn" << QStringList{"0:p2p:warn:probe.p2p.no_nvlink"} << "p2p" << 0 << "warn"
            << "probe.p2p.no_nvlink" << QStringList{"peer=1", "link=staged", "value=19.5", "gpu=H100 SXM5 80GB"};
        QTest::newRow("P2P slow") << "p2p-slow"
                                  << "fail" << QStringList{"1:p2p:fail:probe.p2p.slow"} << "p2p" << 1 << "fail"
                                  << "probe.p2p.slow" << QStringList{"peer=0", "value=120", "link=nvlink", "peak=450"};
        QTest::newRow("NCCL missing") << "nccl-skipped"
                                      << "pass" << QStringList{} << "nccl_allreduce" << -1 << "unknown"
                                      << "probe.nccl.skipped" << QStringList{"why=no libnccl.so.2 found"};
        QTest::newRow("NCCL slow") << "nccl-slow"
                                   << "fail" << QStringList{"-:nccl_allreduce:fail:probe.nccl.slow"} << "nccl_allreduce"
                                   << -1 << "fail"
                                   << "probe.nccl.slow" << QStringList{"value=60", "link=nvlink"};
        QTest::newRow("fabric manager not running")
            << "system-not-ready"
            << "fail" << QStringList{"-:probe_error:fail:probe.error.system_not_ready"} << "probe_error" << -1 << "fail"
            << "probe.error.system_not_ready"
            << QStringList{"message=cudaErrorSystemNotReady: system not yet initialized"};
        QTest::newRow("GPUs busy")
            << "devices-unavailable"
            << "fail" << QStringList{"-:probe_error:fail:probe.error.devices_unavailable"} << "probe_error" << -1
            << "fail"
            << "probe.error.devices_unavailable"
            << QStringList{"message=cudaErrorDevicesUnavailable: CUDA-capable device(s) is/are busy or unavailable"};
        QTest::newRow("uncorrectable ECC during the tests")
            << "gpu-ecc"
            << "fail" << QStringList{"1:gpu_error:fail:probe.gpu_error.ecc_uncorrectable"} << "gpu_error" << 1 << "fail"
            << "probe.gpu_error.ecc_uncorrectable" << QStringList{"code=ecc_uncorrectable", "stage=gemm_fp16"};
        QTest::newRow("a fault in our own kernel is ours, not the GPU's")
            << "own-kernel-fault"
            << "warn" << QStringList{"1:gpu_error:warn:probe.gpu_error.own_kernel"} << "gpu_error" << 1 << "warn"
            << "probe.gpu_error.own_kernel" << QStringList{"code=gpu_fault", "stage=gemm_own_bf16"};
        QTest::newRow("MIG slice: the parent is the model")
            << "mig-slice"
            << "warn" << QStringList{"0:mig:warn:probe.mig.on", "1:mig:warn:probe.mig.on"} << "model" << 0 << "pass"
            << "probe.model.ok"
            << QStringList{"name=NVIDIA H100 80GB HBM3", "promised=h100-sxm5-80gb", "found=h100-sxm5-80gb"};
        QTest::newRow("MIG slice: its memory is a share")
            << "mig-slice"
            << "warn" << QStringList{"0:mig:warn:probe.mig.on", "1:mig:warn:probe.mig.on"} << "memory" << 0 << "unknown"
            << "probe.memory.mig_slice" << QStringList{"mib=40192"};
    }

    void judgesTheAdditions()
    {
        QFETCH(QString, variation);
        QFETCH(QString, level);
        QFETCH(QStringList, problems);
        QFETCH(QString, check);
        QFETCH(int, gpu);
        QFETCH(QString, checkLevel);
        QFETCH(QString, checkReason);
        QFETCH(QStringList, params);

        Result<ProbeResult> parsed = parseProbeResult(readData("h100-sxm5-2gpu-burn.json"), "h100");
        QVERIFY(parsed.ok());
        ProbeResult r = *parsed;
        ExpectedHardware promised{"h100-sxm5-80gb", 2};
        ProbeGpu& first = r.gpus[0];
        ProbeGpu& second = r.gpus[1];
        if (variation == "quick") {
            r.probe.mode = "quick";
            first.power.underLoadW = 281; // a quick run's short bursts: far below the limit, and not a fault
        } else if (variation == "hw-brief") {
            first.throttle->shares["hw_slowdown"] = 1.0 / 120;
            first.throttleReasons.push_back("hw_slowdown");
        } else if (variation == "hw-sustained") {
            first.throttle->shares["hw_slowdown"] = 0.33;
        } else if (variation == "idle-blip") {
            // The union of every sample (the old reading) held gpu_idle and sw_thermal: no longer a warning.
            first.throttleReasons = {"gpu_idle", "sw_power_cap", "sw_thermal"};
            first.throttle->shares["sw_thermal"] = 0.02;
        } else if (variation == "burn-wrong") {
            second.burn->wrongResults = 3;
        } else if (variation == "burn-xid") {
            second.burn->xidErrors = 1;
            second.burn->xids = {79};
        } else if (variation == "burn-sags") {
            second.burn->tflopsLast = 0.85 * *second.burn->tflopsFirst;
        } else if (variation == "burn-slow") {
            second.burn->tflopsLast = 0.62 * *second.burn->tflopsFirst;
            second.burn->throttle->shares["hw_thermal"] = 0.4;
        } else if (variation == "p2p-staged") {
            for (ProbeMeasurement& m : first.measurements) {
                if (m.name == "p2p") {
                    m.link = "staged";
                    m.value = 19.5;
                }
            }
        } else if (variation == "p2p-slow") {
            for (ProbeMeasurement& m : second.measurements) {
                if (m.name == "p2p") {
                    m.value = 120; // 0.27 of NVLink4's 450 GB/s per direction
                }
            }
        } else if (variation == "nccl-skipped") {
            r.multiGpu[0].value.reset();
            r.multiGpu[0].skipped = "no libnccl.so.2 found";
        } else if (variation == "nccl-slow") {
            r.multiGpu[0].value = 60;
        } else if (variation == "system-not-ready") {
            r.ok = false;
            r.error = ProbeError{"system_not_ready", "cudaErrorSystemNotReady: system not yet initialized"};
            r.gpus.clear();
            r.multiGpu.clear();
        } else if (variation == "devices-unavailable") {
            r.ok = false;
            r.error = ProbeError{"devices_unavailable",
                                 "cudaErrorDevicesUnavailable: CUDA-capable device(s) is/are busy or unavailable"};
            r.gpus.clear();
            r.multiGpu.clear();
        } else if (variation == "gpu-ecc") {
            r.ok = false;
            second.error =
                ProbeError{"ecc_uncorrectable", "cudaErrorECCUncorrectable in gemm_fp16", std::nullopt, "gemm_fp16"};
        } else if (variation == "own-kernel-fault") {
            r.ok = false;
            second.error = ProbeError{"gpu_fault", "cudaErrorLaunchFailure", std::nullopt, "gemm_own_bf16"};
        } else if (variation == "mig-slice") {
            for (ProbeGpu* g : {&first, &second}) {
                g->name = "NVIDIA H100 80GB HBM3 MIG 3g.40gb";
                g->parentName = "NVIDIA H100 80GB HBM3";
                g->memoryTotalMib = 40192;
                g->migEnabled = true;
                g->power.underLoadW.reset();
                g->power.limitW.reset();
            }
        } else if (variation != "healthy") {
            QFAIL("unknown variation");
        }
        const Verdict verdict = judgeProbe(r, m_catalog, promised);
        QCOMPARE(::problems(verdict), sorted(problems));
        QCOMPARE(QString(verdictLevelName(verdict.level)), level);
        const VerdictLine* line = verdict.find(check.toStdString(), gpu < 0 ? std::nullopt : std::optional<int>(gpu));
        QVERIFY2(line, qPrintable(check));
        QCOMPARE(QString(verdictLevelName(line->level)), checkLevel);
        QCOMPARE(QString::fromStdString(line->reason.key), checkReason);
        for (const QString& pair : params) {
            const qsizetype equals = pair.indexOf('=');
            const std::string name = pair.left(equals).toStdString();
            QCOMPARE(QString::fromStdString(param(line, name)), pair.mid(equals + 1));
        }
    }

    /// The watchdog's document keeps what was measured: GPU 0 is judged in full, GPU 1 up to where it hung, and
    /// the verdict names the GPU and the test.
    void judgesAPartialDocument()
    {
        Result<ProbeResult> parsed = parseProbeResult(readData("h100-sxm5-2gpu-timeout.json"), "timeout");
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : describe(parsed.error()).c_str());
        QCOMPARE(parsed->error->gpu, std::optional<int>(1));
        QCOMPARE(QString::fromStdString(parsed->error->stage), QString("gemm_bf16"));
        const Verdict verdict = judgeProbe(*parsed, m_catalog, {"h100-sxm5-80gb", 2});
        QCOMPARE(verdict.level, VerdictLevel::Fail);
        const VerdictLine* timeout = verdict.find("probe_error");
        QVERIFY(timeout);
        QCOMPARE(QString::fromStdString(timeout->reason.key), QString("probe.error.timeout"));
        QCOMPARE(param(timeout, "gpu"), std::string("1"));
        QCOMPARE(param(timeout, "stage"), std::string("gemm_bf16"));
        QCOMPARE(QString::fromStdString(verdict.find("gpu_error", 1)->reason.key), QString("probe.gpu_error.timeout"));
        QVERIFY(!verdict.find("gpu_error", 0));
        QCOMPARE(verdict.find("gemm_bf16", 0)->level, VerdictLevel::Pass); // measured before the hang
        QCOMPARE(verdict.find("gemm_fp16", 1)->level, VerdictLevel::Pass);
        QVERIFY(!verdict.find("gemm_bf16", 1));
    }

    void matchesNvmlNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qlonglong>("mib");
        QTest::addColumn<QString>("id"); // empty: no match

        QTest::newRow("A100 SXM4 80GB") << "NVIDIA A100-SXM4-80GB" << 81920LL << "a100-sxm4-80gb";
        QTest::newRow("A100 SXM4 40GB") << "NVIDIA A100-SXM4-40GB" << 40960LL << "a100-sxm4-40gb";
        QTest::newRow("A100 PCIe 40GB") << "NVIDIA A100-PCIE-40GB" << 40960LL << "a100-pcie-40gb";
        QTest::newRow("A100 80GB PCIe") << "NVIDIA A100 80GB PCIe" << 81920LL << "a100-pcie-80gb";
        QTest::newRow("H100 SXM") << "NVIDIA H100 80GB HBM3" << 81559LL << "h100-sxm5-80gb";
        QTest::newRow("H100 PCIe") << "NVIDIA H100 PCIe" << 81559LL << "h100-pcie-80gb";
        QTest::newRow("H200") << "NVIDIA H200" << 143771LL << "h200-sxm-141gb";
        QTest::newRow("B200") << "NVIDIA B200" << 183359LL << "b200";
        QTest::newRow("V100 SXM2 16GB") << "Tesla V100-SXM2-16GB" << 16160LL << "v100-sxm2-16gb";
        QTest::newRow("V100 SXM2 32GB") << "Tesla V100-SXM2-32GB" << 32768LL << "v100-sxm2-32gb";
        QTest::newRow("V100 PCIe 16GB") << "Tesla V100-PCIE-16GB" << 16160LL << "v100-pcie-16gb";
        QTest::newRow("T4") << "Tesla T4" << 15360LL << "t4";
        QTest::newRow("A10") << "NVIDIA A10" << 23028LL << "a10";
        QTest::newRow("A10G") << "NVIDIA A10G" << 23028LL << "a10g";
        QTest::newRow("L4") << "NVIDIA L4" << 23034LL << "l4";
        QTest::newRow("L40S") << "NVIDIA L40S" << 46068LL << "l40s";
        QTest::newRow("RTX 4090") << "NVIDIA GeForce RTX 4090" << 24564LL << "rtx-4090";
        QTest::newRow("RTX A6000") << "NVIDIA RTX A6000" << 49140LL << "rtx-a6000";
        QTest::newRow("RTX 6000 Ada") << "NVIDIA RTX 6000 Ada Generation" << 49140LL << "rtx-6000-ada";
        QTest::newRow("H100 NVL: not in the catalog") << "NVIDIA H100 NVL" << 95830LL << "";
        QTest::newRow("Quadro RTX 6000: not the Ada card") << "Quadro RTX 6000" << 24576LL << "";
        QTest::newRow("A100 name, 40GB of memory: not the 80GB card") << "NVIDIA A100-SXM4-80GB" << 40960LL << "";
        QTest::newRow("empty") << "" << 0LL << "";
    }

    void matchesNvmlNames()
    {
        QFETCH(QString, name);
        QFETCH(qlonglong, mib);
        QFETCH(QString, id);
        const GpuSpec* spec = matchNvmlName(m_catalog, name.toStdString(), mib);
        QCOMPARE(QString::fromStdString(spec ? spec->id : ""), id);
    }

private:
    Catalog m_catalog;
    ProbeResult m_healthy;
};

QTEST_GUILESS_MAIN(TestProbeVerdict)
#include "TestProbeVerdict.moc"
