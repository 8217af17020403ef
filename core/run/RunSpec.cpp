#include "gpuplan/run/RunSpec.h"

#include "gpuplan/run/LogThroughput.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <utility>

namespace gpuplan::core {

namespace {

Error invalid(const std::string& where, Reason reason)
{
    return Error{ErrorCode::InvalidArgument, std::move(reason), where};
}

/// Whether a relative path climbs out of the folder it is relative to ("..", "a/../..").
bool leavesFolder(const std::string& path)
{
    int depth = 0;
    for (const auto& part : std::filesystem::path(path)) {
        if (part == "..") {
            if (--depth < 0) {
                return true;
            }
        } else if (part != "." && !part.empty()) {
            ++depth;
        }
    }
    return false;
}

} // namespace

std::string datasetScheme(const std::string& dataset)
{
    static constexpr std::array<std::string_view, 6> kSchemes{"s3", "cos", "oss", "obs", "gs", "az"};
    const std::size_t colon = dataset.find("://");
    if (colon == std::string::npos) {
        return {};
    }
    const std::string scheme = dataset.substr(0, colon);
    return std::find(kSchemes.begin(), kSchemes.end(), scheme) != kSchemes.end() ? scheme : "?" + scheme;
}

Status checkRunSpec(const RunSpec& spec)
{
    if (spec.command.find_first_not_of(" \t\r\n") == std::string::npos) {
        return invalid("--command", Reason{"error.run.no_command", {}});
    }
    if (!spec.workdir.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(spec.workdir, ec)) {
            return Error{
                ErrorCode::FileNotFound, Reason{"error.run.no_workdir", {{"path", spec.workdir}}}, "--workdir"};
        }
    }
    if (const std::string scheme = datasetScheme(spec.dataset); !scheme.empty() && scheme.front() == '?') {
        return invalid("--dataset",
                       Reason{"error.run.unknown_storage", {{"scheme", scheme.substr(1)}, {"url", spec.dataset}}});
    } else if (scheme.empty() && !spec.dataset.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(spec.dataset, ec)) {
            return Error{
                ErrorCode::FileNotFound, Reason{"error.run.no_dataset", {{"path", spec.dataset}}}, "--dataset"};
        }
    }
    for (std::size_t i = 0; i < spec.results.size(); ++i) {
        const std::string& path = spec.results[i];
        const std::string where = "results[" + std::to_string(i) + "]";
        if (path.find_first_not_of(" \t") == std::string::npos) {
            return invalid(where, Reason{"error.run.empty_result_path", {}});
        }
        if (path.front() != '/' && leavesFolder(path)) {
            return invalid(where, Reason{"error.run.result_outside_workdir", {{"path", path}}});
        }
    }
    if (!spec.tensorboardLogdir.empty() && spec.tensorboardLogdir.front() != '/'
        && leavesFolder(spec.tensorboardLogdir)) {
        return invalid("--tensorboard", Reason{"error.run.result_outside_workdir", {{"path", spec.tensorboardLogdir}}});
    }
    if (spec.spot.watch || spec.spot.recover) {
        const SpotHandling& spot = spec.spot;
        const std::string scheme = datasetScheme(spot.bucket);
        if (spot.bucket.empty()) {
            return invalid("--checkpoint-bucket", Reason{"error.run.no_checkpoint_bucket", {}});
        }
        if (scheme.empty() || scheme.front() == '?') {
            return invalid("--checkpoint-bucket",
                           Reason{"error.run.unknown_storage",
                                  {{"scheme", scheme.empty() ? spot.bucket : scheme.substr(1)}, {"url", spot.bucket}}});
        }
        if (spot.checkpointDir.empty() || spot.checkpointDir.front() == '/' || leavesFolder(spot.checkpointDir)) {
            return invalid("--checkpoint-dir",
                           Reason{"error.run.checkpoint_outside_workdir", {{"path", spot.checkpointDir}}});
        }
        const std::vector<std::string>& signals = interruptSignals();
        if (std::find(signals.begin(), signals.end(), spot.signal) == signals.end()) {
            return invalid("--signal", Reason{"error.run.unknown_signal", {{"signal", spot.signal}}});
        }
        if (spot.syncEverySeconds < 0 || spot.onDemandAfter < 0 || spot.maxAttempts < 1 || spot.maxAttempts > 50) {
            return invalid("--max-attempts", Reason{"error.run.bad_recovery_counts", {}});
        }
    }
    if (!spec.throughput.preset.empty()) {
        if (Result<ThroughputReader> reader = ThroughputReader::make(spec.throughput); !reader) {
            Error error = reader.error();
            error.where = "--throughput";
            return error;
        }
    }
    return Ok{};
}

} // namespace gpuplan::core

namespace gpuplan::core {

const std::vector<std::string>& interruptSignals()
{
    static const std::vector<std::string> names{"USR1", "USR2", "INT", "TERM", "HUP"}; // wire: kill -s names
    return names;
}

nlohmann::json runSpecJson(const RunSpec& spec)
{
    nlohmann::json out{{"workdir", spec.workdir},
                       {"excludes", spec.excludes},
                       {"dataset", spec.dataset},
                       {"dataset_region", spec.datasetRegion},
                       {"image", spec.image},
                       {"setup", spec.setup},
                       {"command", spec.command},
                       {"results", spec.results},
                       {"throughput",
                        {{"preset", spec.throughput.preset},
                         {"regex", spec.throughput.regex},
                         {"unit", spec.throughput.unit},
                         {"per_step", spec.throughput.perStep}}},
                       {"tensorboard_logdir", spec.tensorboardLogdir}};
    const SpotHandling& spot = spec.spot;
    if (spot.watch || spot.recover || !spot.bucket.empty()) {
        out["spot"] = {{"watch", spot.watch},
                       {"recover", spot.recover},
                       {"bucket", spot.bucket},
                       {"bucket_region", spot.bucketRegion},
                       {"checkpoint_dir", spot.checkpointDir},
                       {"signal", spot.signal},
                       {"sync_every_seconds", spot.syncEverySeconds},
                       {"on_demand_after", spot.onDemandAfter},
                       {"max_attempts", spot.maxAttempts},
                       {"checkpoint_url", spot.checkpointUrl},
                       {"public_key_file", spot.publicKeyFile},
                       {"ssh_from", spot.sshFrom},
                       {"metadata_url", spot.metadataUrl}};
    }
    return out;
}

namespace {

Error notOfKind(const std::string& where, const char* key, const char* expected)
{
    return Error{ErrorCode::SchemaViolation,
                 Reason{"error.run.spec_member", {{"member", key}, {"expected", expected}}},
                 where + "." + key};
}

Status readText(const nlohmann::json& in, const char* key, const std::string& where, std::string& out)
{
    const auto it = in.find(key);
    if (it == in.end() || it->is_null()) {
        return Ok{};
    }
    if (!it->is_string()) {
        return notOfKind(where, key, "text");
    }
    out = it->get<std::string>();
    return Ok{};
}

Status readTexts(const nlohmann::json& in, const char* key, const std::string& where, std::vector<std::string>& out)
{
    const auto it = in.find(key);
    if (it == in.end() || it->is_null()) {
        return Ok{};
    }
    if (!it->is_array()) {
        return notOfKind(where, key, "list");
    }
    out.clear();
    for (const nlohmann::json& item : *it) {
        if (!item.is_string()) {
            return notOfKind(where, key, "list");
        }
        out.push_back(item.get<std::string>());
    }
    return Ok{};
}

} // namespace

Result<RunSpec> readRunSpec(const nlohmann::json& json, const std::string& where)
{
    if (!json.is_object()) {
        return Error{ErrorCode::SchemaViolation, Reason{"error.run.spec_not_object", {}}, where};
    }
    RunSpec spec;
    for (Status read : {readText(json, "workdir", where, spec.workdir),
                        readTexts(json, "excludes", where, spec.excludes),
                        readText(json, "dataset", where, spec.dataset),
                        readText(json, "dataset_region", where, spec.datasetRegion),
                        readText(json, "image", where, spec.image),
                        readTexts(json, "setup", where, spec.setup),
                        readText(json, "command", where, spec.command),
                        readTexts(json, "results", where, spec.results),
                        readText(json, "tensorboard_logdir", where, spec.tensorboardLogdir)}) {
        if (!read) {
            return read.error();
        }
    }
    if (const auto it = json.find("throughput"); it != json.end() && !it->is_null()) {
        if (!it->is_object()) {
            return notOfKind(where, "throughput", "object");
        }
        const std::string at = where + ".throughput";
        for (Status read : {readText(*it, "preset", at, spec.throughput.preset),
                            readText(*it, "regex", at, spec.throughput.regex),
                            readText(*it, "unit", at, spec.throughput.unit)}) {
            if (!read) {
                return read.error();
            }
        }
        if (const auto perStep = it->find("per_step"); perStep != it->end() && !perStep->is_null()) {
            if (!perStep->is_number() || perStep->get<double>() < 0) {
                return notOfKind(at, "per_step", "number");
            }
            spec.throughput.perStep = perStep->get<double>();
        }
    }
    if (const auto it = json.find("spot"); it != json.end() && !it->is_null()) {
        if (!it->is_object()) {
            return notOfKind(where, "spot", "object");
        }
        const std::string at = where + ".spot";
        SpotHandling& spot = spec.spot;
        for (Status read : {readText(*it, "bucket", at, spot.bucket),
                            readText(*it, "bucket_region", at, spot.bucketRegion),
                            readText(*it, "checkpoint_dir", at, spot.checkpointDir),
                            readText(*it, "signal", at, spot.signal),
                            readText(*it, "checkpoint_url", at, spot.checkpointUrl),
                            readText(*it, "public_key_file", at, spot.publicKeyFile),
                            readText(*it, "ssh_from", at, spot.sshFrom),
                            readText(*it, "metadata_url", at, spot.metadataUrl)}) {
            if (!read) {
                return read.error();
            }
        }
        for (auto [key, flag] : {std::pair{"watch", &spot.watch}, std::pair{"recover", &spot.recover}}) {
            if (const auto v = it->find(key); v != it->end() && !v->is_null()) {
                if (!v->is_boolean()) {
                    return notOfKind(at, key, "boolean");
                }
                *flag = v->get<bool>();
            }
        }
        for (auto [key, count] : {std::pair{"sync_every_seconds", &spot.syncEverySeconds},
                                  std::pair{"on_demand_after", &spot.onDemandAfter},
                                  std::pair{"max_attempts", &spot.maxAttempts}}) {
            if (const auto v = it->find(key); v != it->end() && !v->is_null()) {
                if (!v->is_number_integer() || v->get<std::int64_t>() < 0 || v->get<std::int64_t>() > 1'000'000'000) {
                    return notOfKind(at, key, "number");
                }
                *count = static_cast<int>(v->get<std::int64_t>());
            }
        }
    }
    return spec;
}

} // namespace gpuplan::core
