#include "gpuplan/run/StarterScript.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/estimate/Assumptions.h"
#include "gpuplan/estimate/Calibration.h"
#include "gpuplan/plan/PlanDocument.h"
#include "gpuplan/run/LogThroughput.h"
#include "gpuplan/workload/WorkloadLoader.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <sys/types.h>

// The starter training script (core/run/StarterScript) made from real plans of two presets and run for real on the
// CPU with PyTorch (Debian's python3-torch 1.13 here): interrupted by its signal or its preempt file, checkpointed,
// resumed without a step lost or repeated, and read by the run monitor's ThroughputReader.
using namespace gpuplan::core;

namespace {

/// What one run of the script printed and how it ended.
struct Ran
{
    int exitCode = -1;
    bool crashed = false;
    QString out;
    QString err;
    std::map<int, QString> losses; // step -> the loss its speed line printed
    std::vector<QString> speedLines;
    int firstStep = 0; // the first speed line's step; 0: none
    int ranSteps = -1; // what the script says it ran in this process

    QString tell() const
    {
        return QStringLiteral("exit %1\n--- stdout\n%2\n--- stderr\n%3").arg(exitCode).arg(out, err);
    }
};

const QRegularExpression kSpeedLine(QStringLiteral(R"(^gpuplan-train step (\d+)/(\d+) loss (\S+) )"));
const QRegularExpression kRanSteps(QStringLiteral(R"(ran (\d+) steps in this process)"));

void readLines(Ran& ran, const QString& text)
{
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (const QRegularExpressionMatch m = kSpeedLine.match(line); m.hasMatch()) {
            const int step = m.captured(1).toInt();
            ran.losses[step] = m.captured(3);
            ran.speedLines.push_back(line);
            ran.firstStep = ran.firstStep == 0 ? step : ran.firstStep;
        }
        if (const QRegularExpressionMatch m = kRanSteps.match(line); m.hasMatch()) {
            ran.ranSteps = m.captured(1).toInt();
        }
    }
}

QString readText(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

/// The checkpoints' steps in `folder`, oldest first.
std::vector<int> checkpointSteps(const QString& folder)
{
    std::vector<int> steps;
    const QRegularExpression name(QStringLiteral(R"(^step-(\d{8})\.pt$)"));
    for (const QString& file : QDir(folder).entryList(QDir::Files, QDir::Name)) {
        if (const QRegularExpressionMatch m = name.match(file); m.hasMatch()) {
            steps.push_back(m.captured(1).toInt());
        }
    }
    return steps;
}

} // namespace

class TestStarterScript : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // PyTorch is required, never skipped: GPU Planner writes this script for its users.
        m_python = pythonWithTorch();
        QVERIFY2(!m_python.isEmpty(),
                 "no python3 with PyTorch: install Debian's python3-torch (packaging/system-packages.txt), or point "
                 "GPUPLAN_TEST_PYTHON at a python3 that can `import torch`");

        const std::filesystem::path root(GPUPLAN_SOURCE_DIR);
        std::ifstream in(root / "resources" / "scripts" / kStarterTemplateFile, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        m_template = text.str();
        QVERIFY2(m_template.size() > 1000, "resources/scripts/gpuplan-train-starter.py does not read");

        Result<LoadedCatalog> catalog = loadCatalog(root / "resources" / "catalog");
        QVERIFY(catalog.ok());
        Result<LoadedWorkloads> presets = loadPresets(root / "resources" / "workloads");
        QVERIFY(presets.ok());
        Result<LoadedCalibration> calibration = loadCalibration(root / "resources" / "workloads");
        QVERIFY(calibration.ok());
        std::vector<Error> problems;
        const Calibration calibrated = Calibration::build(calibration->cases, catalog->catalog, *presets, problems);
        QVERIFY(problems.empty());
        const LoadedAssumptions assumptions = loadAssumptions(root / "resources" / "catalog");
        QVERIFY(assumptions.problems.empty());
        Planner planner(catalog->catalog, assumptions.assumptions, calibrated);
        for (const char* id : {"resnet50-imagenet", "gpt2-124m"}) {
            const Result<Workload> workload = presets->find(id);
            QVERIFY(workload.ok());
            Constraints constraints;
            const Recommendation recommendation = planner.recommend(*workload, constraints);
            m_plans[id] =
                makePlanDocument(*workload, constraints, catalog->catalog, recommendation, "2026-12-06T00:00:00Z");
            QVERIFY2(m_plans[id].results.options.size() >= 2, id);
        }
    }

    // The settings a real plan gives: its class, its option's precision, micro-batch and GPUs, its work in steps.
    void settingsFollowThePlan_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("option");
        QTest::addColumn<QString>("family");
        QTest::newRow("resnet50, recommendation") << "resnet50-imagenet" << -1 << "cnn";
        QTest::newRow("resnet50, second option") << "resnet50-imagenet" << 1 << "cnn";
        QTest::newRow("gpt2-124m, recommendation") << "gpt2-124m" << -1 << "transformer";
        QTest::newRow("gpt2-124m, second option") << "gpt2-124m" << 1 << "transformer";
    }
    void settingsFollowThePlan()
    {
        QFETCH(QString, preset);
        QFETCH(int, option);
        QFETCH(QString, family);
        const PlanDocument& plan = m_plans.at(preset.toStdString());
        const StarterSettings s = starterSettingsOf(plan, option < 0 ? std::nullopt : std::optional<int>(option));
        const PlanOption& chosen = plan.results.options.at(option < 0 ? 0 : std::size_t(option));
        QCOMPARE(QString::fromStdString(s.family), family);
        QCOMPARE(s.workloadName, plan.workload.name);
        const std::map<std::string, std::string> precisions{
            {"amp", "fp16"}, {"bf16", "bf16"}, {"fp8", "bf16"}, {"fp32", "fp32"}, {"tf32", "tf32"}};
        QCOMPARE(s.precision, precisions.at(chosen.training.precision));
        QCOMPARE(s.gpus, chosen.gpus / chosen.nodes);
        QVERIFY(chosen.training.memory);
        QCOMPARE(s.batchSize, chosen.training.memory->microBatch);
        const bool tokens = family == "transformer";
        if (tokens) {
            // GPT-2 124M: the preset's shape (resources/workloads/presets.json).
            QCOMPARE(s.sequenceLength, 1024);
            QCOMPARE(s.vocabulary, 50257);
            QCOMPARE(s.layers, 12);
            QCOMPARE(s.hidden, 768);
            QCOMPARE(s.heads, 12);
        }
        const double perStep = double(s.batchSize) * s.gpus * (tokens ? s.sequenceLength : 1);
        QCOMPARE(s.totalSteps, std::int64_t(std::ceil(plan.workload.units / perStep)));
        QVERIFY(s.checkpointEvery >= 1 && s.checkpointEvery <= s.totalSteps);
        QVERIFY(s.logEvery >= 1 && s.logEvery <= 100);
        const Status checked = checkStarterSettings(s);
        QVERIFY2(checked.ok(), checked.ok() ? "" : describe(checked.error()).c_str());
    }

    // The arithmetic on a plan whose figures are known: GPT-2's 10B tokens at 64 x 1024 tokens on 8 GPUs is
    // 19,074 steps (the llm.c reproduction's 19,073 full steps and a partial one); 10^6 tokens/s is 1.907 steps/s,
    // so a 30-minute spot checkpoint interval is 3,433 steps and a speed line every ~10 s is 19 steps.
    void settingsArithmetic()
    {
        PlanDocument plan;
        plan.workload.name = "GPT-2 124M";
        plan.workload.modelClass = "decoder";
        plan.workload.unit = "tokens";
        plan.workload.units = 1e10;
        plan.workload.sequenceLength = 1024;
        plan.assumptions = PlanAssumptions{};
        plan.assumptions->checkpointEveryHours = 2.0;
        PlanOption spot;
        spot.gpus = 8;
        spot.training.count = 8;
        spot.training.precision = "amp";
        spot.training.throughput = Range{1e6, 9e5, 1.1e6};
        spot.training.throughputUnit = "tokens/s";
        spot.training.memory = PlanTraining::Memory{};
        spot.training.memory->microBatch = 64;
        PlanMode mode;
        mode.mode = PricingMode::Spot;
        mode.spot = PlanSpot{};
        mode.spot->checkpointIntervalHours = 0.5;
        spot.modes.push_back(mode);
        PlanOption onDemand = spot;
        onDemand.gpus = 16; // two nodes of 8: the run goes to one instance
        onDemand.nodes = 2;
        onDemand.training.count = 16;
        onDemand.training.precision = "bf16";
        onDemand.training.throughput = Range{2e6, 2e6, 2e6};
        onDemand.modes.front().mode = PricingMode::OnDemand;
        plan.results.options = {spot, onDemand};

        StarterSettings s = starterSettingsOf(plan);
        QCOMPARE(s.family, std::string("transformer"));
        QCOMPARE(s.precision, std::string("fp16"));
        QCOMPARE(s.gpus, 8);
        QCOMPARE(s.batchSize, 64);
        QCOMPARE(s.totalSteps, std::int64_t(19074));
        QCOMPARE(s.checkpointEvery, std::int64_t(3433));
        QCOMPARE(s.logEvery, 19);
        QCOMPARE(s.vocabulary, 50257); // no definition: GPT-2's shape
        QCOMPARE(s.layers, 12);

        // The plan's choice: no spot mode, so the plan's checkpoint assumption (2 h) at 2e6 / (64 x 1024 x 16)
        // = 1.907 steps/s: 13,732 steps; one instance of the two has 8 GPUs.
        plan.choice = 1;
        s = starterSettingsOf(plan);
        QCOMPARE(s.precision, std::string("bf16"));
        QCOMPARE(s.gpus, 8);
        QCOMPARE(s.totalSteps, std::int64_t(19074));
        QCOMPARE(s.checkpointEvery, std::int64_t(13732));
        // An index asked for wins over the choice.
        QCOMPARE(starterSettingsOf(plan, 0).checkpointEvery, std::int64_t(3433));

        // A plan without options or work: the defaults, and a checkpoint interval no longer than the run.
        PlanDocument bare;
        bare.workload.name = "bare";
        bare.workload.modelClass = "cnn";
        s = starterSettingsOf(bare);
        QCOMPARE(s.family, std::string("cnn"));
        QCOMPARE(s.gpus, 1);
        QCOMPARE(s.totalSteps, std::int64_t(1000));
        QCOMPARE(s.checkpointEvery, std::int64_t(1000));
        QVERIFY(checkStarterSettings(s).ok());
        bare.workload.units = 320; // 10 steps of 32 images
        QCOMPARE(starterSettingsOf(bare).totalSteps, std::int64_t(10));
        QCOMPARE(starterSettingsOf(bare).checkpointEvery, std::int64_t(10));
    }

    // Every placeholder is filled; a name with quotes, newlines and code goes in as a string and stays one.
    void scriptIsFilledAndNamesStayText()
    {
        StarterSettings s = starterSettingsOf(m_plans.at("gpt2-124m"));
        const std::string name = "GPT \"\"\" x'''\n__import__('os').system('touch pwned') # \\ 中文 \x01";
        s.workloadName = name;
        const Result<std::string> script = starterScript(s, m_template);
        QVERIFY2(script.ok(), script.ok() ? "" : describe(script.error()).c_str());
        QVERIFY(script->find("{{") == std::string::npos);
        QVERIFY(script->find("}}") == std::string::npos);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeScript(dir.filePath("train.py"), *script);
        // Read the settings back as Python sees them, without running the script.
        const QString read =
            QStringLiteral("import ast, json, sys\n"
                           "tree = ast.parse(open(sys.argv[1], encoding='utf-8').read())\n"
                           "for node in tree.body:\n"
                           "    if isinstance(node, ast.Assign) and getattr(node.targets[0], 'id', '') == 'SETTINGS':\n"
                           "        print(json.dumps(ast.literal_eval(node.value)))\n");
        const Ran parsed = runPython({"-c", read, dir.filePath("train.py")}, dir.path(), {});
        QVERIFY2(parsed.exitCode == 0, qPrintable(parsed.tell()));
        const nlohmann::json settings = nlohmann::json::parse(parsed.out.toStdString(), nullptr, false);
        QVERIFY2(settings.is_object(), qPrintable(parsed.out));
        QCOMPARE(settings.value("workload", std::string()), name);
        QCOMPARE(settings.value("family", std::string()), std::string("transformer"));
        QCOMPARE(settings.value("precision", std::string()), s.precision);
        QCOMPARE(settings.value("total_steps", std::int64_t(0)), s.totalSteps);
        QCOMPARE(settings.value("checkpoint_every", std::int64_t(0)), s.checkpointEvery);
        QCOMPARE(settings.value("batch_size", 0), s.batchSize);
        QCOMPARE(settings.value("sequence_length", 0), 1024);
        QCOMPARE(settings.value("interrupt_signal", std::string()), std::string("USR1"));

        // Running it (--help executes the whole module) runs no code from the name.
        const Ran help = runPython({dir.filePath("train.py"), "--help"}, dir.path(), {});
        QVERIFY2(help.exitCode == 0, qPrintable(help.tell()));
        QVERIFY(help.out.contains("--max-steps"));
        QVERIFY(!QFile::exists(dir.filePath("pwned")));
    }

    void refusesWhatWouldInjectCode_data()
    {
        QTest::addColumn<QString>("setting");
        QTest::addColumn<int>("which");
        QTest::newRow("family") << "family" << 0;
        QTest::newRow("precision") << "precision" << 1;
        QTest::newRow("interrupt_signal") << "interrupt_signal" << 2;
        QTest::newRow("batch_size") << "batch_size" << 3;
        QTest::newRow("total_steps") << "total_steps" << 4;
        QTest::newRow("checkpoint_every") << "checkpoint_every" << 5;
        QTest::newRow("hidden") << "hidden" << 6;
        QTest::newRow("image_size") << "image_size" << 7;
    }
    void refusesWhatWouldInjectCode()
    {
        QFETCH(QString, setting);
        QFETCH(int, which);
        StarterSettings s = starterSettingsOf(m_plans.at("gpt2-124m"));
        const std::string code = "cnn\"\nimport os; os.system('touch pwned') #";
        switch (which) {
            case 0:
                s.family = code;
                break;
            case 1:
                s.precision = "fp16\" + __import__('os').getcwd() + \"";
                break;
            case 2:
                s.interruptSignal = "USR1\"); import os #";
                break;
            case 3:
                s.batchSize = 0;
                break;
            case 4:
                s.totalSteps = -5;
                break;
            case 5:
                s.checkpointEvery = 0;
                break;
            case 6:
                s.hidden = 770;
                break; // not a multiple of 12 heads
            case 7:
                s.imageSize = 1;
                break;
        }
        const Result<std::string> script = starterScript(s, m_template);
        QVERIFY(!script.ok());
        QCOMPARE(script.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(script.error().reason.key, std::string("error.run.starter_bad_setting"));
        QCOMPARE(QString::fromStdString(script.error().reason.params.at("setting")), setting);
        QCOMPARE(QString::fromStdString(script.error().where), setting);
    }

    // A template of another version: a placeholder this one does not fill, or one it lacks.
    void refusesAForeignTemplate()
    {
        const StarterSettings s = starterSettingsOf(m_plans.at("resnet50-imagenet"));
        Result<std::string> script = starterScript(s, m_template + "\nextra = {{learning_rate}}\n");
        QVERIFY(!script.ok());
        QCOMPARE(script.error().reason.key, std::string("error.run.starter_unknown_placeholder"));
        QCOMPARE(script.error().reason.params.at("placeholder"), std::string("learning_rate"));
        std::string lacking = m_template;
        const std::size_t at = lacking.find("{{total_steps}}");
        QVERIFY(at != std::string::npos);
        lacking.replace(at, 15, "1000");
        script = starterScript(s, lacking);
        QVERIFY(!script.ok());
        QCOMPARE(script.error().reason.key, std::string("error.run.starter_missing_placeholder"));
        QCOMPARE(script.error().reason.params.at("placeholder"), std::string("total_steps"));
        script = starterScript(s, m_template + "\n# {{ unclosed");
        QVERIFY(!script.ok());
        QCOMPARE(script.error().reason.key, std::string("error.run.starter_unknown_placeholder"));
    }

    void runSpecRunsTheScript()
    {
        QTemporaryDir workdir;
        QVERIFY(workdir.isValid());
        const std::string folder = workdir.path().toStdString();
        StarterSettings s = starterSettingsOf(m_plans.at("resnet50-imagenet"));
        s.gpus = 1;
        s.interruptSignal = "USR2";
        RunSpec spec = starterRunSpec(s, folder);
        QCOMPARE(spec.command, std::string("python3 train.py"));
        QCOMPARE(spec.workdir, folder);
        QCOMPARE(spec.results, std::vector<std::string>{"checkpoints"});
        QCOMPARE(spec.spot.checkpointDir, std::string("checkpoints"));
        QCOMPARE(spec.spot.signal, std::string("USR2"));
        QCOMPARE(spec.throughput.preset, std::string("custom"));
        QCOMPARE(spec.throughput.unit, std::string("samples"));
        s.gpus = 4;
        spec = starterRunSpec(s, folder);
        QCOMPARE(spec.command, std::string("torchrun --standalone --nproc_per_node=4 train.py"));
        const Status checked = checkRunSpec(spec);
        QVERIFY2(checked.ok(), checked.ok() ? "" : describe(checked.error()).c_str());
    }

    // The monitor reads the documented line with the pattern, in the family's unit, and nothing else.
    void throughputPatternReadsTheSpeedLine()
    {
        const StarterSettings cnn = starterSettingsOf(m_plans.at("resnet50-imagenet"));
        Result<ThroughputReader> reader = ThroughputReader::make(starterThroughput(cnn));
        QVERIFY2(reader.ok(), reader.ok() ? "" : describe(reader.error()).c_str());
        std::optional<LogThroughput> read = reader->read("gpuplan-train step 120/1000 loss 2.3130 samples/s 512.3");
        QVERIFY(read);
        QCOMPARE(read->perSecond, 512.3);
        QCOMPARE(read->unit, std::string("samples"));
        QVERIFY(!reader->read("gpuplan-train resumed from step 120 (step-00000120.pt)"));
        QVERIFY(!reader->read("gpuplan-train step 120/1000 loss 2.3130 tokens/s 512.3"));

        const StarterSettings lm = starterSettingsOf(m_plans.at("gpt2-124m"));
        reader = ThroughputReader::make(starterThroughput(lm));
        QVERIFY(reader.ok());
        read = reader->read("gpuplan-train step 7/40 loss nan tokens/s 81234.0");
        QVERIFY(read);
        QCOMPARE(read->perSecond, 81234.0);
        QCOMPARE(read->unit, std::string("tokens"));
    }

    // The whole interruption: a real run on the CPU, interrupted after step 13 by the signal (resnet50) or by the
    // preempt file (gpt2), then started again. The two runs together make exactly steps 1..40, and the resumed run
    // ends with the very loss of an uninterrupted run (the same data, weights, optimizer and RNG at every step).
    void interruptedRunResumesWithoutLosingAStep_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<bool>("byFile");
        QTest::newRow("resnet50-imagenet, SIGUSR1") << "resnet50-imagenet" << false;
        QTest::newRow("gpt2-124m, preempt file") << "gpt2-124m" << true;
    }
    void interruptedRunResumesWithoutLosingAStep()
    {
        QFETCH(QString, preset);
        QFETCH(bool, byFile);
        const StarterSettings settings = starterSettingsOf(m_plans.at(preset.toStdString()));
        const Result<std::string> script = starterScript(settings, m_template);
        QVERIFY2(script.ok(), script.ok() ? "" : describe(script.error()).c_str());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeScript(dir.filePath("train.py"), *script);
        const QStringList tiny{dir.filePath("train.py"),
                               "--scale",
                               "tiny",
                               "--device",
                               "cpu",
                               "--max-steps",
                               "40",
                               "--checkpoint-every",
                               "10",
                               "--log-every",
                               "1"};
        const QString checkpoints = dir.filePath("checkpoints");
        const QString ready = dir.filePath("checkpoint-ready");
        const QString preempt = dir.filePath("preempt");
        const std::map<QString, QString> environment{{"GPUPLAN_CHECKPOINT_DIR", checkpoints},
                                                     {"GPUPLAN_CHECKPOINT_READY", ready},
                                                     {"GPUPLAN_PREEMPT_FILE", preempt}};

        const Ran reference = runPython(tiny, dir.path(), {{"GPUPLAN_CHECKPOINT_DIR", dir.filePath("reference")}});
        QVERIFY2(reference.exitCode == 0 && reference.losses.count(40), qPrintable(reference.tell()));

        // The first run, interrupted once its log shows step 13 or later.
        const Ran first = runPython(
            tiny + QStringList{"--step-delay", "0.1"}, dir.path(), environment, [&](QProcess& process, int step) {
                if (step < 13) {
                    return false;
                }
                if (byFile) {
                    QFile file(preempt);
                    return file.open(QIODevice::WriteOnly) && file.write("1765000000\n") > 0;
                }
                return ::kill(pid_t(process.processId()), SIGUSR1) == 0;
            });
        QVERIFY2(!first.crashed && first.exitCode == kStarterInterruptedExit, qPrintable(first.tell()));
        QVERIFY2(first.out.contains(byFile ? "interrupted (preempt file" : "interrupted (SIGUSR1)"),
                 qPrintable(first.tell()));
        const std::vector<int> saved = checkpointSteps(checkpoints);
        QVERIFY2(!saved.empty(), qPrintable(first.tell()));
        const int stopped = saved.back();
        QVERIFY2(stopped >= 13 && stopped < 40, qPrintable(first.tell()));
        QCOMPARE(readText(ready).trimmed().toInt(), stopped);
        QCOMPARE(first.ranSteps, stopped);
        QCOMPARE(int(first.losses.size()), stopped); // steps 1..stopped, each once
        QCOMPARE(first.losses.begin()->first, 1);
        QCOMPARE(first.losses.rbegin()->first, stopped);
        QVERIFY(saved.size() <= 2); // the newest two are kept

        // The checkpoint loads in plain PyTorch and says its step.
        const QString newest = QStringLiteral("%1/step-%2.pt").arg(checkpoints).arg(stopped, 8, 10, QLatin1Char('0'));
        const Ran load =
            runPython({"-c", "import sys, torch; print(torch.load(sys.argv[1], map_location='cpu')['step'])", newest},
                      dir.path(),
                      {});
        QVERIFY2(load.exitCode == 0, qPrintable(load.tell()));
        QCOMPARE(load.out.trimmed().toInt(), stopped);

        // The monitor reads every speed line of the run in the family's unit.
        const Result<ThroughputReader> reader = ThroughputReader::make(starterThroughput(settings));
        QVERIFY(reader.ok());
        for (const QString& line : first.speedLines) {
            const std::optional<LogThroughput> read = reader->read(line.toStdString());
            QVERIFY2(read && read->perSecond > 0, qPrintable(line));
            QCOMPARE(read->unit, std::string(settings.family == "transformer" ? "tokens" : "samples"));
        }

        // Started again (the preempt file, still there, is an old notice now): it resumes at the next step.
        const Ran second = runPython(tiny, dir.path(), environment);
        QVERIFY2(!second.crashed && second.exitCode == 0, qPrintable(second.tell()));
        QVERIFY2(second.out.contains(QStringLiteral("resumed from step %1 ").arg(stopped)), qPrintable(second.tell()));
        QCOMPARE(second.firstStep, stopped + 1);
        QCOMPARE(second.losses.rbegin()->first, 40);
        QCOMPARE(int(second.losses.size()), 40 - stopped);
        QCOMPARE(first.ranSteps + second.ranSteps, 40);
        QCOMPARE(second.losses.at(40), reference.losses.at(40));
        QCOMPARE(checkpointSteps(checkpoints), (std::vector<int>{stopped > 30 ? stopped : 30, 40}));
    }

    // A truncated newest checkpoint (the machine died while a copy was made) is said, and the one before is used.
    void corruptNewestCheckpointFallsBack()
    {
        const Result<std::string> script =
            starterScript(starterSettingsOf(m_plans.at("resnet50-imagenet")), m_template);
        QVERIFY(script.ok());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeScript(dir.filePath("train.py"), *script);
        const QString checkpoints = dir.filePath("checkpoints");
        const QStringList tiny{dir.filePath("train.py"),
                               "--scale",
                               "tiny",
                               "--device",
                               "cpu",
                               "--checkpoint-every",
                               "10",
                               "--log-every",
                               "1"};
        const Ran first =
            runPython(tiny + QStringList{"--max-steps", "20"}, dir.path(), {{"GPUPLAN_CHECKPOINT_DIR", checkpoints}});
        QVERIFY2(first.exitCode == 0, qPrintable(first.tell()));
        QCOMPARE(checkpointSteps(checkpoints), (std::vector<int>{10, 20}));
        QFile newest(checkpoints + "/step-00000020.pt");
        QVERIFY(newest.open(QIODevice::ReadWrite));
        QVERIFY(newest.resize(newest.size() / 2));
        newest.close();

        const Ran second =
            runPython(tiny + QStringList{"--max-steps", "22"}, dir.path(), {{"GPUPLAN_CHECKPOINT_DIR", checkpoints}});
        QVERIFY2(second.exitCode == 0, qPrintable(second.tell()));
        QVERIFY2(second.out.contains("checkpoint step-00000020.pt does not load"), qPrintable(second.tell()));
        QVERIFY2(second.out.contains("resumed from step 10 "), qPrintable(second.tell()));
        QCOMPARE(second.firstStep, 11);
        QCOMPARE(second.ranSteps, 12);
        // Set aside, so that it does not count among the newest two (which would delete the new ones).
        QVERIFY(QFile::exists(checkpoints + "/step-00000020.pt.unreadable"));
        QCOMPARE(checkpointSteps(checkpoints), (std::vector<int>{20, 22}));
    }

private:
    /// The first of $GPUPLAN_TEST_PYTHON, python3 on PATH and /usr/bin/python3 that imports torch (a python3 of
    /// pyenv's or a virtual environment's may come first on PATH and lack the distribution's PyTorch).
    static QString pythonWithTorch()
    {
        QStringList candidates;
        if (const QString chosen = qEnvironmentVariable("GPUPLAN_TEST_PYTHON"); !chosen.isEmpty()) {
            candidates << chosen;
        }
        candidates << "python3"
                   << "/usr/bin/python3";
        for (const QString& python : candidates) {
            QProcess process;
            process.start(python, {"-c", "import torch"});
            if (process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit
                && process.exitCode() == 0) {
                return python;
            }
        }
        return {};
    }

    static void writeScript(const QString& path, const std::string& text)
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(text.data(), qint64(text.size())), qint64(text.size()));
    }

    /// Runs python with `arguments` in `folder`, the GPUPLAN_ variables of the test's environment replaced by
    /// `environment`; `onStep` sees each speed line's step as it is printed and returns true once it acted.
    Ran runPython(const QStringList& arguments,
                  const QString& folder,
                  const std::map<QString, QString>& environment,
                  const std::function<bool(QProcess&, int)>& onStep = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString& name : env.keys()) {
            if (name.startsWith("GPUPLAN_")) {
                env.remove(name);
            }
        }
        for (const auto& [name, value] : environment) {
            env.insert(name, value);
        }
        env.insert("PYTHONUNBUFFERED", "1");
        QProcess process;
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(folder);
        process.start(m_python, arguments);
        Ran ran;
        if (!process.waitForStarted(30000)) {
            ran.err = process.errorString();
            return ran;
        }
        bool acted = !onStep;
        QString pending;
        const QDeadlineTimer deadline(60000);
        while (process.state() != QProcess::NotRunning && !deadline.hasExpired()) {
            process.waitForReadyRead(50);
            const QString chunk = QString::fromUtf8(process.readAllStandardOutput());
            ran.out += chunk;
            pending += chunk;
            if (acted) {
                continue;
            }
            const qsizetype end = pending.lastIndexOf(QLatin1Char('\n'));
            if (end < 0) {
                continue;
            }
            for (const QString& line : pending.left(end).split(QLatin1Char('\n'))) {
                if (const QRegularExpressionMatch m = kSpeedLine.match(line); m.hasMatch() && !acted) {
                    acted = onStep(process, m.captured(1).toInt());
                }
            }
            pending = pending.mid(end + 1);
        }
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
            ran.err = QStringLiteral("(killed: still running after 60 s)\n");
        }
        ran.out += QString::fromUtf8(process.readAllStandardOutput());
        ran.err += QString::fromUtf8(process.readAllStandardError());
        ran.crashed = process.exitStatus() != QProcess::NormalExit;
        ran.exitCode = process.exitCode();
        readLines(ran, ran.out);
        return ran;
    }

    QString m_python;
    std::string m_template;
    std::map<std::string, PlanDocument> m_plans;
};

QTEST_GUILESS_MAIN(TestStarterScript)
#include "TestStarterScript.moc"
