#pragma once

// The local fakes of the providers' APIs (fake_ec2.py, fake_cvm.py, fake_ecs.py, fake_huawei_ecs.py, fake_gce.py,
// fake_azure_vm.py, fake_lambda.py and fake_paperspace.py beside this file),
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
    /// Starts `script` with `credentialArgs`: what the fake is told of the credential the tests use (the access key
    /// of the access-key clouds by default; ProviderCase::fakeArgs).
    bool start(const QString& script,
               const QString& dir,
               const QStringList& credentialArgs = {"--access-key-id", kAccessKeyId, "--secret-key", kSecretKey})
    {
        const QString portFile = dir + "/port-" + QFileInfo(script).baseName();
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(QStringLiteral("python3"), QStringList{script, "--port-file", portFile} + credentialArgs);
        // Up to 20 s: on a loaded 2-core machine (the whole suite at once) a fake's start can take seconds.
        for (int i = 0; i < 400 && m_port == 0 && m_process.state() != QProcess::NotRunning; ++i) {
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
            // EC2, CVM and ECS launch with RunInstances, Huawei's ECS with CreateServers, GCE with instances.insert,
            // Azure with a virtual machine's PUT, Paperspace with a machine's create, Lambda with its launch.
            const QString action = v.toObject().value("action").toString();
            n += kLaunchActions.contains(action) ? 1 : 0;
        }
        return n;
    }

private:
    inline static const QStringList kLaunchActions{"RunInstances",
                                                   "CreateServers",
                                                   "instances.insert",
                                                   "virtualMachines.createOrUpdate",
                                                   "create_machine",
                                                   "launch"};
    QProcess m_process;
    int m_port = 0;
};

/// The credential of the access-key clouds, as `gpuplan creds set <id> --stdin` reads it.
inline QJsonObject accessKeyCredential()
{
    return {{"access_key_id", kAccessKeyId}, {"secret_access_key", kSecretKey}};
}

struct ProviderCase
{
    QString id;
    QString script;
    QString region;
    QString instanceType;
    QStringList zones; // the fake's zones for the region, in order
    /// The fake's name of the call that launches (in /_fake/state's calls, and for its "unauthorized" fault).
    QString launchAction = QStringLiteral("RunInstances");
    /// The credential, by the descriptor's field names, as `gpuplan creds set <id> --stdin` reads it.
    QJsonObject credential = accessKeyCredential();
    /// What the fake is told of that credential (FakeCloud::start).
    QStringList fakeArgs{"--access-key-id", kAccessKeyId, "--secret-key", kSecretKey};
    /// The credential's key id (shown masked only) and its secret values, which no log, output or file may show.
    QString keyId = kAccessKeyId;
    QStringList secrets{kSecretKey};
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
    ProviderCase c{
        "huawei", "fake_huawei_ecs.py", "cn-north-4", "p2v.16xlarge.8", {"cn-north-4a", "cn-north-4b", "cn-north-4c"}};
    c.launchAction = QStringLiteral("CreateServers");
    return c;
}

/// The service account of the GCE fake: its key is tests/data/test-service-account-key.pem, whose public half the fake
/// checks the token request's signature with.
inline ProviderCase gcp()
{
    QFile key(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/test-service-account-key.pem"));
    const QString pem = key.open(QIODevice::ReadOnly) ? QString::fromLatin1(key.readAll()) : QString();
    const QString email = QStringLiteral("gpuplan-test@gpuplan-test.iam.gserviceaccount.com");
    ProviderCase c{
        "gcp", "fake_gce.py", "us-central1", "g2-standard-8", {"us-central1-a", "us-central1-b", "us-central1-c"}};
    // The fields of a service-account key file, as `gpuplan creds set gcp --key-file` reads it.
    c.credential = QJsonObject{{"type", "service_account"}, {"client_email", email}, {"private_key", pem}};
    c.keyId = email;
    c.launchAction = QStringLiteral("instances.insert");
    c.fakeArgs = QStringList{"--client-email",
                             email,
                             "--public-key-file",
                             QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/test-service-account-key.pub.pem")};
    for (const QString& line : pem.split('\n')) {
        if (!line.startsWith("-----") && line.trimmed().size() >= 16) {
            c.secrets << line.trimmed();
        }
    }
    return c;
}

/// An app registration of the Azure fake. No subscription is named: the provider finds the one there is.
inline ProviderCase azure()
{
    const QString tenant = QStringLiteral("11111111-1111-4111-8111-111111111111");
    const QString client = QStringLiteral("22222222-2222-4222-8222-222222222222");
    const QString secret = QStringLiteral("fake-azure-client-secret-for-tests");
    ProviderCase c{"azure", "fake_azure_vm.py", "eastus", "Standard_NC4as_T4_v3", {"1", "2", "3"}};
    c.credential = QJsonObject{{"tenant_id", tenant}, {"client_id", client}, {"client_secret", secret}};
    c.keyId = client;
    c.launchAction = QStringLiteral("virtualMachines.createOrUpdate");
    c.fakeArgs = QStringList{"--tenant-id", tenant, "--client-id", client, "--client-secret", secret};
    c.secrets = QStringList{secret};
    return c;
}

/// Lambda's API key. One "zone" per region: the region itself.
inline ProviderCase lambda()
{
    ProviderCase c{"lambda", "fake_lambda.py", "us-east-1", "gpu_1x_a10", {"us-east-1"}};
    c.credential = QJsonObject{{"api_key", kSecretKey}};
    c.fakeArgs = QStringList{"--secret-key", kSecretKey};
    c.keyId.clear();
    c.launchAction = QStringLiteral("launch");
    return c;
}

/// Paperspace's API key. Its catalog names the region by its display name; the API by its id, ny2.
inline ProviderCase paperspace()
{
    ProviderCase c{"paperspace", "fake_paperspace.py", "East Coast (NY2)", "H100x8", {"ny2"}};
    c.credential = QJsonObject{{"api_key", kSecretKey}};
    c.fakeArgs = QStringList{"--secret-key", kSecretKey};
    c.keyId.clear();
    c.launchAction = QStringLiteral("create_machine");
    return c;
}

/// Vertex AI's custom jobs (fake_vertex.py), with Google Cloud's service account. The catalog has no Vertex AI price
/// (none could be sourced), so its jobs are launched with a price of one's own.
inline ProviderCase vertexJobs()
{
    ProviderCase c = gcp();
    c.script = QStringLiteral("fake_vertex.py");
    c.instanceType = QStringLiteral("vertex/g2-standard-8");
    c.zones = QStringList{QString()};
    c.launchAction = QStringLiteral("customJobs.create");
    return c;
}

/// Azure Machine Learning's command jobs (fake_azure_ml.py), with Azure's app registration and a workspace.
inline ProviderCase azureMlJobs()
{
    ProviderCase c = azure();
    c.script = QStringLiteral("fake_azure_ml.py");
    c.instanceType = QStringLiteral("azureml/Standard_NC4as_T4_v3");
    c.zones = QStringList{QString()};
    c.credential.insert("ml_workspace", QStringLiteral("gpuplan-rg/gpuplan-ws"));
    c.launchAction = QStringLiteral("jobs.createOrUpdate");
    return c;
}

} // namespace gpuplan::testing

Q_DECLARE_METATYPE(gpuplan::testing::ProviderCase)
