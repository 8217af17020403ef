// The probe prints exactly one JSON document whatever happens: device count on a GPU machine, the
// CUDA error on a machine without one.
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

class TestCudaProbe : public QObject
{
    Q_OBJECT

private slots:
    void printsOneJsonDocument()
    {
        QProcess probe;
        probe.start(qEnvironmentVariable("GPUPLAN_PROBE"), {});
        QVERIFY(probe.waitForFinished(60000));
        const QByteArray out = probe.readAllStandardOutput();
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, out.constData());
        QCOMPARE(doc["schema"].toString(), QString("gpuplan-probe/0"));
        QVERIFY(doc["cuda_runtime_version"].toInt() >= 11000);
        if (doc["ok"].toBool()) {
            QCOMPARE(probe.exitCode(), 0);
            QVERIFY(doc["device_count"].toInt() >= 1);
        } else {
            QCOMPARE(probe.exitCode(), 1);
            QVERIFY(doc["error"]["code"].toString().startsWith("cudaError"));
            QVERIFY(!doc["error"]["message"].toString().isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestCudaProbe)
#include "TestCudaProbe.moc"
