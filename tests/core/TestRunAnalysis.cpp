// What a training run measured and what it means: the instance sampler's lines (nvidia-smi's output, "[N/A]"
// fields, broken lines), NVML's clocks event reasons, the advice when the GPUs stay underused, the training log's
// speed read with each trainer's preset (lines shaped as each trainer's code prints them) or the user's regex, and
// which files of a working directory go to the instance, checked against git itself (`git ls-files --others
// --exclude-standard`) for a varied set of .gitignore patterns. Every run.* and error.run.* key is worded.

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "gpuplan/run/LogThroughput.h"
#include "gpuplan/run/Monitor.h"
#include "gpuplan/run/WorkdirFiles.h"
#include "wording/ErrorText.h"
#include "wording/RunText.h"

using namespace gpuplan::core;
namespace fs = std::filesystem;

namespace {

/// Samples of one GPU and the CPU, one a second from `from` for `seconds` seconds (both ends included).
std::vector<MonitorSample> steady(
    std::int64_t from, int seconds, double util, double cpu, double memShare, std::optional<double> pcie = std::nullopt)
{
    std::vector<MonitorSample> samples;
    for (int s = 0; s <= seconds; ++s) {
        MonitorSample sample;
        sample.at = from + s;
        sample.cpuBusy = cpu;
        sample.cpuCores = 16;
        for (int gpu = 0; gpu < 2; ++gpu) {
            GpuReading r;
            r.index = gpu;
            r.utilization = util;
            r.memoryTotalMiB = 81920;
            r.memoryUsedMiB = 81920 * memShare;
            if (pcie) {
                r.pcieRxMBs = *pcie * 0.75;
                r.pcieTxMBs = *pcie * 0.25;
            }
            sample.gpus.push_back(r);
        }
        samples.push_back(sample);
    }
    return samples;
}

std::vector<std::string> causeKeys(const RunAdvice& advice)
{
    std::vector<std::string> keys;
    for (const Reason& r : advice.causes) {
        keys.push_back(r.key);
    }
    return keys;
}

void writeFile(const fs::path& file, const std::string& content)
{
    fs::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << content;
}

/// The tree every gitignore case runs on: names that the patterns below pick apart.
const std::vector<std::string>& treeFiles()
{
    static const std::vector<std::string> files{
        "a.txt",
        "b.log",
        "1.txt",
        "abc.cfg",
        "abd.cfg",
        "x.ckpt",
        ".env",
        "#hash.txt",
        "!bang.txt",
        "trail ",
        "name with space.txt",
        "[br].txt",
        "build/out.o",
        "build/keep.txt",
        "src/main.py",
        "src/util.pyc",
        "src/deep/x.log",
        "src/deep/y.txt",
        "src/build",
        "docs/readme.md",
        "docs/build/page.html",
        "logs/today.log",
        "logs/keep/important.log",
        "data/set1/img1.png",
        "data/set1/ann.json",
        "data/set2/img2.png",
        "foo/bar/baz.txt",
        "a/b/c/d.txt",
        "a/x/b/d.txt",
        "a/d.txt",
        "models/m.ckpt",
        "models/best/m.ckpt",
        ".hidden/h.txt",
        "deep/top.txt",
    };
    return files;
}

/// Runs git in `dir` with no user or system configuration (no global excludes file); its stdout, or nullopt when it
/// failed.
std::optional<QByteArray> git(const QString& dir, const QStringList& args)
{
    QProcess process;
    process.setWorkingDirectory(dir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), dir + QStringLiteral("/.nohome"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir + QStringLiteral("/.nohome"));
    env.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral("git"), args);
    if (!process.waitForFinished(30000) || process.exitCode() != 0) {
        qWarning() << "git" << args << "failed:" << process.readAllStandardError();
        return std::nullopt;
    }
    return process.readAllStandardOutput();
}

std::set<std::string> gitUntracked(const QString& dir)
{
    std::set<std::string> paths;
    const std::optional<QByteArray> out = git(dir, {"ls-files", "--others", "--exclude-standard", "-z"});
    if (!out) {
        return paths;
    }
    for (const QByteArray& path : out->split('\0')) {
        if (!path.isEmpty()) {
            paths.insert(path.toStdString());
        }
    }
    return paths;
}

} // namespace

class TestRunAnalysis : public QObject
{
    Q_OBJECT

private slots:
    void parsesSamplerLines();
    void throttleKeys_data();
    void throttleKeys();
    void advice_data();
    void advice();
    void adviceNeedsAWholeLowStretch();
    void adviceNeedsGpuReadings();
    void presets_data();
    void presets();
    void customPattern();
    void refusesBadPatterns();
    void longLinesStayCheap();
    void workdirMatchesGit_data();
    void workdirMatchesGit();
    void workdirListing();
    void everyKeyWorded();
};

void TestRunAnalysis::parsesSamplerLines()
{
    // gpuplan-run.sh's format; nvidia-smi's fields as it prints them on an A100 and on a GPU without power readings.
    const std::string text = "# samples: gpu,UNIX,INDEX,UTIL,...\n"
                             "gpu,1700000000,0,97,40123,81920,312.45,64,1410,0x0000000000000000\n"
                             "gpu,1700000000, 1, 35, 1024, 81920, [N/A], 58, 1410, 0x0000000000000004\n"
                             "cpu,1700000000,43.5,32\n"
                             "pcie,1700000000,1,1200,300\n"
                             "\n"
                             "gpu,1700000001,0,[Not Supported],,81920,[N/A],[N/A],[N/A],[N/A]\n"
                             "gpu,1700000001,0,bogus,1,2,3,4,5,0x0\n"
                             "gpu,1700000002,0,90,1,2,3\n"
                             "cpu,1700000002,12,[N/A]\n"
                             "gpu,1700000003,0,88 %,2048 MiB,81920 MiB,250.00 W,60,1410 MHz,0x20\n";
    std::vector<Reason> problems;
    const std::vector<MonitorSample> samples = parseMonitorLines(text, &problems, 10);

    QCOMPARE(samples.size(), std::size_t{4});
    const MonitorSample& first = samples[0];
    QCOMPARE(first.at, std::int64_t{1700000000});
    QCOMPARE(first.gpus.size(), std::size_t{2});
    QCOMPARE(first.gpus[0].index, 0);
    QCOMPARE(*first.gpus[0].utilization, 97.0);
    QCOMPARE(*first.gpus[0].powerW, 312.45);
    QCOMPARE(*first.gpus[0].throttle, std::uint64_t{0});
    QVERIFY(!first.gpus[0].pcieRxMBs);
    QCOMPARE(*first.gpus[1].utilization, 35.0);
    QVERIFY(!first.gpus[1].powerW); // [N/A]
    QCOMPARE(*first.gpus[1].throttle, std::uint64_t{4});
    QCOMPARE(*first.gpus[1].pcieRxMBs, 1200.0);
    QCOMPARE(*first.gpus[1].pcieTxMBs, 300.0);
    QCOMPARE(*first.cpuBusy, 43.5);
    QCOMPARE(*first.cpuCores, 32);

    const MonitorSample& second = samples[1];
    QCOMPARE(second.gpus.size(), std::size_t{1});
    QVERIFY(!second.gpus[0].utilization);
    QVERIFY(!second.gpus[0].memoryUsedMiB); // empty field
    QCOMPARE(*second.gpus[0].memoryTotalMiB, 81920.0);
    QVERIFY(!second.gpus[0].throttle);

    // Second 1700000002: only its cpu line read (the gpu line is short); cores unreported.
    QCOMPARE(samples[2].at, std::int64_t{1700000002});
    QVERIFY(samples[2].gpus.empty());
    QCOMPARE(*samples[2].cpuBusy, 12.0);
    QVERIFY(!samples[2].cpuCores);

    // Units as nvidia-smi prints them without ",nounits".
    QCOMPARE(*samples[3].gpus[0].utilization, 88.0);
    QCOMPARE(*samples[3].gpus[0].memoryUsedMiB, 2048.0);
    QCOMPARE(*samples[3].gpus[0].throttle, std::uint64_t{0x20});

    // The broken lines, named by their number counted from firstLine (10 is the comment line).
    QCOMPARE(problems.size(), std::size_t{2});
    QCOMPARE(problems[0].key, std::string("run.monitor.bad_line"));
    QCOMPARE(problems[0].params.at("line"), std::string("17"));
    QCOMPARE(problems[0].params.at("text"), std::string("gpu,1700000001,0,bogus,1,2,3,4,5,0x0"));
    QCOMPARE(problems[1].params.at("line"), std::string("18"));

    // Lines that are not the sampler's at all never throw and never make samples.
    std::vector<Reason> more;
    QVERIFY(parseMonitorLines("NVIDIA-SMI has failed\n,,,\ngpu\ncpu,x,1,2\npcie,1,0,1\n", &more).empty());
    QCOMPARE(more.size(), std::size_t{5});
}

void TestRunAnalysis::throttleKeys_data()
{
    QTest::addColumn<quint64>("mask");
    QTest::addColumn<QStringList>("keys");
    QTest::newRow("none") << quint64{0} << QStringList{};
    QTest::newRow("idle") << quint64{0x1} << QStringList{"run.throttle.idle"};
    QTest::newRow("power cap") << quint64{0x4} << QStringList{"run.throttle.power_cap"};
    QTest::newRow("sw thermal") << quint64{0x20} << QStringList{"run.throttle.thermal"};
    QTest::newRow("hw thermal") << quint64{0x40} << QStringList{"run.throttle.thermal"};
    QTest::newRow("both thermal once") << quint64{0x60} << QStringList{"run.throttle.thermal"};
    QTest::newRow("hw slowdown + power brake")
        << quint64{0x88} << QStringList{"run.throttle.hw_slowdown", "run.throttle.power_brake"};
    QTest::newRow("app clocks, sync boost, display")
        << quint64{0x112}
        << QStringList{"run.throttle.app_clocks", "run.throttle.sync_boost", "run.throttle.display_clocks"};
    QTest::newRow("unknown bit (board limit)") << quint64{0x200} << QStringList{"run.throttle.other"};
}

void TestRunAnalysis::throttleKeys()
{
    QFETCH(quint64, mask);
    QFETCH(QStringList, keys);
    QStringList got;
    for (const std::string& key : throttleReasonKeys(mask)) {
        got << QString::fromStdString(key);
    }
    QCOMPARE(got, keys);
}

void TestRunAnalysis::advice_data()
{
    QTest::addColumn<double>("util");
    QTest::addColumn<double>("cpu");
    QTest::addColumn<double>("memShare");
    QTest::addColumn<double>("pcie"); // < 0: not sampled
    QTest::addColumn<bool>("fp32");
    QTest::addColumn<bool>("low");
    QTest::addColumn<QStringList>("causes");
    QTest::addColumn<QString>("firstParams"); // the first cause's params, "name=value;..."

    QTest::newRow("data loader") << 40.0 << 95.0 << 0.8 << -1.0 << false << true
                                 << QStringList{"run.advice.data_loader"} << "cpu_busy=95;gpu_util=40";
    QTest::newRow("small batch") << 40.0 << 30.0 << 0.2 << -1.0 << false << true
                                 << QStringList{"run.advice.small_batch"} << "gpu_util=40;memory_share=20";
    QTest::newRow("data loader before small batch")
        << 40.0 << 95.0 << 0.2 << -1.0 << false << true
        << QStringList{"run.advice.data_loader", "run.advice.small_batch"} << "cpu_busy=95;gpu_util=40";
    QTest::newRow("host copies") << 40.0 << 30.0 << 0.8 << 6000.0 << false << true
                                 << QStringList{"run.advice.host_copies"} << "pcie_mbs=6000";
    QTest::newRow("pcie sampled but quiet")
        << 40.0 << 30.0 << 0.8 << 500.0 << false << true << QStringList{"run.advice.unexplained"} << "gpu_util=40";
    QTest::newRow("no amp") << 40.0 << 30.0 << 0.8 << -1.0 << true << true << QStringList{"run.advice.no_amp"}
                            << "precision=fp32";
    QTest::newRow("unexplained") << 40.0 << 30.0 << 0.8 << -1.0 << false << true
                                 << QStringList{"run.advice.unexplained"} << "gpu_util=40";
    QTest::newRow("busy enough") << 80.0 << 95.0 << 0.2 << -1.0 << true << false << QStringList{} << "";
}

void TestRunAnalysis::advice()
{
    QFETCH(double, util);
    QFETCH(double, cpu);
    QFETCH(double, memShare);
    QFETCH(double, pcie);
    QFETCH(bool, fp32);
    QFETCH(bool, low);
    QFETCH(QStringList, causes);
    QFETCH(QString, firstParams);

    AdviceSettings settings;
    settings.precision = fp32 ? Precision::Fp32 : Precision::Amp;
    const auto samples = steady(1000, 200, util, cpu, memShare, pcie < 0 ? std::nullopt : std::optional(pcie));
    const RunAdvice advice = adviseOnUtilization(samples, settings);
    QCOMPARE(advice.low, low);
    QCOMPARE(advice.meanUtilization, util);
    QStringList got;
    for (const std::string& key : causeKeys(advice)) {
        got << QString::fromStdString(key);
    }
    QCOMPARE(got, causes);
    if (!advice.causes.empty()) {
        QStringList params;
        for (const auto& [name, value] : advice.causes.front().params) {
            params << QString::fromStdString(name + "=" + value);
        }
        QCOMPARE(params.join(';'), firstParams);
        // The stretch is the last lowForSeconds: 1200 - 180.
        QCOMPARE(advice.since, std::int64_t{1020});
    }
}

void TestRunAnalysis::adviceNeedsAWholeLowStretch()
{
    // 40 % but only 60 s of samples: too early to say.
    QVERIFY(!adviseOnUtilization(steady(1000, 60, 40, 95, 0.2)).low);
    QVERIFY(adviseOnUtilization(steady(1000, 60, 40, 95, 0.2)).causes.empty());

    // Busy for long, then low for the last 180 s: low, judged on the low stretch only.
    auto samples = steady(1000, 300, 95, 20, 0.9);
    for (const MonitorSample& s : steady(1301, 180, 30, 96, 0.9)) {
        samples.push_back(s);
    }
    RunAdvice advice = adviseOnUtilization(samples);
    QVERIFY(advice.low);
    QCOMPARE(advice.meanUtilization, 30.0);
    QCOMPARE(causeKeys(advice), std::vector<std::string>{"run.advice.data_loader"});

    // Low first, busy now: not low.
    samples = steady(1000, 300, 30, 96, 0.2);
    for (const MonitorSample& s : steady(1301, 180, 92, 20, 0.9)) {
        samples.push_back(s);
    }
    advice = adviseOnUtilization(samples);
    QVERIFY(!advice.low);
    QVERIFY(advice.causes.empty());

    // A mixed stretch is judged on its mean: 60 s at 95 % and 121 s at 20 % -> 44.9 % < 70 %.
    samples = steady(1000, 59, 95, 20, 0.9);
    for (const MonitorSample& s : steady(1060, 120, 20, 20, 0.9)) {
        samples.push_back(s);
    }
    advice = adviseOnUtilization(samples);
    QVERIFY(advice.low);
    QVERIFY(std::abs(advice.meanUtilization - (60 * 95.0 + 121 * 20.0) / 181) < 1e-9);
    QCOMPARE(advice.causes.front().params.at("gpu_util"), std::string("44.9"));
}

void TestRunAnalysis::adviceNeedsGpuReadings()
{
    // No nvidia-smi on the machine: cpu lines only. No advice, however long.
    std::string text;
    for (int s = 0; s < 400; ++s) {
        text += "cpu," + std::to_string(1000 + s) + ",99,8\n";
    }
    std::vector<Reason> problems;
    const auto samples = parseMonitorLines(text, &problems);
    QCOMPARE(samples.size(), std::size_t{400});
    QVERIFY(problems.empty());
    const RunAdvice advice = adviseOnUtilization(samples);
    QVERIFY(!advice.low);
    QVERIFY(advice.causes.empty());
    QVERIFY(!adviseOnUtilization({}).low);
}

void TestRunAnalysis::presets_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("line");
    QTest::addColumn<double>("perStep");
    QTest::addColumn<double>("expected"); // < 0: no reading
    QTest::addColumn<QString>("unit");

    // Lightning's TQDMProgressBar (the training bar is described "Epoch N").
    QTest::newRow("lightning it/s") << "lightning"
                                    << "Epoch 0:  45%|████▌     | 450/1000 [00:30<00:36, 15.02it/s, v_num=0]" << 0.0
                                    << 15.02 << "steps";
    QTest::newRow("lightning s/it") << "lightning"
                                    << "Epoch 3:   2%|▏         | 20/1000 [00:25<20:25,  1.25s/it, loss=2.31, v_num=1]"
                                    << 0.0 << 0.8 << "steps";
    QTest::newRow("lightning perStep") << "lightning"
                                       << "Epoch 0:  45%|████▌     | 450/1000 [00:30<00:36, 15.02it/s, v_num=0]" << 32.0
                                       << 15.02 * 32 << "samples";
    QTest::newRow("lightning rich bar") << "lightning"
                                        << "Epoch 0/9  ━━━━━━━━━━━━━━━━╸━━━━━━━ 450/1000 0:00:30 • 0:00:36 15.02it/s "
                                           "v_num: 0.000"
                                        << 0.0 << 15.02 << "steps";
    QTest::newRow("lightning validation bar is not training")
        << "lightning"
        << "Validation DataLoader 0: 100%|██████████| 50/50 [00:02<00:00, 20.10it/s]" << 0.0 << -1.0 << "";
    QTest::newRow("lightning sanity check") << "lightning"
                                            << "Sanity Checking DataLoader 0: 100%|██████████| 2/2 [00:00<00:00, "
                                               "8.01it/s]"
                                            << 0.0 << -1.0 << "";
    QTest::newRow("lightning rate not known yet")
        << "lightning"
        << "Epoch 0:   0%|          | 0/1000 [00:00<?, ?it/s]" << 0.0 << -1.0 << "";
    QTest::newRow("lightning plain log") << "lightning"
                                         << "Epoch 0, global step 450: 'val_loss' reached 0.31" << 0.0 << -1.0 << "";

    // Hugging Face Trainer: notebook label, console tqdm, the final log dict.
    QTest::newRow("hf notebook") << "hf_trainer"
                                 << "[ 50/500 00:10 < 01:30, 4.97 it/s, Epoch 0.10/1]" << 0.0 << 4.97 << "steps";
    QTest::newRow("hf console") << "hf_trainer"
                                << " 10%|█         | 50/500 [00:10<01:30,  4.97it/s]" << 8.0 << 4.97 * 8 << "samples";
    QTest::newRow("hf log dict") << "hf_trainer"
                                 << "{'train_runtime': 100.9, 'train_samples_per_second': 123.4, "
                                    "'train_steps_per_second': 3.86, 'train_loss': 0.52, 'epoch': 1.0}"
                                 << 8.0 << 123.4 << "samples";
    QTest::newRow("hf loss log is no speed") << "hf_trainer"
                                             << "{'loss': 0.6931, 'grad_norm': 1.2, 'learning_rate': 5e-05, "
                                                "'epoch': 0.1}"
                                             << 0.0 << -1.0 << "";
    QTest::newRow("hf notebook +inf") << "hf_trainer"
                                      << "[ 1/500 00:00 < 00:00, +inf it/s, Epoch 0.00/1]" << 0.0 << -1.0 << "";

    // timm's train.py: the first "/s" is this update's samples per second.
    QTest::newRow("timm") << "timm"
                          << "Train: 0 [  50/1251 (  4%)]  Loss: 6.912 (6.93)  Time: 0.345s,  742.03/s  (0.350s,  "
                             "731.42/s)  LR: 1.000e-05  Data: 0.012 (0.015)"
                          << 0.0 << 742.03 << "samples";
    QTest::newRow("timm with logger prefix")
        << "timm"
        << "INFO:train:Train: 12 [1250/1251 (100%)]  Loss: 3.101 (3.25)  Time: 0.301s, 3401.99/s  (0.305s, "
           "3357.38/s)  LR: 9.871e-04  Data: 0.001 (0.002)"
        << 256.0 << 3401.99 << "samples";
    QTest::newRow("timm eval line") << "timm"
                                    << "Test: [   0/48]  Time: 1.203 (1.203)  Loss:  0.7383 (0.7383)  Acc@1: "
                                       "83.5938 (83.5938)"
                                    << 0.0 << -1.0 << "";

    // Ultralytics: its training bar's description is epoch, GPU memory, losses, instances, size.
    QTest::newRow("ultralytics tqdm")
        << "ultralytics"
        << "      1/100      3.52G      1.234      2.345      1.456         12        640: 100%|██████████| 8/8 "
           "[00:01<00:00,  5.23it/s]"
        << 0.0 << 5.23 << "steps";
    QTest::newRow("ultralytics own bar") << "ultralytics"
                                         << "      1/100      2.89G      2.237      4.319    0.00586        423        "
                                            "640: 1% ──────────── 58/4375 2.3it/s 24.1s<31:37"
                                         << 16.0 << 2.3 * 16 << "samples";
    QTest::newRow("ultralytics validation bar")
        << "ultralytics"
        << "                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95): 100%|██████████| "
           "4/4 [00:00<00:00,  6.12it/s]"
        << 0.0 << -1.0 << "";

    // A preset reads its own trainer only.
    QTest::newRow("timm preset on a lightning line")
        << "timm"
        << "Epoch 0:  45%|████▌     | 450/1000 [00:30<00:36, 15.02it/s, v_num=0]" << 0.0 << -1.0 << "";
    QTest::newRow("ultralytics preset on a lightning line")
        << "ultralytics"
        << "Epoch 0:  45%|████▌     | 450/1000 [00:30<00:36, 15.02it/s, v_num=0]" << 0.0 << -1.0 << "";
    QTest::newRow("empty line") << "hf_trainer"
                                << "" << 0.0 << -1.0 << "";
}

void TestRunAnalysis::presets()
{
    QFETCH(QString, preset);
    QFETCH(QString, line);
    QFETCH(double, perStep);
    QFETCH(double, expected);
    QFETCH(QString, unit);

    ThroughputPattern pattern;
    pattern.preset = preset.toStdString();
    pattern.perStep = perStep;
    const Result<ThroughputReader> reader = ThroughputReader::make(pattern);
    QVERIFY(reader.ok());
    const std::string text = line.toStdString();
    const std::optional<LogThroughput> got = reader->read(text);
    if (expected < 0) {
        QVERIFY2(!got, got ? std::to_string(got->perSecond).c_str() : "");
        return;
    }
    QVERIFY(got);
    QVERIFY2(std::abs(got->perSecond - expected) < 1e-9 * expected, std::to_string(got->perSecond).c_str());
    QCOMPARE(QString::fromStdString(got->unit), unit);
    // A carriage return left at the end (a progress bar's redraw) changes nothing.
    const std::optional<LogThroughput> withCr = reader->read(text + "\r");
    QVERIFY(withCr && withCr->perSecond == got->perSecond);
}

void TestRunAnalysis::customPattern()
{
    ThroughputPattern pattern;
    pattern.preset = "custom";
    pattern.regex = R"(throughput: ([0-9.,]+) tok/s)";
    pattern.unit = "tokens";
    Result<ThroughputReader> reader = ThroughputReader::make(pattern);
    QVERIFY(reader.ok());
    // The newest figure of the line: its last match.
    std::optional<LogThroughput> got =
        reader->read("step 10 throughput: 1,234.5 tok/s | step 11 throughput: 2,000.25 tok/s");
    QVERIFY(got);
    QCOMPARE(got->perSecond, 2000.25);
    QCOMPARE(got->unit, std::string("tokens"));
    QVERIFY(!reader->read("step 10 loss 2.3"));

    // Steps become samples with perStep.
    pattern.regex = R"(([0-9.]+) steps/s)";
    pattern.unit = "steps";
    pattern.perStep = 64;
    reader = ThroughputReader::make(pattern);
    QVERIFY(reader.ok());
    got = reader->read("iter 100: 2.5 steps/s");
    QVERIFY(got);
    QCOMPARE(got->perSecond, 160.0);
    QCOMPARE(got->unit, std::string("samples"));
    pattern.perStep = 0;
    reader = ThroughputReader::make(pattern);
    got = reader->read("iter 100: 2.5 steps/s");
    QVERIFY(got);
    QCOMPARE(got->perSecond, 2.5);
    QCOMPARE(got->unit, std::string("steps"));

    // No preset: the log is not read.
    reader = ThroughputReader::make(ThroughputPattern{});
    QVERIFY(reader.ok());
    QVERIFY(!reader->read("Epoch 0:  45%|████▌     | 450/1000 [00:30<00:36, 15.02it/s, v_num=0]"));
    QCOMPARE(throughputPresets(), (std::vector<std::string>{"lightning", "hf_trainer", "timm", "ultralytics"}));
}

void TestRunAnalysis::refusesBadPatterns()
{
    ThroughputPattern pattern;
    pattern.preset = "custom";
    pattern.regex = "([0-9.]+ samples/s";
    Result<ThroughputReader> reader = ThroughputReader::make(pattern);
    QVERIFY(!reader.ok());
    QCOMPARE(reader.error().code, ErrorCode::InvalidArgument);
    QCOMPARE(reader.error().reason.key, std::string("error.run.bad_regex"));
    QCOMPARE(reader.error().reason.params.at("regex"), pattern.regex);
    QVERIFY(!reader.error().reason.params.at("said").empty());

    pattern.regex = "[0-9.]+ samples/s";
    reader = ThroughputReader::make(pattern);
    QVERIFY(!reader.ok());
    QCOMPARE(reader.error().reason.key, std::string("error.run.regex_no_group"));

    pattern.regex = "([0-9.]+) samples/s";
    pattern.unit = "images";
    reader = ThroughputReader::make(pattern);
    QVERIFY(!reader.ok());
    QCOMPARE(reader.error().reason.key, std::string("error.run.unknown_unit"));

    pattern.preset = "keras";
    reader = ThroughputReader::make(pattern);
    QVERIFY(!reader.ok());
    QCOMPARE(reader.error().code, ErrorCode::InvalidArgument);
    QCOMPARE(reader.error().reason.key, std::string("error.run.unknown_preset"));
    QCOMPARE(reader.error().reason.params.at("preset"), std::string("keras"));
}

void TestRunAnalysis::longLinesStayCheap()
{
    // A 2 MB line (a progress bar that never printed a newline): every preset and a custom pattern read it without
    // exhausting the stack (libstdc++'s std::regex recurses per character), and still find the speed at its end.
    std::string line;
    while (line.size() < 2'000'000) {
        line += "Epoch 0:  45%|████▌     | 450/1000 [00:30<00:36, 1.00it/s, v_num=0] ";
    }
    line += "Epoch 0:  46%|████▌     | 460/1000 [00:31<00:35, 15.02it/s, v_num=0]";
    for (const std::string& preset : throughputPresets()) {
        ThroughputPattern pattern;
        pattern.preset = preset;
        const Result<ThroughputReader> reader = ThroughputReader::make(pattern);
        QVERIFY(reader.ok());
        const std::optional<LogThroughput> got = reader->read(line);
        if (preset == "lightning" || preset == "hf_trainer") {
            QVERIFY(got && got->perSecond == 15.02);
        } else {
            QVERIFY(!got);
        }
    }
    ThroughputPattern pattern;
    pattern.preset = "custom";
    pattern.regex = R"(.*, ([0-9.]+)it/s)";
    pattern.unit = "steps";
    const Result<ThroughputReader> reader = ThroughputReader::make(pattern);
    QVERIFY(reader.ok());
    const std::optional<LogThroughput> got = reader->read(line);
    QVERIFY(got && got->perSecond == 15.02);
}

void TestRunAnalysis::workdirMatchesGit_data()
{
    QTest::addColumn<QString>("rootIgnore");
    QTest::addColumn<QStringList>("nested"); // "folder:content" of deeper .gitignore files
    QTest::addColumn<QStringList>("extras");

    QTest::newRow("no patterns") << "" << QStringList{} << QStringList{};
    QTest::newRow("comments, blanks, suffix") << "# a comment\n\n*.log\n   \n" << QStringList{} << QStringList{};
    QTest::newRow("negation") << "*.log\n!important.log\n" << QStringList{} << QStringList{};
    QTest::newRow("later pattern wins") << "!important.log\n*.log\n" << QStringList{} << QStringList{};
    QTest::newRow("folder only: build/ (not the file src/build)") << "build/\n" << QStringList{} << QStringList{};
    QTest::newRow("name at any level: build") << "build\n" << QStringList{} << QStringList{};
    QTest::newRow("anchored /build") << "/build\n" << QStringList{} << QStringList{};
    QTest::newRow("middle slash anchors: docs/build") << "docs/build\n" << QStringList{} << QStringList{};
    QTest::newRow("leading **/") << "**/deep\n" << QStringList{} << QStringList{};
    QTest::newRow("trailing /**") << "src/**\n!src/main.py\n" << QStringList{} << QStringList{};
    QTest::newRow("middle /**/") << "a/**/d.txt\n" << QStringList{} << QStringList{};
    QTest::newRow("star stays in a folder") << "a/*/d.txt\ndata/*/img*.png\n" << QStringList{} << QStringList{};
    QTest::newRow("cannot re-include below an excluded folder") << "logs/\n!logs/keep/important.log\n"
                                                                << QStringList{} << QStringList{};
    QTest::newRow("re-include via folder pattern") << "logs/*\n!logs/keep/\n" << QStringList{} << QStringList{};
    QTest::newRow("allow list") << "*\n!*/\n!*.txt\n" << QStringList{} << QStringList{};
    QTest::newRow("classes and ?") << "[ab]b[!d].cfg\n?.txt\n[[:digit:]]*\n[a-c].txt\n"
                                   << QStringList{} << QStringList{};
    QTest::newRow("escapes: \\#, \\!, [, trailing space")
        << "\\#hash.txt\n\\!bang.txt\n\\[br\\].txt\ntrail\\ \nname with space.txt   \n"
        << QStringList{} << QStringList{};
    QTest::newRow("dot files and ** alone") << ".*\n!.gitignore\nmodels/**/*.ckpt\n" << QStringList{} << QStringList{};
    QTest::newRow("nested .gitignore overrides its parent")
        << "*.pyc\n*.log\n"
        << QStringList{"src:!util.pyc\n/deep/\n", "logs:!*.log\n"} << QStringList{};
    QTest::newRow("nested anchored and folder-only") << "" << QStringList{"docs:/build/\n", "a:b/\n"} << QStringList{};
    QTest::newRow("extra excludes after root's lines")
        << "data/set1/\n*.png\n"
        << QStringList{"src:!*.log\n"} << QStringList{"!data/set2/img2.png", "*.log", "*.ckpt"};
}

void TestRunAnalysis::workdirMatchesGit()
{
    QFETCH(QString, rootIgnore);
    QFETCH(QStringList, nested);
    QFETCH(QStringList, extras);

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const fs::path root = fs::path(tmp.path().toStdString()) / "work";
    for (const std::string& file : treeFiles()) {
        writeFile(root / file, "x");
    }
    QVERIFY(git(QString::fromStdString(root.string()), {"init", "-q"}));
    if (!rootIgnore.isEmpty()) {
        writeFile(root / ".gitignore", rootIgnore.toStdString());
    }
    for (const QString& entry : nested) {
        const int colon = entry.indexOf(':');
        writeFile(root / entry.left(colon).toStdString() / ".gitignore", entry.mid(colon + 1).toStdString());
    }
    std::vector<std::string> extraLines;
    for (const QString& extra : extras) {
        extraLines.push_back(extra.toStdString());
    }

    const Result<WorkdirListing> listing = listWorkdir(root, extraLines);
    QVERIFY(listing.ok());
    std::set<std::string> ours;
    for (const WorkdirFile& file : listing->files) {
        ours.insert(file.path);
    }

    // git reads extra patterns from nowhere but files: they go after root's own lines, as listWorkdir says.
    if (!extraLines.empty()) {
        std::ofstream out(root / ".gitignore", std::ios::app);
        out << "\n";
        for (const std::string& line : extraLines) {
            out << line << "\n";
        }
    }
    const std::set<std::string> theirs = gitUntracked(QString::fromStdString(root.string()));
    QVERIFY(!theirs.empty() || rootIgnore.startsWith('*'));
    if (ours != theirs) {
        for (const std::string& p : ours) {
            if (!theirs.count(p)) {
                qWarning() << "we send, git ignores:" << p.c_str();
            }
        }
        for (const std::string& p : theirs) {
            if (!ours.count(p)) {
                qWarning() << "git keeps, we skip:" << p.c_str();
            }
        }
    }
    QVERIFY(ours == theirs);
    // Every case leaves something out but the first: the patterns did something.
    if (!rootIgnore.isEmpty() || !nested.isEmpty()) {
        QVERIFY(ours.size() < treeFiles().size() + 1 + std::size_t(nested.size()));
    }
}

void TestRunAnalysis::workdirListing()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const fs::path root = fs::path(tmp.path().toStdString()) / "work";
    writeFile(root / "train.py", std::string(1000, 'a'));
    writeFile(root / "run.sh", std::string(20, 'b'));
    writeFile(root / "data/big.bin", std::string(5000, 'c'));
    writeFile(root / "out/ckpt.pt", std::string(7, 'd'));
    writeFile(root / ".git/config", "[core]");
    writeFile(root / "sub/.git", "gitdir: elsewhere"); // a worktree's .git file is not sent either
    writeFile(root / ".gitignore", "out/\n");
    writeFile(fs::path(tmp.path().toStdString()) / "outside/secret.txt", "s");
    fs::permissions(root / "run.sh", fs::perms::owner_exec, fs::perm_options::add);
    fs::create_symlink(fs::path(tmp.path().toStdString()) / "outside", root / "linked_dir");
    fs::create_symlink("train.py", root / "alias.py");
    fs::create_symlink("out", root / "out_link"); // a link to an ignored folder is a link, not a folder: listed

    const Result<WorkdirListing> listing = listWorkdir(root);
    QVERIFY(listing.ok());
    std::vector<std::string> paths;
    for (const WorkdirFile& f : listing->files) {
        paths.push_back(f.path);
    }
    QCOMPARE(paths, (std::vector<std::string>{".gitignore", "data/big.bin", "run.sh", "train.py"}));
    QCOMPARE(listing->bytes, std::uintmax_t{5 + 5000 + 20 + 1000});
    QCOMPARE(listing->files[0].size, std::uintmax_t{5});
    QVERIFY(listing->files[2].executable);
    QVERIFY(!listing->files[3].executable);
    QCOMPARE(listing->skippedLinks, (std::vector<std::string>{"alias.py", "linked_dir", "out_link"}));

    // Extra excludes leave out more, and exclude links as well.
    const Result<WorkdirListing> fewer = listWorkdir(root, {"*.bin", "/linked_dir"});
    QVERIFY(fewer.ok());
    QCOMPARE(fewer->files.size(), std::size_t{3});
    QCOMPARE(fewer->bytes, std::uintmax_t{5 + 20 + 1000});
    QCOMPARE(fewer->skippedLinks, (std::vector<std::string>{"alias.py", "out_link"}));

    // Not a folder.
    Result<WorkdirListing> missing = listWorkdir(root / "nope");
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, ErrorCode::FileNotFound);
    QCOMPARE(missing.error().reason.key, std::string("error.run.workdir_not_folder"));
    missing = listWorkdir(root / "train.py");
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, ErrorCode::FileNotFound);

    // A folder that cannot be listed: only a non-root user can be refused (root reads any folder).
    if (geteuid() != 0) {
        fs::create_directories(root / "locked/in");
        fs::permissions(root / "locked", fs::perms::none);
        const Result<WorkdirListing> locked = listWorkdir(root);
        fs::permissions(root / "locked", fs::perms::owner_all);
        QVERIFY(!locked.ok());
        QCOMPARE(locked.error().code, ErrorCode::FileUnreadable);
        QCOMPARE(locked.error().reason.key, std::string("error.run.folder_unreadable"));
        QCOMPARE(locked.error().where, (root / "locked").string());
    } else {
        qInfo("running as root: the unreadable-folder check cannot be refused here and is not run");
    }
}

void TestRunAnalysis::everyKeyWorded()
{
    // The reasons as core makes them, with their figures.
    std::vector<Reason> reasons;
    parseMonitorLines("gpu,1,x\n", &reasons);
    for (const std::string& key : throttleReasonKeys(~std::uint64_t{0})) {
        reasons.push_back(Reason{key, {}});
    }
    QCOMPARE(reasons.size(), std::size_t{1 + 9});
    const auto addCauses = [&](const RunAdvice& advice) {
        QVERIFY(advice.low);
        reasons.insert(reasons.end(), advice.causes.begin(), advice.causes.end());
    };
    AdviceSettings fp32;
    fp32.precision = Precision::Fp32;
    addCauses(adviseOnUtilization(steady(0, 200, 40, 95, 0.2, 6000.0), fp32));
    addCauses(adviseOnUtilization(steady(0, 200, 40, 10, 0.9)));
    QCOMPARE(reasons.size(), std::size_t{1 + 9 + 4 + 1});

    std::set<QString> texts;
    for (const Reason& reason : reasons) {
        const QString text = gpuplan::ui::runReasonText(reason);
        QVERIFY2(!text.contains(QString::fromStdString(reason.key)), reason.key.c_str());
        QVERIFY2(!text.isEmpty(), reason.key.c_str());
        texts.insert(text);
    }
    QCOMPARE(texts.size(), reasons.size()); // each says something of its own

    // The figures appear in the words.
    const QString loader =
        gpuplan::ui::runReasonText(Reason{"run.advice.data_loader", {{"gpu_util", "40"}, {"cpu_busy", "95"}}});
    QVERIFY(loader.contains("40 %") && loader.contains("95 %") && loader.contains("num_workers"));
    // A key this version does not know reads as the key and its parameters.
    QCOMPARE(gpuplan::ui::runReasonText(Reason{"run.advice.future", {{"a", "1"}}}), QString("run.advice.future (a=1)"));

    // The errors, as core makes them, through ui's errorText.
    std::vector<Error> errors;
    ThroughputPattern pattern;
    pattern.preset = "custom";
    for (const char* regex : {"(", "abc"}) {
        pattern.regex = regex;
        errors.push_back(ThroughputReader::make(pattern).error());
    }
    pattern.regex = "(1)";
    pattern.unit = "images";
    errors.push_back(ThroughputReader::make(pattern).error());
    pattern.preset = "keras";
    errors.push_back(ThroughputReader::make(pattern).error());
    errors.push_back(listWorkdir("/nonexistent/gpuplan-test").error());
    errors.push_back(
        Error{ErrorCode::FileUnreadable, Reason{"error.run.folder_unreadable", {{"said", "denied"}}}, "/x"});
    errors.push_back(
        Error{ErrorCode::FileUnreadable, Reason{"error.run.gitignore_unreadable", {{"said", "denied"}}}, "/x"});
    for (const Error& error : errors) {
        const QString text = gpuplan::ui::errorText(error);
        QVERIFY2(!text.contains("error.run."), qPrintable(text));
        QVERIFY2(!text.isEmpty(), error.reason.key.c_str());
    }
    QVERIFY(gpuplan::ui::errorText(errors[3]).contains("keras"));
}

QTEST_APPLESS_MAIN(TestRunAnalysis)
#include "TestRunAnalysis.moc"
