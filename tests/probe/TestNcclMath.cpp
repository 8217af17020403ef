// The NCCL all-reduce figures as nccl-tests defines them, where libnccl.so.2 is looked for (on a temporary tree),
// and what allReduce reports when it cannot run — no GPU, no NCCL needed.
#include "nccl.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace probe::nccl;
namespace fs = std::filesystem;

namespace {

std::string touch(const std::string& path)
{
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << "not a library";
    return path;
}

long indexOf(const std::vector<std::string>& list, const std::string& item)
{
    const auto it = std::find(list.begin(), list.end(), item);
    return it == list.end() ? -1 : static_cast<long>(it - list.begin());
}

} // namespace

class TestNcclMath : public QObject
{
    Q_OBJECT

private slots:
    void busBandwidthIsNcclTestsDefinition()
    {
        // 256 MiB in 1 ms.
        const double alg = algBandwidthGBs(size_t(256) << 20, 1e-3);
        QCOMPARE(alg, 268.435456);
        QCOMPARE(busBandwidthGBs(alg, 2), alg);
        QCOMPARE(busBandwidthGBs(100.0, 4), 150.0);
        QCOMPARE(busBandwidthGBs(100.0, 8), 175.0);
        QCOMPARE(busBandwidthGBs(100.0, 1), 0.0);
        QVERIFY(std::isnan(busBandwidthGBs(100.0, 0)));
        QVERIFY(std::isnan(algBandwidthGBs(1024, 0)));
    }

    void candidatesFollowTheSearchOrder()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string root = tmp.path().toStdString();
        const std::string home = root + "/home/user"; // libraryCandidates takes it below root
        const std::string ncclHome = touch(root + "/nccl-home/lib/libnccl.so.2");
        const std::string tarball = touch(root + "/usr/local/nccl_2.21.5-1+cuda12.4_x86_64/lib/libnccl.so.2");
        const std::string cuda = touch(root + "/usr/local/cuda-12.4/lib64/libnccl.so.2");
        const std::string system = touch(root + "/usr/lib/x86_64-linux-gnu/libnccl.so.2");
        const std::string systemPip =
            touch(root + "/usr/local/lib/python3.10/dist-packages/nvidia/nccl/lib/libnccl.so.2");
        const std::string userPip = touch(home + "/.local/lib/python3.11/site-packages/nvidia/nccl/lib/libnccl.so.2");
        const std::string venv = touch(home + "/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2");
        const std::string pyenv =
            touch(home + "/.pyenv/versions/3.11.9/lib/python3.11/site-packages/nvidia/nccl/lib/libnccl.so.2");
        const std::string project =
            touch(home + "/project/.venv/lib/python3.10/site-packages/nvidia/nccl/lib/libnccl.so.2");
        const std::string opt = touch(root + "/opt/conda/lib/libnccl.so.2");
        const std::string condaEnv =
            touch(home + "/miniconda3/envs/train/lib/python3.10/site-packages/nvidia/nccl/lib/libnccl.so.2");
        touch(root + "/usr/local/cuda-12.4/lib64/libnccl.so.1"); // another major: never a candidate

        const auto list = libraryCandidates({{"NCCL_HOME", "/nccl-home"}}, "/home/user", root);
        QCOMPARE(list.front(), std::string("libnccl.so.2"));
        const std::vector<std::string> order = {
            ncclHome, tarball, cuda, system, systemPip, userPip, venv, pyenv, project};
        long previous = 0;
        for (const auto& path : order) {
            const long at = indexOf(list, path);
            QVERIFY2(at > previous, path.c_str());
            previous = at;
        }
        QVERIFY(indexOf(list, opt) > 0);
        QVERIFY(indexOf(list, condaEnv) > 0);
        for (const auto& path : list) {
            QVERIFY2(path.find("libnccl.so.1") == std::string::npos, path.c_str());
            QCOMPARE(std::count(list.begin(), list.end(), path), 1L);
        }
        // Nothing outside the tree (a real /usr/lib on this machine) slips in.
        for (size_t i = 1; i < list.size(); ++i)
            QVERIFY2(list[i].rfind(root, 0) == 0, list[i].c_str());
    }

    void emptyTreeLeavesTheLoaderAlone()
    {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString();
        QCOMPARE(libraryCandidates({}, "/home/user", root), std::vector<std::string>{"libnccl.so.2"});
        const std::string places = searchedPlaces();
        for (const char* place : {"libnccl.so.2", "NCCL_HOME", "/usr/local/nccl", "nvidia/nccl/lib", "conda"})
            QVERIFY2(places.find(place) != std::string::npos, place);
    }

    void oneGpuIsSkipped()
    {
        LibraryInfo used;
        used.problem = "stale";
        const probe::Measurement m = allReduce({0}, true, &used);
        QCOMPARE(m.name, std::string("nccl_allreduce"));
        QCOMPARE(m.unit, std::string("GB/s"));
        QCOMPARE(m.method, std::string("nccl"));
        QCOMPARE(m.skipped, std::string("only one GPU"));
        QCOMPARE(m.shape, std::string("1 GPU, 64 MiB float sum"));
        // The library is still reported: found (path, version) or why not.
        QVERIFY(used.path.empty() != used.problem.empty());
    }
};

QTEST_GUILESS_MAIN(TestNcclMath)
#include "TestNcclMath.moc"
