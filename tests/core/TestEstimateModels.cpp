// The estimator's model pieces against hand-checked numbers: FLOPs, memory, Young/Daly, spot expectation
// (closed form vs Monte Carlo), cost of ownership break-even, energy.
#include "gpuplan/estimate/Energy.h"
#include "gpuplan/estimate/Ownership.h"
#include "gpuplan/estimate/SpotModel.h"
#include "gpuplan/workload/WorkloadLoader.h"
#include "gpuplan/workload/WorkloadModel.h"

#include <QTest>

#include <cmath>
#include <fstream>

using namespace gpuplan::core;

namespace {

bool near(double actual, double expected, double relative)
{
    return std::abs(actual - expected) <= relative * std::abs(expected);
}

#define QNEAR(actual, expected, relative)            \
    QVERIFY2(near((actual), (expected), (relative)), \
             qPrintable(QString("%1 is %2, expected %3").arg(#actual).arg((actual), 0, 'g', 10).arg((expected))))

} // namespace

class TestEstimateModels : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        Result<LoadedWorkloads> loaded =
            loadPresets(std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "workloads");
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : describe(loaded.error()).c_str());
        QVERIFY2(loaded->problems.empty(), loaded->problems.empty() ? "" : describe(loaded->problems.front()).c_str());
        m_presets = *loaded;
    }

    void everyNamedPresetExists()
    {
        for (const char* id : {"resnet50-imagenet",
                               "bert-large-pretrain",
                               "bert-large-squad",
                               "bert-base-glue",
                               "gpt2-124m",
                               "llama2-7b-lora",
                               "llama2-7b-full",
                               "llama2-70b-lora",
                               "yolov5s-coco",
                               "pointpillars-kitti"}) {
            Result<Workload> w = m_presets.find(id);
            QVERIFY2(w.ok(), id);
            QVERIFY2(!w->sources.empty(), id);
        }
        QCOMPARE(m_presets.find("resnet50-imagenet")->epochs, 90.0);
        QCOMPARE(m_presets.find("gpt2-124m")->totalUnits(), 10e9);
        Result<Workload> typo = m_presets.find("resnet50-imagent");
        QVERIFY(!typo.ok());
        QCOMPARE(typo.error().reason.key, std::string("error.workload.unknown_preset"));
        QCOMPARE(typo.error().reason.params.at("preset"), std::string("resnet50-imagent"));
        QCOMPARE(typo.error().reason.params.at("alternatives"), std::string("resnet50-imagenet"));
    }

    void transformerFlopsPerToken()
    {
        // GPT-2 124M: 6 N + 12 L h s = 6 * 124e6 + 12 * 12 * 768 * 1024 = 744e6 + 113.246208e6.
        QNEAR(*trainingFlopsPerUnit(*m_presets.find("gpt2-124m")), 857.246208e6, 1e-9);
        // Llama 2 7B LoRA: 4 N + 8 L h s + 6 N_train = 4 * 6738415616 + 8 * 32 * 4096 * 512 + 6 * 16777216.
        QNEAR(
            *trainingFlopsPerUnit(*m_presets.find("llama2-7b-lora")), 26953662464.0 + 536870912.0 + 100663296.0, 1e-9);
        // Per-sample work is the file's figure: ResNet-50 24.54 GFLOPs per image.
        QNEAR(*trainingFlopsPerUnit(*m_presets.find("resnet50-imagenet")), 24.54e9, 1e-12);
    }

    void memoryOfAFullFineTune()
    {
        const Workload w = *m_presets.find("llama2-7b-full");
        // DDP, BF16 + Adam: 16 bytes per parameter; activations 34 s b h L + logits 4 s b V.
        const MemoryPlan ddp = memoryPlan(w, Precision::Bf16, 80, 8, Sharding::DataParallel, false, 4);
        QNEAR(ddp.weightsGb + ddp.gradientsGb + ddp.optimizerGb, 16 * 6738415616.0 / 1e9, 1e-9);
        QNEAR(ddp.activationsGb, (34.0 * 512 * 4 * 4096 * 32 + 4.0 * 512 * 4 * 32000) / 1e9, 1e-9);
        QNEAR(ddp.reserveGb, 1 + 0.05 * 80, 1e-12);
        QVERIFY(!ddp.fits); // 107.8 GB of state alone
        // FSDP over 8 GPUs divides the state by 8; checkpointing keeps 2 s b h per layer.
        const MemoryPlan fsdp = memoryPlan(w, Precision::Bf16, 80, 8, Sharding::FullySharded, true, 4);
        QNEAR(fsdp.optimizerGb, 12 * 6738415616.0 / 8 / 1e9, 1e-9);
        QNEAR(fsdp.activationsGb, (2.0 * 512 * 4 * 4096 * 32 + 4.0 * 512 * 4 * 32000) / 1e9, 1e-9);
        const MemoryPlan fitted = fitMemory(w, Precision::Bf16, 80, 8);
        QVERIFY(fitted.fits);
        QCOMPARE(fitted.sharding, Sharding::FullySharded);
        QVERIFY(!fitMemory(w, Precision::Bf16, 80, 1).fits);
        QCOMPARE(gpusNeededToFit(w, Precision::Bf16, 80, 64), std::optional<int>(2));
    }

    void loraKeepsFrozenWeightsAtTwoBytes()
    {
        const Workload w = *m_presets.find("llama2-7b-lora");
        const MemoryPlan plan = memoryPlan(w, Precision::Bf16, 24, 1, Sharding::DataParallel, false, 1);
        QNEAR(plan.weightsGb, 2 * (6738415616.0 + 16777216.0) / 1e9, 1e-9); // frozen base + adapters
        QNEAR(plan.optimizerGb, 12 * 16777216.0 / 1e9, 1e-9);
        QVERIFY(fitMemory(w, Precision::Bf16, 24, 1).fits);  // a 24 GB card fine-tunes 7B with LoRA
        QVERIFY(!fitMemory(w, Precision::Bf16, 12, 1).fits); // 13.5 GB of frozen weights
    }

    void overridesChangeTheWorkAndRefuseTheWrongUnit()
    {
        Result<Workload> fewer = withOverrides(*m_presets.find("resnet50-imagenet"), {.epochs = 10});
        QVERIFY(fewer.ok());
        QCOMPARE(fewer->totalUnits(), 1281167.0 * 10);
        Result<Workload> wrong = withOverrides(*m_presets.find("resnet50-imagenet"), {.tokens = 1e9});
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.error().where, std::string("--tokens"));
    }

    void youngAndDalyIntervals()
    {
        QNEAR(youngInterval(0.1, 100), std::sqrt(20.0), 1e-12); // 4.4721 h
        // Daly eq. 37: sqrt(2 d M) (1 + sqrt(d / 2M) / 3 + d / 18M) - d = 4.47214 * 1.0075092 - 0.1 = 4.40570.
        QNEAR(dalyInterval(0.1, 100), 4.405696, 1e-5);
        QCOMPARE(dalyInterval(300, 100), 100.0); // delta >= 2M: checkpoint every M
        QVERIFY(std::isinf(dalyInterval(0.1, mtbfFromMonthlyProbability(0))));
        QNEAR(mtbfFromMonthlyProbability(0.05), 730 / 0.0512932943875505, 1e-9); // -730 / ln(0.95) = 14231.9 h
    }

    void spotMonteCarloMatchesTheClosedForm()
    {
        // Daly eq. 13: M e^(R/M) (e^((tau + d)/M) - 1) W / tau = 50 e^0.005 (e^0.042 - 1) 50 = 107.8 h.
        const SpotScenario s{100, 50, 0.1, 0.25, 2};
        const double closed = expectedWallHours(s);
        QNEAR(closed, 50 * std::exp(0.25 / 50) * std::expm1(2.1 / 50) * 100 / 2, 1e-12);
        QNEAR(closed, 107.82, 1e-3);
        const SpotOutcome simulated = simulateSpot(s, 20000, 7);
        QNEAR(simulated.meanHours, closed, 0.01);
        QVERIFY(simulated.p50Hours <= simulated.p90Hours);
        QVERIFY(simulated.p50Hours >= 105);           // never faster than the uninterrupted 100 h + 50 checkpoints
        QNEAR(simulated.meanInterruptions, 2.1, 0.1); // about one per M hours of wall clock
        // Same seed, same answer; no interruptions: W (tau + d) / tau.
        QCOMPARE(simulateSpot(s, 500, 3).p90Hours, simulateSpot(s, 500, 3).p90Hours);
        const SpotScenario safe{100, mtbfFromMonthlyProbability(0), 0.1, 0.25, 2};
        QNEAR(expectedWallHours(safe), 105, 1e-12);
        QNEAR(simulateSpot(safe, 10, 1).p90Hours, 105, 1e-12);
    }

    void ownershipBreakEven()
    {
        OwnershipInputs in{200000, 8, 6500, 1.5, 0.1, 0.1, 4, 0.8};
        const OwnershipComparison c = compareOwnership(in, 2.0);
        QNEAR(c.ownMonthlyFixed, 200000 / 48.0 + 200000 * 0.1 / 12, 1e-12); // 5833.33
        QNEAR(c.ownMonthlyEnergy, 6.5 * 1.5 * 0.1 * 730 * 0.8, 1e-12);      // 569.4
        QNEAR(c.rentMonthly, 2.0 * 8 * 730 * 0.8, 1e-12);                   // 9344
        // u = F / (R - E) at 100 %: 5833.33 / (11680 - 711.75) = 0.531843.
        QNEAR(*c.breakEvenUtilisation, 0.531843, 1e-5);
        // m = P / (rent - maintenance - energy) = 200000 / (9344 - 1666.67 - 569.4) = 28.137 months.
        QNEAR(*c.breakEvenMonth, 28.1375, 1e-4);
        QNEAR(cumulativeOwnCost(in, *c.breakEvenMonth), cumulativeRentCost(in, 2.0, *c.breakEvenMonth), 1e-9);
        // Cheap rent: owning never pays back within its life.
        const OwnershipComparison cheap = compareOwnership(in, 0.5);
        QVERIFY(!cheap.breakEvenMonth);
        QVERIFY(!cheap.breakEvenUtilisation);
    }

    void energyAndCarbon()
    {
        const EnergyEstimate e = estimateEnergy({8, 400, 0.8, 0, 1.5, 10, 0.5});
        QNEAR(e.kwh, 8 * 400 * 0.8 * 1.5 * 10 / 1000.0, 1e-12); // 38.4 kWh
        QNEAR(*e.kgCo2e, 19.2, 1e-12);
        QVERIFY(!estimateEnergy({8, 400, 0.8, 0, 1.5, 10, std::nullopt}).kgCo2e); // unknown grid stays unknown
    }

    void badWorkloadFileNamesThePlace()
    {
        const std::filesystem::path file = std::filesystem::path(GPUPLAN_BINARY_DIR) / "tests" / "bad-workload.json";
        std::filesystem::create_directories(file.parent_path());
        {
            std::ofstream out(file);
            out << "{\"schema\": \"gpuplan-workload/1\", \"name\": \"mine\", \"task\": \"llm\", \"class\": \"decoder\","
                   " \"kind\": \"transformer\", \"model\": {\"parameters\": -5, \"layers\": 2, \"hidden\": 64},"
                   " \"work\": {\"tokens\": 1000, \"sequence_length\": 128}}";
        }
        Result<Workload> w = loadWorkloadFile(file);
        QVERIFY(!w.ok());
        QVERIFY2(w.error().where.ends_with("$.model.parameters"), describe(w.error()).c_str());
        QCOMPARE(w.error().reason.key, std::string("error.json.not_positive"));
    }

private:
    LoadedWorkloads m_presets;
};

QTEST_GUILESS_MAIN(TestEstimateModels)
#include "TestEstimateModels.moc"
