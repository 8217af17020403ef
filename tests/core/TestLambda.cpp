// The Lambda Cloud provider without a network: our requests against the API reference's documented request examples,
// the parsers on its documented answers (tests/data/cloud/lambda, README there names each one) and on broken ones,
// the error mapping of its documented error answers, and a scripted transport answering per method and path that
// drives whole launches through makeLambdaProvider: the key imported, the machine found by its name (nothing sent),
// a lost launch answer (sent once), a throttled launch, no capacity, describe, listOurs, terminate and the price.

#include <algorithm>
#include <chrono>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <QTest>

#include <nlohmann/json.hpp>

#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/providers/lambda/LambdaApi.h"
#include "gpuplan/cloud/providers/lambda/LambdaProvider.h"
#include "gpuplan/net/Clock.h"

using namespace gpuplan::core;
using nlohmann::json;

namespace {

const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci10ZXN0LWtleS1ub3QtcmVhbC0wMDAwMDAw lab@example";
const std::string kApiKey = "secret_lambda-example-key-not-real";
const std::string kToken = "gpuplan-0123456789abcdef01234567";
constexpr std::int64_t kNow = 1796324700; // 2026-12-03T19:05:00Z
// The documented examples' instance and type.
const std::string kDocInstance = "0920582c7ff041399e34823a0be62549";
const std::string kDocType = "gpu_8x_example";

std::string fixture(const std::string& name)
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/tests/data/cloud/lambda/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

json doc(const std::string& name)
{
    return json::parse(fixture(name));
}

// The documented instance (get_instance.json's data) with another name, status and region.
json instanceAs(const std::string& name, const std::string& status, const std::string& region = "us-west-1")
{
    json instance = doc("get_instance.json")["data"];
    instance["name"] = name;
    instance["status"] = status;
    instance["region"]["name"] = region;
    return instance;
}

std::string listOf(const std::vector<json>& instances)
{
    return json{{"data", instances}}.dump();
}

// Answers each request by "METHOD path" (the path below the host, without the query): a queue per key, the last
// answer repeats. A status of 0 answers with a transport error (the connection lost after sending).
class ScriptedTransport final : public HttpTransport
{
public:
    void answer(const std::string& key, std::string body, int status = 200)
    {
        m_answers[key].push_back({status, std::move(body)});
    }

    using HttpTransport::send;
    Result<HttpResponse> send(const HttpRequest& request, const CancelToken*) override
    {
        requests.push_back(request);
        const std::string k = key(request);
        auto found = m_answers.find(k);
        if (found == m_answers.end() || found->second.empty()) {
            return HttpResponse{404, {}, json{{"error", {{"code", "test/no-answer"}, {"message", k}}}}.dump()};
        }
        auto [status, body] = found->second.front();
        if (found->second.size() > 1) {
            found->second.pop_front();
        }
        if (status == 0) {
            return Error{ErrorCode::Network, Reason{"error.http.transport", {{"detail", "reset"}}}, request.url};
        }
        return HttpResponse{status, {{"Content-Type", "application/json"}}, body};
    }

    static std::string key(const HttpRequest& request)
    {
        std::string path = request.url.substr(request.url.find('/', std::string("http://").size()));
        return request.method + " " + path.substr(0, path.find('?'));
    }

    int count(const std::string& k) const
    {
        return int(std::count_if(requests.begin(), requests.end(), [&](const HttpRequest& r) { return key(r) == k; }));
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
    std::map<std::string, std::deque<std::pair<int, std::string>>> m_answers;
};

const std::string kInstances = "GET /api/v1/instances";
const std::string kLaunch = "POST /api/v1/instance-operations/launch";
const std::string kTerminate = "POST /api/v1/instance-operations/terminate";
const std::string kKeys = "GET /api/v1/ssh-keys";
const std::string kAddKey = "POST /api/v1/ssh-keys";
const std::string kTypes = "GET /api/v1/instance-types";

struct Slept
{
    std::vector<std::chrono::milliseconds> waits;
};

ProviderContext contextFor(ScriptedTransport& transport, Slept* slept = nullptr)
{
    ProviderContext context;
    context.http = &transport;
    context.key = AccessKey{"", kApiKey, {}};
    context.endpoint = "http://127.0.0.1:9";
    context.clock = fixedClock(std::chrono::system_clock::time_point(std::chrono::seconds(kNow)));
    context.sleep = [slept](std::chrono::milliseconds wait) {
        if (slept) {
            slept->waits.push_back(wait);
        }
    };
    return context;
}

LaunchRequest baseRequest()
{
    LaunchRequest request;
    request.region = "us-west-1";
    request.instanceType = "gpu_1x_a10";
    request.sshPublicKey = kPublicKey;
    request.sshSourceCidr = "203.0.113.7/32";
    request.clientToken = kToken;
    return request;
}

std::vector<std::string> stepKeys(const LaunchResult& result)
{
    std::vector<std::string> keys;
    for (const Reason& step : result.steps) {
        keys.push_back(step.key);
    }
    return keys;
}

// The account's keys: the documented one (not ours) and, when `withOurs`, ours under a name the user chose.
std::string keysAnswer(bool withOurs)
{
    json keys = doc("list_ssh_keys.json");
    if (withOurs) {
        keys["data"].push_back(
            json{{"id", "0123456789abcdef0123456789abcdef"}, {"name", "my-laptop"}, {"public_key", kPublicKey}});
    }
    return keys.dump();
}

} // namespace

#define JSON_COMPARE(actual, expected) \
    QVERIFY2((actual) == (expected), ((actual).dump() + " != " + json(expected).dump()).c_str())

class TestLambda : public QObject
{
    Q_OBJECT

private slots:
    void launchRequestIsTheDocumentedExample()
    {
        // The reference's launch: {"region_name":"us-west-1","instance_type_name":"gpu_1x_a10","ssh_key_names":
        // ["<NEW-KEY-NAME>"],"file_system_names":[],"quantity":1,"name":"My Instance"}. Ours, for the same region,
        // type and key, is that body with our client token as the name.
        const json documented = doc("launch_request.json");
        LaunchRequest request = baseRequest();
        Result<lambda::Call> call = lambda::launchCall(request, "<NEW-KEY-NAME>");
        QVERIFY2(call, call ? "" : describe(call.error()).c_str());
        json expected = documented;
        expected["name"] = kToken;
        JSON_COMPARE(call->body, expected);
        QCOMPARE(call->method, std::string("POST"));
        QCOMPARE(call->path, std::string("/instance-operations/launch"));
        QVERIFY(!call->safeToRetry); // no idempotency key: the client must never resend it by itself

        const HttpRequest http = lambda::buildRequest(*call, "", kApiKey);
        QCOMPARE(http.url, std::string("https://cloud.lambda.ai/api/v1/instance-operations/launch"));
        QCOMPARE(http.header("Authorization").value_or(""), "Bearer " + kApiKey);
        QCOMPARE(http.header("Content-Type").value_or(""), std::string("application/json"));
        QVERIFY(!http.safeToRetry);
        JSON_COMPARE(json::parse(http.body), expected);
        QCOMPARE(lambda::buildRequest(*call, "http://127.0.0.1:8123/", kApiKey).url,
                 std::string("http://127.0.0.1:8123/api/v1/instance-operations/launch"));
    }

    void otherRequestsAreTheDocumentedExamples()
    {
        const lambda::Call terminate = lambda::terminateCall(kDocInstance);
        JSON_COMPARE(terminate.body, doc("terminate_request.json"));
        QCOMPARE(terminate.path, std::string("/instance-operations/terminate"));
        QCOMPARE(terminate.method, std::string("POST"));

        const json addDoc = doc("add_ssh_key_request.json");
        const lambda::Call add =
            lambda::addSshKeyCall(addDoc["name"].get<std::string>(), addDoc["public_key"].get<std::string>());
        JSON_COMPARE(add.body, addDoc);
        QCOMPARE(add.path, std::string("/ssh-keys"));
        QCOMPARE(add.method, std::string("POST"));

        for (const lambda::Call& get : {lambda::listInstanceTypesCall(),
                                        lambda::listSshKeysCall(),
                                        lambda::listInstancesCall(),
                                        lambda::getInstanceCall(kDocInstance)}) {
            QCOMPARE(get.method, std::string("GET"));
            QVERIFY(get.safeToRetry);
            QVERIFY(get.body.is_null());
            const HttpRequest http = lambda::buildRequest(get, "", kApiKey);
            QVERIFY(http.body.empty());
            QVERIFY(!http.header("Content-Type"));
        }
        QCOMPARE(lambda::getInstanceCall(kDocInstance).path, "/instances/" + kDocInstance);
        QCOMPARE(lambda::listInstanceTypesCall().path, std::string("/instance-types"));
    }

    void launchBodyOptionsAndLimits()
    {
        LaunchRequest request = baseRequest();
        request.userData = "#cloud-config\nruncmd: [echo hi]\n";
        request.imageId = "43336648-096d-4cba-9aa2-f9bb7727639d"; // Image.id example
        Result<lambda::Call> call = lambda::launchCall(request, "k");
        QVERIFY(call);
        JSON_COMPARE(call->body["user_data"], json(request.userData)); // plain text, not base64
        JSON_COMPARE(call->body["image"], (json{{"id", request.imageId}}));
        request.imageId = "ubuntu-lts"; // Image.family example
        JSON_COMPARE(lambda::launchCall(request, "k")->body["image"], (json{{"family", "ubuntu-lts"}}));
        request.imageId = "ddaedf1b7a0e41ac981711504493b242"; // ImageSpecificationID.id example
        JSON_COMPARE(lambda::launchCall(request, "k")->body["image"], (json{{"id", request.imageId}}));

        request = baseRequest();
        request.clientToken = "";
        QCOMPARE(lambda::launchCall(request, "k").error().reason.key, std::string("error.lambda.client_token_invalid"));
        request.clientToken = "someone-elses-name";
        QCOMPARE(lambda::launchCall(request, "k").error().reason.key, std::string("error.lambda.client_token_invalid"));
        request.clientToken = "gpuplan-" + std::string(57, 'a'); // 65 characters
        QCOMPARE(lambda::launchCall(request, "k").error().reason.key, std::string("error.lambda.client_token_invalid"));
        request.clientToken = "gpuplan-" + std::string(56, 'a'); // 64: the most a name takes
        QVERIFY(lambda::launchCall(request, "k"));
        request.userData = std::string(lambda::kMaxUserDataBytes + 1, 'x');
        Result<lambda::Call> big = lambda::launchCall(request, "k");
        QVERIFY(!big);
        QCOMPARE(big.error().reason.key, std::string("error.lambda.user_data_too_big"));
        QCOMPARE(big.error().reason.params.at("bytes"), std::to_string(lambda::kMaxUserDataBytes + 1));
    }

    void keyNames()
    {
        Result<std::string> name = lambda::keyName(kPublicKey);
        QVERIFY(name);
        QCOMPARE(*name, "gpuplanner-" + *publicKeyId(kPublicKey));
        QCOMPARE(name->size(), std::string("gpuplanner-").size() + 12);
        QVERIFY(!lambda::keyName("not a key line"));
        QVERIFY(lambda::samePublicKey(kPublicKey, kPublicKey.substr(0, kPublicKey.rfind(' ')) + " other comment"));
        QVERIFY(!lambda::samePublicKey(kPublicKey, doc("list_ssh_keys.json")["data"][0]["public_key"]));
        QVERIFY(!lambda::samePublicKey("", ""));
        QVERIFY(lambda::isOurs(kToken));
        QVERIFY(!lambda::isOurs("My Instance"));
    }

    void parsesDocumentedAnswers()
    {
        Result<std::vector<lambda::InstanceTypeOffer>> types =
            lambda::parseInstanceTypes(fixture("instance_types.json"));
        QVERIFY2(types, types ? "" : describe(types.error()).c_str());
        QCOMPARE(types->size(), std::size_t(1));
        const lambda::InstanceTypeOffer* offer = lambda::findOffer(*types, kDocType);
        QVERIFY(offer);
        QCOMPARE(offer->priceCentsPerHour.value_or(0), 1592LL);
        QCOMPARE(offer->gpuDescription, std::string("Example GPU (40 GB SXM4)"));
        QCOMPARE(offer->regionsWithCapacity, std::vector<std::string>{"us-west-1"});
        QVERIFY(!lambda::findOffer(*types, "gpu_1x_a10"));

        Result<std::vector<std::string>> launched = lambda::parseLaunch(fixture("launch_response.json"));
        QVERIFY(launched);
        QCOMPARE(*launched, std::vector<std::string>{kDocInstance});

        Result<std::vector<std::string>> terminated = lambda::parseTerminate(fixture("terminate_response.json"));
        QVERIFY(terminated);
        QCOMPARE(*terminated, std::vector<std::string>{kDocInstance});

        Result<lambda::Instance> instance = lambda::parseInstance(fixture("get_instance.json"));
        QVERIFY2(instance, instance ? "" : describe(instance.error()).c_str());
        QCOMPARE(instance->remote.instanceId, kDocInstance);
        QCOMPARE(instance->name, std::string("My Instance"));
        QVERIFY(instance->remote.clientToken.empty()); // not one of ours
        QCOMPARE(instance->remote.publicIp, std::string("198.51.100.2"));
        QCOMPARE(instance->remote.region, std::string("us-west-1"));
        QCOMPARE(instance->remote.zone, std::string("us-west-1"));
        QCOMPARE(instance->remote.instanceType, kDocType);
        QCOMPARE(instance->remote.providerState, std::string("terminating"));
        QCOMPARE(instance->remote.state, InstanceState::Stopping);
        QCOMPARE(instance->remote.pricingMode, std::string("on_demand"));

        Result<std::vector<lambda::Instance>> listed = lambda::parseInstances(fixture("list_instances.json"));
        QVERIFY(listed);
        QCOMPARE(listed->size(), std::size_t(1));
        QCOMPARE(listed->front().remote.instanceId, kDocInstance);

        Result<std::vector<lambda::SshKey>> keys = lambda::parseSshKeys(fixture("list_ssh_keys.json"));
        QVERIFY(keys);
        QCOMPARE(keys->size(), std::size_t(1));
        QCOMPARE(keys->front().name, std::string("my-public-key"));
        QCOMPARE(keys->front().id, std::string("ddf9a910ceb744a0bb95242cbba6cb50"));
        Result<lambda::SshKey> added = lambda::parseAddedSshKey(fixture("add_ssh_key_response.json"));
        QVERIFY(added);
        QCOMPARE(added->name, std::string("my-public-key"));

        // Ours: named with the token.
        Result<lambda::Instance> ours = lambda::parseInstance(json{{"data", instanceAs(kToken, "booting")}}.dump());
        QVERIFY(ours);
        QCOMPARE(ours->remote.clientToken, kToken);
        QCOMPARE(ours->remote.state, InstanceState::Pending);
    }

    void states_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<int>("state");
        // InstanceStatus: booting, active, unhealthy, terminated, terminating, preempted.
        QTest::newRow("booting") << "booting" << int(InstanceState::Pending);
        QTest::newRow("active") << "active" << int(InstanceState::Running);
        QTest::newRow("unhealthy") << "unhealthy" << int(InstanceState::Running);
        QTest::newRow("terminating") << "terminating" << int(InstanceState::Stopping);
        QTest::newRow("terminated") << "terminated" << int(InstanceState::Terminated);
        QTest::newRow("preempted") << "preempted" << int(InstanceState::Terminated);
        QTest::newRow("unknown") << "rebuilding" << int(InstanceState::Pending);
    }
    void states()
    {
        QFETCH(QString, status);
        QFETCH(int, state);
        QCOMPARE(int(lambda::stateFromStatus(status.toStdString())), state);
    }

    void brokenAnswersNameCallAndField_data()
    {
        QTest::addColumn<QString>("which");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("field");
        QTest::newRow("not json") << "instances"
                                  << "<html>"
                                  << "error.answer.not_json"
                                  << "";
        QTest::newRow("not object") << "instances"
                                    << "[1]"
                                    << "error.answer.not_object"
                                    << "";
        QTest::newRow("no data") << "instances"
                                 << R"({"date":[]})"
                                 << "error.answer.missing"
                                 << "data";
        QTest::newRow("data not list") << "instances"
                                       << R"({"data":{}})"
                                       << "error.answer.not_list"
                                       << "data";
        QTest::newRow("data not object") << "instance"
                                         << R"({"data":[]})"
                                         << "error.answer.invalid"
                                         << "data";
        QTest::newRow("instance without id") << "instance"
                                             << R"({"data":{"status":"active"}})"
                                             << "error.answer.missing"
                                             << "id";
        QTest::newRow("instance without status") << "instance"
                                                 << R"({"data":{"id":"x"}})"
                                                 << "error.answer.missing"
                                                 << "status";
        QTest::newRow("launch without ids") << "launch"
                                            << R"({"data":{"instance_ids":[]}})"
                                            << "error.answer.missing"
                                            << "data.instance_ids";
        QTest::newRow("terminate without list") << "terminate"
                                                << R"({"data":{}})"
                                                << "error.answer.missing"
                                                << "data.terminated_instances";
        QTest::newRow("type without regions") << "types"
                                              << R"({"data":{"t":{"instance_type":{"name":"t"}}}})"
                                              << "error.answer.missing"
                                              << "data.t.regions_with_capacity_available";
        QTest::newRow("key without name") << "keys"
                                          << R"({"data":[{"id":"1"}]})"
                                          << "error.answer.missing"
                                          << "data[].name";
    }
    void brokenAnswersNameCallAndField()
    {
        QFETCH(QString, which);
        QFETCH(QString, body);
        QFETCH(QString, key);
        QFETCH(QString, field);
        const std::string b = body.toStdString();
        Error error;
        if (which == "instances") {
            error = lambda::parseInstances(b).error();
        } else if (which == "instance") {
            error = lambda::parseInstance(b).error();
        } else if (which == "launch") {
            error = lambda::parseLaunch(b).error();
        } else if (which == "terminate") {
            error = lambda::parseTerminate(b).error();
        } else if (which == "types") {
            error = lambda::parseInstanceTypes(b).error();
        } else {
            error = lambda::parseSshKeys(b).error();
        }
        QCOMPARE(error.code, ErrorCode::ProviderRefused);
        QCOMPARE(QString::fromStdString(error.reason.key), key);
        QVERIFY(!error.reason.params.at("action").empty());
        QCOMPARE(error.reason.params.at("provider"), std::string("lambda"));
        QCOMPARE(error.where, "lambda " + error.reason.params.at("action"));
        if (!field.isEmpty()) {
            QCOMPARE(QString::fromStdString(error.reason.params.at("field")), field);
        }
    }

    void errorMapping_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("key");
        QTest::newRow("capacity") << "error_insufficient_capacity.json" << 400 << int(ErrorCode::InsufficientCapacity)
                                  << "error.lambda.insufficient_capacity";
        QTest::newRow("quota") << "error_quota_exceeded.json" << 400 << int(ErrorCode::QuotaExceeded)
                               << "error.lambda.quota";
        QTest::newRow("api key") << "error_invalid_api_key.json" << 401 << int(ErrorCode::Credentials)
                                 << "error.lambda.key_refused";
        QTest::newRow("inactive") << "error_account_inactive.json" << 403 << int(ErrorCode::PermissionDenied)
                                  << "error.lambda.account_inactive";
        QTest::newRow("billing address") << "error_invalid_address.json" << 403 << int(ErrorCode::PermissionDenied)
                                         << "error.lambda.billing_address";
        QTest::newRow("not found") << "error_instance_not_found.json" << 404 << int(ErrorCode::NotFound)
                                   << "error.lambda.not_found";
        QTest::newRow("invalid parameters") << "error_invalid_parameters.json" << 400 << int(ErrorCode::ProviderRefused)
                                            << "error.lambda.invalid_parameters";
        QTest::newRow("internal") << "error_internal.json" << 500 << int(ErrorCode::ProviderRefused)
                                  << "error.lambda.server_error";
        QTest::newRow("provider unavailable") << "error_provider_unavailable.json" << 503
                                              << int(ErrorCode::ProviderRefused) << "error.lambda.server_error";
        // The 429 body is not documented: the status decides, whatever the body.
        QTest::newRow("throttled, documented envelope")
            << "error_invalid_parameters.json" << 429 << int(ErrorCode::Throttled) << "error.lambda.throttled";
        QTest::newRow("throttled, no body") << "" << 429 << int(ErrorCode::Throttled) << "error.lambda.throttled";
        QTest::newRow("bare 502") << "" << 502 << int(ErrorCode::ProviderRefused) << "error.lambda.server_error";
        QTest::newRow("bare 418") << "" << 418 << int(ErrorCode::HttpStatus) << "error.lambda.http_status";
        QTest::newRow("bare 401") << "" << 401 << int(ErrorCode::Credentials) << "error.lambda.key_refused";
    }
    void errorMapping()
    {
        QFETCH(QString, file);
        QFETCH(int, status);
        QFETCH(int, code);
        QFETCH(QString, key);
        HttpResponse response{
            status, {}, file.isEmpty() ? std::string("<html>bad gateway</html>") : fixture(file.toStdString())};
        CallContext context;
        context.action = "launchInstance";
        context.region = "us-west-1";
        context.instanceType = "gpu_1x_a10";
        std::optional<Error> error = lambda::mapError(response, context);
        QVERIFY(error);
        QCOMPARE(int(error->code), code);
        QCOMPARE(QString::fromStdString(error->reason.key), key);
        QCOMPARE(error->httpStatus, status);
        QCOMPARE(error->reason.params.at("action"), std::string("launchInstance"));
        if (!file.isEmpty()) {
            const json documented = doc(file.toStdString())["error"];
            QCOMPARE(error->providerCode, documented["code"].get<std::string>());
            QCOMPARE(error->reason.params.at("code"), documented["code"].get<std::string>());
            if (documented.contains("message")) {
                QCOMPARE(error->reason.params.at("said"), documented["message"].get<std::string>());
            }
            if (documented.contains("suggestion")) {
                QCOMPARE(error->reason.params.at("suggestion"), documented["suggestion"].get<std::string>());
            }
        }
        if (key == "error.lambda.insufficient_capacity") {
            QCOMPARE(error->reason.params.at("instance_type"), std::string("gpu_1x_a10"));
            QCOMPARE(error->reason.params.at("region"), std::string("us-west-1"));
        }
        QVERIFY(!lambda::mapError(HttpResponse{200, {}, "{}"}, context));
    }

    void launchImportsTheKeyAndLaunches()
    {
        ScriptedTransport t;
        t.answer(kKeys, keysAnswer(false));
        const std::string name = *lambda::keyName(kPublicKey);
        json added = doc("add_ssh_key_response.json");
        added["data"]["name"] = name;
        added["data"]["public_key"] = kPublicKey;
        t.answer(kAddKey, added.dump());
        t.answer(kInstances, fixture("list_instances.json")); // someone's "My Instance": not this launch's
        t.answer(kLaunch, fixture("launch_response.json"));
        std::unique_ptr<CloudProvider> provider = makeLambdaProvider(contextFor(t));
        QCOMPARE(provider->id(), std::string("lambda"));

        LaunchRequest request = baseRequest();
        request.userData = "#!/bin/sh\necho watchdog\n";
        Result<LaunchResult> result = provider->launch(request, nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(result->instanceId, kDocInstance);
        QCOMPARE(result->zone, std::string("us-west-1"));
        QCOMPARE(result->state, InstanceState::Pending);
        QCOMPARE(stepKeys(*result),
                 (std::vector<std::string>{"step.lambda.image_default",
                                           "step.key_pair_imported",
                                           "step.lambda.ssh_not_restricted",
                                           "step.launched"}));
        QCOMPARE(result->steps[1].params.at("key_pair"), name);

        const json addBody = json::parse(t.find(kAddKey)->body);
        JSON_COMPARE(addBody, (json{{"name", name}, {"public_key", kPublicKey}}));
        const HttpRequest* launch = t.find(kLaunch);
        QVERIFY(launch);
        QVERIFY(!launch->safeToRetry);
        QCOMPARE(launch->header("Authorization").value_or(""), "Bearer " + kApiKey);
        const json body = json::parse(launch->body);
        JSON_COMPARE(body["ssh_key_names"], json::array({name}));
        JSON_COMPARE(body["name"], json(kToken));
        JSON_COMPARE(body["region_name"], json("us-west-1"));
        JSON_COMPARE(body["instance_type_name"], json("gpu_1x_a10"));
        JSON_COMPARE(body["user_data"], json(request.userData));
        QVERIFY(!body.contains("image")); // Lambda Stack, the default
        // The account's instances were listed before the launch was sent.
        QCOMPARE(t.count(kInstances), 1);
        QVERIFY(t.requests.size() >= 2);
        QCOMPARE(ScriptedTransport::key(t.requests.back()), kLaunch);
    }

    void launchFindsItsMachineByNameAndSendsNothing()
    {
        ScriptedTransport t;
        t.answer(kKeys, keysAnswer(true)); // ours, under the user's own name
        t.answer(kInstances, listOf({doc("get_instance.json")["data"], instanceAs(kToken, "booting")}));
        t.answer(kLaunch, fixture("launch_response.json"));
        std::unique_ptr<CloudProvider> provider = makeLambdaProvider(contextFor(t));
        Result<LaunchResult> result = provider->launch(baseRequest(), nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(t.count(kLaunch), 0);
        QCOMPARE(t.count(kAddKey), 0);
        QCOMPARE(result->instanceId, kDocInstance);
        QCOMPARE(result->state, InstanceState::Pending);
        QCOMPARE(stepKeys(*result),
                 (std::vector<std::string>{"step.lambda.image_default",
                                           "step.key_pair_found",
                                           "step.lambda.ssh_not_restricted",
                                           "step.lambda.found_by_name"}));
        QCOMPARE(result->steps[1].params.at("key_pair"), std::string("my-laptop"));
        QCOMPARE(result->steps[3].params.at("name"), kToken);
        QCOMPARE(result->steps[3].params.at("status"), std::string("booting"));

        // A terminated machine of that name is not this launch's running one: the launch is sent.
        ScriptedTransport t2;
        t2.answer(kKeys, keysAnswer(true));
        t2.answer(kInstances, listOf({instanceAs(kToken, "terminated")}));
        t2.answer(kLaunch, fixture("launch_response.json"));
        QVERIFY(makeLambdaProvider(contextFor(t2))->launch(baseRequest(), nullptr));
        QCOMPARE(t2.count(kLaunch), 1);
    }

    void lostLaunchAnswerIsNotResent()
    {
        ScriptedTransport t;
        t.answer(kKeys, keysAnswer(true));
        t.answer(kInstances, listOf({}));
        t.answer(kLaunch, "", 0); // the connection reset after sending
        std::unique_ptr<CloudProvider> provider = makeLambdaProvider(contextFor(t));
        Result<LaunchResult> result = provider->launch(baseRequest(), nullptr);
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::Network); // the Launcher's "outcome unknown"
        QCOMPARE(t.count(kLaunch), 1);
        QVERIFY(!t.find(kLaunch)->safeToRetry); // so HttpClient never repeats it either

        // A 500 after the create is returned as it is (status kept), also sent once.
        ScriptedTransport t2;
        t2.answer(kKeys, keysAnswer(true));
        t2.answer(kInstances, listOf({}));
        t2.answer(kLaunch, fixture("error_internal.json"), 500);
        Result<LaunchResult> failed = makeLambdaProvider(contextFor(t2))->launch(baseRequest(), nullptr);
        QVERIFY(!failed);
        QCOMPARE(failed.error().httpStatus, 500);
        QCOMPARE(failed.error().providerCode, std::string("global/internal-error"));
        QCOMPARE(t2.count(kLaunch), 1);
    }

    void throttledLaunchWaitsAndSendsAgain()
    {
        ScriptedTransport t;
        t.answer(kKeys, keysAnswer(true));
        t.answer(kInstances, listOf({}));
        t.answer(kLaunch, "", 429);
        t.answer(kLaunch, "", 429);
        t.answer(kLaunch, fixture("launch_response.json"));
        Slept slept;
        std::unique_ptr<CloudProvider> provider = makeLambdaProvider(contextFor(t, &slept));
        Result<LaunchResult> result = provider->launch(baseRequest(), nullptr);
        QVERIFY2(result, result ? "" : describe(result.error()).c_str());
        QCOMPARE(t.count(kLaunch), 3);
        QCOMPARE(slept.waits.size(), std::size_t(2));
        QCOMPARE(slept.waits.front(), std::chrono::milliseconds(12000)); // one launch per 12 s
        const std::vector<std::string> steps = stepKeys(*result);
        QCOMPARE(std::count(steps.begin(), steps.end(), std::string("step.lambda.launch_throttled")), 2L);

        // Throttled every time: given up after the retries, as Throttled.
        ScriptedTransport t2;
        t2.answer(kKeys, keysAnswer(true));
        t2.answer(kInstances, listOf({}));
        t2.answer(kLaunch, "", 429);
        Result<LaunchResult> refused = makeLambdaProvider(contextFor(t2))->launch(baseRequest(), nullptr);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::Throttled);
        QCOMPARE(t2.count(kLaunch), 1 + lambda::kLaunchRetries);
    }

    void noCapacityNamesWhereThereIs()
    {
        ScriptedTransport t;
        t.answer(kTypes, fixture("instance_types.json")); // gpu_8x_example: capacity in us-west-1 only
        std::unique_ptr<CloudProvider> provider = makeLambdaProvider(contextFor(t));
        Result<std::vector<std::string>> here = provider->zonesOffering("us-west-1", kDocType, nullptr);
        QVERIFY(here);
        QCOMPARE(*here, std::vector<std::string>{"us-west-1"});
        Result<std::vector<std::string>> none = provider->zonesOffering("us-east-1", kDocType, nullptr);
        QVERIFY(!none);
        QCOMPARE(none.error().code, ErrorCode::InsufficientCapacity);
        QCOMPARE(none.error().reason.key, std::string("error.lambda.no_capacity_in_region"));
        QCOMPARE(none.error().reason.params.at("regions_with_capacity"), std::string("us-west-1"));
        QCOMPARE(none.error().reason.params.at("region"), std::string("us-east-1"));
        Result<std::vector<std::string>> unknown = provider->zonesOffering("us-west-1", "gpu_9x_none", nullptr);
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().reason.key, std::string("error.lambda.type_not_offered"));
        // No region has it: the error says so rather than naming none.
        ScriptedTransport t0;
        json nowhere = doc("instance_types.json");
        nowhere["data"][kDocType]["regions_with_capacity_available"] = json::array();
        t0.answer(kTypes, nowhere.dump());
        Result<std::vector<std::string>> empty =
            makeLambdaProvider(contextFor(t0))->zonesOffering("us-west-1", kDocType, nullptr);
        QVERIFY(!empty);
        QCOMPARE(empty.error().reason.params.count("regions_with_capacity"), std::size_t(0));
        QCOMPARE(empty.error().reason.params.at("capacity_nowhere"), std::string("true"));

        // The launch itself refused for capacity: the error names where the type has capacity now.
        ScriptedTransport t2;
        t2.answer(kKeys, keysAnswer(true));
        t2.answer(kInstances, listOf({}));
        t2.answer(kLaunch, fixture("error_insufficient_capacity.json"), 400);
        t2.answer(kTypes, fixture("instance_types.json"));
        LaunchRequest request = baseRequest();
        request.instanceType = kDocType;
        request.region = "us-east-1";
        Result<LaunchResult> refused = makeLambdaProvider(contextFor(t2))->launch(request, nullptr);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::InsufficientCapacity);
        QCOMPARE(refused.error().reason.key, std::string("error.lambda.insufficient_capacity"));
        QCOMPARE(refused.error().reason.params.at("regions_with_capacity"), std::string("us-west-1"));
        QCOMPARE(t2.count(kLaunch), 1);
    }

    void describeListTerminate()
    {
        ScriptedTransport t;
        t.answer("GET /api/v1/instances/" + kDocInstance, fixture("get_instance.json"));
        t.answer("GET /api/v1/instances/gone", fixture("error_instance_not_found.json"), 404);
        t.answer(kInstances,
                 listOf({doc("get_instance.json")["data"],
                         instanceAs(kToken, "active"),
                         instanceAs("gpuplan-ffffffffffffffffffffffff", "booting", "us-east-1")}));
        t.answer(kTerminate, fixture("terminate_response.json"));
        std::unique_ptr<CloudProvider> provider = makeLambdaProvider(contextFor(t));

        Result<RemoteInstance> described = provider->describe("us-west-1", kDocInstance, nullptr);
        QVERIFY(described);
        QCOMPARE(described->state, InstanceState::Stopping);
        QCOMPARE(described->publicIp, std::string("198.51.100.2"));
        Result<RemoteInstance> gone = provider->describe("us-west-1", "gone", nullptr);
        QVERIFY(!gone);
        QCOMPARE(gone.error().code, ErrorCode::NotFound);

        Result<std::vector<RemoteInstance>> ours = provider->listOurs("us-west-1", nullptr);
        QVERIFY(ours);
        QCOMPARE(ours->size(), std::size_t(1)); // not "My Instance", not the one in us-east-1
        QCOMPARE(ours->front().clientToken, kToken);
        QCOMPARE(ours->front().state, InstanceState::Running);

        QVERIFY(provider->terminate("us-west-1", kDocInstance, nullptr));
        JSON_COMPARE(json::parse(t.find(kTerminate)->body), doc("terminate_request.json"));

        ScriptedTransport t2;
        t2.answer(kTerminate, fixture("error_instance_not_found.json"), 404);
        QVERIFY(makeLambdaProvider(contextFor(t2))->terminate("us-west-1", "gone", nullptr)); // already gone
        ScriptedTransport t3;
        t3.answer(kTerminate, fixture("error_invalid_api_key.json"), 401);
        Status refused = makeLambdaProvider(contextFor(t3))->terminate("us-west-1", kDocInstance, nullptr);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::Credentials);
    }

    void quotesPrice()
    {
        ScriptedTransport t;
        t.answer(kTypes, fixture("instance_types.json"));
        std::unique_ptr<CloudProvider> provider = makeLambdaProvider(contextFor(t));
        LaunchRequest request = baseRequest();
        request.instanceType = kDocType;
        Result<std::optional<PriceQuote>> quote = provider->quotePrice(request, nullptr);
        QVERIFY2(quote, quote ? "" : describe(quote.error()).c_str());
        QVERIFY(quote->has_value());
        QCOMPARE((*quote)->amount, 15.92);
        QCOMPARE((*quote)->currency, Currency::USD);
        QCOMPARE((*quote)->unit, PriceUnit::Hour);
        QVERIFY((*quote)->source.starts_with("Lambda instance-types"));
        QCOMPARE((*quote)->at, kNow);
        request.instanceType = "gpu_9x_none";
        Result<std::optional<PriceQuote>> unlisted = provider->quotePrice(request, nullptr);
        QVERIFY(unlisted && !unlisted->has_value());
    }

    void descriptorAndRefusals()
    {
        const ProviderDescriptor& d = lambdaDescriptor();
        QVERIFY(d.canLaunch());
        for (CloudFeature f : {CloudFeature::Spot,
                               CloudFeature::Subscription,
                               CloudFeature::DryRun,
                               CloudFeature::TerminateOnShutdown,
                               CloudFeature::ShutdownStopsBilling,
                               CloudFeature::ScheduledTerminate,
                               CloudFeature::SshSourceRestriction,
                               CloudFeature::ClientToken}) {
            QVERIFY2(!d.supports(f), cloudFeatureName(f));
            QCOMPARE(d.unsupported.at(f).key, std::string("unsupported.lambda.") + cloudFeatureName(f));
        }
        QVERIFY(d.supports(CloudFeature::KeyImport));
        QCOMPARE(d.launchPricings(), std::vector<LaunchPricing>{LaunchPricing::OnDemand});

        // Nothing is sent for a dry run or spot: Lambda would start the machine.
        ScriptedTransport t;
        std::unique_ptr<CloudProvider> provider = makeLambdaProvider(contextFor(t));
        LaunchRequest request = baseRequest();
        request.dryRun = true;
        Result<LaunchResult> dry = provider->launch(request, nullptr);
        QVERIFY(!dry);
        QCOMPARE(dry.error().reason.key, std::string("error.cloud.feature_refused"));
        request = baseRequest();
        request.pricing = LaunchPricing::Spot;
        QVERIFY(!provider->launch(request, nullptr));
        QVERIFY(t.requests.empty());
    }
};

QTEST_GUILESS_MAIN(TestLambda)
#include "TestLambda.moc"
