// Paperspace's machines API (api.paperspace.com/v1) as GPU Planner uses it: each operation's request, the parsers of
// its documented answers, and the error mapping with its advice.

#include "gpuplan/cloud/providers/paperspace/PaperspaceApi.h"

#include "gpuplan/cloud/JsonAnswer.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/net/Crypto.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace gpuplan::core::paperspace {

namespace {

using json_answer::text;
using nlohmann::json;

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

std::string trim(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

bool contains(const std::string& text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

constexpr const char* kProvider = "paperspace";

// "items" (required, a list) and "nextPage" (a string, or null / absent at the end) of a list answer; hasMore false
// ends the listing whatever nextPage says.
Result<std::pair<json, std::string>> pageOf(std::string_view body, const JsonAnswer& answer)
{
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<json> items = answer.list(*doc, "items");
    if (!items) {
        return items.error();
    }
    std::string next = text(*doc, "nextPage");
    if (doc->contains("hasMore") && (*doc)["hasMore"].is_boolean() && !(*doc)["hasMore"].get<bool>()) {
        next.clear();
    }
    return std::pair{*items, next};
}

Call call(const char* action, const char* method, std::string path, bool safe)
{
    Call c;
    c.action = action;
    c.method = method;
    c.path = std::move(path);
    c.safeToRetry = safe;
    return c;
}

Result<Machine> machineOf(const json& item, const JsonAnswer& answer)
{
    if (!item.is_object()) {
        return answer.refused("error.answer.missing", {{"field", "machine"}});
    }
    Result<std::string> id = answer.requiredText(item, "id");
    if (!id) {
        return id.error();
    }
    Machine m;
    m.name = text(item, "name");
    m.instance.instanceId = *id;
    if (m.name.starts_with(kOwnedPrefix)) {
        m.instance.clientToken = m.name;
    }
    m.instance.providerState = text(item, "state");
    m.instance.state = stateFromMachine(m.instance.providerState);
    if (item.contains("dtDeleted") && item["dtDeleted"].is_string() && !item["dtDeleted"].get<std::string>().empty()) {
        m.instance.state = InstanceState::Terminated;
    }
    m.instance.region = text(item, "region");
    m.instance.zone = m.instance.region; // one zone per region
    m.instance.instanceType = text(item, "machineType");
    m.instance.publicIp = text(item, "publicIp");
    m.instance.pricingMode = "on_demand"; // the API launches only hourly machines
    if (std::optional<std::int64_t> at = parseIsoSeconds(text(item, "dtCreated"))) {
        m.instance.launchedAt = *at;
    }
    if (item.contains("usageRate") && item["usageRate"].is_number()) {
        m.usageRate = item["usageRate"].get<double>();
    }
    return m;
}

// An OpenSSH public key line: "<type> <base64>[ comment]", printable, without the quotes and backslashes that would
// end the script's quoted string.
bool plainKeyLine(const std::string& key)
{
    if (key.empty() || key.size() > 16384) {
        return false;
    }
    for (unsigned char c : key) {
        if (c < 0x20 || c == 0x7f || c == '\'' || c == '"' || c == '\\' || c == '`' || c == '$') {
            return false;
        }
    }
    const std::size_t space = key.find(' ');
    if (space == std::string::npos || space + 1 >= key.size()) {
        return false;
    }
    const std::string type = key.substr(0, space);
    return type.starts_with("ssh-") || type.starts_with("ecdsa-") || type.starts_with("sk-");
}

} // namespace

std::string baseUrl(const std::string& endpoint)
{
    if (endpoint.empty()) {
        return "https://api.paperspace.com/v1"; // wire: the API's base URL
    }
    std::string base = endpoint;
    while (!base.empty() && base.back() == '/') {
        base.pop_back();
    }
    return base + "/v1";
}

std::string regionId(const std::string& region)
{
    const std::string given = trim(region);
    // "East Coast (NY2)": the how-to pages' and the catalog's name; the id is in the parentheses.
    const std::size_t open = given.rfind('(');
    if (!given.empty() && given.back() == ')' && open != std::string::npos) {
        return lower(trim(given.substr(open + 1, given.size() - open - 2)));
    }
    return lower(given);
}

std::string body(const Call& call)
{
    return call.body.is_null() ? std::string() : call.body.dump();
}

HttpRequest buildRequest(const Call& call, const std::string& endpoint)
{
    HttpRequest request;
    request.method = call.method;
    std::string url = baseUrl(endpoint) + call.path;
    for (std::size_t i = 0; i < call.query.size(); ++i) {
        url += (i == 0 ? "?" : "&") + uriEncode(call.query[i].first) + "=" + uriEncode(call.query[i].second);
    }
    request.url = std::move(url);
    request.body = body(call);
    request.headers.push_back({"Accept", std::string(kContentType)});
    if (!request.body.empty()) {
        request.headers.push_back({"Content-Type", std::string(kContentType)});
    }
    request.safeToRetry = call.safeToRetry;
    return request;
}

Call listMachinesCall(const std::string& name, const std::string& region, const std::string& after)
{
    Call c = call("machines-list", "GET", "/machines", true);
    c.query.push_back({"limit", std::to_string(kPageLimit)});
    if (!name.empty()) {
        c.query.push_back({"name", name});
    }
    if (!region.empty()) {
        c.query.push_back({"region", regionId(region)});
    }
    if (!after.empty()) {
        c.query.push_back({"after", after});
    }
    return c;
}

Call getMachineCall(const std::string& id)
{
    return call("machines-get", "GET", "/machines/" + uriEncode(id), true);
}

Call deleteMachineCall(const std::string& id)
{
    // Deleting twice does no harm (the second answers 404, read as gone).
    return call("machines-delete", "DELETE", "/machines/" + uriEncode(id), true);
}

Call machineAvailabilityCall(const std::string& machineType, const std::string& region)
{
    Call c = call("machineAvailability-get", "GET", "/machine-availability", true);
    c.query = {{"machineType", machineType}, {"region", regionId(region)}};
    return c;
}

Call listOsTemplatesCall(const std::string& after)
{
    Call c = call("osTemplates-list", "GET", "/os-templates", true);
    c.query.push_back({"limit", std::to_string(kPageLimit)});
    if (!after.empty()) {
        c.query.push_back({"after", after});
    }
    return c;
}

Call listStartupScriptsCall(const std::string& name, const std::string& after)
{
    Call c = call("startupScripts-list", "GET", "/startup-scripts", true);
    c.query.push_back({"limit", std::to_string(kPageLimit)});
    c.query.push_back({"name", name});
    if (!after.empty()) {
        c.query.push_back({"after", after});
    }
    return c;
}

Call deleteStartupScriptCall(const std::string& id)
{
    return call("startupScripts-delete", "DELETE", "/startup-scripts/" + uriEncode(id), true);
}

std::string scriptName(const std::string& clientToken)
{
    return std::string(kScriptPrefix) + clientToken;
}

Result<std::string> startupScript(const std::string& sshPublicKey, const std::string& userData)
{
    const std::string key = trim(sshPublicKey);
    if (!plainKeyLine(key)) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.paperspace.ssh_key_invalid", {}}, "sshPublicKey"};
    }
    // wire: the script Paperspace runs as root on the first boot (SkyPilot's sky-add-key does the same append)
    std::string script = "#!/bin/bash\n"
                         "install -d -m 700 -o paperspace -g paperspace /home/paperspace/.ssh\n"
                         "echo '"
                         + key
                         + "' >> /home/paperspace/.ssh/authorized_keys\n"
                           "chown paperspace:paperspace /home/paperspace/.ssh/authorized_keys\n"
                           "chmod 600 /home/paperspace/.ssh/authorized_keys\n";
    if (!trim(userData).empty()) {
        // The watchdog runs as its own script, so that its shebang and exit codes are its own.
        // wire: the launch's user data, written to a file on the machine and run there
        script += "cat > /var/lib/gpuplanner-user-data <<'GPUPLANNER_USER_DATA_END'\n" + userData
                  + (userData.back() == '\n' ? "" : "\n")
                  + "GPUPLANNER_USER_DATA_END\n"
                    "chmod 700 /var/lib/gpuplanner-user-data\n"
                    "/var/lib/gpuplanner-user-data &\n";
    }
    return script;
}

Call createStartupScriptCall(const std::string& name, const std::string& script)
{
    // Not safe to retry: a resent create makes a second script of the same name (clutter, not cost); the provider
    // looks for it by name first.
    Call c = call("startupScripts-create", "POST", "/startup-scripts", false);
    c.body = json{{"name", name}, {"script", script}, {"isRunOnce", true}};
    return c;
}

Result<Call> createMachineCall(const LaunchRequest& request, const MachinePlacement& placement)
{
    if (!request.clientToken.starts_with(kOwnedPrefix) || request.clientToken.size() > 64) {
        return Error{ErrorCode::InvalidArgument,
                     Reason{"error.paperspace.client_token_invalid", {{"token", request.clientToken}}},
                     "clientToken"};
    }
    if (regionId(request.region).empty() || request.instanceType.empty()) {
        return Error{ErrorCode::InvalidArgument, Reason{"error.cloud.request_incomplete", {}}, "paperspace"};
    }
    Call c = call("machines-create", "POST", "/machines", false);
    c.body = json{
        {"name", request.clientToken},
        {"machineType", request.instanceType},
        {"templateId", placement.templateId},
        {"diskSize", kDiskSizeGb},
        {"region", regionId(request.region)},
        {"publicIpType", "dynamic"}, // wire: the schema's enum value (static costs extra; none leaves no SSH)
        {"startOnCreate", true},
        // The API's default (true) mails the machine's password to the account; the key is the way in.
        {"emailPassword", false},
        // autoShutdown only stops the machine (storage keeps billing): the watchdog and the ledger end it instead.
        {"autoShutdownEnabled", false},
    };
    if (!placement.startupScriptId.empty()) {
        c.body["startupScriptId"] = placement.startupScriptId;
    }
    return c;
}

Result<Machine> parseMachine(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    return machineOf(*doc, answer);
}

Result<Page<Machine>> parseMachines(std::string_view body)
{
    const JsonAnswer answer{kProvider, "machines-list"};
    Result<std::pair<json, std::string>> page = pageOf(body, answer);
    if (!page) {
        return page.error();
    }
    Page<Machine> out;
    out.nextPage = page->second;
    for (const json& item : page->first) {
        Result<Machine> m = machineOf(item, answer);
        if (!m) {
            return m.error();
        }
        out.items.push_back(std::move(m).value());
    }
    return out;
}

Result<MachineEvent> parseMachineEvent(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    if (!doc->contains("event") || !(*doc)["event"].is_object()) {
        return answer.refused("error.answer.missing", {{"field", "event"}});
    }
    const json& event = (*doc)["event"];
    MachineEvent out;
    out.eventId = text(event, "id");
    out.eventState = text(event, "state");
    out.error = text(event, "error");
    if (action == "machines-create") {
        if (!doc->contains("data")) {
            return answer.refused("error.answer.missing", {{"field", "data"}});
        }
        Result<Machine> machine = machineOf((*doc)["data"], answer);
        if (!machine) {
            return machine.error().code == ErrorCode::ProviderRefused
                       ? answer.refused("error.answer.missing", {{"field", "data.id"}})
                       : machine.error();
        }
        out.machine = std::move(machine).value();
    }
    return out;
}

Result<bool> parseAvailability(std::string_view body)
{
    const JsonAnswer answer{kProvider, "machineAvailability-get"};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    if (!doc->contains("available") || !(*doc)["available"].is_boolean()) {
        return answer.refused("error.answer.missing", {{"field", "available"}});
    }
    return (*doc)["available"].get<bool>();
}

Result<Page<OsTemplate>> parseOsTemplates(std::string_view body)
{
    const JsonAnswer answer{kProvider, "osTemplates-list"};
    Result<std::pair<json, std::string>> page = pageOf(body, answer);
    if (!page) {
        return page.error();
    }
    Page<OsTemplate> out;
    out.nextPage = page->second;
    for (const json& item : page->first) {
        Result<std::string> id = answer.requiredText(item, "id");
        if (!id) {
            return id.error();
        }
        OsTemplate t{*id,
                     text(item, "name"),
                     text(item, "operatingSystemLabel"),
                     text(item, "agentType"),
                     text(item, "dtCreated"),
                     {}};
        if (item.contains("availableMachineTypes") && item["availableMachineTypes"].is_array()) {
            for (const json& type : item["availableMachineTypes"]) {
                const bool available = type.is_object() && type.contains("isAvailable")
                                       && type["isAvailable"].is_boolean() && type["isAvailable"].get<bool>();
                t.machineTypes.emplace_back(text(type, "machineTypeLabel"), available);
            }
        }
        out.items.push_back(std::move(t));
    }
    return out;
}

std::optional<OsTemplate> newestMlInABox(const std::vector<OsTemplate>& templates, const std::string& machineType)
{
    // "ML-in-a-Box", "ML in a Box", "ml-in-a-box": letters and digits only.
    const auto squeezed = [](const std::string& s) {
        std::string out;
        for (unsigned char c : s) {
            if (std::isalnum(c)) {
                out += char(std::tolower(c));
            }
        }
        return out;
    };
    std::optional<OsTemplate> best;
    for (const OsTemplate& t : templates) {
        if (!contains(squeezed(t.name), "mlinabox")) {
            continue;
        }
        const bool offered = std::any_of(t.machineTypes.begin(), t.machineTypes.end(), [&](const auto& type) {
            return type.first == machineType && type.second;
        });
        if (offered && (!best || t.createdAt > best->createdAt)) {
            best = t;
        }
    }
    return best;
}

Result<StartupScript> parseStartupScript(std::string_view body, const std::string& action)
{
    const JsonAnswer answer{kProvider, action};
    Result<json> doc = answer.document(body);
    if (!doc) {
        return doc.error();
    }
    Result<std::string> id = answer.requiredText(*doc, "id");
    if (!id) {
        return id.error();
    }
    return StartupScript{*id, text(*doc, "name"), !text(*doc, "dtDeleted").empty()};
}

Result<Page<StartupScript>> parseStartupScripts(std::string_view body)
{
    const JsonAnswer answer{kProvider, "startupScripts-list"};
    Result<std::pair<json, std::string>> page = pageOf(body, answer);
    if (!page) {
        return page.error();
    }
    Page<StartupScript> out;
    out.nextPage = page->second;
    for (const json& item : page->first) {
        Result<std::string> id = answer.requiredText(item, "id");
        if (!id) {
            return id.error();
        }
        out.items.push_back(StartupScript{*id, text(item, "name"), !text(item, "dtDeleted").empty()});
    }
    return out;
}

InstanceState stateFromMachine(std::string_view state)
{
    if (state == "ready") {
        return InstanceState::Running;
    }
    if (state == "stopping") {
        return InstanceState::Stopping;
    }
    if (state == "off") {
        return InstanceState::Stopped;
    }
    return InstanceState::Pending; // provisioning, starting, serviceready, restarting, upgrading
}

std::optional<ApiError> apiError(std::string_view body)
{
    json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        return std::nullopt;
    }
    ApiError error;
    error.message = text(doc, "message");
    error.code = text(doc, "code");
    if (doc.contains("code") && doc["code"].is_number_integer()) {
        error.code = std::to_string(doc["code"].get<long long>());
    }
    if (error.code.empty() && error.message.empty()) {
        return std::nullopt;
    }
    return error;
}

std::optional<Error> mapError(const HttpResponse& response, const CallContext& context)
{
    if (response.status >= 200 && response.status < 300) {
        return std::nullopt;
    }
    const std::string where = "paperspace " + context.action + (context.region.empty() ? "" : " in " + context.region);
    std::optional<ApiError> api = apiError(response.body);
    Reason reason{{}, {{"action", context.action}}};
    const auto add = [&reason](const char* name, const std::string& value) {
        if (!value.empty()) {
            reason.params[name] = value;
        }
    };
    if (api) {
        add("code", api->code);
        add("said", api->message);
    }
    const std::string said = api ? lower(api->message) : std::string();
    const std::string code = api ? lower(api->code) : std::string();
    ErrorCode mapped = ErrorCode::ProviderRefused;
    // The API documents only the shape of its errors ({"code", "message"}), not their texts: these words are matched
    // loosely. "out of capacity" is Paperspace's wording in Gradient's refusals ("We are currently out of capacity for
    // the selected VM type", Paperspace/gradient-cli#327); SkyPilot matches none and checks availability first.
    // wire: Paperspace's own words in its messages, matched here and never shown
    const bool capacity = contains(said, "capacity") || contains(said, "no machines available")
                          || contains(said, "not available") || contains(said, "unavailable");
    // wire: Paperspace's own words in its messages, matched here and never shown
    const bool billing = response.status == 402 || contains(said, "billing") || contains(said, "payment")
                         || contains(said, "credit card") || contains(said, "account standing")
                         || contains(said, "balance");
    // wire: Paperspace's own words in its messages, matched here and never shown
    const bool quota = contains(said, "quota") || contains(said, "limit") || contains(said, "maximum number");
    // wire: Paperspace's own words in its messages, matched here and never shown
    const bool throttled = response.status == 429 || code == "too_many_requests" || contains(said, "rate limit");
    if (throttled) {
        mapped = ErrorCode::Throttled;
        reason.key = "error.paperspace.throttled";
    } else if (response.status == 401) {
        mapped = ErrorCode::Credentials;
        reason.key = "error.paperspace.key_refused";
    } else if (billing) {
        reason.key = "error.paperspace.billing";
    } else if (capacity) {
        mapped = ErrorCode::InsufficientCapacity;
        reason.key = "error.paperspace.out_of_capacity";
        add("instance_type", context.instanceType);
        add("region", context.region);
    } else if (quota) {
        mapped = ErrorCode::QuotaExceeded;
        reason.key = "error.paperspace.quota";
        add("instance_type", context.instanceType);
    } else if (response.status == 403) {
        mapped = ErrorCode::PermissionDenied;
        reason.key = "error.paperspace.permission_denied";
    } else if (response.status == 404) {
        mapped = ErrorCode::NotFound;
        reason.key = "error.paperspace.not_found";
    } else if (!api) {
        mapped = ErrorCode::HttpStatus;
        reason.key = "error.paperspace.http_status";
        reason.params["status"] = std::to_string(response.status);
    } else {
        reason.key = "error.paperspace.refused";
    }
    return Error{mapped, std::move(reason), where, response.status, api ? api->code : std::string()};
}

} // namespace gpuplan::core::paperspace
