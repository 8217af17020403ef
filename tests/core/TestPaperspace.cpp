// The Paperspace provider without a network: our requests against the API reference's request samples and its
// OpenAPI request schemas (tests/data/cloud/paperspace, README there names each source), the parsers on its documented
// response samples and on broken answers, the error mapping, and a scripted transport answering per method and path
// that drives whole launches, describes, listings and terminates through makePaperspaceProvider.

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <QTest>

#include <nlohmann/json.hpp>

#include "gpuplan/cloud/providers/paperspace/PaperspaceApi.h"
#include "gpuplan/cloud/providers/paperspace/PaperspaceProvider.h"

using namespace gpuplan::core;
using nlohmann::json;

namespace {

const std::string kPublicKey =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1cGxhbm5lci10ZXN0LWtleS1ub3QtcmVhbC0wMDAwMDAw lab@example";
const std::string kToken = "gpuplan-0123456789abcdef01234567";
const std::string kApiKey = "ps-api-key-example-not-real";

std::string fixture(const std::string& name)
{
    std::ifstream in(GPUPLAN_SOURCE_DIR "/tests/data/cloud/paperspace/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

json doc(const std::string& name)
{
    return json::parse(fixture(name));
}

// The documented machine sample (machines-get) as a live machine of ours: name, id, state, no dtDeleted.
json liveMachine(const std::string& id, const std::string& name, const std::string& state)
{
    json m = doc("get_machine.json");
    m["id"] = id;
    m["name"] = name;
    m["state"] = state;
    m["dtDeleted"] = nullptr;
    m["machineType"] = "A100-80G";
    m["publicIp"] = state == "ready" ? "198.51.100.20" : "";
    return m;
}

// The documented list sample with these items; hasMore/nextPage as given.
std::string page(const std::vector<json>& items, const std::string& next = {})
{
    json p = doc("list_machines.json");
    p["items"] = items;
    p["hasMore"] = !next.empty();
    if (next.empty()) {
        p["nextPage"] = nullptr;
    } else {
        p["nextPage"] = next;
    }
    return p.dump();
}

std::string templatesPage()
{
    json p = doc("list_os_templates.json");
    json ml = p["items"][0];
    ml["id"] = "tmlbox22";
    ml["name"] = "ML-in-a-Box Ubuntu 22.04";
    ml["operatingSystemLabel"] = "Ubuntu 22.04";
    ml["dtCreated"] = "2024-05-01T00:00:00Z";
    ml["availableMachineTypes"] = json::array({{{"machineTypeLabel", "A100-80G"}, {"isAvailable", true}}});
    json old = ml;
    old["id"] = "tmlbox20";
    old["name"] = "ML-in-a-Box Ubuntu 20.04";
    old["dtCreated"] = "2022-01-01T00:00:00Z";
    json plain = ml;
    plain["id"] = "tubuntu22";
    plain["name"] = "Ubuntu 22.04 Server";
    plain["dtCreated"] = "2025-01-01T00:00:00Z";
    p["items"] = json::array({old, ml, plain});
    p["hasMore"] = false;
    p["nextPage"] = nullptr;
    return p.dump();
}

std::string createdScript(const std::string& id)
{
    json s = doc("create_startup_script.json");
    s["id"] = id;
    s["name"] = "gpuplanner-" + kToken;
    s["dtDeleted"] = nullptr;
    return s.dump();
}

std::string createdMachine(const std::string& id)
{
    json c = doc("create_machine.json");
    c["data"] = liveMachine(id, kToken, "provisioning");
    c["event"]["name"] = "create";
    return c.dump();
}

// Answers each request by "METHOD path" (the path without the query): a queue per key, the last answer repeats. A
// status of 0 answers a Network error (the connection reset before an answer).
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
            return HttpResponse{404, {}, json{{"code", "not_found"}, {"message", "no answer for " + k}}.dump()};
        }
        auto [status, body] = found->second.front();
        if (found->second.size() > 1) {
            found->second.pop_front();
        }
        if (status == 0) {
            return Error{ErrorCode::Network, Reason{"error.http.connection_reset", {}}, "127.0.0.1"};
        }
        return HttpResponse{status, {{"Content-Type", "application/json"}}, body};
    }

    static std::string key(const HttpRequest& request)
    {
        std::string path = request.url.substr(request.url.find('/', std::string("http://").size()));
        return request.method + " " + path.substr(0, path.find('?'));
    }
    static std::string query(const HttpRequest& request)
    {
        const std::size_t q = request.url.find('?');
        return q == std::string::npos ? std::string() : request.url.substr(q + 1);
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

ProviderContext contextFor(ScriptedTransport& transport, std::vector<std::chrono::milliseconds>* slept = nullptr)
{
    ProviderContext context;
    context.http = &transport;
    context.key = AccessKey{"", kApiKey, {}};
    context.endpoint = "http://127.0.0.1:9";
    context.sleep = [slept](std::chrono::milliseconds d) {
        if (slept) {
            slept->push_back(d);
        }
    };
    return context;
}

LaunchRequest launchRequest()
{
    LaunchRequest r;
    r.region = "East Coast (NY2)";
    r.instanceType = "A100-80G";
    r.sshPublicKey = kPublicKey;
    r.sshSourceCidr = "203.0.113.7/32";
    r.userData = "#!/bin/bash\necho watchdog\n";
    r.clientToken = kToken;
    return r;
}

// The answers of a launch that finds nothing of its own and creates its script and machine.
void scriptFreshLaunch(ScriptedTransport& t)
{
    t.answer("GET /v1/os-templates", templatesPage());
    t.answer("GET /v1/machines", page({}));
    t.answer("GET /v1/machine-availability", R"({"available": true})");
    t.answer("GET /v1/startup-scripts", page({}));
    t.answer("POST /v1/startup-scripts", createdScript("scr-1"));
    t.answer("POST /v1/machines", createdMachine("psabc123"));
}

// A value against one OpenAPI schema as the request schemas use it: type, enum, anyOf, object properties with
// required and additionalProperties false, arrays of items. Empty when it conforms, else what is wrong and where.
std::string violation(const json& value, const json& schema, const std::string& at)
{
    if (schema.contains("anyOf")) {
        for (const json& option : schema["anyOf"]) {
            if (violation(value, option, at).empty()) {
                return {};
            }
        }
        return at + ": matches none of anyOf";
    }
    if (schema.contains("enum")
        && std::find(schema["enum"].begin(), schema["enum"].end(), value) == schema["enum"].end()) {
        return at + ": not in enum";
    }
    const std::string type = schema.value("type", "");
    if (type == "string" && !value.is_string()) {
        return at + ": not a string";
    }
    if ((type == "number" || type == "integer") && !value.is_number()) {
        return at + ": not a number";
    }
    if (type == "boolean" && !value.is_boolean()) {
        return at + ": not a boolean";
    }
    if (type == "string" && schema.contains("minLength") && value.get<std::string>().size() < schema["minLength"]) {
        return at + ": shorter than minLength";
    }
    if (type == "array") {
        if (!value.is_array()) {
            return at + ": not an array";
        }
        for (const json& item : value) {
            if (std::string v = violation(item, schema["items"], at + "[]"); !v.empty()) {
                return v;
            }
        }
    }
    if (type == "object") {
        if (!value.is_object()) {
            return at + ": not an object";
        }
        for (const json& name : schema.value("required", json::array())) {
            if (!value.contains(name.get<std::string>())) {
                return at + "." + name.get<std::string>() + ": required, missing";
            }
        }
        for (const auto& [name, v] : value.items()) {
            if (!schema["properties"].contains(name)) {
                return at + "." + name + ": not a property of the schema";
            }
            if (std::string bad = violation(v, schema["properties"][name], at + "." + name); !bad.empty()) {
                return bad;
            }
        }
    }
    return {};
}

} // namespace

class TestPaperspace : public QObject
{
    Q_OBJECT

private slots:
    void regionIds_data()
    {
        QTest::addColumn<QString>("given");
        QTest::addColumn<QString>("id");
        QTest::newRow("id") << "ny2"
                            << "ny2";
        QTest::newRow("id upper") << "AMS1"
                                  << "ams1";
        QTest::newRow("east coast") << "East Coast (NY2)"
                                    << "ny2";
        QTest::newRow("west coast") << "West Coast (CA1)"
                                    << "ca1";
        QTest::newRow("europe blanks") << "  Europe (AMS1) "
                                       << "ams1";
    }
    void regionIds()
    {
        QFETCH(QString, given);
        QFETCH(QString, id);
        QCOMPARE(QString::fromStdString(paperspace::regionId(given.toStdString())), id);
    }

    void createMachineFollowsTheReference()
    {
        Result<paperspace::Call> call = paperspace::createMachineCall(launchRequest(), {"tmlbox22", "scr-1"});
        QVERIFY(call);
        QCOMPARE(call->method, std::string("POST"));
        QCOMPARE(call->path, std::string("/machines"));
        QVERIFY(!call->safeToRetry);
        // The OpenAPI request schema (required name, machineType, templateId, diskSize, region; no other property;
        // each value of its type and enum).
        const std::string bad = violation(call->body, doc("schema_create_machine_request.json"), "body");
        QVERIFY2(bad.empty(), bad.c_str());
        // The reference's request sample: every property we send is one of its keys, with a value of the same kind.
        const json sample = doc("create_machine_request.json");
        for (const auto& [name, value] : call->body.items()) {
            QVERIFY2(sample.contains(name), name.c_str());
            QCOMPARE(int(value.type()) == int(json::value_t::number_unsigned) ? int(json::value_t::number_integer)
                                                                              : int(value.type()),
                     int(sample[name].type()) == int(json::value_t::number_unsigned)
                         ? int(json::value_t::number_integer)
                         : int(sample[name].type()));
        }
        QVERIFY(call->body["name"] == json(kToken));
        QVERIFY(call->body["region"] == json("ny2"));
        QVERIFY(call->body["diskSize"] == json(100));
        QVERIFY(call->body["templateId"] == json("tmlbox22"));
        QVERIFY(call->body["startupScriptId"] == json("scr-1"));
        QVERIFY(call->body["emailPassword"] == json(false));
        QVERIFY(call->body["autoShutdownEnabled"] == json(false));

        LaunchRequest foreign = launchRequest();
        foreign.clientToken = "0123456789abcdef";
        Result<paperspace::Call> refused = paperspace::createMachineCall(foreign, {"t", "s"});
        QVERIFY(!refused);
        QCOMPARE(refused.error().reason.key, std::string("error.paperspace.client_token_invalid"));
    }

    void startupScriptFollowsTheReference()
    {
        Result<std::string> script = paperspace::startupScript(kPublicKey, "#!/bin/bash\necho watchdog");
        QVERIFY(script);
        QVERIFY(script->find("echo '" + kPublicKey + "' >> /home/paperspace/.ssh/authorized_keys")
                != std::string::npos);
        QVERIFY(script->find("echo watchdog\nGPUPLANNER_USER_DATA_END\n") != std::string::npos);
        const paperspace::Call call = paperspace::createStartupScriptCall("gpuplanner-" + kToken, *script);
        const std::string bad = violation(call.body, doc("schema_create_startup_script_request.json"), "body");
        QVERIFY2(bad.empty(), bad.c_str());
        const json sample = doc("create_startup_script_request.json");
        for (const auto& [name, value] : call.body.items()) {
            QVERIFY2(sample.contains(name) && sample[name].type() == value.type(), name.c_str());
        }
        QVERIFY(call.body["isRunOnce"] == json(true));
        QVERIFY(!paperspace::startupScript(kPublicKey + "' ; rm -rf / ; echo '", {}));
        QVERIFY(!paperspace::startupScript("ssh-ed25519 AAAA\nevil", {}));
        QVERIFY(!paperspace::startupScript("not a key", {}));
        Result<std::string> noUserData = paperspace::startupScript(kPublicKey, "");
        QVERIFY(noUserData && noUserData->find("GPUPLANNER_USER_DATA_END") == std::string::npos);
    }

    void callsAndUrls()
    {
        const HttpRequest list =
            paperspace::buildRequest(paperspace::listMachinesCall(kToken, "East Coast (NY2)", "cur 1"), "");
        QCOMPARE(list.url,
                 std::string("https://api.paperspace.com/v1/machines?limit=120&name=" + kToken
                             + "&region=ny2&after=cur%201"));
        QVERIFY(list.safeToRetry);
        QVERIFY(list.body.empty());
        const HttpRequest avail =
            paperspace::buildRequest(paperspace::machineAvailabilityCall("A100-80G", "ny2"), "http://127.0.0.1:5/");
        QCOMPARE(avail.url, std::string("http://127.0.0.1:5/v1/machine-availability?machineType=A100-80G&region=ny2"));
        const HttpRequest del = paperspace::buildRequest(paperspace::deleteMachineCall("psabc123"), "");
        QCOMPARE(del.method, std::string("DELETE"));
        QCOMPARE(del.url, std::string("https://api.paperspace.com/v1/machines/psabc123"));
        const HttpRequest post =
            paperspace::buildRequest(paperspace::createStartupScriptCall("n", "#!/bin/bash\n"), "");
        QCOMPARE(post.header("Content-Type").value_or(""), std::string("application/json"));
        QVERIFY(!post.safeToRetry);
    }

    void parsesTheDocumentedAnswers()
    {
        Result<paperspace::Machine> machine = paperspace::parseMachine(fixture("get_machine.json"), "machines-get");
        QVERIFY(machine);
        QCOMPARE(machine->instance.instanceId, std::string("string"));
        QCOMPARE(machine->instance.providerState, std::string("off"));
        QCOMPARE(machine->instance.state, InstanceState::Terminated); // the sample carries dtDeleted
        QCOMPARE(machine->instance.region, std::string("ny2"));
        QCOMPARE(machine->instance.zone, std::string("ny2"));
        QCOMPARE(machine->instance.publicIp, std::string("string"));
        QCOMPARE(machine->instance.launchedAt.value_or(0), std::int64_t(1566656122)); // 2019-08-24T14:15:22Z
        QVERIFY(machine->instance.clientToken.empty());                               // "string" is not one of ours
        QCOMPARE(machine->usageRate.value_or(-1), 0.0);

        json live = doc("get_machine.json");
        live["dtDeleted"] = nullptr;
        QCOMPARE(paperspace::parseMachine(live.dump(), "machines-get")->instance.state, InstanceState::Stopped);

        Result<paperspace::Page<paperspace::Machine>> list = paperspace::parseMachines(fixture("list_machines.json"));
        QVERIFY(list);
        QCOMPARE(list->items.size(), std::size_t(1));
        QCOMPARE(list->nextPage, std::string("string"));

        Result<paperspace::MachineEvent> created =
            paperspace::parseMachineEvent(fixture("create_machine.json"), "machines-create");
        QVERIFY(created);
        QCOMPARE(created->eventState, std::string("new"));
        QCOMPARE(created->machine.instance.instanceId, std::string("string"));
        Result<paperspace::MachineEvent> deleted =
            paperspace::parseMachineEvent(fixture("delete_machine.json"), "machines-delete");
        QVERIFY(deleted);
        QCOMPARE(deleted->eventId, std::string("string"));

        QCOMPARE(paperspace::parseAvailability(fixture("machine_availability.json")).value(), true);

        Result<paperspace::Page<paperspace::OsTemplate>> templates =
            paperspace::parseOsTemplates(fixture("list_os_templates.json"));
        QVERIFY(templates);
        QCOMPARE(templates->items.size(), std::size_t(1));
        QCOMPARE(templates->items[0].machineTypes.size(), std::size_t(1));
        QVERIFY(templates->items[0].machineTypes[0].second);

        Result<paperspace::StartupScript> script =
            paperspace::parseStartupScript(fixture("create_startup_script.json"), "startupScripts-create");
        QVERIFY(script);
        QCOMPARE(script->id, std::string("string"));
        QVERIFY(script->deleted);
        QVERIFY(paperspace::parseStartupScripts(fixture("list_startup_scripts.json")));
        QVERIFY(paperspace::parseStartupScript(fixture("delete_startup_script.json"), "startupScripts-delete"));
    }

    void refusesBrokenAnswers()
    {
        const Error notJson = paperspace::parseMachine("<html>", "machines-get").error();
        QCOMPARE(notJson.code, ErrorCode::ProviderRefused);
        QCOMPARE(notJson.reason.key, std::string("error.answer.not_json"));
        QCOMPARE(notJson.reason.params.at("provider"), std::string("paperspace"));
        QCOMPARE(notJson.reason.params.at("action"), std::string("machines-get"));
        QCOMPARE(notJson.where, std::string("paperspace machines-get"));
        QCOMPARE(paperspace::parseMachine("[]", "machines-get").error().reason.key,
                 std::string("error.answer.not_object"));
        QCOMPARE(paperspace::parseMachine(R"({"name": "x"})", "machines-get").error().reason.params.at("field"),
                 std::string("id"));
        QCOMPARE(paperspace::parseMachines(R"({"hasMore": false})").error().reason.params.at("field"),
                 std::string("items"));
        QCOMPARE(paperspace::parseMachines(R"({"items": {}})").error().reason.key,
                 std::string("error.answer.not_list"));
        QCOMPARE(paperspace::parseAvailability(R"({"available": "yes"})").error().reason.key,
                 std::string("error.answer.missing"));
        QCOMPARE(paperspace::parseMachineEvent(R"({"data": {}})", "machines-create").error().reason.params.at("field"),
                 std::string("event"));
        QCOMPARE(paperspace::parseMachineEvent(R"({"event": {"id": "e"}, "data": {}})", "machines-create")
                     .error()
                     .reason.params.at("field"),
                 std::string("data.id"));
    }

    void statesAndTemplates()
    {
        QCOMPARE(paperspace::stateFromMachine("provisioning"), InstanceState::Pending);
        QCOMPARE(paperspace::stateFromMachine("starting"), InstanceState::Pending);
        QCOMPARE(paperspace::stateFromMachine("serviceready"), InstanceState::Pending);
        QCOMPARE(paperspace::stateFromMachine("ready"), InstanceState::Running);
        QCOMPARE(paperspace::stateFromMachine("stopping"), InstanceState::Stopping);
        QCOMPARE(paperspace::stateFromMachine("off"), InstanceState::Stopped);

        Result<paperspace::Page<paperspace::OsTemplate>> t = paperspace::parseOsTemplates(templatesPage());
        QVERIFY(t);
        std::optional<paperspace::OsTemplate> best = paperspace::newestMlInABox(t->items, "A100-80G");
        QVERIFY(best);
        QCOMPARE(best->id, std::string("tmlbox22")); // the newest ML-in-a-Box; the plain Ubuntu is newer but not one
        QVERIFY(!paperspace::newestMlInABox(t->items, "H100"));
    }

    void mapsErrors_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("key");
        QTest::newRow("documented 400") << 400 << "string" << int(ErrorCode::ProviderRefused)
                                        << "error.paperspace.refused";
        QTest::newRow("401") << 401 << "Unauthorized" << int(ErrorCode::Credentials) << "error.paperspace.key_refused";
        QTest::newRow("403") << 403 << "Forbidden" << int(ErrorCode::PermissionDenied)
                             << "error.paperspace.permission_denied";
        QTest::newRow("404") << 404 << "Not found" << int(ErrorCode::NotFound) << "error.paperspace.not_found";
        QTest::newRow("429") << 429 << "Too many requests" << int(ErrorCode::Throttled) << "error.paperspace.throttled";
        QTest::newRow("402") << 402 << "Payment required" << int(ErrorCode::ProviderRefused)
                             << "error.paperspace.billing";
        QTest::newRow("capacity") << 400 << "We are currently out of capacity for the selected VM type."
                                  << int(ErrorCode::InsufficientCapacity) << "error.paperspace.out_of_capacity";
        QTest::newRow("quota") << 400 << "You have reached your machine limit" << int(ErrorCode::QuotaExceeded)
                               << "error.paperspace.quota";
    }
    void mapsErrors()
    {
        QFETCH(int, status);
        QFETCH(QString, message);
        QFETCH(int, code);
        QFETCH(QString, key);
        json body = doc("error.json");
        body["message"] = message.toStdString();
        CallContext context{"machines-create", "ny2", "A100-80G", "ny2", false};
        std::optional<Error> error = paperspace::mapError(HttpResponse{status, {}, body.dump()}, context);
        QVERIFY(error);
        QCOMPARE(int(error->code), code);
        QCOMPARE(QString::fromStdString(error->reason.key), key);
        QCOMPARE(error->providerCode, std::string("string"));
        QCOMPARE(error->reason.params.at("said"), message.toStdString());
        QCOMPARE(error->httpStatus, status);
    }
    void mapsBareStatuses()
    {
        CallContext context{"machines-get", "ny2", "", "", false};
        QVERIFY(!paperspace::mapError(HttpResponse{200, {}, "{}"}, context));
        std::optional<Error> bare = paperspace::mapError(HttpResponse{502, {}, "<html>bad gateway</html>"}, context);
        QCOMPARE(bare->code, ErrorCode::HttpStatus);
        QCOMPARE(bare->reason.params.at("status"), std::string("502"));
        QCOMPARE(paperspace::mapError(HttpResponse{429, {}, ""}, context)->code, ErrorCode::Throttled);
    }

    void descriptorDeclaresWhatItLacks()
    {
        const ProviderDescriptor& d = paperspaceDescriptor();
        QVERIFY(d.canLaunch());
        for (CloudFeature f : {CloudFeature::Spot,
                               CloudFeature::Subscription,
                               CloudFeature::DryRun,
                               CloudFeature::TerminateOnShutdown,
                               CloudFeature::ScheduledTerminate,
                               CloudFeature::KeyImport,
                               CloudFeature::SshSourceRestriction,
                               CloudFeature::ClientToken}) {
            QVERIFY2(!d.supports(f), cloudFeatureName(f));
            QCOMPARE(d.unsupported.at(f).key, std::string("unsupported.paperspace.") + cloudFeatureName(f));
        }
    }

    void launchesAFreshMachine()
    {
        ScriptedTransport t;
        scriptFreshLaunch(t);
        auto provider = makePaperspaceProvider(contextFor(t));
        Result<LaunchResult> launched = provider->launch(launchRequest(), nullptr);
        QVERIFY2(launched, launched ? "" : describe(launched.error()).c_str());
        QCOMPARE(launched->instanceId, std::string("psabc123"));
        QCOMPARE(launched->state, InstanceState::Pending);
        QCOMPARE(launched->zone, std::string("ny2"));
        QCOMPARE(t.count("POST /v1/machines"), 1);
        QCOMPARE(t.count("POST /v1/startup-scripts"), 1);
        for (const HttpRequest& r : t.requests) {
            QCOMPARE(r.header("Authorization").value_or(""), "Bearer " + kApiKey);
        }
        // The listing by name comes before anything is created.
        QCOMPARE(ScriptedTransport::key(t.requests[1]), std::string("GET /v1/machines"));
        QVERIFY(ScriptedTransport::query(t.requests[1]).find("name=" + kToken) != std::string::npos);
        const HttpRequest* post = t.find("POST /v1/machines");
        QVERIFY(!post->safeToRetry);
        const json sent = json::parse(post->body);
        QVERIFY(sent["name"] == json(kToken));
        QVERIFY(sent["templateId"] == json("tmlbox22"));
        QVERIFY(sent["startupScriptId"] == json("scr-1"));
        QVERIFY(sent["region"] == json("ny2"));
        const json script = json::parse(t.find("POST /v1/startup-scripts")->body);
        QVERIFY(script["name"] == json("gpuplanner-" + kToken));
        QVERIFY(script["script"].get<std::string>().find(kPublicKey) != std::string::npos);
        QVERIFY(script["script"].get<std::string>().find("echo watchdog") != std::string::npos);
        std::vector<std::string> keys;
        for (const Reason& step : launched->steps) {
            keys.push_back(step.key);
        }
        QCOMPARE(keys,
                 (std::vector<std::string>{"step.image_found",
                                           "step.paperspace.key_by_startup_script",
                                           "step.paperspace.ssh_open_to_all",
                                           "step.paperspace.startup_script_created",
                                           "step.launched"}));
    }

    void findsItsMachineByNameAndSendsNothing()
    {
        // A listing that holds this launch's machine: the name is the token.
        ScriptedTransport found;
        found.answer("GET /v1/os-templates", templatesPage());
        found.answer("GET /v1/machines", page({liveMachine("psmine", kToken, "starting")}));
        auto p = makePaperspaceProvider(contextFor(found));
        Result<LaunchResult> launched = p->launch(launchRequest(), nullptr);
        QVERIFY(launched);
        QCOMPARE(launched->instanceId, std::string("psmine"));
        QCOMPARE(found.count("POST /v1/machines"), 0);
        QCOMPARE(found.count("POST /v1/startup-scripts"), 0);
        QCOMPARE(found.count("GET /v1/machine-availability"), 0);
        QCOMPARE(launched->steps.back().key, std::string("step.paperspace.found_by_name"));
        QCOMPARE(launched->steps.back().params.at("instance_id"), std::string("psmine"));
    }

    void reusesItsStartupScript()
    {
        // An earlier attempt's script (its create call's answer was lost, say) is found by name, not made again.
        json scripts = doc("list_startup_scripts.json");
        scripts["items"][0]["id"] = "scr-old";
        scripts["items"][0]["name"] = "gpuplanner-" + kToken;
        scripts["items"][0]["dtDeleted"] = nullptr;
        scripts["hasMore"] = false;
        ScriptedTransport t2;
        t2.answer("GET /v1/os-templates", templatesPage());
        t2.answer("GET /v1/machines", page({}));
        t2.answer("GET /v1/machine-availability", R"({"available": true})");
        t2.answer("GET /v1/startup-scripts", scripts.dump());
        t2.answer("POST /v1/machines", createdMachine("psabc123"));
        auto p = makePaperspaceProvider(contextFor(t2));
        Result<LaunchResult> launched = p->launch(launchRequest(), nullptr);
        QVERIFY(launched);
        QCOMPARE(t2.count("POST /v1/startup-scripts"), 0);
        QVERIFY(json::parse(t2.find("POST /v1/machines")->body)["startupScriptId"] == json("scr-old"));
    }

    void aLostCreateIsSentOnce()
    {
        ScriptedTransport lost;
        lost.answer("GET /v1/os-templates", templatesPage());
        lost.answer("GET /v1/machines", page({}));
        lost.answer("GET /v1/machine-availability", R"({"available": true})");
        lost.answer("GET /v1/startup-scripts", page({}));
        lost.answer("POST /v1/startup-scripts", createdScript("scr-1"));
        lost.answer("POST /v1/machines", "", 0);
        auto p = makePaperspaceProvider(contextFor(lost));
        Result<LaunchResult> launched = p->launch(launchRequest(), nullptr);
        QVERIFY(!launched);
        QCOMPARE(launched.error().code, ErrorCode::Network);
        QCOMPARE(lost.count("POST /v1/machines"), 1);
    }

    void aThrottledCreateIsWaitedOut()
    {
        ScriptedTransport t;
        t.answer("GET /v1/os-templates", templatesPage());
        t.answer("GET /v1/machines", page({}));
        t.answer("GET /v1/machine-availability", R"({"available": true})");
        t.answer("GET /v1/startup-scripts", page({}));
        t.answer("POST /v1/startup-scripts", createdScript("scr-1"));
        t.answer("POST /v1/machines", doc("error.json").dump(), 429);
        t.answer("POST /v1/machines", createdMachine("psabc123"));
        std::vector<std::chrono::milliseconds> slept;
        auto p = makePaperspaceProvider(contextFor(t, &slept));
        Result<LaunchResult> launched = p->launch(launchRequest(), nullptr);
        QVERIFY(launched);
        QCOMPARE(t.count("POST /v1/machines"), 2);
        QCOMPARE(slept, (std::vector<std::chrono::milliseconds>{std::chrono::seconds(10)}));
        QVERIFY(std::any_of(launched->steps.begin(), launched->steps.end(), [](const Reason& s) {
            return s.key == "step.paperspace.throttled_wait";
        }));
    }

    void noAvailabilityCreatesNothing()
    {
        ScriptedTransport t;
        t.answer("GET /v1/os-templates", templatesPage());
        t.answer("GET /v1/machines", page({}));
        t.answer("GET /v1/machine-availability", R"({"available": false})");
        auto p = makePaperspaceProvider(contextFor(t));
        QCOMPARE(p->zonesOffering("ny2", "A100-80G", nullptr)->size(), std::size_t(0));
        Result<LaunchResult> launched = p->launch(launchRequest(), nullptr);
        QVERIFY(!launched);
        QCOMPARE(launched.error().code, ErrorCode::InsufficientCapacity);
        QCOMPARE(launched.error().reason.key, std::string("error.paperspace.not_available"));
        QCOMPARE(t.count("POST /v1/machines"), 0);
        QCOMPARE(t.count("POST /v1/startup-scripts"), 0);
        const HttpRequest* asked = t.find("GET /v1/machine-availability");
        QCOMPARE(ScriptedTransport::query(*asked), std::string("machineType=A100-80G&region=ny2"));
    }

    void noTemplateIsAnHonestError()
    {
        ScriptedTransport t;
        t.answer("GET /v1/os-templates", page({})); // no template at all
        auto p = makePaperspaceProvider(contextFor(t));
        Result<LaunchResult> launched = p->launch(launchRequest(), nullptr);
        QVERIFY(!launched);
        QCOMPARE(launched.error().reason.key, std::string("error.paperspace.no_template"));
        QCOMPARE(t.count("POST /v1/machines"), 0);
    }

    void refusesWhatItCannotDo()
    {
        ScriptedTransport t;
        auto p = makePaperspaceProvider(contextFor(t));
        LaunchRequest dry = launchRequest();
        dry.dryRun = true;
        QCOMPARE(p->launch(dry, nullptr).error().reason.params.at("why_key"),
                 std::string("unsupported.paperspace.dry_run"));
        LaunchRequest spot = launchRequest();
        spot.pricing = LaunchPricing::Spot;
        QCOMPARE(p->launch(spot, nullptr).error().reason.params.at("why_key"),
                 std::string("unsupported.paperspace.spot"));
        LaunchRequest timed = launchRequest();
        timed.terminateAt = 1796324700;
        QCOMPARE(p->launch(timed, nullptr).error().reason.params.at("why_key"),
                 std::string("unsupported.paperspace.scheduled_terminate"));
        QVERIFY(t.requests.empty());
    }

    void describesAMachine()
    {
        ScriptedTransport t;
        t.answer("GET /v1/machines/psabc123", liveMachine("psabc123", kToken, "ready").dump());
        auto p = makePaperspaceProvider(contextFor(t));
        Result<RemoteInstance> shown = p->describe("ny2", "psabc123", nullptr);
        QVERIFY(shown);
        QCOMPARE(shown->state, InstanceState::Running);
        QCOMPARE(shown->publicIp, std::string("198.51.100.20"));
        QCOMPARE(shown->clientToken, kToken);
        Result<RemoteInstance> gone = p->describe("ny2", "psnothere", nullptr);
        QVERIFY(!gone);
        QCOMPARE(gone.error().code, ErrorCode::NotFound);
    }

    void listsOursOverPages()
    {
        ScriptedTransport t;
        t.answer("GET /v1/machines",
                 page({liveMachine("ps1", kToken, "ready"), liveMachine("ps2", "someone's desktop", "ready")}, "cur2"));
        t.answer("GET /v1/machines", page({liveMachine("ps3", "gpuplan-ffffffffffffffffffffffff", "off")}));
        auto p = makePaperspaceProvider(contextFor(t));
        Result<std::vector<RemoteInstance>> ours = p->listOurs("East Coast (NY2)", nullptr);
        QVERIFY(ours);
        QCOMPARE(ours->size(), std::size_t(2));
        QCOMPARE((*ours)[0].instanceId, std::string("ps1"));
        QCOMPARE((*ours)[1].clientToken, std::string("gpuplan-ffffffffffffffffffffffff"));
        QCOMPARE((*ours)[1].state, InstanceState::Stopped);
        QCOMPARE(t.count("GET /v1/machines"), 2);
        QVERIFY(ScriptedTransport::query(t.requests[0]).find("region=ny2") != std::string::npos);
        QVERIFY(ScriptedTransport::query(t.requests[1]).find("after=cur2") != std::string::npos);
    }

    void terminatesAndCleansItsScript()
    {
        ScriptedTransport t;
        t.answer("GET /v1/machines/psabc123", liveMachine("psabc123", kToken, "ready").dump());
        t.answer("DELETE /v1/machines/psabc123", fixture("delete_machine.json"));
        json scripts = doc("list_startup_scripts.json");
        scripts["items"][0]["id"] = "scr-1";
        scripts["items"][0]["name"] = "gpuplanner-" + kToken;
        scripts["items"][0]["dtDeleted"] = nullptr;
        scripts["hasMore"] = false;
        t.answer("GET /v1/startup-scripts", scripts.dump());
        t.answer("DELETE /v1/startup-scripts/scr-1", fixture("delete_startup_script.json"));
        auto p = makePaperspaceProvider(contextFor(t));
        QVERIFY(p->terminate("ny2", "psabc123", nullptr));
        QCOMPARE(t.count("DELETE /v1/machines/psabc123"), 1);
        QCOMPARE(t.count("DELETE /v1/startup-scripts/scr-1"), 1);

        ScriptedTransport gone;
        auto q = makePaperspaceProvider(contextFor(gone));
        QVERIFY(q->terminate("ny2", "psnothere", nullptr)); // 404: already gone
        QCOMPARE(gone.count("DELETE /v1/machines/psnothere"), 1);

        ScriptedTransport refused;
        refused.answer("GET /v1/machines/ps9", liveMachine("ps9", kToken, "ready").dump());
        refused.answer("DELETE /v1/machines/ps9", json{{"code", "x"}, {"message", "Unauthorized"}}.dump(), 401);
        auto r = makePaperspaceProvider(contextFor(refused));
        Status failed = r->terminate("ny2", "ps9", nullptr);
        QVERIFY(!failed);
        QCOMPARE(failed.error().code, ErrorCode::Credentials);
    }
};

QTEST_GUILESS_MAIN(TestPaperspace)
#include "TestPaperspace.moc"
