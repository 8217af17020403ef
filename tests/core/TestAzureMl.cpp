// Azure Machine Learning command jobs without a network: each ARM call carries the documented method, path,
// api-version and body; the parsers read the REST spec's examples (tests/data/cloud/azureml, README there names each
// page); errors map to the stable code and Azure ML's advice; and a scripted transport answering per method and path
// (the token exchange included) drives the service through makeAzureMlJobs: an existing job is found without a PUT,
// the cluster and environment are created when missing and reused when present, spot is LowPriority, terminateAt is
// the job's timeout, cancel of an ended job is Ok, and the log is paged by byte offset from a SAS URL fetched without
// the bearer token.

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <QTest>

#include <nlohmann/json.hpp>

#include "gpuplan/cloud/ManagedJobService.h"
#include "gpuplan/cloud/providers/azure/AzureMlApi.h"
#include "gpuplan/cloud/providers/azure/AzureProvider.h"
#include "gpuplan/net/Crypto.h"

using namespace gpuplan::core;
using nlohmann::json;

#define JCOMPARE(actual, expected) \
    QVERIFY2(json(actual) == json(expected), (json(actual).dump() + " != " + json(expected).dump()).c_str())

namespace {

const std::string kSub = "00000000-0000-0000-0000-00000000beef";
const std::string kRegion = "eastus";
const std::string kToken = "gpuplan-0123456789abcdef01234567";
const std::string kBase = "http://127.0.0.1:9";
const std::string kWs =
    "/subscriptions/" + kSub + "/resourceGroups/ml-rg/providers/Microsoft.MachineLearningServices/workspaces/ml-ws";
const std::string kSize = "Standard_NC4as_T4_v3";
const std::string kImage = "mcr.microsoft.com/azureml/openmpi4.1.0-cuda11.8-cudnn8-ubuntu22.04";

std::string fixture(const std::string& name)
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/tests/data/cloud/azureml/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

json doc(const std::string& name)
{
    return json::parse(fixture(name));
}

// The answer body of a spec example for `status`.
json answerOf(const std::string& name, const std::string& status)
{
    return doc(name)["responses"][status]["body"];
}

azureml::Workspace workspace()
{
    return azureml::Workspace{kSub, "ml-rg", "ml-ws"};
}

struct Answer
{
    int status;
    std::string body;
    std::vector<HttpHeader> headers;
};

class ScriptedTransport final : public HttpTransport
{
public:
    void answer(const std::string& key, std::string body, int status = 200, std::vector<HttpHeader> headers = {})
    {
        m_answers[key].push_back({status, std::move(body), std::move(headers)});
    }

    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken*) override
    {
        requests.push_back(request);
        const std::string k = key(request);
        auto found = m_answers.find(k);
        if (found == m_answers.end() || found->second.empty()) {
            return HttpResponse{404, {}, json{{"error", {{"code", "ResourceNotFound"}, {"message", k}}}}.dump()};
        }
        Answer a = found->second.front();
        if (found->second.size() > 1) {
            found->second.pop_front();
        }
        a.headers.push_back({"Content-Type", "application/json"});
        return HttpResponse{a.status, a.headers, a.body};
    }

    static std::string pathOf(const HttpRequest& request)
    {
        std::string path = request.url.substr(request.url.find('/', std::string("http://").size()));
        return path.substr(0, path.find('?'));
    }
    static std::string key(const HttpRequest& request) { return request.method + " " + pathOf(request); }

    int count(const std::string& k) const
    {
        return int(std::count_if(requests.begin(), requests.end(), [&](const HttpRequest& r) { return key(r) == k; }));
    }
    int countMethod(const std::string& method) const
    {
        return int(
            std::count_if(requests.begin(), requests.end(), [&](const HttpRequest& r) { return r.method == method; }));
    }
    const HttpRequest* find(const std::string& k) const
    {
        for (const HttpRequest& r : requests) {
            if (key(r) == k) {
                return &r;
            }
        }
        return nullptr;
    }

    std::vector<HttpRequest> requests;

private:
    std::map<std::string, std::deque<Answer>> m_answers;
};

std::string header(const HttpRequest& request, const std::string& name)
{
    for (const HttpHeader& h : request.headers) {
        if (QString::fromStdString(h.name).compare(QString::fromStdString(name), Qt::CaseInsensitive) == 0) {
            return h.value;
        }
    }
    return "(none)";
}

std::vector<std::chrono::milliseconds> g_slept;

ProviderContext contextFor(ScriptedTransport& transport, const std::string& ws = "ml-rg/ml-ws")
{
    ProviderContext context;
    context.http = &transport;
    context.key = AccessKey{"11111111-2222-3333-4444-555555555555", "client-secret-example-not-real", {}};
    context.endpoint = kBase;
    context.settings["tenant_id"] = "tenant-example";
    context.settings["subscription_id"] = kSub;
    if (!ws.empty()) {
        context.settings["ml_workspace"] = ws;
    }
    context.clock = fixedClock(std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000)));
    context.sleep = [](std::chrono::milliseconds ms) { g_slept.push_back(ms); };
    return context;
}

// The token and the workspace in eastus, its discovery URL on the fake host.
void answerWorkspace(ScriptedTransport& t, const std::string& location = kRegion)
{
    t.answer("POST /tenant-example/oauth2/v2.0/token",
             json{{"token_type", "Bearer"}, {"expires_in", 3599}, {"access_token", "token-example"}}.dump());
    json ws = answerOf("workspace_get.json", "200");
    ws["location"] = location;
    ws["properties"]["discoveryUrl"] = kBase + "/discovery/eastus";
    t.answer("GET " + kWs, ws.dump());
}

json jobBody(const std::string& status, const std::string& computeName)
{
    json job = answerOf("job_command_create.json", "201");
    job["name"] = kToken;
    job["id"] = kWs + "/jobs/" + kToken;
    job["properties"]["status"] = status;
    job["properties"]["tags"] = {{"gpuplanner-token", kToken}};
    job["properties"]["computeId"] = kWs + "/computes/" + computeName;
    return job;
}

json computeBody(const std::string& name, const std::string& priority)
{
    json compute = answerOf("compute_get_aml.json", "200");
    compute["name"] = name;
    compute["id"] = kWs + "/computes/" + name;
    compute["properties"]["properties"]["vmSize"] = kSize;
    compute["properties"]["properties"]["vmPriority"] = priority;
    return compute;
}

LaunchRequest jobRequest(LaunchPricing pricing = LaunchPricing::OnDemand)
{
    LaunchRequest r;
    r.region = kRegion;
    r.instanceType = "azureml/" + kSize;
    r.pricing = pricing;
    r.clientToken = kToken;
    r.terminateAt = 1'800'000'000 + 3600;
    r.tags = {{"project", "lab"}};
    r.job = JobSpec{kImage, {"python", "train.py", "--name", "it's me"}, {{"EPOCHS", "3"}}};
    return r;
}

bool hasStep(const LaunchResult& result, const std::string& key)
{
    return std::any_of(result.steps.begin(), result.steps.end(), [&](const Reason& r) { return r.key == key; });
}

} // namespace

class TestAzureMl : public QObject
{
    Q_OBJECT

private slots:
    void namesAndPureFunctions()
    {
        QCOMPARE(azureml::clusterName(kSize, "Dedicated"), "gpl-" + sha256Hex(kSize + "Dedicated").substr(0, 8));
        QVERIFY(azureml::clusterName(kSize, "Dedicated") != azureml::clusterName(kSize, "LowPriority"));
        QCOMPARE(azureml::clusterName(kSize, "LowPriority").size(), std::size_t(12)); // AmlCompute: 2 to 16
        QCOMPARE(azureml::environmentName(kImage), "gpuplanner-" + sha256Hex(kImage).substr(0, 12));
        QCOMPARE(azureml::shellCommand({"python", "train.py", "--lr=0.1", "a b", "it's", ""}),
                 std::string("python train.py --lr=0.1 'a b' 'it'\\''s' ''"));
        QCOMPARE(azureml::isoSeconds(3600), std::string("PT3600S"));
        QCOMPARE(*azureml::vmSizeOf("azureml/Standard_NC4as_T4_v3"), kSize);
        QCOMPARE(azureml::vmSizeOf("vertex/g2-standard-8").error().reason.key,
                 std::string("error.azureml.instance_type"));
        QCOMPARE(azureml::vmSizeOf("azureml/").error().code, ErrorCode::InvalidArgument);
        QVERIFY(azureml::validJobName(kToken));
        QVERIFY(!azureml::validJobName("-x"));
        QVERIFY(!azureml::validJobName("a/b"));
        QCOMPARE(azureml::parseWorkspaceSetting(kSub, "").error().reason.key,
                 std::string("error.azureml.no_workspace"));
        QCOMPARE(azureml::parseWorkspaceSetting(kSub, "justone").error().reason.key,
                 std::string("error.azureml.workspace_invalid"));
        QCOMPARE(azureml::parseWorkspaceSetting(kSub, "ml-rg/ml-ws")->path(), kWs);
        QVERIFY(azureml::sameRegion("East US", "eastus"));
        QVERIFY(!azureml::sameRegion("eastus2", "eastus"));
    }

    void statesMap()
    {
        for (const char* s : {"NotStarted", "Starting", "Provisioning", "Preparing", "Queued", "Paused", "Unknown"}) {
            QCOMPARE(azureml::stateOf(s), InstanceState::Pending);
        }
        QCOMPARE(azureml::stateOf("Running"), InstanceState::Running);
        QCOMPARE(azureml::stateOf("Finalizing"), InstanceState::Running);
        QCOMPARE(azureml::stateOf("CancelRequested"), InstanceState::Stopping);
        QCOMPARE(azureml::stateOf("Completed"), InstanceState::Terminated);
        QCOMPARE(azureml::stateOf("Canceled"), InstanceState::Terminated);
        QCOMPARE(azureml::stateOf("Failed"), InstanceState::Failed);
        QCOMPARE(azureml::stateOf("NotResponding"), InstanceState::Failed);
    }

    void callsCarryTheDocumentedRequests()
    {
        const azureml::Workspace ws = workspace();
        const azure::Call getWs = azureml::getWorkspaceCall(ws);
        QCOMPARE(getWs.method, std::string("GET"));
        QCOMPARE(getWs.path, kWs);
        JCOMPARE(getWs.query, (std::vector<std::pair<std::string, std::string>>{{"api-version", "2022-10-01"}}));

        const azure::Call put = azureml::putComputeCall(ws, kRegion, "gpl-12345678", kSize, "LowPriority");
        QCOMPARE(put.method, std::string("PUT"));
        QCOMPARE(put.path, kWs + "/computes/gpl-12345678");
        // The spec example's request shape, with our values.
        const json example = doc("compute_create_aml.json")["parameters"]["parameters"];
        JCOMPARE(put.body["properties"]["computeType"], example["properties"]["computeType"]);
        JCOMPARE(put.body,
                 (json{{"location", "eastus"},
                       {"properties",
                        {{"computeType", "AmlCompute"},
                         {"properties",
                          {{"vmSize", kSize},
                           {"vmPriority", "LowPriority"},
                           {"scaleSettings",
                            {{"minNodeCount", 0}, {"maxNodeCount", 1}, {"nodeIdleTimeBeforeScaleDown", "PT2M"}}}}}}}}));

        const azure::Call env = azureml::putEnvironmentCall(ws, "gpuplanner-abc", "1", kImage);
        QCOMPARE(env.path, kWs + "/environments/gpuplanner-abc/versions/1");
        JCOMPARE(env.body, (json{{"properties", {{"image", kImage}}}}));
        QCOMPARE(azureml::getEnvironmentCall(ws, "gpuplanner-abc", "1").method, std::string("GET"));

        azureml::JobInput input;
        input.name = kToken;
        input.computeId = kWs + "/computes/gpl-1";
        input.environmentId = kWs + "/environments/e/versions/1";
        input.command = {"python", "train.py"};
        input.environment = {{"A", "1"}};
        input.timeoutSeconds = 90;
        input.tags = {{"project", "lab"}};
        Result<azure::Call> job = azureml::putJobCall(ws, input);
        QVERIFY(job);
        QCOMPARE(job->method, std::string("PUT"));
        QCOMPARE(job->path, kWs + "/jobs/" + kToken);
        JCOMPARE(job->body,
                 (json{{"properties",
                        {{"jobType", "Command"},
                         {"experimentName", "gpuplanner"},
                         {"displayName", kToken},
                         {"computeId", input.computeId},
                         {"environmentId", input.environmentId},
                         {"command", "python train.py"},
                         {"environmentVariables", {{"A", "1"}}},
                         {"resources", {{"instanceCount", 1}}},
                         {"limits", {{"jobLimitsType", "Command"}, {"timeout", "PT90S"}}},
                         {"tags", {{"gpuplanner-token", kToken}, {"project", "lab"}}}}}}));
        input.tags = {{"gpuplanner-token", "other"}};
        QCOMPARE(azureml::putJobCall(ws, input).error().reason.key, std::string("error.azureml.tag_invalid"));
        input.tags = {};
        input.command = {};
        QCOMPARE(azureml::putJobCall(ws, input).error().reason.key, std::string("error.azureml.no_command"));

        const azure::Call list = azureml::listJobsCall(ws);
        QCOMPARE(list.path, kWs + "/jobs");
        JCOMPARE(list.query,
                 (std::vector<std::pair<std::string, std::string>>{{"api-version", "2022-10-01"},
                                                                   {"tag", "gpuplanner-token"}}));
        const azure::Call cancel = azureml::cancelJobCall(ws, kToken);
        QCOMPARE(cancel.method, std::string("POST"));
        QCOMPARE(cancel.path, kWs + "/jobs/" + kToken + "/cancel");
        QVERIFY(cancel.body.is_null());
        QCOMPARE(azureml::runDetailsUrl("https://eastus.api.azureml.ms/", ws, kToken),
                 "https://eastus.api.azureml.ms/history/v1.0" + kWs + "/runs/" + kToken + "/details");
    }

    void parsersReadTheDocumentedAnswers()
    {
        Result<azureml::WorkspaceInfo> ws = azureml::parseWorkspace(answerOf("workspace_get.json", "200").dump());
        QVERIFY(ws);
        QCOMPARE(ws->location, std::string("eastus2euap"));
        QCOMPARE(ws->discoveryUrl, std::string("http://example.com"));

        Result<azureml::Compute> compute = azureml::parseCompute(answerOf("compute_get_aml.json", "200").dump(), "get");
        QVERIFY(compute);
        QCOMPARE(compute->name, std::string("compute123"));
        QCOMPARE(compute->computeType, std::string("AmlCompute"));
        QCOMPARE(compute->provisioningState, std::string("Succeeded"));
        QCOMPARE(compute->vmSize, std::string("STANDARD_NC6"));
        QCOMPARE(compute->vmPriority, std::string("Dedicated"));
        Result<azureml::Compute> creating =
            azureml::parseCompute(answerOf("compute_create_aml.json", "201").dump(), "put");
        QVERIFY(creating);
        QCOMPARE(creating->provisioningState, std::string("Updating"));

        for (const char* status : {"NotStarted", "Queued", "Running", "Completed", "Failed", "Canceled"}) {
            json body = answerOf("job_command_create.json", "201");
            body["properties"]["status"] = status;
            Result<azureml::Job> job = azureml::parseJob(body.dump(), "get");
            QVERIFY(job);
            QCOMPARE(job->status, std::string(status));
            QCOMPARE(job->name, std::string("string"));
            QVERIFY(job->clientToken.empty()); // the example's tags are {"string": "string"}
            QCOMPARE(*job->createdAt, std::int64_t(1577882096));
        }
        json listed = answerOf("job_command_list.json", "200");
        listed["value"][0]["properties"]["tags"]["gpuplanner-token"] = kToken;
        Result<azureml::JobPage> page = azureml::parseJobs(listed.dump());
        QVERIFY(page);
        QCOMPARE(page->jobs.size(), std::size_t(1));
        QCOMPARE(page->jobs[0].clientToken, kToken);
        QCOMPARE(page->nextLink, std::string("string"));

        Result<azureml::RunDetails> details = azureml::parseRunDetails(fixture("run_details.json"));
        QVERIFY(details);
        QCOMPARE(details->status, std::string("Running"));
        QCOMPARE(details->logFiles.size(), std::size_t(2));
        QCOMPARE(azureml::userLogFile(*details), std::string("user_logs/std_log.txt"));
        QCOMPARE(azureml::userLogFile(azureml::RunDetails{"Running", {{"azureml-logs/70_driver_log.txt", "u"}}}),
                 std::string("azureml-logs/70_driver_log.txt"));
        QVERIFY(azureml::userLogFile(azureml::RunDetails{"Queued", {}}).empty());
        const std::string discovery = json{{"api", "https://eastus.api.azureml.ms"}, {"catalog", "x"}}.dump();
        QCOMPARE(*azureml::parseDiscovery(discovery), std::string("https://eastus.api.azureml.ms"));

        // Broken answers name the call and the field.
        QCOMPARE(azureml::parseJob("not json", "Jobs_Get").error().reason.key, std::string("error.answer.not_json"));
        QCOMPARE(azureml::parseJob("{}", "Jobs_Get").error().reason.params.at("field"), std::string("name"));
        QCOMPARE(azureml::parseWorkspace("{}").error().reason.params.at("field"), std::string("location"));
        const std::string notList = json{{"value", 3}}.dump();
        QCOMPARE(azureml::parseJobs(notList).error().reason.key, std::string("error.answer.not_list"));
    }

    void logLinesKeepTheOffset()
    {
        std::size_t consumed = 0;
        const std::string text = "one\ntwo\r\nthree";
        std::vector<std::string> lines = azureml::logLines(text, 0, false, consumed);
        JCOMPARE(lines, (std::vector<std::string>{"one", "two"}));
        QCOMPARE(consumed, std::size_t(9));
        lines = azureml::logLines(text, consumed, false, consumed);
        QVERIFY(lines.empty());
        QCOMPARE(consumed, std::size_t(9));
        lines = azureml::logLines(text, consumed, true, consumed);
        JCOMPARE(lines, (std::vector<std::string>{"three"}));
        QCOMPARE(consumed, text.size());
    }

    void errorsMap()
    {
        azure::ErrorContext c;
        c.action = "Compute_CreateOrUpdate";
        c.region = kRegion;
        c.instanceType = "azureml/" + kSize;
        const HttpResponse quota{
            400,
            {},
            json{{"error",
                  {{"code", "QuotaExceeded"},
                   {"message",
                    "Operation results in exceeding quota limits of Core. Maximum allowed: 0, Current in use: 0, "
                    "Additional requested: 4."}}}}
                .dump()};
        std::optional<Error> q = azureml::mapError(quota, c);
        QVERIFY(q);
        QCOMPARE(q->code, ErrorCode::QuotaExceeded);
        QCOMPARE(q->reason.key, std::string("error.azureml.quota"));
        QCOMPARE(q->reason.params.at("instance_type"), "azureml/" + kSize);

        const HttpResponse denied{
            403,
            {},
            json{{"error",
                  {{"code", "AuthorizationFailed"},
                   {"message",
                    "The client 'x' with object id 'y' does not have authorization to perform action "
                    "'Microsoft.MachineLearningServices/workspaces/jobs/write' over scope '/subscriptions/s' or the "
                    "scope is invalid."}}}}
                .dump()};
        std::optional<Error> d = azureml::mapError(denied, c);
        QCOMPARE(d->code, ErrorCode::PermissionDenied);
        QCOMPARE(d->reason.key, std::string("error.azureml.permission"));
        QCOMPARE(d->reason.params.at("permission"),
                 std::string("Microsoft.MachineLearningServices/workspaces/jobs/write"));

        const HttpResponse throttled{429, {{"Retry-After", "7"}}, R"({"error": {"code": "TooManyRequests"}})"};
        std::optional<Error> t = azureml::mapError(throttled, c);
        QCOMPARE(t->code, ErrorCode::Throttled);
        QCOMPARE(t->reason.params.at("retry_after"), std::string("7"));

        QVERIFY(!azureml::mapError(HttpResponse{200, {}, "{}"}, c));
    }

    void missingWorkspaceSettingSaysHow()
    {
        ScriptedTransport t;
        auto service = makeAzureMlJobs(contextFor(t, ""));
        QCOMPARE(service->kind(), LaunchKind::Job);
        Result<LaunchResult> result = service->launch(jobRequest(), nullptr);
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(result.error().reason.key, std::string("error.azureml.no_workspace"));
        QVERIFY(t.requests.empty());
    }

    void workspaceNotFoundAndWrongRegion()
    {
        ScriptedTransport gone;
        gone.answer("POST /tenant-example/oauth2/v2.0/token",
                    json{{"token_type", "Bearer"}, {"expires_in", 3599}, {"access_token", "token-example"}}.dump());
        Result<LaunchResult> missing = makeAzureMlJobs(contextFor(gone))->launch(jobRequest(), nullptr);
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QCOMPARE(missing.error().reason.key, std::string("error.azureml.workspace_not_found"));
        QCOMPARE(missing.error().reason.params.at("workspace"), std::string("ml-rg/ml-ws"));

        ScriptedTransport west;
        answerWorkspace(west, "westus2");
        Result<LaunchResult> wrong = makeAzureMlJobs(contextFor(west))->launch(jobRequest(), nullptr);
        QCOMPARE(wrong.error().reason.key, std::string("error.azureml.wrong_region"));
        QCOMPARE(wrong.error().reason.params.at("workspace_region"), std::string("westus2"));
        QCOMPARE(wrong.error().reason.params.at("region"), kRegion);
        QCOMPARE(west.countMethod("PUT"), 0);
    }

    void existingJobIsFoundWithoutPut()
    {
        ScriptedTransport t;
        answerWorkspace(t);
        t.answer("GET " + kWs + "/jobs/" + kToken, jobBody("Running", "gpl-x").dump());
        auto service = makeAzureMlJobs(contextFor(t));
        Result<LaunchResult> result = service->launch(jobRequest(), nullptr);
        QVERIFY2(result, result ? "" : result.error().reason.key.c_str());
        QCOMPARE(result->instanceId, kToken);
        QCOMPARE(result->state, InstanceState::Running);
        QVERIFY(hasStep(*result, "step.azureml.job_found"));
        QCOMPARE(t.countMethod("PUT"), 0);
        QCOMPARE(t.count("GET " + kWs), 1);
    }

    void clusterAndEnvironmentCreatedWhenMissing()
    {
        ScriptedTransport t;
        answerWorkspace(t);
        const std::string cluster = azureml::clusterName(kSize, "Dedicated");
        const std::string env = azureml::environmentName(kImage);
        json created = answerOf("compute_create_aml.json", "201");
        created["name"] = cluster;
        created["id"] = kWs + "/computes/" + cluster;
        t.answer("PUT " + kWs + "/computes/" + cluster,
                 created.dump(),
                 201,
                 {{"Azure-AsyncOperation", kBase + "/subscriptions/" + kSub + "/providers/operations/c1"},
                  {"Retry-After", "4"}});
        t.answer("GET /subscriptions/" + kSub + "/providers/operations/c1", R"({"status": "InProgress"})");
        t.answer("GET /subscriptions/" + kSub + "/providers/operations/c1", R"({"status": "Succeeded"})");
        t.answer("PUT " + kWs + "/environments/" + env + "/versions/1",
                 answerOf("environment_version_create.json", "201").dump(),
                 201);
        json submitted = jobBody("NotStarted", cluster);
        t.answer("PUT " + kWs + "/jobs/" + kToken, submitted.dump(), 201);
        g_slept.clear();
        auto service = makeAzureMlJobs(contextFor(t));
        Result<LaunchResult> result = service->launch(jobRequest(), nullptr);
        QVERIFY2(result, result ? "" : result.error().reason.key.c_str());
        QCOMPARE(result->instanceId, kToken);
        QCOMPARE(result->state, InstanceState::Pending);
        QVERIFY(hasStep(*result, "step.azureml.cluster_created"));
        QVERIFY(hasStep(*result, "step.azureml.environment_created"));
        QVERIFY(hasStep(*result, "step.azureml.job_submitted"));
        QCOMPARE(t.count("GET /subscriptions/" + kSub + "/providers/operations/c1"), 2);
        QVERIFY(!g_slept.empty());
        QCOMPARE(g_slept.front(), std::chrono::milliseconds(4000)); // Retry-After honoured

        const HttpRequest* computePut = t.find("PUT " + kWs + "/computes/" + cluster);
        const json computeBody = json::parse(computePut->body);
        JCOMPARE(computeBody["properties"]["properties"]["vmPriority"], json("Dedicated"));
        JCOMPARE(computeBody["location"], json(kRegion));
        QCOMPARE(header(*computePut, "Authorization"), std::string("Bearer token-example"));

        const HttpRequest* jobPut = t.find("PUT " + kWs + "/jobs/" + kToken);
        const json jobJson = json::parse(jobPut->body)["properties"];
        JCOMPARE(jobJson["computeId"], json(kWs + "/computes/" + cluster));
        JCOMPARE(jobJson["environmentId"], json(kWs + "/environments/" + env + "/versions/1"));
        JCOMPARE(jobJson["command"], json("python train.py --name 'it'\\''s me'"));
        JCOMPARE(jobJson["environmentVariables"], (json{{"EPOCHS", "3"}}));
        JCOMPARE(jobJson["limits"]["timeout"], json("PT3600S")); // terminateAt - the clock's now
        JCOMPARE(jobJson["tags"], (json{{"gpuplanner-token", kToken}, {"project", "lab"}}));
        JCOMPARE(jobJson["displayName"], json(kToken));
    }

    void clusterAndEnvironmentReusedWhenPresent()
    {
        ScriptedTransport t;
        answerWorkspace(t);
        const std::string cluster = azureml::clusterName(kSize, "LowPriority");
        const std::string env = azureml::environmentName(kImage);
        t.answer("GET " + kWs + "/computes/" + cluster, computeBody(cluster, "LowPriority").dump());
        json envBody = answerOf("environment_version_create.json", "201");
        t.answer("GET " + kWs + "/environments/" + env + "/versions/1", envBody.dump());
        t.answer("PUT " + kWs + "/jobs/" + kToken, jobBody("NotStarted", cluster).dump(), 201);
        auto service = makeAzureMlJobs(contextFor(t));
        Result<LaunchResult> result = service->launch(jobRequest(LaunchPricing::Spot), nullptr);
        QVERIFY2(result, result ? "" : result.error().reason.key.c_str());
        QVERIFY(hasStep(*result, "step.azureml.cluster_found"));
        QVERIFY(hasStep(*result, "step.azureml.environment_found"));
        QCOMPARE(t.count("PUT " + kWs + "/computes/" + cluster), 0);
        QCOMPARE(t.count("PUT " + kWs + "/environments/" + env + "/versions/1"), 0);
        QCOMPARE(t.countMethod("PUT"), 1);
        JCOMPARE(json::parse(t.find("PUT " + kWs + "/jobs/" + kToken)->body)["properties"]["computeId"],
                 json(kWs + "/computes/" + cluster));

        // describe: the spot cluster's size and pricing.
        t.answer("GET " + kWs + "/jobs/" + kToken, jobBody("Running", cluster).dump());
        Result<RemoteInstance> shown = service->describe(kRegion, kToken, nullptr);
        QVERIFY(shown);
        QCOMPARE(shown->instanceType, "azureml/" + kSize);
        QCOMPARE(shown->pricingMode, std::string("spot"));
        QCOMPARE(shown->state, InstanceState::Running);
        QCOMPARE(shown->providerState, std::string("Running"));
        QCOMPARE(shown->clientToken, kToken);
    }

    void spotClusterIsLowPriorityAndQuotaRefusalAdvises()
    {
        ScriptedTransport t;
        answerWorkspace(t);
        const std::string cluster = azureml::clusterName(kSize, "LowPriority");
        t.answer("PUT " + kWs + "/computes/" + cluster,
                 R"({"error": {"code": "QuotaExceeded", "message": "Low priority cores quota exceeded"}})",
                 400);
        Result<LaunchResult> result = makeAzureMlJobs(contextFor(t))->launch(jobRequest(LaunchPricing::Spot), nullptr);
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::QuotaExceeded);
        QCOMPARE(result.error().reason.key, std::string("error.azureml.quota"));
        QCOMPARE(result.error().reason.params.at("spot"), std::string("1"));
        const HttpRequest* put = t.find("PUT " + kWs + "/computes/" + cluster);
        QVERIFY(put);
        JCOMPARE(json::parse(put->body)["properties"]["properties"]["vmPriority"], json("LowPriority"));
        QCOMPARE(t.count("PUT " + kWs + "/jobs/" + kToken), 0);
    }

    void timeoutInThePastIsRefused()
    {
        ScriptedTransport t;
        LaunchRequest r = jobRequest();
        r.terminateAt = 1'800'000'000 - 1;
        Result<LaunchResult> result = makeAzureMlJobs(contextFor(t))->launch(r, nullptr);
        QCOMPARE(result.error().reason.key, std::string("error.azureml.timeout_past"));
        QVERIFY(t.requests.empty());
    }

    void listOursFollowsPages()
    {
        ScriptedTransport t;
        answerWorkspace(t);
        json first = answerOf("job_command_list.json", "200");
        first["value"][0] = jobBody("Completed", "gpl-x");
        first["nextLink"] = kBase + kWs + "/jobs?api-version=2022-10-01&$skipToken=p2";
        json second = answerOf("job_command_list.json", "200");
        second["value"][0]["name"] = "not-ours"; // no token tag
        json other = jobBody("Queued", "gpl-x");
        other["name"] = "gpuplan-second";
        other["properties"]["tags"]["gpuplanner-token"] = "gpuplan-second";
        second["value"].push_back(other);
        second.erase("nextLink");
        t.answer("GET " + kWs + "/jobs", first.dump());
        t.answer("GET " + kWs + "/jobs", second.dump());
        t.answer("GET " + kWs + "/computes/gpl-x", computeBody("gpl-x", "Dedicated").dump());
        auto service = makeAzureMlJobs(contextFor(t));
        Result<std::vector<RemoteInstance>> ours = service->listOurs(kRegion, nullptr);
        QVERIFY2(ours, ours ? "" : ours.error().reason.key.c_str());
        QCOMPARE(ours->size(), std::size_t(2));
        QCOMPARE((*ours)[0].state, InstanceState::Terminated);
        QCOMPARE((*ours)[1].clientToken, std::string("gpuplan-second"));
        QCOMPARE((*ours)[1].pricingMode, std::string("on_demand"));
        QCOMPARE(t.count("GET " + kWs + "/jobs"), 2);
        QCOMPARE(t.count("GET " + kWs + "/computes/gpl-x"), 1); // cached
        // Another region holds none of the workspace's jobs.
        Result<std::vector<RemoteInstance>> west = service->listOurs("westus", nullptr);
        QVERIFY(west && west->empty());
    }

    void cancelOfAnEndedJobIsOk()
    {
        ScriptedTransport t;
        answerWorkspace(t);
        t.answer("POST " + kWs + "/jobs/" + kToken + "/cancel",
                 R"({"error": {"code": "UserError", "message": "Job is already in terminal state"}})",
                 400);
        t.answer("GET " + kWs + "/jobs/" + kToken, jobBody("Completed", "gpl-x").dump());
        auto service = makeAzureMlJobs(contextFor(t));
        QVERIFY(service->terminate(kRegion, kToken, nullptr));

        ScriptedTransport running;
        answerWorkspace(running);
        running.answer("POST " + kWs + "/jobs/" + kToken + "/cancel",
                       R"({"error": {"code": "UserError", "message": "refused"}})",
                       400);
        running.answer("GET " + kWs + "/jobs/" + kToken, jobBody("Running", "gpl-x").dump());
        QVERIFY(!makeAzureMlJobs(contextFor(running))->terminate(kRegion, kToken, nullptr));

        ScriptedTransport accepted;
        answerWorkspace(accepted);
        accepted.answer("POST " + kWs + "/jobs/" + kToken + "/cancel", "", 202);
        QVERIFY(makeAzureMlJobs(contextFor(accepted))->terminate(kRegion, kToken, nullptr));
        QCOMPARE(accepted.count("POST " + kWs + "/jobs/" + kToken + "/cancel"), 1);
    }

    void logsPageByOffsetWithoutTheTokenOnTheSasUrl()
    {
        ScriptedTransport t;
        answerWorkspace(t);
        t.answer("GET /discovery/eastus", json{{"api", kBase + "/api"}, {"catalog", "x"}}.dump());
        json details = doc("run_details.json");
        details["logFiles"]["user_logs/std_log.txt"] = kBase + "/blob/std_log.txt?sv=1&sig=SAS";
        const std::string detailsKey = "GET /api/history/v1.0" + kWs + "/runs/" + kToken + "/details";
        t.answer(detailsKey, details.dump());
        json ended = details;
        ended["status"] = "Completed";
        t.answer(detailsKey, ended.dump()); // the second read: the job has ended
        t.answer("GET /blob/std_log.txt", "gpuplan-fake: job started\nstep 1\nstep");
        t.answer("GET /blob/std_log.txt", "gpuplan-fake: job started\nstep 1\nstep 2\ndone");
        auto* service = dynamic_cast<ManagedJobService*>(makeAzureMlJobs(contextFor(t)).release());
        std::unique_ptr<ManagedJobService> owned(service);
        Result<JobLogPage> first = owned->logs(kRegion, kToken, "", nullptr);
        QVERIFY2(first, first ? "" : first.error().reason.key.c_str());
        QCOMPARE(first->lines.size(), std::size_t(2));
        QCOMPARE(first->lines[1].text, std::string("step 1"));
        QCOMPARE(first->next, std::to_string(std::string("gpuplan-fake: job started\nstep 1\n").size()));

        Result<JobLogPage> second = owned->logs(kRegion, kToken, first->next, nullptr);
        QVERIFY(second);
        QCOMPARE(second->lines.size(), std::size_t(2));
        QCOMPARE(second->lines[0].text, std::string("step 2"));
        QCOMPARE(second->lines[1].text, std::string("done"));

        for (const HttpRequest& r : t.requests) {
            const std::string path = ScriptedTransport::pathOf(r);
            if (path.starts_with("/blob/") || path.starts_with("/discovery/")) {
                QCOMPARE(header(r, "Authorization"), std::string("(none)"));
            }
        }
        QCOMPARE(header(*t.find(detailsKey), "Authorization"), std::string("Bearer token-example"));
        QCOMPARE(t.count("GET /discovery/eastus"), 1); // asked once per session

        // A cursor that is no byte offset is refused.
        QCOMPARE(owned->logs(kRegion, kToken, "abc", nullptr).error().reason.key, std::string("error.azureml.cursor"));
    }

    void urlsFromAnswersMustBeSafe()
    {
        ScriptedTransport t;
        answerWorkspace(t);
        t.answer("GET /discovery/eastus", json{{"api", kBase + "/api"}}.dump());
        json details = doc("run_details.json"); // its SAS URLs are https on blob storage: allowed, but answered 404
        details["logFiles"] = {{"user_logs/std_log.txt", "http://203.0.113.9/blob/std_log.txt?sig=x"}};
        t.answer("GET /api/history/v1.0" + kWs + "/runs/" + kToken + "/details", details.dump());
        std::unique_ptr<CloudProvider> provider = makeAzureMlJobs(contextFor(t));
        Result<JobLogPage> page = dynamic_cast<ManagedJobService&>(*provider).logs(kRegion, kToken, "", nullptr);
        QVERIFY(!page);
        QCOMPARE(page.error().reason.key, std::string("error.azureml.url_refused"));
        QCOMPARE(t.count("GET /blob/std_log.txt"), 0);
    }

    void descriptorDescribesTheService()
    {
        const ProviderDescriptor& ml = azureMlDescriptor();
        QCOMPARE(azureDescriptor().managedJobs, &ml);
        QCOMPARE(ml.id, std::string("azure"));
        QCOMPARE(ml.kind, LaunchKind::Job);
        QVERIFY(ml.supports(CloudFeature::Spot));
        QVERIFY(ml.supports(CloudFeature::ClientToken));
        QVERIFY(ml.supports(CloudFeature::ScheduledTerminate));
        QVERIFY(ml.supports(CloudFeature::ShutdownStopsBilling));
        for (CloudFeature f : {CloudFeature::Subscription,
                               CloudFeature::DryRun,
                               CloudFeature::TerminateOnShutdown,
                               CloudFeature::KeyImport,
                               CloudFeature::SshSourceRestriction}) {
            QVERIFY(!ml.supports(f));
            QCOMPARE(ml.unsupported.at(f).key, std::string("unsupported.azureml.") + cloudFeatureName(f));
        }
        const auto& fields = azureDescriptor().credentialFields;
        QVERIFY(std::any_of(
            fields.begin(), fields.end(), [](const CredentialFieldSpec& f) { return f.name == "ml_workspace"; }));
        QCOMPARE(ml.credentialFields.size(), fields.size());
    }
};

QTEST_GUILESS_MAIN(TestAzureMl)
#include "TestAzureMl.moc"
