// The catalogue of check keys (gpuplan/probe/Checks.h) against the probe: its JSON schema and the measurement
// names its source writes, so that the probe and the verdict cannot drift apart.
#include "gpuplan/probe/Checks.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace gpuplan::core;

namespace {

const std::filesystem::path kProbeDir = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "cuda_probe";

QString readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return QString::fromStdString(text.str());
}

QSet<QString> keysFrom(CheckSource source)
{
    QSet<QString> keys;
    for (const CheckInfo& info : allChecks()) {
        if (info.source == source) {
            keys.insert(QString::fromUtf8(info.key.data(), qsizetype(info.key.size())));
        }
    }
    return keys;
}

} // namespace

class TestProbeChecks : public QObject
{
    Q_OBJECT

private slots:
    void keysAreUniqueAndFoundAgain()
    {
        QSet<QString> seen;
        for (const CheckInfo& info : allChecks()) {
            const QString key = QString::fromUtf8(info.key.data(), qsizetype(info.key.size()));
            QVERIFY2(!seen.contains(key), qPrintable(key));
            seen.insert(key);
            QVERIFY2(QRegularExpression(QStringLiteral("^[a-z0-9_]+$")).match(key).hasMatch(), qPrintable(key));
            QCOMPARE(checkByKey(info.key), std::optional<Check>(info.check));
            QCOMPARE(checkKey(info.check), info.key);
            QVERIFY(!checkGroupKey(info.group).empty());
            const bool measured = info.source == CheckSource::Measurement || info.source == CheckSource::MultiGpu;
            QCOMPARE(!info.unit.empty(), measured);
            QCOMPARE(measurementByKey(info.key).has_value(), measured);
        }
        QCOMPARE(checkKey(Check::DramTriad), std::string_view("dram_triad"));
        QCOMPARE(checkInfo(Check::DramTriad).group, CheckGroup::Memory);
    }

    void unknownKeysAreNoCheck()
    {
        QCOMPARE(checkByKey("gemm_fp4"), std::nullopt);
        QCOMPARE(checkByKey(""), std::nullopt);
        QCOMPARE(checkByKey("DRAM_TRIAD"), std::nullopt);
        // A check the verdict works out is not a test a probe may report.
        QCOMPARE(measurementByKey("ecc"), std::nullopt);
        QCOMPARE(measurementByKey("model"), std::nullopt);
        QCOMPARE(measurementByKey("gemm_bf16"), std::optional<Check>(Check::GemmBf16));
    }

    /// The checks read from a member of a GPU object are exactly members the schema's GPU object has, and the
    /// probe's report.cpp writes.
    void gpuMembersAreTheSchemas()
    {
        const nlohmann::json schema = nlohmann::json::parse(
            readFile(kProbeDir / "schema" / "gpuplan-probe-1.schema.json").toStdString(), nullptr, false);
        QVERIFY(!schema.is_discarded());
        const nlohmann::json& members = schema["$defs"]["gpu"]["properties"];
        QVERIFY(members.is_object());
        const QString report = readFile(kProbeDir / "report.cpp");
        for (const QString& key : keysFrom(CheckSource::GpuMember)) {
            QVERIFY2(members.contains(key.toStdString()), qPrintable(key));
            QVERIFY2(report.contains(QStringLiteral("j[\"%1\"]").arg(key)), qPrintable(key));
        }
    }

    /// The measurement names the probe's source writes are exactly the catalogue's measurements.
    void measurementsAreTheProbes()
    {
        const QDir dir(QString::fromStdString(kProbeDir.string()));
        QString source;
        for (const QString& file : dir.entryList({QStringLiteral("*.cu"), QStringLiteral("*.cpp")}, QDir::Files)) {
            source += readFile(kProbeDir / file.toStdString());
        }
        QVERIFY(source.contains(QStringLiteral("skippedMeasurement(")));
        // m.name = "p2p"; skippedMeasurement("dram_copy", ...); the cuBLASLt table {"gemm_fp16", CUDA_R_16F, ...};
        // the own kernel's "gemm_own_fp16".
        const QRegularExpression patterns[] = {
            QRegularExpression(QStringLiteral("\\.name = \"([a-z0-9_]+)\"")),
            QRegularExpression(QStringLiteral("skippedMeasurement\\(\"([a-z0-9_]+)\"")),
            QRegularExpression(QStringLiteral("\\{\"([a-z0-9_]+)\",\\s*CUDA_R_")),
            QRegularExpression(QStringLiteral("\"(gemm_own_[a-z0-9]+)\"")),
        };
        QSet<QString> written;
        for (const QRegularExpression& pattern : patterns) {
            QVERIFY(pattern.isValid());
            for (auto it = pattern.globalMatch(source); it.hasNext();) {
                written.insert(it.next().captured(1));
            }
        }
        const QSet<QString> catalogue = keysFrom(CheckSource::Measurement) + keysFrom(CheckSource::MultiGpu);
        QCOMPARE(written.size(), catalogue.size());
        QCOMPARE(written, catalogue);
    }
};

QTEST_GUILESS_MAIN(TestProbeChecks)
#include "TestProbeChecks.moc"
