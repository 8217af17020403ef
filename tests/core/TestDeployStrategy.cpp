// How the probe gets to run on a remote machine: which bundled build fits its driver and GPUs, or a remote
// build, a container, or a stop with the exact reason. Driver floors: NVIDIA's compatibility table.
#include "gpuplan/deploy/DeployStrategy.h"

#include <QTest>

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

    void choice_data()
    {
        QTest::addColumn<QString>("smi");
        QTest::addColumn<QString>("nvcc");
        QTest::addColumn<bool>("docker");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("detail"); // the build, the image, or the reason's key
        QTest::newRow("H100 on 580: the CUDA 13 build") << "580.95.05, NVIDIA H100 80GB HBM3, 9.0, 81559"
                                                        << "" << false << int(DeployChoice::Kind::Prebuilt) << "cuda13";
        QTest::newRow("A100 on 535 (DLAMI): the CUDA 11.8 build")
            << "535.183.01, NVIDIA A100-SXM4-80GB, 8.0, 81920"
            << "" << false << int(DeployChoice::Kind::Prebuilt) << "cuda11.8";
        QTest::newRow("V100 on 580: CUDA 13 cannot target sm_70")
            << "580.65.06, Tesla V100-SXM2-32GB, 7.0, 32768"
            << "" << false << int(DeployChoice::Kind::Prebuilt) << "cuda11.8";
        QTest::newRow("driver 418 with nvcc: build there")
            << "418.87.01, Tesla T4, [N/A], 15109"
            << "10.1" << false << int(DeployChoice::Kind::BuildRemote) << "deploy.build_remote";
        QTest::newRow("driver 418 with Docker: a container")
            << "418.87.01, Tesla T4, [N/A], 15109"
            << "" << true << int(DeployChoice::Kind::Container) << "nvidia/cuda:10.1.0-devel-ubuntu22.04";
        QTest::newRow("driver 418, nothing else: stop and offer the driver script")
            << "418.87.01, Tesla T4, [N/A], 15109"
            << "" << false << int(DeployChoice::Kind::Stop) << "deploy.driver_too_old";
    }

    void choice()
    {
        QFETCH(QString, smi);
        QFETCH(QString, nvcc);
        QFETCH(bool, docker);
        QFETCH(int, kind);
        QFETCH(QString, detail);
        RemoteFacts facts = machine(smi.toStdString());
        facts.nvccVersion = nvcc.toStdString();
        facts.dockerWithNvidiaRuntime = docker;
        facts.cudaVersionOfDriver = "10.1";
        const DeployChoice c = chooseDeployment(facts, bundledProbeBuilds());
        QCOMPARE(int(c.kind), kind);
        const std::string got = c.kind == DeployChoice::Kind::Prebuilt    ? c.build
                                : c.kind == DeployChoice::Kind::Container ? c.image
                                                                          : c.why.key;
        QCOMPARE(QString::fromStdString(got), detail);
        QVERIFY(!c.why.text.empty());
        if (c.kind == DeployChoice::Kind::Stop) {
            QVERIFY(c.offerDriverScript);
            QVERIFY2(c.why.text.find("418.87.01") != std::string::npos
                         && c.why.text.find("450.80.02") != std::string::npos,
                     c.why.text.c_str());
        }
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
