// The probe's host-side logic without a GPU: error codes, the cuBLASLt search, power from energy counters,
// throttle shares, NUMA lookups and the partial document printed when a run ends abnormally.
#include "errors.h"
#include "library_search.h"
#include "numa.h"
#include "progress.h"
#include "sampling.h"

#include <nlohmann/json.hpp>

#include <set>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace probe;

namespace {

/// The `burn` object of GPU 0 as the probe's one writer (report.cpp) puts it in the document.
nlohmann::ordered_json burnJson(const Burn& burn)
{
    Report report;
    GpuReport gpu;
    gpu.burn = burn;
    report.gpus.push_back(gpu);
    return nlohmann::ordered_json::parse(toJson(report))["gpus"][0]["burn"];
}

} // namespace

namespace {

void touch(const QString& path)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("x");
}

int indexOf(const std::vector<std::string>& list, const std::string& item)
{
    for (size_t i = 0; i < list.size(); ++i)
        if (list[i] == item)
            return static_cast<int>(i);
    return -1;
}

} // namespace

class TestProbeHost : public QObject
{
    Q_OBJECT

private slots:
    void errorCodes_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::newRow("fabric manager") << int(cudaErrorSystemNotReady) << "system_not_ready";
        QTest::newRow("busy") << int(cudaErrorDevicesUnavailable) << "devices_unavailable";
        QTest::newRow("ecc") << int(cudaErrorECCUncorrectable) << "ecc_uncorrectable";
        QTest::newRow("oom") << int(cudaErrorMemoryAllocation) << "out_of_memory";
        QTest::newRow("illegal address") << int(cudaErrorIllegalAddress) << "gpu_fault";
        QTest::newRow("launch failure") << int(cudaErrorLaunchFailure) << "gpu_fault";
        QTest::newRow("stack") << int(cudaErrorHardwareStackError) << "gpu_fault";
        QTest::newRow("instruction") << int(cudaErrorIllegalInstruction) << "gpu_fault";
        QTest::newRow("misaligned") << int(cudaErrorMisalignedAddress) << "gpu_fault";
        QTest::newRow("address space") << int(cudaErrorInvalidAddressSpace) << "gpu_fault";
        QTest::newRow("pc") << int(cudaErrorInvalidPc) << "gpu_fault";
        QTest::newRow("timeout") << int(cudaErrorLaunchTimeout) << "gpu_fault";
        QTest::newRow("nvlink") << int(cudaErrorNvlinkUncorrectable) << "nvlink_error";
        QTest::newRow("no image") << int(cudaErrorNoKernelImageForDevice) << "no_kernel_image";
        QTest::newRow("ptx") << int(cudaErrorInvalidPtx) << "no_kernel_image";
        QTest::newRow("ptx version") << int(cudaErrorUnsupportedPtxVersion) << "no_kernel_image";
        QTest::newRow("jit") << int(cudaErrorJitCompilerNotFound) << "no_kernel_image";
        QTest::newRow("driver") << int(cudaErrorInsufficientDriver) << "driver_too_old";
        QTest::newRow("other") << int(cudaErrorInvalidValue) << "internal";
    }
    void errorCodes()
    {
        QFETCH(int, status);
        QFETCH(QString, code);
        QCOMPARE(QString(errorCode(static_cast<cudaError_t>(status))), code);
    }

    void cublasLtMajors_data()
    {
        QTest::addColumn<int>("driver");
        QTest::addColumn<QList<int>>("majors");
        QTest::newRow("12.2 driver") << 12020 << QList<int>{12, 11};
        QTest::newRow("12.8 driver") << 12080 << QList<int>{12, 11};
        QTest::newRow("13.0 driver (R580)") << 13000 << QList<int>{13, 12, 11};
        QTest::newRow("11.8 driver") << 11080 << QList<int>{11};
        QTest::newRow("unknown") << 0 << QList<int>{12, 11};
    }
    void cublasLtMajors()
    {
        QFETCH(int, driver);
        QFETCH(QList<int>, majors);
        const auto got = libsearch::cublasLtMajors(driver);
        QCOMPARE(QList<int>(got.begin(), got.end()), majors);
    }

    // An 11.8 build (CUBLAS_VER_MAJOR 11) must not prefer its own .so.11: the order depends on the driver only.
    void cublasLtOrderIgnoresBuild()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        touch(dir.path() + "/usr/local/cuda-11.8/lib64/libcublasLt.so.11");
        touch(dir.path() + "/usr/local/cuda-12.4/lib64/libcublasLt.so.12");
        const auto c = libsearch::cublasLtCandidates({}, "", root, 12080);
        const int so12 = indexOf(c, root + "/usr/local/cuda-12.4/lib64/libcublasLt.so.12");
        const int so11 = indexOf(c, root + "/usr/local/cuda-11.8/lib64/libcublasLt.so.11");
        QVERIFY(so12 >= 0 && so11 >= 0);
        QVERIFY(so12 < so11);
        QCOMPARE(c.front(), std::string("libcublasLt.so.12")); // the loader's own search first
        QVERIFY(indexOf(c, "libcublasLt.so.13") < 0);
    }

    void cublasLtSearchFindsWheelsAndEnvs()
    {
        QTemporaryDir dir;
        const QString r = dir.path();
        const std::string root = r.toStdString();
        const QString home = "/home/u";
        const QStringList files = {
            home + "/.venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcublasLt.so.13",
            home + "/.pyenv/versions/3.11.9/lib/python3.11/site-packages/nvidia/cublas/lib/libcublasLt.so.12",
            home + "/.virtualenvs/train/lib/python3.10/site-packages/nvidia/cublas/lib/libcublasLt.so.12",
            home + "/project/.venv/lib64/python3.12/site-packages/nvidia/cu12/lib/libcublasLt.so.12",
            "/opt/pytorch/lib/python3.10/site-packages/nvidia/cublas/lib/libcublasLt.so.12",
            home + "/miniconda3/envs/llm/lib/libcublasLt.so.12",
            "/opt/conda/lib/python3.11/site-packages/nvidia/cublas/lib/libcublasLt.so.12",
            "/usr/lib/python3/dist-packages/nvidia/cublas/lib/libcublasLt.so.12",
            "/usr/local/cuda-13.0/lib64/libcublasLt.so.13",
        };
        for (const auto& f : files)
            touch(r + f);
        const auto c13 = libsearch::cublasLtCandidates({}, home.toStdString(), root, 13000);
        for (const auto& f : files)
            QVERIFY2(indexOf(c13, root + f.toStdString()) >= 0, qPrintable(f));
        // Newest major first: every .so.13 before any .so.12.
        QVERIFY(indexOf(c13, root + files[0].toStdString()) < indexOf(c13, "libcublasLt.so.12"));
        // A CUDA 12 driver cannot run cuBLASLt 13: none of its files is offered.
        const auto c12 = libsearch::cublasLtCandidates({}, home.toStdString(), root, 12020);
        QVERIFY(indexOf(c12, root + files[0].toStdString()) < 0);
        QVERIFY(indexOf(c12, root + files[1].toStdString()) >= 0);
        // Only existing files besides the bare names, no duplicates.
        for (const auto& p : c12)
            QVERIFY(p.find('/') == std::string::npos || QFile::exists(QString::fromStdString(p)));
        QCOMPARE(std::set<std::string>(c12.begin(), c12.end()).size(), c12.size());
    }

    void cublasLtSearchUsesEnvironmentWhenSet()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        touch(dir.path() + "/work/env/lib/python3.12/site-packages/nvidia/cublas/lib/libcublasLt.so.12");
        touch(dir.path() + "/toolkit/lib64/libcublasLt.so.12");
        const auto c =
            libsearch::cublasLtCandidates({{"VIRTUAL_ENV", "/work/env"}, {"CUDA_HOME", "/toolkit"}}, "", root, 12080);
        QCOMPARE(c.at(1), root + "/toolkit/lib64/libcublasLt.so.12");
        QCOMPARE(c.at(2), root + "/work/env/lib/python3.12/site-packages/nvidia/cublas/lib/libcublasLt.so.12");
    }

    void regionAverage()
    {
        using sampling::EnergyRegion;
        // 700 J over 1 s: 700 W.
        QCOMPARE(*sampling::regionAverageW(EnergyRegion{1000000ull, 1700000ull, 1.0}), 700.0);
        QCOMPARE(*sampling::regionAverageW(EnergyRegion{5000ull, 5000ull + 35000ull, 0.1}), 350.0);
        // A read missing, a counter gone backwards (driver reload), a region too short.
        QVERIFY(!sampling::regionAverageW(EnergyRegion{std::nullopt, 1700000ull, 1.0}));
        QVERIFY(!sampling::regionAverageW(EnergyRegion{1000ull, std::nullopt, 1.0}));
        QVERIFY(!sampling::regionAverageW(EnergyRegion{1700000ull, 1000000ull, 1.0}));
        QVERIFY(!sampling::regionAverageW(EnergyRegion{1000ull, 2000ull, 0.01}));
        // Counters near the top of the 64-bit range still subtract exactly.
        const unsigned long long high = ~0ull - 1000000ull;
        QCOMPARE(*sampling::regionAverageW(EnergyRegion{high, high + 500000ull, 0.5}), 1000.0);
    }

    void highestRegion()
    {
        using sampling::EnergyRegion;
        const std::vector<EnergyRegion> regions = {
            {0ull, 300000ull, 1.0},          // 300 W (WMMA)
            {1000000ull, 1690000ull, 1.0},   // 690 W (FP16)
            {std::nullopt, 5000000ull, 1.0}, // unreadable
            {9000000ull, 8000000ull, 1.0},   // reset
        };
        QCOMPARE(*sampling::highestAverageW(regions), 690.0);
        QVERIFY(!sampling::highestAverageW({}));
        QVERIFY(!sampling::highestAverageW({{std::nullopt, std::nullopt, 1.0}}));
    }

    void throttleShares()
    {
        // Idle samples (bit 0) between kernels do not count: of four under-load samples three are power capped, one
        // hw_slowdown (a single slow sample no longer fails a GPU by itself).
        const std::vector<unsigned long long> samples = {0x1, 0x4, 0x4, 0x1 | 0x8, 0x4 | 0x8, 0x0};
        const auto stats = sampling::throttleStats(samples);
        QCOMPARE(stats.samples, 4);
        QCOMPARE(stats.shares.size(), size_t(2));
        QCOMPARE(stats.shares[0].first, std::string("sw_power_cap"));
        QCOMPARE(stats.shares[0].second, 0.75);
        QCOMPARE(stats.shares[1].first, std::string("hw_slowdown"));
        QCOMPARE(stats.shares[1].second, 0.25);
        QCOMPARE(stats.reasons, (std::vector<std::string>{"sw_power_cap", "hw_slowdown"}));
        const auto idle = sampling::throttleStats({0x1, 0x1});
        QCOMPARE(idle.samples, 0);
        QVERIFY(idle.shares.empty() && idle.reasons.empty());
    }

    void linkKinds()
    {
        QCOMPARE(std::string(sampling::linkKind(true, true, true)), std::string("nvlink"));
        QCOMPARE(std::string(sampling::linkKind(true, false, true)), std::string("pcie"));
        QCOMPARE(std::string(sampling::linkKind(true, true, false)), std::string("pcie"));
        QCOMPARE(std::string(sampling::linkKind(false, true, true)), std::string("staged"));
    }

    void numaNode()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        touch(dir.path() + "/sys/bus/pci/devices/0000:3b:00.0/numa_node");
        {
            QFile f(dir.path() + "/sys/bus/pci/devices/0000:3b:00.0/numa_node");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("1\n");
        }
        touch(dir.path() + "/sys/devices/system/node/node1/cpulist");
        {
            QFile f(dir.path() + "/sys/devices/system/node/node1/cpulist");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("24-26,72\n");
        }
        QCOMPARE(numa::nodeOfPciDevice(root, "00000000:3B:00.0").value_or(-9), 1);
        QCOMPARE(numa::nodeOfPciDevice(root, "0000:3B:00.0").value_or(-9), 1);
        QVERIFY(!numa::nodeOfPciDevice(root, "0000:AF:00.0"));
        QCOMPARE(numa::cpusOfNode(root, 1), (std::vector<int>{24, 25, 26, 72}));
        QCOMPARE(numa::parseCpuList("0-3,8"), (std::vector<int>{0, 1, 2, 3, 8}));
        QVERIFY(numa::parseCpuList("3-1").empty());
        QVERIFY(numa::parseCpuList("x").empty());
    }

    // A time-out while GPU 1 runs gemm_bf16 keeps GPU 0 and GPU 1's finished measurements, and names both.
    void partialDocument()
    {
        Report base;
        base.version = "1.0.0";
        GpuReport done;
        done.index = 0;
        done.name = "H100";
        Measurement m;
        m.name = "dram_copy";
        m.unit = "GB/s";
        m.method = "copy";
        m.value = 3000;
        done.measurements.push_back(m);
        base.gpus.push_back(done);
        GpuReport current;
        current.index = 1;
        current.name = "H100";
        m.name = "gemm_fp16";
        m.unit = "TFLOPS";
        current.measurements.push_back(m);
        const Report r = progress::abnormalReport(base, current, "gemm_bf16", "timeout", "did not finish in 180 s");
        const auto j = nlohmann::json::parse(toJson(r));
        QCOMPARE(j["ok"].get<bool>(), false);
        QCOMPARE(j["error"]["code"].get<std::string>(), std::string("timeout"));
        QCOMPARE(j["error"]["gpu"].get<int>(), 1);
        QCOMPARE(j["error"]["stage"].get<std::string>(), std::string("gemm_bf16"));
        QCOMPARE(j["gpus"].size(), size_t(2));
        QVERIFY(!j["gpus"][0].contains("error"));
        QCOMPARE(j["gpus"][0]["measurements"][0]["name"].get<std::string>(), std::string("dram_copy"));
        QCOMPARE(j["gpus"][1]["measurements"][0]["name"].get<std::string>(), std::string("gemm_fp16"));
        QCOMPARE(j["gpus"][1]["error"]["code"].get<std::string>(), std::string("timeout"));
        const auto message = j["gpus"][1]["error"]["message"].get<std::string>();
        QVERIFY(message.find("GPU 1") != std::string::npos && message.find("gemm_bf16") != std::string::npos);
        // Between GPUs: no GPU in progress, no error.gpu.
        const auto between =
            nlohmann::json::parse(toJson(progress::abnormalReport(base, std::nullopt, "", "interrupted", "x")));
        QVERIFY(!between["error"].contains("gpu"));
        QCOMPARE(between["gpus"].size(), size_t(1));
    }

    void newFieldsSerialised()
    {
        Report r;
        r.cublaslt = Library{"/usr/local/cuda/lib64/libcublasLt.so.12", 120803};
        r.ncclProblem = "not needed: one GPU selected";
        GpuReport g;
        g.powerMethod = "energy";
        g.parentName = "NVIDIA A100-SXM4-80GB";
        g.hostNumaNode = 1;
        g.throttle = Throttle{4, {{"sw_power_cap", 0.5}}};
        Measurement p;
        p.name = "p2p";
        p.peer = 1;
        p.link = "nvlink";
        p.value = 300;
        g.measurements.push_back(p);
        CorrectnessCheck c;
        c.test = "gemm_fp8";
        c.nanCount = 0;
        c.repeatIdentical = true;
        g.correctness.checks.push_back(c);
        r.gpus.push_back(g);
        const auto j = nlohmann::json::parse(toJson(r));
        QCOMPARE(j["libraries"]["cublaslt"]["version"].get<int>(), 120803);
        QVERIFY(j["libraries"]["cublaslt_problem"].is_null());
        QVERIFY(j["libraries"]["nccl"].is_null());
        const auto& gj = j["gpus"][0];
        QCOMPARE(gj["power"]["method"].get<std::string>(), std::string("energy"));
        QCOMPARE(gj["parent_name"].get<std::string>(), std::string("NVIDIA A100-SXM4-80GB"));
        QCOMPARE(gj["host_numa_node"].get<int>(), 1);
        QCOMPARE(gj["throttle"]["samples"].get<int>(), 4);
        QCOMPARE(gj["throttle"]["shares"]["sw_power_cap"].get<double>(), 0.5);
        QCOMPARE(gj["measurements"][0]["peer"].get<int>(), 1);
        QCOMPARE(gj["measurements"][0]["link"].get<std::string>(), std::string("nvlink"));
        QCOMPARE(gj["correctness"]["checks"][0]["test"].get<std::string>(), std::string("gemm_fp8"));
        QVERIFY(gj["correctness"]["checks"][0]["max_relative_error"].is_null());
        QVERIFY(!gj.contains("error"));

        // A GPU that failed says in which test: the verdict tells a fault in our own kernel from the GPU's.
        r.gpus[0].errorCode = "gpu_fault";
        r.gpus[0].errorMessage = "GPU 0 could not be measured (gemm_own_fp16): cudaErrorLaunchFailure";
        r.gpus[0].errorStage = "gemm_own_fp16";
        const auto failed = nlohmann::json::parse(toJson(r))["gpus"][0]["error"];
        QCOMPARE(failed["code"].get<std::string>(), std::string("gpu_fault"));
        QCOMPARE(failed["stage"].get<std::string>(), std::string("gemm_own_fp16"));
    }

    void burnJsonOfAFinishedBurn()
    {
        Burn r;
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
        r.throttle = sampling::throttleStats({0x4, 0x0});
        BurnSample s;
        s.tS = 1.0;
        s.smMhz = 1980;
        s.powerW = 699.5;
        r.trajectory.push_back(s);
        const nlohmann::ordered_json j = burnJson(r);
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

    void burnJsonOfAFailedBurnKeepsNulls()
    {
        Burn r;
        r.error = "cudaMalloc: out of memory";
        const nlohmann::ordered_json j = burnJson(r);
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

QTEST_MAIN(TestProbeHost)
#include "TestProbeHost.moc"
