// The JSON document, schema gpuplan-probe/1 (README.md). Numbers that are not finite become null;
// strings are escaped by nlohmann (invalid UTF-8 replaced, never thrown).
#include "probe.h"

#include <nlohmann/json.hpp>

namespace probe {
namespace {

using Json = nlohmann::ordered_json;

Json number(double v)
{
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}
template <typename T>
Json optional(const std::optional<T>& v)
{
    if (!v)
        return nullptr;
    if constexpr (std::is_floating_point_v<T>)
        return number(*v);
    else
        return Json(*v);
}

// {"samples": n, "shares": {reason: fraction}}: the GPU's and the burn-in's `throttle` objects.
Json throttle(const Throttle& t)
{
    Json shares = Json::object();
    for (const auto& [reason, share] : t.shares)
        shares[reason] = number(share);
    return {{"samples", t.samples}, {"shares", shares}};
}

// The per-GPU `burn` object (--burn).
Json burn(const Burn& b)
{
    Json j;
    j["seconds"] = number(b.seconds);
    j["method"] = b.method.empty() ? Json(nullptr) : Json(b.method);
    j["gemms"] = b.gemms;
    j["wrong_results"] = b.wrongResults;
    j["nan_count"] = b.nanCount;
    j["xid_errors"] = optional(b.xidErrors);
    j["xids"] = b.xids;
    j["tflops_first"] = number(b.tflopsFirst);
    j["tflops_last"] = number(b.tflopsLast);
    j["tflops_min"] = number(b.tflopsMin);
    j["throttle"] = throttle(b.throttle);
    Json trajectory = Json::array();
    for (const auto& s : b.trajectory)
        trajectory.push_back({{"t_s", number(s.tS)},
                              {"sm_mhz", optional(s.smMhz)},
                              {"power_w", optional(s.powerW)},
                              {"temp_c", optional(s.tempC)},
                              {"tflops", optional(s.tflops)}});
    j["trajectory"] = trajectory;
    if (!b.error.empty())
        j["error"] = b.error;
    return j;
}

Json measurement(const Measurement& m)
{
    Json j;
    j["name"] = m.name;
    j["unit"] = m.unit;
    j["method"] = m.method;
    if (!m.skipped.empty()) {
        j["shape"] = m.shape.empty() ? Json(nullptr) : Json(m.shape);
        j["skipped"] = m.skipped;
    } else {
        j["value"] = number(m.value);
        j["min"] = number(m.min);
        j["max"] = number(m.max);
        j["repetitions"] = m.repetitions;
        j["shape"] = m.shape;
    }
    if (m.peer)
        j["peer"] = *m.peer;
    if (!m.link.empty())
        j["link"] = m.link;
    if (m.informational)
        j["informational"] = true;
    return j;
}

Json library(const std::optional<Library>& l)
{
    if (!l)
        return nullptr;
    return {{"path", l->path}, {"version", l->version}};
}

Json gpu(const GpuReport& g)
{
    Json j;
    j["index"] = g.index;
    j["name"] = g.name;
    j["uuid"] = g.uuid;
    j["compute_capability"] = g.computeCapability;
    j["memory_total_mib"] = g.memoryTotalMib;
    j["clocks_mhz"] = {{"sm_max", optional(g.smMaxMhz)},
                       {"memory_max", optional(g.memoryMaxMhz)},
                       {"sm_under_load", optional(g.smUnderLoadMhz)}};
    j["power"] = {{"limit_w", optional(g.powerLimitW)},
                  {"default_limit_w", optional(g.powerDefaultLimitW)},
                  {"under_load_w", optional(g.powerUnderLoadW)},
                  {"method", g.powerMethod.empty() ? Json(nullptr) : Json(g.powerMethod)}};
    j["temperature"] = {{"current_c", optional(g.tempCurrentC)},
                        {"slowdown_c", optional(g.tempSlowdownC)},
                        {"shutdown_c", optional(g.tempShutdownC)},
                        {"max_under_load_c", optional(g.tempMaxUnderLoadC)}};
    if (g.ecc)
        j["ecc"] = {{"enabled", g.ecc->enabled},
                    {"volatile_corrected", g.ecc->volatileCorrected},
                    {"volatile_uncorrected", g.ecc->volatileUncorrected},
                    {"aggregate_corrected", g.ecc->aggregateCorrected},
                    {"aggregate_uncorrected", g.ecc->aggregateUncorrected}};
    else
        j["ecc"] = nullptr;
    if (g.retiredPages)
        j["retired_pages"] = {{"count", g.retiredPages->count}, {"pending", g.retiredPages->pending}};
    else
        j["retired_pages"] = nullptr;
    if (g.remappedRows)
        j["remapped_rows"] = {{"correctable", g.remappedRows->correctable},
                              {"uncorrectable", g.remappedRows->uncorrectable},
                              {"pending", g.remappedRows->pending},
                              {"failure", g.remappedRows->failure}};
    else
        j["remapped_rows"] = nullptr;
    if (g.pcie)
        j["pcie"] = {{"gen_max", optional(g.pcie->genMax)},
                     {"width_max", optional(g.pcie->widthMax)},
                     {"gen_under_load", optional(g.pcie->genUnderLoad)},
                     {"width_under_load", optional(g.pcie->widthUnderLoad)}};
    else
        j["pcie"] = nullptr;
    j["mig_enabled"] = optional(g.migEnabled);
    j["parent_name"] = optional(g.parentName);
    j["host_numa_node"] = optional(g.hostNumaNode);
    j["throttle_reasons"] = g.throttleReasons;
    j["throttle"] = g.throttle ? throttle(*g.throttle) : Json(nullptr);
    Json ms = Json::array();
    for (const auto& m : g.measurements)
        ms.push_back(measurement(m));
    j["measurements"] = ms;
    const Correctness& c = g.correctness;
    j["correctness"] = {{"repeat_identical", c.repeatIdentical},
                        {"nan_count", c.nanCount},
                        {"max_relative_error", number(c.maxRelativeError)},
                        {"tolerance", number(c.tolerance)},
                        {"ok", c.ok}};
    Json checks = Json::array();
    for (const auto& check : c.checks)
        checks.push_back({{"test", check.test},
                          {"nan_count", check.nanCount},
                          {"repeat_identical", optional(check.repeatIdentical)},
                          {"max_relative_error", optional(check.maxRelativeError)}});
    j["correctness"]["checks"] = checks;
    if (g.burn)
        j["burn"] = burn(*g.burn);
    if (!g.errorCode.empty())
        j["error"] = {{"code", g.errorCode}, {"message", g.errorMessage}};
    if (!g.errorCode.empty() && !g.errorStage.empty())
        j["error"]["stage"] = g.errorStage;
    return j;
}

} // namespace

std::string toJson(const Report& r)
{
    Json j;
    j["schema"] = "gpuplan-probe/1";
    j["probe"] = {{"version", r.version},
                  {"mode", r.quick ? "quick" : "full"},
                  {"cuda_runtime", r.cudaRuntime},
                  {"architectures", r.architectures}};
    j["driver"] = {{"version", optional(r.driverVersion)}, {"cuda_version", r.driverCudaVersion}};
    j["ok"] = r.ok;
    if (!r.errorCode.empty()) {
        j["error"] = {{"code", r.errorCode}, {"message", r.errorMessage}};
        if (r.errorGpu)
            j["error"]["gpu"] = *r.errorGpu;
        if (!r.errorStage.empty())
            j["error"]["stage"] = r.errorStage;
    }
    j["libraries"] = {{"cublaslt", library(r.cublaslt)},
                      {"cublaslt_problem", r.cublasltProblem.empty() ? Json(nullptr) : Json(r.cublasltProblem)},
                      {"nccl", library(r.nccl)},
                      {"nccl_problem", r.ncclProblem.empty() ? Json(nullptr) : Json(r.ncclProblem)}};
    if (r.multiGpu) {
        Json ms = Json::array();
        for (const auto& m : *r.multiGpu)
            ms.push_back(measurement(m));
        j["multi_gpu"] = {{"measurements", ms}};
    }
    if (r.burnSeconds)
        j["burn"] = {{"seconds", *r.burnSeconds}};
    Json gpus = Json::array();
    for (const auto& g : r.gpus)
        gpus.push_back(gpu(g));
    j["gpus"] = gpus;
    j["elapsed_s"] = number(r.elapsedS);
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace probe
