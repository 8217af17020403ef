// Wire conformance of the Azure Machine Learning job service against @azure/arm-machinelearning 2.1.1: our service
// (makeAzureMlJobs over a RecordingTransport answering the documented bodies of tests/data/cloud/azureml) launches a
// job whose cluster and environment are missing, describes, lists and cancels it; tests/integration/sdk/azureml-wire.js
// sends the same operations through the SDK to a loopback capture server answering the same bodies. For each request
// it compares: method and path, the decoded query, the JSON body member by member with types (compareJson), the
// header names (less the ones each client sets its own way: x-ms-client-request-id, user-agent, accept,
// accept-encoding, connection, content-length, host) and the values of Authorization and Content-Type. The token
// exchange is the VM provider's (TestAzureVmWire compares it) and is left out here.
//
// The run history's run details (the job's log) have no Node SDK: that request is compared with the documented one,
// azure-ai-ml's build_get_details_request (sdk/ml/azure-ai-ml/azure/ai/ml/_restclient/runhistory/operations/
// _runs_operations.py: GET /history/v1.0/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/
// Microsoft.MachineLearningServices/workspaces/{workspaceName}/runs/{runId}/details, Accept application/json, no
// query, no body, on the host of the workspace discovery document's "api" URL), and the log file's SAS URL is checked
// to be fetched without any Authorization. Without node or the SDK the test FAILS.

#include <map>
#include <set>
#include <string>
#include <vector>

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <nlohmann/json.hpp>

#include "../support/RecordingTransport.h"
#include "../support/WireCompare.h"
#include "gpuplan/cloud/ManagedJobService.h"
#include "gpuplan/cloud/providers/azure/AzureMlApi.h"
#include "gpuplan/cloud/providers/azure/AzureProvider.h"

using namespace gpuplan::core;
using gpuplan::testing::compareJson;
using gpuplan::testing::decodedQuery;
using gpuplan::testing::lower;
using gpuplan::testing::readFile;
using gpuplan::testing::RecordingTransport;
using nlohmann::json;

namespace {

const std::string kSub = "00000000-1111-2222-3333-444444444444";
const std::string kGroup = "ml-rg";
const std::string kWorkspace = "ml-ws";
const std::string kRegion = "eastus";
const std::string kToken = "token-example";
const std::string kJob = "gpuplan-0123456789abcdef01234567";
const std::string kSize = "Standard_NC4as_T4_v3";
const std::string kImage = "mcr.microsoft.com/azureml/openmpi4.1.0-cuda11.8-cudnn8-ubuntu22.04";
const std::string kArm = "https://management.azure.com";
const std::string kWsPath = "/subscriptions/" + kSub + "/resourceGroups/" + kGroup
                            + "/providers/Microsoft.MachineLearningServices/workspaces/" + kWorkspace;

const std::set<std::string> kNotComparedHeaders = {
    "x-ms-client-request-id", "user-agent", "accept", "accept-encoding", "connection", "content-length", "host"};
const gpuplan::testing::JsonCompareRules kBodyRules{true, false};

json answerOf(const std::string& name, const std::string& status)
{
    return json::parse(readFile(GPUPLAN_SOURCE_DIR "/tests/data/cloud/azureml/" + name))["responses"][status]["body"];
}

std::string pathOf(const std::string& target)
{
    const std::size_t scheme = target.find("://");
    const std::size_t start = scheme == std::string::npos ? 0 : target.find('/', scheme + 3);
    return target.substr(start, target.find('?') == std::string::npos ? std::string::npos : target.find('?') - start);
}

std::string queryOf(const std::string& target)
{
    const std::size_t q = target.find('?');
    return q == std::string::npos ? std::string() : target.substr(q + 1);
}

void compareFields(const std::string& ours, const std::string& theirs, std::vector<std::string>& out)
{
    std::vector<std::string> duplicates;
    const auto a = decodedQuery(ours, duplicates);
    const auto b = decodedQuery(theirs, duplicates);
    for (const std::string& name : duplicates) {
        out.push_back("parameter " + name + " is sent twice");
    }
    for (const auto& [name, value] : a) {
        if (!b.count(name)) {
            out.push_back("parameter " + name + " is \"" + value + "\" here and absent in the SDK's request");
        } else if (b.at(name) != value) {
            out.push_back("parameter " + name + " is \"" + value + "\" here and \"" + b.at(name)
                          + "\" in the SDK's request");
        }
    }
    for (const auto& [name, value] : b) {
        if (!a.count(name)) {
            out.push_back("parameter " + name + " is absent here and \"" + value + "\" in the SDK's request");
        }
    }
}

std::string headerOf(const HttpRequest& request, const std::string& name)
{
    for (const HttpHeader& h : request.headers) {
        if (lower(h.name) == name) {
            return h.value;
        }
    }
    return "(absent)";
}

} // namespace

class TestAzureMlWire : public QObject
{
    Q_OBJECT

private slots:
    void requestsMatchTheSdk()
    {
        const QString sdk = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/sdk");
        const QString node = QStandardPaths::findExecutable("node");
        if (node.isEmpty()) {
            QFAIL("node is not installed: the wire test needs it to run @azure/arm-machinelearning");
        }
        for (const char* package : {"@azure/arm-machinelearning", "@azure/core-client", "@azure/core-rest-pipeline"}) {
            if (!QFileInfo::exists(sdk + "/node_modules/" + package + "/package.json")) {
                QFAIL(qPrintable(QStringLiteral("%1 is not installed in tests/integration/sdk").arg(package)));
            }
        }

        const std::string cluster = azureml::clusterName(kSize, "LowPriority");
        const std::string environment = azureml::environmentName(kImage);
        const std::string notFound = R"({"error": {"code": "ResourceNotFound", "message": "not found"}})";

        RecordingTransport transport("application/json; charset=utf-8");
        transport.queue("token", json{{"token_type", "Bearer"}, {"expires_in", 3599}, {"access_token", kToken}});
        json ws = answerOf("workspace_get.json", "200");
        ws["location"] = kRegion;
        ws["properties"]["discoveryUrl"] = "https://eastus.api.azureml.ms/discovery";
        transport.queue("Workspaces_Get", ws);
        transport.queue("Jobs_Get (absent)", json::parse(notFound), 404);
        transport.queue("Compute_Get (absent)", json::parse(notFound), 404);
        json compute = answerOf("compute_create_aml.json", "201");
        compute["name"] = cluster;
        compute["id"] = kWsPath + "/computes/" + cluster;
        transport.queue("Compute_CreateOrUpdate",
                        compute,
                        201,
                        {{"Azure-AsyncOperation",
                          kArm + "/subscriptions/" + kSub
                              + "/providers/Microsoft.MachineLearningServices/locations/eastus/"
                                "computeOperationsStatus/op1?api-version=2022-10-01"}});
        transport.queue("poll Compute_CreateOrUpdate", json{{"status", "Succeeded"}});
        transport.queue("EnvironmentVersions_Get (absent)", json::parse(notFound), 404);
        transport.queue("EnvironmentVersions_CreateOrUpdate", answerOf("environment_version_create.json", "201"), 201);
        json job = answerOf("job_command_create.json", "201");
        job["name"] = kJob;
        job["id"] = kWsPath + "/jobs/" + kJob;
        job["properties"]["tags"] = {{"gpuplanner-token", kJob}};
        job["properties"]["computeId"] = kWsPath + "/computes/" + cluster;
        transport.queue("Jobs_CreateOrUpdate", job, 201);
        json running = job;
        running["properties"]["status"] = "Running";
        transport.queue("Jobs_Get", running);
        json list = answerOf("job_command_list.json", "200");
        list["value"] = json::array({running});
        list.erase("nextLink");
        transport.queue("Jobs_List", list);
        transport.queue("Jobs_Cancel", json(), 200);
        // The log: discovery, run details, the SAS URL (compared with the documented request below, not the SDK).
        transport.queue("discovery", json{{"api", "https://eastus.api.azureml.ms"}});
        json details = json::parse(readFile(GPUPLAN_SOURCE_DIR "/tests/data/cloud/azureml/run_details.json"));
        transport.queue("Runs_GetDetails", details);
        transport.script.push_back({"log_file", 200, {}, "line one\nline two\n"});

        ProviderContext context;
        context.http = &transport;
        context.key = AccessKey{"11111111-2222-3333-4444-555555555555", "client-secret-example-not-real", {}};
        context.settings = {
            {"tenant_id", "tenant-example"}, {"subscription_id", kSub}, {"ml_workspace", kGroup + "/" + kWorkspace}};
        context.clock = fixedClock(std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000)));
        context.sleep = [](std::chrono::milliseconds) {};
        std::unique_ptr<CloudProvider> service = makeAzureMlJobs(context);

        LaunchRequest request;
        request.region = kRegion;
        request.instanceType = "azureml/" + kSize;
        request.pricing = LaunchPricing::Spot;
        request.clientToken = kJob;
        request.terminateAt = 1'800'000'000 + 7200;
        request.tags = {{"project", "lab"}};
        request.job = JobSpec{kImage, {"python", "train.py", "--note", "it's"}, {{"EPOCHS", "3"}}};
        Result<LaunchResult> launched = service->launch(request, nullptr);
        QVERIFY2(launched, launched ? "" : launched.error().reason.key.c_str());
        QVERIFY(service->describe(kRegion, kJob, nullptr));
        Result<std::vector<RemoteInstance>> ours = service->listOurs(kRegion, nullptr);
        QVERIFY(ours && ours->size() == 1);
        QVERIFY(service->terminate(kRegion, kJob, nullptr));
        Result<JobLogPage> page = dynamic_cast<ManagedJobService&>(*service).logs(kRegion, kJob, "", nullptr);
        QVERIFY2(page, page ? "" : page.error().reason.key.c_str());
        QCOMPARE(page->lines.size(), std::size_t(2));
        QCOMPARE(transport.requests.size(), transport.script.size());

        QStringList differences;
        // The run history's requests against the documented ones (see the top).
        const std::size_t logAt = transport.script.size() - 3;
        const HttpRequest& discovery = transport.requests[logAt];
        const HttpRequest& runDetails = transport.requests[logAt + 1];
        const HttpRequest& sas = transport.requests[logAt + 2];
        if (discovery.method != "GET" || discovery.url != "https://eastus.api.azureml.ms/discovery"
            || headerOf(discovery, "authorization") != "(absent)") {
            differences << QString::fromStdString("discovery: " + discovery.method + " " + discovery.url + " with "
                                                  + headerOf(discovery, "authorization"));
        }
        const std::string documented =
            "https://eastus.api.azureml.ms/history/v1.0/subscriptions/" + kSub + "/resourceGroups/" + kGroup
            + "/providers/Microsoft.MachineLearningServices/workspaces/" + kWorkspace + "/runs/" + kJob + "/details";
        if (runDetails.method != "GET" || runDetails.url != documented || !runDetails.body.empty()
            || headerOf(runDetails, "authorization") != "Bearer " + kToken
            || headerOf(runDetails, "accept") != "application/json") {
            differences << QString::fromStdString("run details: " + runDetails.method + " " + runDetails.url
                                                  + " Authorization " + headerOf(runDetails, "authorization")
                                                  + ", not GET " + documented);
        }
        if (sas.url != details["logFiles"]["user_logs/std_log.txt"].get<std::string>()
            || headerOf(sas, "authorization") != "(absent)") {
            differences << QString::fromStdString("log file: " + sas.url + " with Authorization "
                                                  + headerOf(sas, "authorization"));
        }

        // The ARM requests, through the SDK.
        json answers = json::array();
        for (std::size_t i = 1; i < logAt; ++i) {
            const auto& a = transport.script[i];
            json headers = json::array();
            for (const HttpHeader& h : a.headers) {
                headers.push_back({h.name, h.value});
            }
            answers.push_back({{"label", a.label}, {"status", a.status}, {"headers", headers}, {"body", a.body}});
        }
        json commandArgs = json::array();
        for (const std::string& word : request.job->command) {
            commandArgs.push_back(word);
        }
        const json inputs = {{"subscription", kSub},
                             {"resourceGroup", kGroup},
                             {"workspace", kWorkspace},
                             {"region", kRegion},
                             {"token", kToken},
                             {"jobName", kJob},
                             {"cluster", cluster},
                             {"vmSize", kSize},
                             {"priority", "LowPriority"},
                             {"environment", environment},
                             {"image", kImage},
                             {"command", commandArgs},
                             {"environmentVariables", json::array({json::array({"EPOCHS", "3"})})},
                             {"timeoutSeconds", 7200},
                             {"tags", json::array({json::array({"project", "lab"})})},
                             {"answers", answers}};
        QProcess process;
        process.setWorkingDirectory(sdk);
        process.start(node, {QStringLiteral("azureml-wire.js")});
        QVERIFY2(process.waitForStarted(30000), qPrintable(process.errorString()));
        process.write(QByteArray::fromStdString(inputs.dump()));
        process.closeWriteChannel();
        QVERIFY2(process.waitForFinished(120000), "node azureml-wire.js did not finish within 2 minutes");
        const QString stderrText = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(stderrText));
        const std::string printed = process.readAllStandardOutput().toStdString();
        const json captured = json::parse(printed, nullptr, false);
        QVERIFY2(captured.is_array(), qPrintable("azureml-wire.js printed no JSON array\n" + stderrText));

        json sdkRequests = json::array();
        std::size_t sdkOnly = 0;
        for (const json& r : captured) {
            if (r.value("sdkOnly", false)) {
                ++sdkOnly;
                if (r.value("method", "") != "GET" || pathOf(r.value("url", "")) != kWsPath + "/computes/" + cluster) {
                    differences << QString::fromStdString("the SDK's own " + r.value("label", "") + " is "
                                                          + r.value("method", "") + " " + r.value("url", ""));
                }
            } else {
                sdkRequests.push_back(r);
            }
        }
        QCOMPARE(sdkOnly, std::size_t(1)); // the cluster's GET after its operation
        QCOMPARE(sdkRequests.size(), logAt - 1);

        for (std::size_t i = 1; i < logAt; ++i) {
            const std::string& label = transport.script[i].label;
            const HttpRequest& mine = transport.requests[i];
            const json& theirs = sdkRequests[i - 1];
            const QString op = QString::number(i) + " " + QString::fromStdString(label);
            auto differ = [&](const std::string& what) { differences << op + ": " + QString::fromStdString(what); };
            if (theirs.value("label", "") != label) {
                differ("the SDK's request is " + theirs.value("label", ""));
                continue;
            }
            const bool expectError = transport.script[i].status >= 400;
            if (expectError == theirs.value("sdkError", "").empty()) {
                differ("the SDK's call ended with \"" + theirs.value("sdkError", "") + "\"");
            }
            std::map<std::string, std::string> sdkHeaders;
            for (const auto& pair : theirs["headers"]) {
                const std::string name = lower(pair[0].get<std::string>());
                if (!kNotComparedHeaders.count(name)) {
                    sdkHeaders[name] = pair[1].get<std::string>();
                }
            }
            std::map<std::string, std::string> ourHeaders;
            for (const HttpHeader& h : mine.headers) {
                if (!kNotComparedHeaders.count(lower(h.name))) {
                    ourHeaders[lower(h.name)] = h.value;
                }
            }
            const std::string sdkBody = theirs.value("body", "");
            if (mine.body.empty() && sdkBody.empty() && !ourHeaders.count("content-type")) {
                sdkHeaders.erase("content-type"); // a poll without a body (the SDK types it anyway)
            }
            const std::string sdkUrl = theirs.value("url", "");
            if (theirs.value("method", "") != mine.method || pathOf(sdkUrl) != pathOf(mine.url)) {
                differ("request line " + mine.method + " " + pathOf(mine.url) + " vs the SDK's "
                       + theirs.value("method", "") + " " + pathOf(sdkUrl));
            }
            std::vector<std::string> found;
            if (mine.body.empty() != sdkBody.empty()) {
                found.push_back("body \"" + mine.body + "\" vs the SDK's \"" + sdkBody + "\"");
            } else if (!mine.body.empty()) {
                std::vector<std::string> bodyDifferences;
                compareJson(json::parse(mine.body), json::parse(sdkBody), "", bodyDifferences, kBodyRules);
                for (const std::string& d : bodyDifferences) {
                    found.push_back("body member " + d);
                }
            }
            compareFields(queryOf(mine.url), queryOf(sdkUrl), found);
            for (const std::string& d : found) {
                differ(d);
            }
            for (const auto& [name, value] : sdkHeaders) {
                if (!ourHeaders.count(name)) {
                    differ("header " + name + " (\"" + value + "\") is in the SDK's request only");
                }
            }
            for (const auto& [name, value] : ourHeaders) {
                if (!sdkHeaders.count(name)) {
                    differ("header " + name + " (\"" + value + "\") is in our request only");
                } else if (sdkHeaders[name] != value) {
                    differ("header " + name + " is \"" + value + "\" here and \"" + sdkHeaders[name]
                           + "\" in the SDK's request");
                }
            }
            if (ourHeaders["authorization"] != "Bearer " + kToken) {
                differ("our Authorization is \"" + ourHeaders["authorization"] + "\"");
            }
        }
        for (const QString& difference : differences) {
            qWarning().noquote() << difference;
        }
        QVERIFY2(
            differences.isEmpty(),
            qPrintable(QString::number(differences.size()) + " difference(s) from the SDK's requests, listed above"));
    }
};

QTEST_GUILESS_MAIN(TestAzureMlWire)
#include "TestAzureMlWire.moc"
