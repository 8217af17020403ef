// How the probe gets to run on a remote machine: which bundled build fits its driver and GPUs, or a remote
// build, a container, or a stop with the exact reason. Driver floors: NVIDIA's compatibility table.
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/deploy/DeployStrategy.h"
#include "gpuplan/deploy/ProbeDeployment.h"
#include "gpuplan/deploy/Verification.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <QTest>

#include <filesystem>

using namespace gpuplan::core;

namespace {

RemoteFacts machine(const std::string& smi)
{
    RemoteFacts facts;
    facts.osId = "ubuntu";
    facts.osVersion = "22.04";
    facts.machine = "x86_64";
    readNvidiaSmi(smi, facts);
    return facts;
}

/// A reason's parameter, empty when it has none of that name.
std::string param(const Reason& why, const std::string& name)
{
    const auto it = why.params.find(name);
    return it == why.params.end() ? std::string() : it->second;
}

} // namespace

class TestDeployStrategy : public QObject
{
    Q_OBJECT

private slots:
    void nvidiaSmiIsRead()
    {
        RemoteFacts facts;
        const int n = readNvidiaSmi("570.86.15, NVIDIA H100 80GB HBM3, 9.0, 81559\n"
                                    "570.86.15, NVIDIA H100 80GB HBM3, 9.0, 81559\n",
                                    facts);
        QCOMPARE(n, 2);
        QCOMPARE(facts.driverVersion, std::string("570.86.15"));
        QCOMPARE(facts.gpus[0].name, std::string("NVIDIA H100 80GB HBM3"));
        QCOMPARE(facts.gpus[0].computeCapability, std::string("9.0"));
        QCOMPARE(facts.gpus[1].memoryMib, 81559.0);
        // An old driver without compute_cap, and nvidia-smi's failure line, are tolerated.
        RemoteFacts old;
        QCOMPARE(readNvidiaSmi("470.82.01, Tesla V100-SXM2-16GB, [N/A], 16160\n", old), 1);
        QVERIFY(old.gpus[0].computeCapability.empty());
        RemoteFacts broken;
        QCOMPARE(
            readNvidiaSmi("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n", broken),
            0);
    }

    /// Found by tests/fuzz/fuzz_remote_facts: a memory.total no GPU has (1.6e94 MiB, inf, nan) was kept, and the
    /// catalog match's conversion of it to a whole number of MiB was undefined behaviour. Such a reading is unknown.
    void impossibleMemoryIsUnknown_data()
    {
        QTest::addColumn<QString>("memory");
        QTest::addColumn<double>("mib");
        QTest::newRow("a reading") << "81559" << 81559.0;
        QTest::newRow("N/A") << "[N/A]" << 0.0;
        QTest::newRow("1.6e94") << "1.6e94" << 0.0;
        QTest::newRow("inf") << "inf" << 0.0;
        QTest::newRow("nan") << "nan" << 0.0;
        QTest::newRow("negative") << "-1" << 0.0;
    }
    void impossibleMemoryIsUnknown()
    {
        QFETCH(QString, memory);
        QFETCH(double, mib);
        RemoteFacts facts;
        QCOMPARE(readNvidiaSmi("570.86.15, NVIDIA H100 80GB HBM3, 9.0, " + memory.toStdString() + "\n", facts), 1);
        QCOMPARE(facts.gpus[0].memoryMib, mib);
    }

    /// The fuzzer's input itself: the whole detection output, then the promise read from the first card.
    void fuzzedDetectionOutputIsRead()
    {
        QFile in(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/fuzz-regressions/remote-facts-smi-memory-1e94.txt"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const RemoteFacts facts = readRemoteFacts(in.readAll().toStdString());
        QCOMPARE(facts.osId, std::string("rocky"));
        QCOMPARE(facts.osVersion, std::string("8.9"));
        QCOMPARE(facts.driverVersion, std::string("470.82.01"));
        QCOMPARE(facts.gpus.size(), std::size_t(1));
        QCOMPARE(facts.gpus[0].name, std::string("Tesla V100-SXM3-16GB"));
        QCOMPARE(facts.gpus[0].memoryMib, 0.0);

        const Result<LoadedCatalog> catalog =
            loadCatalog(std::filesystem::path(GPUPLAN_SOURCE_DIR) / "resources" / "catalog");
        QVERIFY(catalog.ok());
        const ExpectedHardware promised = promisedHardware(ExpectedHardware{}, catalog->catalog, nullptr, facts);
        QCOMPARE(promised.count, 1);
    }

    void choice_data()
    {
        QTest::addColumn<QString>("smi");
        QTest::addColumn<QString>("driverCuda"); // nvidia-smi's "CUDA Version"
        QTest::addColumn<QString>("glibc");
        QTest::addColumn<QString>("machine");
        QTest::addColumn<QString>("nvcc");
        QTest::addColumn<bool>("docker");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("detail"); // the build, the image, or the reason's key
        const int prebuilt = int(DeployChoice::Kind::Prebuilt);
        const int buildThere = int(DeployChoice::Kind::BuildRemote);
        const int container = int(DeployChoice::Kind::Container);
        const int stop = int(DeployChoice::Kind::Stop);
        QTest::newRow("H100 on 580: the CUDA 13 build") << "580.95.05, NVIDIA H100 80GB HBM3, 9.0, 81559"
                                                        << "13.0"
                                                        << "2.35"
                                                        << "x86_64"
                                                        << "" << false << prebuilt << "cuda13";
        QTest::newRow("A100 on 535 (DLAMI): the CUDA 11.8 build") << "535.183.01, NVIDIA A100-SXM4-80GB, 8.0, 81920"
                                                                  << "12.2"
                                                                  << "2.35"
                                                                  << "x86_64"
                                                                  << "" << false << prebuilt << "cuda11.8";
        QTest::newRow("V100 on 580: CUDA 13 cannot target sm_70") << "580.65.06, Tesla V100-SXM2-32GB, 7.0, 32768"
                                                                  << "13.0"
                                                                  << "2.39"
                                                                  << "x86_64"
                                                                  << "" << false << prebuilt << "cuda11.8";
        QTest::newRow("Ubuntu 20.04 (glibc 2.31) with nvcc 12.2: build there")
            << "535.183.01, NVIDIA A100-SXM4-80GB, 8.0, 81920"
            << "12.2"
            << "2.31"
            << "x86_64"
            << "12.2" << false << buildThere << "deploy.build_remote";
        QTest::newRow("glibc 2.31 with Docker: the driver's CUDA in a container")
            << "535.183.01, NVIDIA A100-SXM4-80GB, 8.0, 81920"
            << "12.2"
            << "2.31"
            << "x86_64"
            << "" << true << container << "nvidia/cuda:12.2.0-devel-ubuntu22.04";
        QTest::newRow("glibc 2.31, nothing to build with: stop, a driver would not help")
            << "535.183.01, NVIDIA A100-SXM4-80GB, 8.0, 81920"
            << "12.2"
            << "2.31"
            << "x86_64"
            << "" << false << stop << "deploy.cannot_run";
        QTest::newRow("GH200 (aarch64) with nvcc 12.4: build there")
            << "550.90.07, NVIDIA GH200 480GB, 9.0, 97871"
            << "12.4"
            << "2.35"
            << "aarch64"
            << "12.4" << false << buildThere << "deploy.build_remote";
        QTest::newRow("aarch64 with nothing to build with: stop") << "550.90.07, NVIDIA GH200 480GB, 9.0, 97871"
                                                                  << "12.4"
                                                                  << "2.35"
                                                                  << "aarch64"
                                                                  << "" << false << stop << "deploy.architecture";
        QTest::newRow("driver 418 with nvcc 12.4: what it builds would not run there")
            << "418.87.01, Tesla T4, [N/A], 15109"
            << "10.1"
            << "2.27"
            << "x86_64"
            << "12.4" << false << stop << "deploy.driver_too_old";
        QTest::newRow("driver 418 with Docker: no image of CUDA 10.1 builds the probe")
            << "418.87.01, Tesla T4, [N/A], 15109"
            << "10.1"
            << "2.27"
            << "x86_64"
            << "" << true << stop << "deploy.driver_too_old";
        QTest::newRow("driver 418, nothing else: stop and offer the driver script")
            << "418.87.01, Tesla T4, [N/A], 15109"
            << "10.1"
            << "2.27"
            << "x86_64"
            << "" << false << stop << "deploy.driver_too_old";
    }

    void choice()
    {
        QFETCH(QString, smi);
        QFETCH(QString, driverCuda);
        QFETCH(QString, glibc);
        QFETCH(QString, machine);
        QFETCH(QString, nvcc);
        QFETCH(bool, docker);
        QFETCH(int, kind);
        QFETCH(QString, detail);
        RemoteFacts facts = ::machine(smi.toStdString());
        facts.machine = machine.toStdString();
        facts.glibcVersion = glibc.toStdString();
        facts.nvccVersion = nvcc.toStdString();
        facts.nvccPath = nvcc.isEmpty() ? "" : "/usr/local/cuda/bin/nvcc";
        facts.dockerWithNvidiaRuntime = docker;
        facts.cudaVersionOfDriver = driverCuda.toStdString();
        std::vector<BundledProbe> builds = bundledProbeBuilds();
        for (BundledProbe& build : builds) {
            build.minimumGlibc = "2.34"; // what requiredGlibc reads from both builds
        }
        const DeployChoice c = chooseDeployment(facts, builds);
        QCOMPARE(int(c.kind), kind);
        const std::string got = c.kind == DeployChoice::Kind::Prebuilt    ? c.build
                                : c.kind == DeployChoice::Kind::Container ? c.image
                                                                          : c.why.key;
        QCOMPARE(QString::fromStdString(got), detail);
        // Every choice has its reason: the way it runs, or why it cannot.
        const std::string expectedKey = c.kind == DeployChoice::Kind::Prebuilt      ? "deploy.prebuilt"
                                        : c.kind == DeployChoice::Kind::BuildRemote ? "deploy.build_remote"
                                        : c.kind == DeployChoice::Kind::Container   ? "deploy.container"
                                                                                    : detail.toStdString();
        QCOMPARE(c.why.key, expectedKey);
        if (c.kind == DeployChoice::Kind::Prebuilt) {
            QCOMPARE(param(c.why, "build"), c.build);
            QCOMPARE(param(c.why, "driver"), facts.driverVersion);
        }
        if (c.why.key == "deploy.build_remote" || c.why.key == "deploy.container" || c.why.key == "deploy.cannot_run") {
            // Why no bundled probe runs: the machine, none bundled, or one refusal per build.
            const std::string cause = param(c.why, "cause");
            QVERIFY2(cause == "architecture" || cause == "none_bundled" || cause == "refused", cause.c_str());
            if (cause == "refused") {
                QVERIFY(std::stoi(param(c.why, "refusals")) > 0);
                QVERIFY(!param(c.why, "refusal.0.build").empty() && !param(c.why, "refusal.0.minimum").empty());
            }
        }
        if (c.kind == DeployChoice::Kind::BuildRemote) {
            QCOMPARE(param(c.why, "nvcc"), facts.nvccVersion);
        }
        if (c.kind == DeployChoice::Kind::Container) {
            QCOMPARE(param(c.why, "image"), c.image);
        }
        if (c.why.key == "deploy.architecture") {
            QCOMPARE(param(c.why, "machine"), facts.machine);
        }
        if (c.why.key == "deploy.driver_too_old") {
            QVERIFY(c.offerDriverScript);
            // The driver there, and the lowest floor of the bundled builds (cuda11.8's): the update's target.
            QCOMPARE(param(c.why, "driver"), std::string("418.87.01"));
            QCOMPARE(param(c.why, "minimum_driver"), std::string("450.80.02"));
        } else {
            QVERIFY(!c.offerDriverScript);
        }
        if (glibc == "2.31") { // the reason names the C library, whichever way it goes
            QCOMPARE(param(c.why, "minimum_glibc"), std::string("2.34"));
            QCOMPARE(param(c.why, "glibc"), std::string("2.31"));
        }
        // Without the probe's source nothing can be built there.
        if (kind == int(DeployChoice::Kind::BuildRemote) || kind == int(DeployChoice::Kind::Container)) {
            QCOMPARE(int(chooseDeployment(facts, builds, false).kind), int(DeployChoice::Kind::Stop));
        }
    }

    /// Blackwell has SASS in the CUDA 13 build; a GPU newer than both builds runs the newest PTX, compiled by the
    /// driver at first use, and the reason says so.
    void blackwellAndThePtxPath()
    {
        auto choose = [](const std::string& smi) {
            RemoteFacts facts = machine(smi);
            facts.machine = "x86_64";
            facts.glibcVersion = "2.39";
            return chooseDeployment(facts, bundledProbeBuilds());
        };
        const DeployChoice b200 = choose("580.95.05, NVIDIA B200, 10.0, 183359");
        QCOMPARE(QString::fromStdString(b200.build), QString("cuda13"));
        QCOMPARE(b200.why.key, std::string("deploy.prebuilt"));
        QVERIFY(!b200.why.params.count("ptx_capability")); // its own SASS
        const DeployChoice rtx = choose("580.95.05, NVIDIA GeForce RTX 5090, 12.0, 32607");
        QCOMPARE(QString::fromStdString(rtx.build), QString("cuda13"));
        QVERIFY(!rtx.why.params.count("ptx_capability"));
        const DeployChoice future = choose("595.10.01, NVIDIA Future GPU, 13.0, 200000");
        QCOMPARE(QString::fromStdString(future.build), QString("cuda13"));
        QCOMPARE(future.why.key, std::string("deploy.prebuilt"));
        QCOMPARE(param(future.why, "ptx_capability"), std::string("13.0")); // compute capability 13.0 runs its PTX
        // A driver older than R580 runs only the 11.8 build, whose newest SASS is Hopper's: Blackwell JITs its PTX.
        const DeployChoice oldDriver = choose("570.124.06, NVIDIA B200, 10.0, 183359");
        QCOMPARE(QString::fromStdString(oldDriver.build), QString("cuda11.8"));
        QCOMPARE(param(oldDriver.why, "ptx_capability"), std::string("10.0"));
    }

    /// The probe's arguments, and a wait that outlasts the probe's own watchdog (so a hung GPU still ends in its
    /// partial document): 40 s quick or 150 s full per GPU, 30 s, and the burn-in.
    void probeModes()
    {
        QCOMPARE(QString::fromStdString(ProbeMode{}.arguments()), QString());
        QCOMPARE(QString::fromStdString(ProbeMode{true, 0}.arguments()), QString(" --quick"));
        QCOMPARE(QString::fromStdString(ProbeMode{false, 60}.arguments()), QString(" --burn 60"));
        QVERIFY((ProbeMode{false, 0}.timeout(8) > std::chrono::seconds(150 * 8 + 30)));
        QVERIFY((ProbeMode{true, 0}.timeout(0) > std::chrono::seconds(40 + 30)));
        QVERIFY((ProbeMode{false, 600}.timeout(2) > std::chrono::seconds(150 * 2 + 30 + 600)));
        QVERIFY((ProbeMode{false, 600}.timeout(2) < std::chrono::seconds(150 * 2 + 30 + 600 + 300)));
        const RemoteFacts facts = machine("580.95.05, NVIDIA H100 80GB HBM3, 9.0, 81559");
        const std::string container = probeContainerCommand("nvidia/cuda:13.0.0-devel-ubuntu22.04", facts, {false, 90});
        QVERIFY2(container.find("/tmp/gpuplan-probe --burn 90") != std::string::npos, container.c_str());
    }

    void buildCommands()
    {
        RemoteFacts facts = machine("550.90.07, NVIDIA H100 80GB HBM3, 9.0, 81559\n"
                                    "550.90.07, NVIDIA H100 80GB HBM3, 9.0, 81559\n"
                                    "550.90.07, NVIDIA A100-SXM4-80GB, 8.0, 81920\n");
        const std::string build = probeBuildCommand("/opt/cuda 12/bin/nvcc", "12.4", facts, "../gpuplan-probe-built");
        // The compiler's path is quoted, each architecture appears once, and the probe reports what it holds.
        QVERIFY2(build.rfind("'/opt/cuda 12/bin/nvcc' ", 0) == 0, build.c_str());
        // Hopper's arch-specific target (the own wgmma GEMM lives only there) from CUDA 12.0 on.
        QCOMPARE(QString::fromStdString(build).count("compute_90a,code=sm_90a"), 1);
        QVERIFY(build.find("-gencode=arch=compute_80,code=sm_80") != std::string::npos);
        QVERIFY2(build.find("'-DPROBE_ARCHITECTURES=\"sm_90a,sm_80\"'") != std::string::npos, build.c_str());
        QVERIFY(probeBuildCommand("nvcc", "11.8", facts, "p").find("-gencode=arch=compute_90,code=sm_90 ")
                != std::string::npos);
        // No compute capability known: the lowest the toolkit builds the probe for, with PTX (not nvcc's default,
        // which may be too old for tensor cores).
        const RemoteFacts t4 = machine("418.87.01, Tesla T4, [N/A], 15109");
        QVERIFY(probeBuildCommand("nvcc", "12.4", t4, "p").find(" -arch=sm_70 ") != std::string::npos);
        QVERIFY(probeBuildCommand("nvcc", "13.0", t4, "p").find(" -arch=sm_75 ") != std::string::npos);
        // A GPU newer than the toolkit (B200 with nvcc 12.4): the newest PTX it has, compiled by the driver.
        const std::string b200 =
            probeBuildCommand("nvcc", "12.4", machine("570.86.15, NVIDIA B200, 10.0, 183359"), "p");
        QVERIFY2(b200.find("-gencode=arch=compute_90,code=compute_90") != std::string::npos, b200.c_str());

        const std::string run = probeContainerCommand("nvidia/cuda:12.4.0-devel-ubuntu22.04", facts, {true, 0});
        QVERIFY2(run.rfind("docker run --rm --gpus all -v \"$HOME\"/.gpuplanner-probe/source:/probe-source:ro,z "
                           "'nvidia/cuda:12.4.0-devel-ubuntu22.04' sh -c ",
                           0)
                     == 0,
                 run.c_str());
        // The compiler talks on stderr so that stdout is the probe's document alone.
        QVERIFY(run.find("1>&2 && /tmp/gpuplan-probe --quick") != std::string::npos);
        QProcess syntax; // both are valid shell
        syntax.start("sh", {"-n", "-c", QString::fromStdString(build + "; " + run)});
        QVERIFY(syntax.waitForFinished(10000));
        QCOMPARE(syntax.exitCode(), 0);
    }

    void containerAndCompilerFitTheDriverAndGpus()
    {
        // A driver that reports a CUDA version no toolkit has (R565: 12.7) gets the newest release below it.
        RemoteFacts facts = machine("565.57.01, NVIDIA L40S, 8.9, 46068");
        facts.glibcVersion = "2.31";
        facts.cudaVersionOfDriver = "12.7";
        facts.dockerWithNvidiaRuntime = true;
        DeployChoice c = chooseDeployment(facts, {}, true);
        QCOMPARE(QString::fromStdString(c.image), QString("nvidia/cuda:12.6.0-devel-ubuntu22.04"));
        // A V100 on a CUDA 13 driver: CUDA 13 cannot build for sm_70, so the image is the newest 12.x.
        RemoteFacts v100 = machine("580.65.06, Tesla V100-SXM2-32GB, 7.0, 32768");
        v100.cudaVersionOfDriver = "13.0";
        v100.dockerWithNvidiaRuntime = true;
        QCOMPARE(QString::fromStdString(chooseDeployment(v100, {}, true).image),
                 QString("nvidia/cuda:12.9.0-devel-ubuntu22.04"));
        // ... and nvcc 13 there is no use: the container is chosen instead.
        v100.nvccVersion = "13.0";
        v100.nvccPath = "/usr/local/cuda/bin/nvcc";
        QCOMPARE(int(chooseDeployment(v100, {}, true).kind), int(DeployChoice::Kind::Container));
        v100.nvccVersion = "12.4";
        QCOMPARE(int(chooseDeployment(v100, {}, true).kind), int(DeployChoice::Kind::BuildRemote));
    }

    void noGpuOrNoDriverIsSaidPlainly()
    {
        RemoteFacts none = machine("");
        DeployChoice c = chooseDeployment(none, bundledProbeBuilds());
        QCOMPARE(int(c.kind), int(DeployChoice::Kind::Stop));
        QCOMPARE(c.why.key, std::string("deploy.no_gpu"));
        QVERIFY(!c.offerDriverScript);
        none.nvidiaPciDevice = true; // lspci sees the card, the driver is missing
        c = chooseDeployment(none, bundledProbeBuilds());
        QCOMPARE(c.why.key, std::string("deploy.no_driver"));
        QVERIFY(c.offerDriverScript);
    }

    void glibcFloorIsReadFromTheBinary()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("probe");
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        // Version names in the dynamic string table are NUL-terminated; GLIBC_PRIVATE and text that merely
        // starts like one are not versions.
        static const char bytes[] = "\x7f"
                                    "ELF....GLIBC_2.2.5\0GLIBC_2.34\0GLIBC_PRIVATE\0GLIBC_2.17\0see GLIBC_2.40 notes";
        out.write(bytes, sizeof bytes - 1);
        out.close();
        QCOMPARE(QString::fromStdString(requiredGlibc(file.toStdString())), QString("2.34"));
        QVERIFY(requiredGlibc(dir.filePath("missing").toStdString()).empty());
    }

    void versionsCompareNumerically()
    {
        QVERIFY(compareVersions("535.183.01", "580.65.06") < 0);
        QVERIFY(compareVersions("580.65.06", "580.65.06") == 0);
        QVERIFY(compareVersions("12.10", "12.4") > 0);
        QVERIFY(compareVersions("", "450.80.02") < 0);
    }
};

QTEST_GUILESS_MAIN(TestDeployStrategy)
#include "TestDeployStrategy.moc"
