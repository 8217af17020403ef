// The estimator measured against published results it did not see: the calibration set's breadth, the
// leave-one-source-out error and range coverage, the model's behaviour where wave 1 went wrong (scaling, H200,
// host ceiling, memory, other vendors, efficiency bounds) and the user's own measurements.
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/estimate/Calibration.h"
#include "gpuplan/estimate/Estimator.h"
#include "gpuplan/estimate/Validation.h"
#include "gpuplan/workload/WorkloadLoader.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <array>
#include <fstream>
#include <functional>
#include <set>

using namespace gpuplan::core;

class TestCalibration : public QObject
{
    Q_OBJECT

    static constexpr std::array<Nearness, 4> kNearness{
        Nearness::SameWorkloadAndGpu, Nearness::SameClassAndGpu, Nearness::SameClassAndArch, Nearness::ModelOnly};

private slots:
    void initTestCase()
    {
        const std::filesystem::path root(GPUPLAN_SOURCE_DIR);
        Result<LoadedCatalog> catalog = loadCatalog(root / "resources" / "catalog");
        QVERIFY(catalog.ok());
        m_catalog = catalog->catalog;
        Result<LoadedWorkloads> presets = loadPresets(root / "resources" / "workloads");
        QVERIFY(presets.ok());
        m_presets = *presets;
        Result<LoadedCalibration> loaded = loadCalibration(root / "resources" / "workloads");
        QVERIFY(loaded.ok());
        QVERIFY2(loaded->problems.empty(), loaded->problems.empty() ? "" : describe(loaded->problems.front()).c_str());
        m_cases = loaded->cases;
        std::vector<Error> problems;
        m_calibration = Calibration::build(m_cases, m_catalog, m_presets, problems);
        QVERIFY2(problems.empty(), problems.empty() ? "" : describe(problems.front()).c_str());
    }

    /// At least 150 cases from 8 independent source families on 14 GPU types, each with its source and date.
    void theSetIsBroad()
    {
        std::set<std::string> groups;
        std::set<std::string> gpus;
        for (const CalibrationCase& c : m_cases) {
            groups.insert(c.group);
            gpus.insert(c.gpuId);
            QVERIFY2(c.source.url.rfind("https://", 0) == 0, c.id.c_str());
            QVERIFY2(c.source.asOf.size() == 10, c.id.c_str());
            QVERIFY2(!c.source.note.empty(), c.id.c_str());
        }
        qInfo("calibration set: %zu cases, %zu sources, %zu GPU types", m_cases.size(), groups.size(), gpus.size());
        QVERIFY(m_cases.size() >= 150);
        QVERIFY(groups.size() >= 8);
        QVERIFY(gpus.size() >= 14);
        QCOMPARE(m_calibration.caseCount(), m_cases.size());
    }

    /// Every case predicted by a model fitted without its whole source: median error at most 25 %, at least 75 %
    /// of the published figures inside the stated range (the issue's floor for this test; the report shows more).
    void leaveOneSourceOut()
    {
        const std::vector<ValidationRow> rows = summariseHeldout(m_calibration.heldout(), {});
        const ValidationRow& all = rows.front();
        const std::vector<ValidationRow> first =
            summariseHeldout(crossValidateFirstModel(m_cases, m_catalog, m_presets), {});
        qInfo("leave-one-source-out: %zu cases, median error %.1f %%, P90 %.1f %%, coverage %.0f %%, median width "
              "%.2fx (first model: median error %.1f %%, coverage %.0f %%)",
              all.cases,
              all.medianError * 100,
              all.p90Error * 100,
              all.coverage * 100,
              all.medianWidth,
              first.front().medianError * 100,
              first.front().coverage * 100);
        using Key = std::function<std::string(const Calibration::Heldout&)>;
        for (const Key& key :
             {Key([](const Calibration::Heldout& h) { return std::string(modelClassName(h.modelClass)); }),
              Key([](const Calibration::Heldout& h) { return h.architecture; }),
              Key([](const Calibration::Heldout& h) { return std::string(stackName(h.stack)); }),
              Key([](const Calibration::Heldout& h) { return "nearness " + std::to_string(int(h.nearness)); })}) {
            for (const ValidationRow& r : summariseHeldout(m_calibration.heldout(), key)) {
                qInfo("  %-18s %4zu cases %3zu sources: median %5.1f %%, P90 %5.1f %%, coverage %3.0f %%, width %.2fx",
                      r.label.c_str(),
                      r.cases,
                      r.groups,
                      r.medianError * 100,
                      r.p90Error * 100,
                      r.coverage * 100,
                      r.medianWidth);
            }
        }
        for (ModelClass kind : {ModelClass::Cnn, ModelClass::Detector, ModelClass::Decoder}) {
            for (Nearness n : kNearness) {
                for (SoftwareStack stack : {SoftwareStack::Tuned, SoftwareStack::Typical}) {
                    const auto [low, high] = m_calibration.rangeFactors(n, stack, kind);
                    qInfo("  range of a %s at nearness %d, %s: x%.2f to x%.2f (width %.2fx)",
                          modelClassName(kind),
                          int(n),
                          stackName(stack),
                          low,
                          high,
                          high / low);
                }
            }
        }
        if (qEnvironmentVariableIsSet("GPUPLAN_CALIBRATION_DUMP")) {
            for (const Calibration::Heldout& h : m_calibration.heldout()) {
                qInfo("  %+6.0f %%  %-60s %s %.0f %.0f n%d",
                      (h.predicted.value / h.measured - 1) * 100,
                      h.caseId.c_str(),
                      h.group.c_str(),
                      h.measured,
                      h.predicted.value,
                      int(h.nearness));
            }
        }
        QCOMPARE(all.cases, m_cases.size());
        QVERIFY2(all.medianError <= 0.25, "leave-one-source-out median error above 25 %");
        QVERIFY2(all.coverage >= 0.75, "fewer than 75 % of the held-out results inside their range");
        QVERIFY2(all.medianError < first.front().medianError, "no better than the first model");
    }

    /// The ranges come from held-out errors of the same kind of model: a detector's (YOLO, PointPillars: off by
    /// up to 5x) are not an image classifier's, and less near data never gives a narrower range. A preset on a GPU
    /// with published results of its own stays within 2.5x.
    void rangesAreOfTheirKindAndWidenWithDistance()
    {
        auto width = [&](Nearness n, SoftwareStack stack, ModelClass kind) {
            const auto [low, high] = m_calibration.rangeFactors(n, stack, kind);
            return high / low;
        };
        for (ModelClass kind : {ModelClass::Cnn, ModelClass::Detector, ModelClass::Encoder, ModelClass::Decoder}) {
            for (SoftwareStack stack : {SoftwareStack::Tuned, SoftwareStack::Typical, SoftwareStack::Plain}) {
                for (std::size_t i = 1; i < kNearness.size(); ++i) {
                    const auto [nearLow, nearHigh] = m_calibration.rangeFactors(kNearness[i - 1], stack, kind);
                    const auto [low, high] = m_calibration.rangeFactors(kNearness[i], stack, kind);
                    QVERIFY(low <= nearLow && high >= nearHigh);
                }
            }
        }
        const double detector = width(Nearness::SameClassAndArch, SoftwareStack::Typical, ModelClass::Detector);
        const double classifier = width(Nearness::SameClassAndArch, SoftwareStack::Typical, ModelClass::Cnn);
        qInfo("typical stack, same generation: detector range %.2fx, image classifier %.2fx", detector, classifier);
        QVERIFY(detector > 1.5 * classifier);
        for (SoftwareStack stack : {SoftwareStack::Tuned, SoftwareStack::Typical}) {
            QVERIFY(width(Nearness::SameWorkloadAndGpu, stack, ModelClass::Cnn) <= 2.5);
            QVERIFY(width(Nearness::SameWorkloadAndGpu, stack, ModelClass::Decoder) <= 2.5);
        }
    }

    /// The same GPUs spread over more servers communicate over slower links: scaling can only get worse as
    /// --gpus-per-node falls from 8 to 1 (wave 1 made it better: a PCIe factor per doubling inside a node was
    /// worse than the RDMA factor between nodes).
    void fewerGpusPerNodeNeverScaleBetter()
    {
        for (const char* workload : {"resnet50-imagenet", "bert-large-pretrain", "llama2-7b-full"}) {
            for (const char* name : {"a100-sxm4-80gb", "h100-pcie-80gb", "l40s"}) {
                double previous = 2;
                for (int perNode : {8, 4, 2, 1}) {
                    for (bool rdma : {true, false}) {
                        TrainingSetup setup{*m_catalog.resolveGpu(name), 8, perNode, rdma, Precision::Bf16, {}};
                        const Prediction p = predict(workload, setup);
                        if (rdma) {
                            QVERIFY2(p.scaling <= previous + 1e-9,
                                     qPrintable(QString("%1 on %2, %3 per node").arg(workload, name).arg(perNode)));
                            previous = p.scaling;
                        } else if (perNode < 8) {
                            QVERIFY2(p.scaling <= previous + 1e-9, "TCP between nodes scales better than RDMA");
                        }
                    }
                }
            }
        }
    }

    /// H200 is not an H100: its memory bandwidth makes a bandwidth-bound CNN faster, and its 141 GB fit without
    /// the recompute an 80 GB card needs.
    void h200IsNotAnH100()
    {
        const TrainingSetup h100{*m_catalog.resolveGpu("h100"), 1, 1, true, Precision::Bf16, {}};
        const TrainingSetup h200{*m_catalog.resolveGpu("h200"), 1, 1, true, Precision::Bf16, {}};
        const Workload resnet = *m_presets.find("resnet50-imagenet");
        const TrainingEstimate a = estimateTraining(resnet, h100, m_calibration, m_catalog);
        const TrainingEstimate b = estimateTraining(resnet, h200, m_calibration, m_catalog);
        QVERIFY(a.known && b.known);
        QVERIFY2(b.throughput.value > a.throughput.value * 1.02,
                 qPrintable(QString("H200 %1 vs H100 %2").arg(b.throughput.value).arg(a.throughput.value)));
        Workload full = *m_presets.find("llama2-7b-full");
        full.microBatch = 8;
        const TrainingEstimate c = estimateTraining(full, h100, m_calibration, m_catalog);
        const TrainingEstimate d = estimateTraining(full, h200, m_calibration, m_catalog);
        QVERIFY(!c.known || c.memory.activationCheckpointing || c.memory.sharding != Sharding::DataParallel);
        QVERIFY2(d.known && d.throughput.value > (c.known ? c.throughput.value : 0), "H200 fits what H100 cannot");
    }

    /// A plain or typical PyTorch harness stops growing with the GPU: it cannot feed a B200 much faster than an
    /// H200 (Lambda's harness: about 3,080 images/s per GPU on both).
    void aTypicalHarnessHasAHostCeiling()
    {
        const Workload resnet = *m_presets.find("resnet50-imagenet");
        const TrainingSetup h200{*m_catalog.resolveGpu("h200"), 1, 1, true, Precision::Bf16, {}};
        const TrainingSetup b200{*m_catalog.resolveGpu("b200"), 1, 1, true, Precision::Bf16, {}};
        const TrainingEstimate a = estimateTraining(resnet, h200, m_calibration, m_catalog);
        const TrainingEstimate b = estimateTraining(resnet, b200, m_calibration, m_catalog);
        QVERIFY(a.known && b.known);
        qInfo("ResNet-50, typical stack: H200 %.0f, B200 %.0f images/s", a.throughput.value, b.throughput.value);
        QVERIFY2(b.throughput.value < a.throughput.value * 1.25, "B200 runs away from H200 on a typical harness");
        Workload tuned = resnet;
        tuned.stack = SoftwareStack::Tuned;
        const TrainingEstimate c = estimateTraining(tuned, b200, m_calibration, m_catalog);
        QVERIFY2(c.throughput.value > b.throughput.value * 1.3, "a tuned stack is not held by the ceiling");
    }

    /// The CPU decodes ImageNet JPEGs for a typical stack: a single-GPU VM with few vCPUs is input-bound.
    void fewVcpusLimitTheInputPipeline()
    {
        const Workload resnet = *m_presets.find("resnet50-imagenet");
        const TrainingSetup few{*m_catalog.resolveGpu("h100"), 1, 1, true, Precision::Bf16, 8};
        const TrainingEstimate e = estimateTraining(resnet, few, m_calibration, m_catalog);
        QVERIFY(e.known);
        QCOMPARE(e.limiter, Limiter::InputPipeline);
        QVERIFY(e.throughput.value <= 8 * 175);
        Workload tuned = resnet;
        tuned.stack = SoftwareStack::Tuned; // DALI decodes on the GPU
        QVERIFY(estimateTraining(tuned, few, m_calibration, m_catalog).limiter != Limiter::InputPipeline);
    }

    /// A data set larger than the instance's memory is read again every epoch: a network volume at gp3's default
    /// 125 MiB/s holds ImageNet to about 1,100 images/s; local NVMe or enough memory does not.
    void storageThatCannotKeepUpLimitsTheRun()
    {
        const Workload resnet = *m_presets.find("resnet50-imagenet");
        const GpuSpec* h100 = *m_catalog.resolveGpu("h100");
        const TrainingSetup volume{h100, 1, 1, true, Precision::Bf16, {}, 64.0, {}};
        const TrainingEstimate slow = estimateTraining(resnet, volume, m_calibration, m_catalog);
        QVERIFY(slow.known);
        QCOMPARE(slow.limiter, Limiter::InputPipeline);
        const double ceiling = 125.0 * 1024 * 1024 / (*resnet.datasetGb * 1e9 / resnet.samplesPerEpoch);
        QVERIFY2(std::abs(slow.throughput.value / ceiling - 1) < 1e-9,
                 qPrintable(QString::number(slow.throughput.value)));
        QVERIFY(slow.storageCeiling.has_value());
        const TrainingSetup nvme{h100, 1, 1, true, Precision::Bf16, {}, 64.0, 7600.0};
        const TrainingSetup memory{h100, 1, 1, true, Precision::Bf16, {}, 1024.0, {}};
        const TrainingEstimate fast = estimateTraining(resnet, nvme, m_calibration, m_catalog);
        const TrainingEstimate cached = estimateTraining(resnet, memory, m_calibration, m_catalog);
        QVERIFY(fast.limiter != Limiter::InputPipeline && fast.throughput.value > 2 * slow.throughput.value);
        QVERIFY(!cached.storageCeiling.has_value());
        QCOMPARE(cached.throughput.value, fast.throughput.value);
    }

    /// A workload that does not fit gets no throughput: it says so and what would fit.
    void whatDoesNotFitIsNotEstimated()
    {
        const TrainingEstimate e = estimateTraining(*m_presets.find("llama2-7b-full"),
                                                    {*m_catalog.resolveGpu("t4"), 1, 8, true, Precision::Amp, {}},
                                                    m_calibration,
                                                    m_catalog);
        QVERIFY(!e.known);
        QCOMPARE(e.unknown.key, std::string("unknown.does_not_fit"));
        QVERIFY(e.fit.params.count("fsdp_gpus") && std::stoi(e.fit.params.at("fsdp_gpus")) > 1);
        QCOMPARE(e.fit.params.at("gpu"), std::string("T4"));
    }

    /// No NVIDIA-fitted efficiency for an AMD or Google accelerator: "no calibration for this accelerator".
    void otherVendorsAreNotGuessed()
    {
        for (const char* name : {"mi300x", "tpu-v5p"}) {
            const GpuSpec* gpu = *m_catalog.resolveGpu(name);
            const TrainingEstimate e = estimateTraining(
                *m_presets.find("resnet50-imagenet"), {gpu, 8, 8, true, Precision::Bf16, {}}, m_calibration, m_catalog);
            QVERIFY2(!e.known, name);
            QCOMPARE(e.unknown.key, std::string("unknown.no_calibration_vendor"));
        }
    }

    /// A GPU whose figures are not from a vendor datasheet (the China-market parts, A10G) says so.
    void thirdPartyGpuFiguresAreSaid()
    {
        const Workload w = *m_presets.find("llama2-7b-lora");
        for (const char* name : {"h20", "a800", "l20"}) {
            const TrainingEstimate e = estimateTraining(
                w, {*m_catalog.resolveGpu(name), 1, 1, true, Precision::Bf16, {}}, m_calibration, m_catalog);
            QVERIFY2(e.known, name);
            QVERIFY(e.gpuFigures == Confidence::Low);
            QVERIFY2(std::any_of(e.notes.begin(),
                                 e.notes.end(),
                                 [](const Reason& n) { return n.key == "note.third_party_figures"; }),
                     name);
        }
        const TrainingEstimate h100 = estimateTraining(
            w, {*m_catalog.resolveGpu("h100"), 1, 1, true, Precision::Bf16, {}}, m_calibration, m_catalog);
        QVERIFY(h100.gpuFigures != Confidence::Low);
        QVERIFY(std::none_of(
            h100.notes.begin(), h100.notes.end(), [](const Reason& n) { return n.key == "note.third_party_figures"; }));
    }

    /// The high end of a range never claims more than the best efficiency published for the class (wave 1 gave a
    /// T4 full fine-tune up to 0.84 of the dense peak).
    void efficiencyIsBoundedByWhatWasPublished()
    {
        double best = 0;
        for (const Calibration::Resolved& r : m_calibration.cases()) {
            if (r.shape.modelClass == ModelClass::Decoder) {
                best = std::max(best, r.measured * r.shape.flopsPerUnit / (r.shape.gpus * r.shape.peak.tflops * 1e12));
            }
        }
        for (const char* name : {"t4", "l4", "a10g", "rtx-4090", "h100", "b200"}) {
            const GpuSpec* gpu = *m_catalog.resolveGpu(name);
            for (const char* workload : {"gpt2-124m", "llama2-7b-lora"}) {
                const TrainingEstimate e = estimateTraining(
                    *m_presets.find(workload), {gpu, 1, 1, true, defaultPrecision(*gpu), {}}, m_calibration, m_catalog);
                if (e.known) {
                    QVERIFY2(e.efficiency.high <= best * 1.05 + 1e-9, qPrintable(QString("%1 %2").arg(name, workload)));
                }
            }
        }
    }

    /// The user's own measurement is a calibration case: the next estimate for that workload and GPU rests on it.
    void aUserMeasurementMovesTheEstimate()
    {
        QTemporaryDir dir;
        const Workload w = *m_presets.find("yolov5s-coco");
        const TrainingSetup l4{*m_catalog.resolveGpu("l4"), 1, 1, true, Precision::Bf16, {}};
        const TrainingEstimate before = estimateTraining(w, l4, m_calibration, m_catalog);
        QVERIFY(before.known);
        QVERIFY(!before.userData);

        CalibrationCase mine;
        mine.id = "my-yolov5s-on-l4";
        mine.workloadId = w.id;
        mine.model = w.name;
        mine.modelClass = w.modelClass;
        mine.gpuId = "l4";
        mine.precision = Precision::Bf16;
        mine.measured = before.throughput.value * 2;
        mine.group = "user";
        mine.user = true;
        mine.source = {.url = "https://gpuplanner.invalid/my-measurement",
                       .asOf = "2026-12-05",
                       .retrieved = "2026-12-05",
                       .note = "measured on our L4"};
        Result<std::filesystem::path> saved = saveUserCalibration(mine, dir.path().toStdString());
        QVERIFY2(saved.ok(), saved.ok() ? "" : describe(saved.error()).c_str());
        QCOMPARE(std::filesystem::status(*saved).permissions() & std::filesystem::perms::all,
                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);

        LoadedCalibration user = loadUserCalibration(dir.path().toStdString());
        QVERIFY(user.problems.empty());
        QCOMPARE(user.cases.size(), std::size_t(1));
        QVERIFY(user.cases.front().user);
        std::vector<CalibrationCase> all = m_cases;
        all.push_back(user.cases.front());
        std::vector<Error> problems;
        const Calibration withMine = Calibration::build(all, m_catalog, m_presets, problems);
        const TrainingEstimate after = estimateTraining(w, l4, withMine, m_catalog);
        QVERIFY(after.known);
        QVERIFY(after.userData);
        QCOMPARE(after.nearness, Nearness::SameWorkloadAndGpu);
        QVERIFY2(after.throughput.value > before.throughput.value * 1.3,
                 qPrintable(QString("%1 -> %2").arg(before.throughput.value).arg(after.throughput.value)));
        QCOMPARE(after.efficiencyBasis.params.at("user"), std::string("1")); // "your own measurement among them"
    }

    /// A broken user case file is named and left out; the bundled cases still load.
    void aBrokenUserCaseIsNamedAndLeftOut()
    {
        QTemporaryDir dir;
        const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "broken.json";
        std::ofstream(file) << R"({"schema": "gpuplan-calibration/2", "case": {"id": "x", "class": "cnn"}})";
        LoadedCalibration user = loadUserCalibration(dir.path().toStdString());
        QVERIFY(user.cases.empty());
        QVERIFY(!user.problems.empty());
        QVERIFY2(user.problems.front().where.find("broken.json") != std::string::npos,
                 describe(user.problems.front()).c_str());
    }

private:
    Prediction predict(const char* workload, const TrainingSetup& setup)
    {
        const Workload w = *m_presets.find(workload);
        return m_calibration.model().predict(runShape(w, setup, *peakFor(*setup.gpu, setup.precision)));
    }

    Catalog m_catalog;
    LoadedWorkloads m_presets;
    std::vector<CalibrationCase> m_cases;
    Calibration m_calibration;
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "TestCalibration.moc"
