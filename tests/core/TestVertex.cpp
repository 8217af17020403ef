// Vertex AI custom jobs without a network: each call's method, URL, query and body (the MachineSpec table included);
// the parsers on the answers of tests/data/cloud/vertex (README there says where each comes from) and on broken ones;
// the error mapping of Google's documented error bodies; and the job service end to end (makeVertexJobs) against a
// recording transport that answers the i-th request with the i-th canned answer, the OAuth2 token exchange included.

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <QTest>

#include <nlohmann/json.hpp>

#include "gpuplan/cloud/ManagedJobService.h"
#include "gpuplan/cloud/providers/gcp/GcpProvider.h"
#include "gpuplan/cloud/providers/gcp/VertexApi.h"
#include "gpuplan/net/Clock.h"

#include "../support/RecordingTransport.h"

using namespace gpuplan::core;
using gpuplan::testing::RecordingTransport;
using nlohmann::json;

#define JSON_COMPARE(actual, expected) \
    QVERIFY2(json(actual) == json(expected), (json(actual).dump() + " != " + json(expected).dump()).c_str())

namespace {

constexpr std::int64_t kNow = 1796324700; // 2026-12-03T19:05:00Z
const std::string kProject = "my-project";
const std::string kRegion = "us-central1";
const std::string kToken = "gpuplan-0123456789abcdef01234567";
const std::string kJobId = "5748151291136212992";
const std::string kJobs = "/aiplatform/v1/projects/my-project/locations/us-central1/customJobs";
const std::string kEndpoint = "http://127.0.0.1:9";
const std::string kImage = "us-docker.pkg.dev/deeplearning-platform-release/gcr.io/pytorch-cu121.2-2.py310";

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string fixture(const std::string& name)
{
    return readFile(GPUPLAN_SOURCE_DIR "/tests/data/cloud/vertex/" + name);
}

json doc(const std::string& name)
{
    return json::parse(fixture(name));
}

LaunchRequest request(LaunchPricing pricing = LaunchPricing::OnDemand)
{
    LaunchRequest r;
    r.region = kRegion;
    r.instanceType = "vertex/g2-standard-8";
    r.pricing = pricing;
    r.clientToken = kToken;
    r.job = JobSpec{kImage, {"python", "train.py", "--epochs", "3"}, {{"EPOCHS", "3"}}};
    return r;
}

ProviderContext contextFor(RecordingTransport& transport)
{
    ProviderContext context;
    context.http = &transport;
    context.key = AccessKey{"gpuplanner@my-project.iam.gserviceaccount.com",
                            readFile(GPUPLAN_SOURCE_DIR "/tests/integration/sdk/keys/test-rsa-2048.pem"),
                            {}};
    context.endpoint = kEndpoint;
    context.clock = [] { return std::chrono::system_clock::from_time_t(kNow); };
    context.sleep = [](std::chrono::milliseconds) {};
    return context;
}

const json kTokenAnswer = {{"access_token", "ya29.test-token"}, {"expires_in", 3599}, {"token_type", "Bearer"}};

// "METHOD path" of a request (without the scheme, host and query).
std::string lineOf(const HttpRequest& request)
{
    const Result<Url> url = parseUrl(request.url);
    return request.method + " " + (url ? url->path : request.url);
}
std::string queryOf(const HttpRequest& request)
{
    const Result<Url> url = parseUrl(request.url);
    return url ? url->query : std::string();
}

HttpResponse answerOf(int status, const std::string& body)
{
    return HttpResponse{status, {}, body};
}

vertex::ErrorContext errorContext(const std::string& action)
{
    vertex::ErrorContext c;
    c.action = action;
    c.region = kRegion;
    c.project = kProject;
    return c;
}

ManagedJobService* jobsOf(const std::unique_ptr<CloudProvider>& provider)
{
    return dynamic_cast<ManagedJobService*>(provider.get());
}

} // namespace

class TestVertex : public QObject
{
    Q_OBJECT

private slots:
    void endpoints()
    {
        QCOMPARE(vertex::jobsBase("", "europe-west4"),
                 std::string("https://europe-west4-aiplatform.googleapis.com/v1"));
        QCOMPARE(vertex::jobsBase("http://127.0.0.1:8080/", kRegion),
                 std::string("http://127.0.0.1:8080/aiplatform/v1"));
        QCOMPARE(vertex::loggingBase(""), std::string("https://logging.googleapis.com/v2"));
        QCOMPARE(vertex::loggingBase("http://127.0.0.1:8080"), std::string("http://127.0.0.1:8080/logging/v2"));
        const HttpRequest get = vertex::buildRequest(vertex::getJobCall(kProject, kRegion, kJobId), "");
        QCOMPARE(get.url,
                 "https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/"
                 "customJobs/"
                     + kJobId);
        QVERIFY(get.body.empty());
        QVERIFY(!get.header("Content-Type"));
        const HttpRequest logs = vertex::buildRequest(vertex::logEntriesCall(kProject, kJobId, {}), "");
        QCOMPARE(logs.url, std::string("https://logging.googleapis.com/v2/entries:list"));
        QCOMPARE(logs.header("Content-Type").value_or(""), std::string("application/json"));
    }

    void machineSpecs_data()
    {
        QTest::addColumn<QString>("offer");
        QTest::addColumn<QString>("machine");
        QTest::addColumn<QString>("accelerator");
        QTest::addColumn<int>("count");
        QTest::newRow("n1 t4") << "vertex/n1-standard-8+1xT4"
                               << "n1-standard-8"
                               << "NVIDIA_TESLA_T4" << 1;
        QTest::newRow("n1 v100") << "vertex/n1-highmem-16+2xV100"
                                 << "n1-highmem-16"
                                 << "NVIDIA_TESLA_V100" << 2;
        QTest::newRow("n1 p100") << "vertex/n1-standard-4+1xP100"
                                 << "n1-standard-4"
                                 << "NVIDIA_TESLA_P100" << 1;
        QTest::newRow("n1 p4") << "vertex/n1-standard-4+4xP4"
                               << "n1-standard-4"
                               << "NVIDIA_TESLA_P4" << 4;
        QTest::newRow("a2 1g") << "vertex/a2-highgpu-1g"
                               << "a2-highgpu-1g"
                               << "NVIDIA_TESLA_A100" << 1;
        QTest::newRow("a2 8g") << "vertex/a2-highgpu-8g"
                               << "a2-highgpu-8g"
                               << "NVIDIA_TESLA_A100" << 8;
        QTest::newRow("a2 ultra 2g") << "vertex/a2-ultragpu-2g"
                                     << "a2-ultragpu-2g"
                                     << "NVIDIA_A100_80GB" << 2;
        QTest::newRow("g2 4") << "vertex/g2-standard-4"
                              << "g2-standard-4"
                              << "NVIDIA_L4" << 1;
        QTest::newRow("g2 8") << "vertex/g2-standard-8"
                              << "g2-standard-8"
                              << "NVIDIA_L4" << 1;
        QTest::newRow("g2 12") << "vertex/g2-standard-12"
                               << "g2-standard-12"
                               << "NVIDIA_L4" << 1;
        QTest::newRow("g2 16") << "vertex/g2-standard-16"
                               << "g2-standard-16"
                               << "NVIDIA_L4" << 1;
        QTest::newRow("g2 32") << "vertex/g2-standard-32"
                               << "g2-standard-32"
                               << "NVIDIA_L4" << 1;
        QTest::newRow("g2 24") << "vertex/g2-standard-24"
                               << "g2-standard-24"
                               << "NVIDIA_L4" << 2;
        QTest::newRow("g2 48") << "vertex/g2-standard-48"
                               << "g2-standard-48"
                               << "NVIDIA_L4" << 4;
        QTest::newRow("g2 96") << "vertex/g2-standard-96"
                               << "g2-standard-96"
                               << "NVIDIA_L4" << 8;
        QTest::newRow("a3 high") << "vertex/a3-highgpu-8g"
                                 << "a3-highgpu-8g"
                                 << "NVIDIA_H100_80GB" << 8;
        QTest::newRow("a3 ultra") << "vertex/a3-ultragpu-8g"
                                  << "a3-ultragpu-8g"
                                  << "NVIDIA_H200_141GB" << 8;
    }
    void machineSpecs()
    {
        QFETCH(QString, offer);
        QFETCH(QString, machine);
        QFETCH(QString, accelerator);
        QFETCH(int, count);
        Result<vertex::MachineSpec> spec = vertex::machineSpec(offer.toStdString());
        QVERIFY(spec);
        QCOMPARE(spec->machineType, machine.toStdString());
        QCOMPARE(spec->acceleratorType, accelerator.toStdString());
        QCOMPARE(spec->acceleratorCount, count);
        QCOMPARE(vertex::offerOf(*spec), offer.toStdString()); // and back
    }

    void unknownMachinesAreRefused_data()
    {
        QTest::addColumn<QString>("offer");
        for (const char* offer : {"g2-standard-8",
                                  "vertex/g2-standard-6",
                                  "vertex/a2-highgpu-3g",
                                  "vertex/a2-megagpu-16g",
                                  "vertex/n1-standard-8",
                                  "vertex/n1-standard-8+1xH100",
                                  "vertex/e2-standard-4",
                                  "vertex/a3-highgpu-4g",
                                  "vertex/",
                                  "azureml/Standard_NC4as_T4_v3"}) {
            QTest::newRow(offer) << offer;
        }
    }
    void unknownMachinesAreRefused()
    {
        QFETCH(QString, offer);
        Result<vertex::MachineSpec> spec = vertex::machineSpec(offer.toStdString());
        QVERIFY(!spec);
        QCOMPARE(spec.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(spec.error().reason.key, std::string("error.vertex.instance_type_unknown"));
        QCOMPARE(spec.error().reason.params.at("instance_type"), offer.toStdString());
    }

    void createBodyOnDemand()
    {
        LaunchRequest r = request();
        r.tags = {{"Project", "Vision Lab"}, {"gpuplanner-token", "not-ours"}, {"9lives", "x"}};
        Result<vertex::Call> call = vertex::createJobCall(r, kProject, kNow);
        QVERIFY(call);
        QCOMPARE(call->action, std::string("customJobs.create"));
        QCOMPARE(call->method, std::string("POST"));
        QCOMPARE(call->path, std::string("/projects/my-project/locations/us-central1/customJobs"));
        QVERIFY(call->query.empty());
        QVERIFY(!call->safeToRetry); // no request id: a resend would submit a second job
        const json expected = {
            {"displayName", kToken},
            {"labels", {{"gpuplanner-token", kToken}, {"project", "vision_lab"}}},
            {"jobSpec",
             {{"workerPoolSpecs",
               json::array(
                   {{{"replicaCount", "1"},
                     {"machineSpec",
                      {{"machineType", "g2-standard-8"}, {"acceleratorType", "NVIDIA_L4"}, {"acceleratorCount", 1}}},
                     {"diskSpec", {{"bootDiskType", "pd-ssd"}, {"bootDiskSizeGb", 100}}},
                     {"containerSpec",
                      {{"imageUri", kImage},
                       {"command", {"python", "train.py", "--epochs", "3"}},
                       {"env", json::array({{{"name", "EPOCHS"}, {"value", "3"}}})}}}}})}}}};
        JSON_COMPARE(call->body, expected);
        QVERIFY(call->body["jobSpec"]["workerPoolSpecs"][0]["replicaCount"].is_string()); // int64
        const HttpRequest sent = vertex::buildRequest(*call, kEndpoint);
        QCOMPARE(sent.url, kEndpoint + kJobs);
        QVERIFY(!sent.safeToRetry);
        JSON_COMPARE(json::parse(sent.body), expected);
    }

    void createBodySpotWithTimeout()
    {
        LaunchRequest r = request(LaunchPricing::Spot);
        r.instanceType = "vertex/n1-standard-8+2xV100";
        r.terminateAt = kNow + 2 * 3600 + 17;
        r.job->command.clear();
        r.job->environment.clear();
        Result<vertex::Call> call = vertex::createJobCall(r, kProject, kNow);
        QVERIFY(call);
        const json& pool = call->body["jobSpec"]["workerPoolSpecs"][0];
        JSON_COMPARE(pool["machineSpec"],
                     (json{{"machineType", "n1-standard-8"},
                           {"acceleratorType", "NVIDIA_TESLA_V100"},
                           {"acceleratorCount", 2}}));
        JSON_COMPARE(pool["containerSpec"], (json{{"imageUri", kImage}})); // no command, no env: the image's own
        JSON_COMPARE(call->body["jobSpec"]["scheduling"], (json{{"timeout", "7217s"}, {"strategy", "SPOT"}}));
        // On demand without an end: no scheduling at all (Vertex's default strategy and 7-day timeout).
        Result<vertex::Call> plain = vertex::createJobCall(request(), kProject, kNow);
        QVERIFY(plain);
        QVERIFY(!plain->body["jobSpec"].contains("scheduling"));
        // On demand with an end: the timeout only.
        LaunchRequest timed = request();
        timed.terminateAt = kNow + 60;
        JSON_COMPARE(vertex::createJobCall(timed, kProject, kNow)->body["jobSpec"]["scheduling"],
                     (json{{"timeout", "60s"}}));
    }

    void createRefusals_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("key");
        QTest::newRow("no job") << 0 << "error.vertex.no_job";
        QTest::newRow("no image") << 1 << "error.vertex.no_image";
        QTest::newRow("no token") << 2 << "error.vertex.no_client_token";
        QTest::newRow("token not a label") << 3 << "error.vertex.client_token_invalid";
        QTest::newRow("spot price limit") << 4 << "error.vertex.spot_no_price_limit";
        QTest::newRow("end already past") << 5 << "error.vertex.terminate_past";
        QTest::newRow("end now") << 6 << "error.vertex.terminate_past";
        QTest::newRow("too many labels") << 7 << "error.vertex.too_many_labels";
        QTest::newRow("unknown machine") << 8 << "error.vertex.instance_type_unknown";
    }
    void createRefusals()
    {
        QFETCH(int, which);
        QFETCH(QString, key);
        LaunchRequest r = request(LaunchPricing::Spot);
        switch (which) {
            case 0:
                r.job.reset();
                break;
            case 1:
                r.job->image.clear();
                break;
            case 2:
                r.clientToken.clear();
                break;
            case 3:
                r.clientToken = "GPUPLAN Token";
                break;
            case 4:
                r.spotPriceLimit = 0.5;
                break;
            case 5:
                r.terminateAt = kNow - 1;
                break;
            case 6:
                r.terminateAt = kNow;
                break;
            case 7:
                for (int i = 0; i < 64; ++i) {
                    r.tags.emplace_back("tag" + std::to_string(i), "v");
                }
                break;
            case 8:
                r.instanceType = "vertex/g2-standard-6";
                break;
        }
        Result<vertex::Call> call = vertex::createJobCall(r, kProject, kNow);
        QVERIFY(!call);
        QCOMPARE(call.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(call.error().reason.key, key.toStdString());
    }

    void otherCalls()
    {
        const vertex::Call get = vertex::getJobCall(kProject, kRegion, kJobId);
        QCOMPARE(get.action, std::string("customJobs.get"));
        QCOMPARE(get.method, std::string("GET"));
        QCOMPARE(get.path, "/projects/my-project/locations/us-central1/customJobs/" + kJobId);
        QVERIFY(get.safeToRetry);
        QVERIFY(get.body.is_null());

        const vertex::Call ours = vertex::listJobsCall(kProject, kRegion, vertex::oursFilter(), "");
        QCOMPARE(ours.method, std::string("GET"));
        QCOMPARE(ours.path, std::string("/projects/my-project/locations/us-central1/customJobs"));
        QCOMPARE(ours.query,
                 (std::vector<std::pair<std::string, std::string>>{{"filter", "labels.gpuplanner-token:*"}}));
        const vertex::Call page2 = vertex::listJobsCall(kProject, kRegion, vertex::tokenFilter(kToken), "tok/en=");
        QCOMPARE(page2.query,
                 (std::vector<std::pair<std::string, std::string>>{
                     {"filter", "labels.gpuplanner-token=\"" + kToken + "\""}, {"pageToken", "tok/en="}}));
        QCOMPARE(queryOf(vertex::buildRequest(page2, kEndpoint)),
                 "filter=labels.gpuplanner-token%3D%22" + kToken + "%22&pageToken=tok/en%3D");

        const vertex::Call cancel = vertex::cancelJobCall(kProject, kRegion, kJobId);
        QCOMPARE(cancel.action, std::string("customJobs.cancel"));
        QCOMPARE(cancel.method, std::string("POST"));
        QCOMPARE(cancel.path, "/projects/my-project/locations/us-central1/customJobs/" + kJobId + ":cancel");
        JSON_COMPARE(cancel.body, json::object());
        QVERIFY(cancel.safeToRetry);
        QCOMPARE(vertex::buildRequest(cancel, kEndpoint).body, std::string("{}"));

        const vertex::Call logs = vertex::logEntriesCall(kProject, kJobId, {});
        QCOMPARE(logs.action, std::string("entries.list"));
        QCOMPARE(logs.method, std::string("POST"));
        QCOMPARE(logs.path, std::string("/entries:list"));
        QVERIFY(logs.safeToRetry);
        JSON_COMPARE(logs.body,
                     (json{{"resourceNames", {"projects/my-project"}},
                           {"filter", "resource.type=\"ml_job\" AND resource.labels.job_id=\"" + kJobId + "\""},
                           {"orderBy", "timestamp asc"},
                           {"pageSize", 1000}}));
        const vertex::Call after =
            vertex::logEntriesCall(kProject, kJobId, vertex::LogCursor{"2026-12-03T19:07:41.123456789Z", "abc"});
        QCOMPARE(after.body["filter"].get<std::string>(),
                 "resource.type=\"ml_job\" AND resource.labels.job_id=\"" + kJobId
                     + "\" AND timestamp>=\"2026-12-03T19:07:41.123456789Z\"");
    }

    void cursors()
    {
        const vertex::LogCursor c{"2026-12-03T19:07:41.123456789Z", "1a2b|3"};
        QCOMPARE(vertex::cursorText(c), std::string("2026-12-03T19:07:41.123456789Z|1a2b|3"));
        const auto back = vertex::parseCursor(vertex::cursorText(c));
        QVERIFY(back);
        QCOMPARE(back->timestamp, c.timestamp);
        QCOMPARE(back->insertId, c.insertId);
        QVERIFY(vertex::parseCursor("")->timestamp.empty());
        QVERIFY(!vertex::parseCursor("yesterday|x"));
        QVERIFY(!vertex::parseCursor("no-bar"));
    }

    void states_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<int>("state");
        QTest::newRow("queued") << "JOB_STATE_QUEUED" << int(InstanceState::Pending);
        QTest::newRow("pending") << "JOB_STATE_PENDING" << int(InstanceState::Pending);
        QTest::newRow("paused") << "JOB_STATE_PAUSED" << int(InstanceState::Pending);
        QTest::newRow("unspecified") << "JOB_STATE_UNSPECIFIED" << int(InstanceState::Pending);
        QTest::newRow("running") << "JOB_STATE_RUNNING" << int(InstanceState::Running);
        QTest::newRow("updating") << "JOB_STATE_UPDATING" << int(InstanceState::Running);
        QTest::newRow("cancelling") << "JOB_STATE_CANCELLING" << int(InstanceState::Stopping);
        QTest::newRow("succeeded") << "JOB_STATE_SUCCEEDED" << int(InstanceState::Terminated);
        QTest::newRow("partially") << "JOB_STATE_PARTIALLY_SUCCEEDED" << int(InstanceState::Terminated);
        QTest::newRow("cancelled") << "JOB_STATE_CANCELLED" << int(InstanceState::Terminated);
        QTest::newRow("failed") << "JOB_STATE_FAILED" << int(InstanceState::Failed);
        QTest::newRow("expired") << "JOB_STATE_EXPIRED" << int(InstanceState::Failed);
    }
    void states()
    {
        QFETCH(QString, word);
        QFETCH(int, state);
        QCOMPARE(int(vertex::stateFromVertex(word.toStdString())), state);
        // Through the parser too, with the word kept.
        json job = doc("job_running.json");
        job["state"] = word.toStdString();
        Result<vertex::Job> parsed = vertex::parseJob(job.dump(), "customJobs.get");
        QVERIFY(parsed);
        QCOMPARE(int(parsed->instance.state), state);
        QCOMPARE(parsed->instance.providerState, word.toStdString());
    }

    void parsesDocumentedJobs()
    {
        Result<vertex::Job> queued = vertex::parseJob(fixture("job_queued.json"), "customJobs.create");
        QVERIFY(queued);
        const RemoteInstance& q = queued->instance;
        QCOMPARE(q.instanceId, kJobId);
        QCOMPARE(q.clientToken, kToken);
        QCOMPARE(q.state, InstanceState::Pending);
        QCOMPARE(q.region, kRegion);
        QCOMPARE(q.instanceType, std::string("vertex/g2-standard-8"));
        QCOMPARE(q.providerState, std::string("JOB_STATE_QUEUED"));
        QCOMPARE(q.pricingMode, std::string("spot"));
        QVERIFY(!q.launchedAt); // not started yet
        QCOMPARE(queued->displayName, kToken);

        Result<vertex::Job> running = vertex::parseJob(fixture("job_running.json"));
        QVERIFY(running);
        QCOMPARE(running->instance.state, InstanceState::Running);
        QCOMPARE(running->instance.launchedAt.value_or(0), std::int64_t(kNow + 160)); // 19:07:40Z

        Result<vertex::Job> failed = vertex::parseJob(fixture("job_failed.json"));
        QVERIFY(failed);
        QCOMPARE(failed->instance.state, InstanceState::Failed);
        QCOMPARE(failed->instance.instanceType, std::string("vertex/n1-standard-8+2xT4"));
        QCOMPARE(failed->instance.pricingMode, std::string("on_demand"));
        QCOMPARE(failed->errorMessage, std::string("The replica workerpool0-0 exited with a non-zero status of 1."));
    }

    void parsesListPages()
    {
        Result<vertex::JobsPage> first = vertex::parseJobsPage(fixture("list_page1.json"));
        QVERIFY(first);
        QCOMPARE(first->jobs.size(), std::size_t(1));
        QCOMPARE(first->nextPageToken, std::string("Ci9wcm9qZWN0cy8xMjM0NTY3ODkwMTIvbG9jYXRpb25zL3VzLWNlbnRyYWwx"));
        Result<vertex::JobsPage> second = vertex::parseJobsPage(fixture("list_page2.json"));
        QVERIFY(second);
        QCOMPARE(second->jobs.size(), std::size_t(2));
        QVERIFY(second->nextPageToken.empty());
        QCOMPARE(second->jobs[1].instance.clientToken, std::string()); // not ours
        Result<vertex::JobsPage> empty = vertex::parseJobsPage("{}");
        QVERIFY(empty);
        QVERIFY(empty->jobs.empty());
    }

    void brokenAnswersNameCallAndField()
    {
        const auto key = [](const auto& result) { return result ? std::string("(ok)") : result.error().reason.key; };
        QCOMPARE(key(vertex::parseJob("<html>", "customJobs.get")), std::string("error.answer.not_json"));
        QCOMPARE(key(vertex::parseJob("[]", "customJobs.get")), std::string("error.answer.not_object"));
        Result<vertex::Job> nameless = vertex::parseJob(R"({"state":"JOB_STATE_RUNNING"})", "customJobs.get");
        QCOMPARE(key(nameless), std::string("error.answer.missing"));
        QCOMPARE(nameless.error().reason.params.at("field"), std::string("name"));
        QCOMPARE(nameless.error().reason.params.at("provider"), std::string("vertex"));
        QCOMPARE(nameless.error().reason.params.at("action"), std::string("customJobs.get"));
        QCOMPARE(key(vertex::parseJobsPage(R"({"customJobs":{}})")), std::string("error.answer.not_list"));
        QCOMPARE(key(vertex::parseLogPage(R"({"entries":[{"timestamp":"soon","textPayload":"x"}]})", {})),
                 std::string("error.answer.invalid"));
    }

    void parsesLogPagesWithoutRepeats()
    {
        Result<JobLogPage> page = vertex::parseLogPage(fixture("entries.json"), {});
        QVERIFY(page);
        std::vector<std::string> texts;
        for (const JobLogLine& line : page->lines) {
            texts.push_back(line.text);
        }
        QCOMPARE(texts, (std::vector<std::string>{"epoch 1/3", "loss 0.91", "acc 0.62", "Job is running."}));
        QCOMPARE(page->lines.front().at, std::int64_t(kNow + 161)); // 19:07:41.123456789Z
        QCOMPARE(page->lines.back().at, std::int64_t(kNow + 180));
        QCOMPARE(page->next, std::string("2026-12-03T19:08:00Z|x9y8z7"));
        // Read again from a cursor inside the first second: the entries up to it are not shown twice.
        Result<JobLogPage> again = vertex::parseLogPage(
            fixture("entries.json"), vertex::LogCursor{"2026-12-03T19:07:41.123456789Z", "1a2b3c4d5e6f7g"});
        QVERIFY(again);
        QCOMPARE(again->lines.size(), std::size_t(3));
        QCOMPARE(again->lines.front().text, std::string("loss 0.91"));
        // Nothing new: the same cursor back.
        Result<JobLogPage> none = vertex::parseLogPage("{}", vertex::LogCursor{"2026-12-03T19:08:00Z", "x9y8z7"});
        QVERIFY(none);
        QVERIFY(none->lines.empty());
        QCOMPARE(none->next, std::string("2026-12-03T19:08:00Z|x9y8z7"));
    }

    void errorMapping_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("action");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("key");
        QTest::newRow("training quota") << "error_quota.json" << 429 << "customJobs.create"
                                        << int(ErrorCode::QuotaExceeded) << "error.vertex.quota";
        QTest::newRow("rate quota") << "error_rate.json" << 429 << "customJobs.list" << int(ErrorCode::Throttled)
                                    << "error.vertex.throttled";
        QTest::newRow("permission") << "error_permission.json" << 403 << "customJobs.create"
                                    << int(ErrorCode::PermissionDenied) << "error.vertex.permission";
        QTest::newRow("api disabled") << "error_service_disabled.json" << 403 << "customJobs.create"
                                      << int(ErrorCode::PermissionDenied) << "error.vertex.api_disabled";
        QTest::newRow("not found") << "error_not_found.json" << 404 << "customJobs.get" << int(ErrorCode::NotFound)
                                   << "error.vertex.not_found";
        QTest::newRow("finished") << "error_cancel_finished.json" << 400 << "customJobs.cancel"
                                  << int(ErrorCode::ProviderRefused) << "error.vertex.refused";
        QTest::newRow("unauthenticated") << "error_unauthenticated.json" << 401 << "customJobs.get"
                                         << int(ErrorCode::Credentials) << "error.vertex.key_refused";
    }
    void errorMapping()
    {
        QFETCH(QString, file);
        QFETCH(int, status);
        QFETCH(QString, action);
        QFETCH(int, code);
        QFETCH(QString, key);
        const std::optional<Error> error =
            vertex::mapError(answerOf(status, fixture(file.toStdString())), errorContext(action.toStdString()));
        QVERIFY(error);
        QCOMPARE(int(error->code), code);
        QCOMPARE(error->reason.key, key.toStdString());
        QCOMPARE(error->httpStatus, status);
        QCOMPARE(error->reason.params.at("action"), action.toStdString());
        QVERIFY(!error->reason.params.at("said").empty()); // Google's message, for the user
    }

    void errorAdviceNamesWhatToDo()
    {
        const auto map = [](const std::string& file, int status, const std::string& action) {
            return *vertex::mapError(answerOf(status, fixture(file)), errorContext(action));
        };
        const Error quota = map("error_quota.json", 429, "customJobs.create");
        QCOMPARE(quota.reason.params.at("metric"), std::string("custom_model_training_nvidia_l4_gpus"));
        QCOMPARE(quota.reason.params.at("region"), kRegion);
        QCOMPARE(quota.providerCode, std::string("RESOURCE_EXHAUSTED"));
        const Error denied = map("error_permission.json", 403, "customJobs.create");
        QCOMPARE(denied.reason.params.at("permission"), std::string("aiplatform.customJobs.create"));
        QCOMPARE(denied.reason.params.at("role"), std::string("roles/aiplatform.user"));
        QCOMPARE(denied.providerCode, std::string("IAM_PERMISSION_DENIED"));
        // The permission from the message when the ErrorInfo is missing; from the action when neither says it.
        json bare = doc("error_permission.json");
        bare["error"].erase("details");
        QCOMPARE(vertex::mapError(answerOf(403, bare.dump()), errorContext("customJobs.create"))
                     ->reason.params.at("permission"),
                 std::string("aiplatform.customJobs.create"));
        bare["error"]["message"] = "The caller does not have permission";
        const Error logs = *vertex::mapError(answerOf(403, bare.dump()), errorContext("entries.list"));
        QCOMPARE(logs.reason.params.at("permission"), std::string("logging.logEntries.list"));
        QCOMPARE(logs.reason.params.at("role"), std::string("roles/logging.viewer"));
        const Error off = map("error_service_disabled.json", 403, "customJobs.create");
        QCOMPARE(off.reason.params.at("service"), std::string("aiplatform.googleapis.com"));
        QCOMPARE(off.reason.params.at("project"), kProject);
        QCOMPARE(off.providerCode, std::string("SERVICE_DISABLED"));
        const Error finished = map("error_cancel_finished.json", 400, "customJobs.cancel");
        QCOMPARE(finished.providerCode, std::string("FAILED_PRECONDITION"));
    }

    void errorsWithoutGoogleBody()
    {
        QVERIFY(!vertex::mapError(answerOf(200, "{}"), errorContext("customJobs.get")));
        QCOMPARE(vertex::mapError(answerOf(429, ""), errorContext("customJobs.get"))->code, ErrorCode::Throttled);
        QCOMPARE(vertex::mapError(answerOf(404, "<html>"), errorContext("customJobs.get"))->code, ErrorCode::NotFound);
        const Error bad = *vertex::mapError(answerOf(502, "Bad Gateway"), errorContext("customJobs.get"));
        QCOMPARE(bad.code, ErrorCode::HttpStatus);
        QCOMPARE(bad.reason.key, std::string("error.vertex.http_status"));
        QCOMPARE(bad.reason.params.at("status"), std::string("502"));
    }

    // ---- The service end to end.

    void submitFindsTheJobByItsLabelWithoutCreating()
    {
        RecordingTransport t("application/json; charset=UTF-8");
        t.queue("token", kTokenAnswer);
        t.queue("customJobs.list", doc("list_page1.json"));
        json last = doc("list_page2.json");
        t.queue("customJobs.list-2", last);
        auto provider = makeVertexJobs(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY2(launched, launched ? "" : describe(launched.error()).c_str());
        QCOMPARE(launched->instanceId, kJobId);
        QCOMPARE(launched->state, InstanceState::Running);
        QCOMPARE(launched->steps.front().key, std::string("step.vertex.job_found"));
        QCOMPARE(t.requests.size(), std::size_t(3)); // the token and two list pages: no create
        QCOMPARE(lineOf(t.requests[0]), std::string("POST /token"));
        for (std::size_t i = 1; i < 3; ++i) {
            QCOMPARE(lineOf(t.requests[i]), "GET " + kJobs);
            QCOMPARE(t.requests[i].header("Authorization").value_or(""), std::string("Bearer ya29.test-token"));
        }
        QCOMPARE(queryOf(t.requests[1]), "filter=labels.gpuplanner-token%3D%22" + kToken + "%22");
        QVERIFY(queryOf(t.requests[2])
                    .ends_with("&pageToken=" + doc("list_page1.json")["nextPageToken"].get<std::string>()));
    }

    void submitCreatesWhenNoneIsFound()
    {
        RecordingTransport t("application/json; charset=UTF-8");
        t.queue("token", kTokenAnswer);
        t.queue("customJobs.list", json::object());
        t.queue("customJobs.create", doc("job_queued.json"));
        auto provider = makeVertexJobs(contextFor(t));
        LaunchRequest r = request(LaunchPricing::Spot);
        r.terminateAt = kNow + 7200;
        Result<LaunchResult> launched = provider->launch(r, nullptr);
        QVERIFY2(launched, launched ? "" : describe(launched.error()).c_str());
        QCOMPARE(launched->instanceId, kJobId);
        QCOMPARE(launched->state, InstanceState::Pending);
        QCOMPARE(launched->zone, std::string());
        QCOMPARE(t.requests.size(), std::size_t(3));
        const HttpRequest& create = t.requests[2];
        QCOMPARE(lineOf(create), "POST " + kJobs);
        QVERIFY(!create.safeToRetry);
        const json body = json::parse(create.body);
        JSON_COMPARE(body["jobSpec"]["scheduling"], (json{{"timeout", "7200s"}, {"strategy", "SPOT"}}));
        QCOMPARE(body["labels"]["gpuplanner-token"].get<std::string>(), kToken);
        std::vector<std::string> steps;
        for (const Reason& step : launched->steps) {
            steps.push_back(step.key);
        }
        QCOMPARE(steps, (std::vector<std::string>{"step.vertex.job_submitted", "step.vertex.timeout"}));
        QCOMPARE(launched->steps[0].params.at("accelerator"), std::string("NVIDIA_L4"));
        QCOMPARE(launched->steps[1].params.at("seconds"), std::string("7200"));
    }

    void submitRefusesBeforeSending()
    {
        RecordingTransport t("application/json");
        auto provider = makeVertexJobs(contextFor(t));
        LaunchRequest r = request();
        r.terminateAt = kNow - 60;
        Result<LaunchResult> late = provider->launch(r, nullptr);
        QVERIFY(!late);
        QCOMPARE(late.error().reason.key, std::string("error.vertex.terminate_past"));
        r = request();
        r.dryRun = true;
        QCOMPARE(provider->launch(r, nullptr).error().reason.key, std::string("error.vertex.no_dry_run"));
        QVERIFY(t.requests.empty());
    }

    void quotaOnCreateNamesTheMetric()
    {
        RecordingTransport t("application/json");
        t.queue("token", kTokenAnswer);
        t.queue("customJobs.list", json::object());
        t.queue("customJobs.create", doc("error_quota.json"), 429);
        auto provider = makeVertexJobs(contextFor(t));
        Result<LaunchResult> launched = provider->launch(request(), nullptr);
        QVERIFY(!launched);
        QCOMPARE(launched.error().code, ErrorCode::QuotaExceeded);
        QCOMPARE(launched.error().reason.params.at("metric"), std::string("custom_model_training_nvidia_l4_gpus"));
        QCOMPARE(launched.error().reason.params.at("project"), kProject);
    }

    void describeListAndCancel()
    {
        RecordingTransport t("application/json");
        t.queue("token", kTokenAnswer);
        t.queue("customJobs.get", doc("job_running.json"));
        t.queue("customJobs.list", doc("list_page1.json"));
        t.queue("customJobs.list-2", doc("list_page2.json"));
        t.queue("customJobs.cancel", json::object());
        t.queue("customJobs.cancel-ended", doc("error_cancel_finished.json"), 400);
        t.queue("customJobs.cancel-gone", doc("error_not_found.json"), 404);
        t.queue("customJobs.cancel-denied", doc("error_permission.json"), 403);
        auto provider = makeVertexJobs(contextFor(t));
        Result<RemoteInstance> described = provider->describe(kRegion, kJobId, nullptr);
        QVERIFY(described);
        QCOMPARE(described->state, InstanceState::Running);
        QCOMPARE(lineOf(t.requests[1]), "GET " + kJobs + "/" + kJobId);
        Result<std::vector<RemoteInstance>> ours = provider->listOurs(kRegion, nullptr);
        QVERIFY(ours);
        QCOMPARE(ours->size(), std::size_t(2)); // the finished one too; the job without our label is left out
        QCOMPARE((*ours)[1].state, InstanceState::Failed);
        QCOMPARE(queryOf(t.requests[2]), std::string("filter=labels.gpuplanner-token%3A*"));
        QVERIFY(provider->terminate(kRegion, kJobId, nullptr));
        QCOMPARE(lineOf(t.requests[4]), "POST " + kJobs + "/" + kJobId + ":cancel");
        QCOMPARE(t.requests[4].body, std::string("{}"));
        QVERIFY(provider->terminate(kRegion, "2345678901234567890", nullptr)); // already finished: Ok
        QVERIFY(provider->terminate(kRegion, "2345678901234567890", nullptr)); // gone: Ok
        Status denied = provider->terminate(kRegion, kJobId, nullptr);
        QVERIFY(!denied);
        QCOMPARE(denied.error().code, ErrorCode::PermissionDenied);
        QCOMPARE(t.requests.size(), t.script.size());
        // An id that is no job id is refused before anything is sent.
        QCOMPARE(provider->describe(kRegion, "us-central1-a/vm", nullptr).error().reason.key,
                 std::string("error.vertex.job_id_invalid"));
        QCOMPARE(t.requests.size(), t.script.size());
    }

    void logsPageAndCursor()
    {
        RecordingTransport t("application/json");
        t.queue("token", kTokenAnswer);
        t.queue("entries.list", doc("entries.json"));
        t.queue("entries.list-again", json::object());
        auto provider = makeVertexJobs(contextFor(t));
        ManagedJobService* jobs = jobsOf(provider);
        QVERIFY(jobs);
        Result<JobLogPage> first = jobs->logs(kRegion, kJobId, "", nullptr);
        QVERIFY(first);
        QCOMPARE(first->lines.size(), std::size_t(4));
        QCOMPARE(lineOf(t.requests[1]), std::string("POST /logging/v2/entries:list"));
        QCOMPARE(json::parse(t.requests[1].body)["filter"].get<std::string>(),
                 "resource.type=\"ml_job\" AND resource.labels.job_id=\"" + kJobId + "\"");
        Result<JobLogPage> second = jobs->logs(kRegion, kJobId, first->next, nullptr);
        QVERIFY(second);
        QVERIFY(second->lines.empty());
        QCOMPARE(second->next, first->next);
        QCOMPARE(json::parse(t.requests[2].body)["filter"].get<std::string>(),
                 "resource.type=\"ml_job\" AND resource.labels.job_id=\"" + kJobId
                     + "\" AND timestamp>=\"2026-12-03T19:08:00Z\"");
        QCOMPARE(jobs->logs(kRegion, kJobId, "garbage", nullptr).error().reason.key,
                 std::string("error.vertex.log_cursor_invalid"));
    }

    void descriptor()
    {
        const ProviderDescriptor& gcp = gcpDescriptor();
        QVERIFY(gcp.managedJobs == &vertexDescriptor());
        const ProviderDescriptor& v = vertexDescriptor();
        QCOMPARE(v.id, std::string("gcp"));
        QCOMPARE(v.name, std::string("Vertex AI"));
        QCOMPARE(v.kind, LaunchKind::Job);
        QVERIFY(v.canLaunch());
        QCOMPARE(v.credentialFields.size(), gcp.credentialFields.size());
        for (CloudFeature lacked : {CloudFeature::Subscription,
                                    CloudFeature::DryRun,
                                    CloudFeature::TerminateOnShutdown,
                                    CloudFeature::KeyImport,
                                    CloudFeature::SshSourceRestriction,
                                    CloudFeature::ClientToken}) {
            QVERIFY(!v.supports(lacked));
            QCOMPARE(v.unsupported.at(lacked).key, std::string("unsupported.vertex.") + cloudFeatureName(lacked));
        }
        for (CloudFeature had :
             {CloudFeature::Spot, CloudFeature::ScheduledTerminate, CloudFeature::ShutdownStopsBilling}) {
            QVERIFY(v.supports(had));
        }
        RecordingTransport t("application/json");
        auto provider = makeVertexJobs(contextFor(t));
        QCOMPARE(provider->kind(), LaunchKind::Job);
        QCOMPARE(provider->id(), std::string("gcp"));
        QVERIFY(jobsOf(provider));
        // The zone is the service's: one, empty.
        Result<std::vector<std::string>> zones = provider->zonesOffering(kRegion, "vertex/g2-standard-8", nullptr);
        QVERIFY(zones);
        QCOMPARE(*zones, std::vector<std::string>{std::string()});
    }
};

QTEST_GUILESS_MAIN(TestVertex)
#include "TestVertex.moc"
