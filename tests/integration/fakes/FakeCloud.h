#pragma once

// The local fakes of the providers' APIs (fake_ec2.py, fake_cvm.py, fake_ecs.py, fake_huawei_ecs.py beside this file),
// as the launch tests start and steer them. They are fakes because no real cloud is reachable from here, and none would
// refuse capacity, throttle or drop a reply on demand; they are built from the documented responses and verify every
// signature.

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaType>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

#include "gpuplan/net/HttpClient.h"

namespace gpuplan::testing {

using namespace gpuplan::core;

constexpr auto kAccessKeyId = "AKIDFAKEEXAMPLE";
constexpr auto kSecretKey = "fake-secret-key-for-tests";

/// One provider's fake API, started for one test.
class FakeCloud
{
public:
    bool start(const QString& script, const QString& dir)
    {
        const QString portFile = dir + "/port-" + QFileInfo(script).baseName();
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QStringLiteral("python3"),
                        {script, "--port-file", portFile, "--access-key-id", kAccessKeyId, "--secret-key", kSecretKey});
        for (int i = 0; i < 100 && m_port == 0; ++i) {
            QFile f(portFile);
            if (f.open(QIODevice::ReadOnly)) {
                m_port = f.readAll().trimmed().toInt();
            }
            QTest::qWait(50);
        }
        return m_port > 0 && m_process.state() == QProcess::Running;
    }
    ~FakeCloud()
    {
        m_process.kill();
        m_process.waitForFinished(5000);
    }

    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_port); }

    QJsonObject call(const QString& method, const QString& path, const QByteArray& body = {})
    {
        HttpRequest request;
        request.method = method.toStdString();
        request.url = (url() + path).toStdString();
        request.body = body.toStdString();
        request.headers.push_back({"Content-Type", "application/json"});
        HttpClient http;
        Result<HttpResponse> response = http.send(request);
        if (!response || response->status != 200) {
            qWarning() << "fake control" << path << "failed"
                       << (response ? QString::number(response->status)
                                    : QString::fromStdString(describe(response.error())));
            return {};
        }
        return QJsonDocument::fromJson(QByteArray::fromStdString(response->body)).object();
    }
    QJsonObject state() { return call("GET", "/_fake/state"); }
    void faults(const QJsonObject& faults) { call("POST", "/_fake/faults", QJsonDocument(faults).toJson()); }

    /// The fake's instances that are not terminated (in the provider's words).
    QJsonArray liveInstances()
    {
        QJsonArray live;
        for (const QJsonValue& v : state().value("instances").toArray()) {
            const QString s = v.toObject().value("state").toString().toLower();
            if (s != "terminated" && s != "shutting-down" && s != "terminating") {
                live.append(v);
            }
        }
        return live;
    }
    int runInstancesCalls()
    {
        int n = 0;
        for (const QJsonValue& v : state().value("calls").toArray()) {
            // EC2, CVM and ECS launch with RunInstances, Huawei's ECS with CreateServers.
            const QString action = v.toObject().value("action").toString();
            n += action == "RunInstances" || action == "CreateServers" ? 1 : 0;
        }
        return n;
    }

private:
    QProcess m_process;
    int m_port = 0;
};

struct ProviderCase
{
    QString id;
    QString script;
    QString region;
    QString instanceType;
    QStringList zones; // the fake's zones for the region, in order
};

inline ProviderCase aws()
{
    return {"aws", "fake_ec2.py", "us-east-1", "p3.2xlarge", {"us-east-1a", "us-east-1b", "us-east-1c"}};
}

inline ProviderCase tencent()
{
    return {"tencent",
            "fake_cvm.py",
            "ap-guangzhou",
            "GN7.2XLARGE32",
            {"ap-guangzhou-3", "ap-guangzhou-4", "ap-guangzhou-6"}};
}

inline ProviderCase alibaba()
{
    return {"alibaba",
            "fake_ecs.py",
            "cn-beijing",
            "ecs.gn7i-c8g1.2xlarge",
            {"cn-beijing-g", "cn-beijing-h", "cn-beijing-i"}};
}

inline ProviderCase huawei()
{
    return {
        "huawei", "fake_huawei_ecs.py", "cn-north-4", "p2v.16xlarge.8", {"cn-north-4a", "cn-north-4b", "cn-north-4c"}};
}

} // namespace gpuplan::testing

Q_DECLARE_METATYPE(gpuplan::testing::ProviderCase)
