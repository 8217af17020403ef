#include "gpuplan/estimate/Validation.h"

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/estimate/Throughput.h"
#include "gpuplan/workload/WorkloadLoader.h"
#include "gpuplan/workload/WorkloadModel.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace gpuplan::core {

namespace {

double quantile(std::vector<double> values, double q)
{
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    const double at = q * double(values.size() - 1);
    const std::size_t below = std::size_t(std::floor(at));
    const std::size_t above = std::min(values.size() - 1, below + 1);
    return values[below] + (values[above] - values[below]) * (at - double(below));
}

ValidationRow summarise(const std::string& label, const std::vector<const Calibration::Heldout*>& rows)
{
    ValidationRow out;
    out.label = label;
    out.cases = rows.size();
    std::set<std::string> groups;
    std::vector<double> errors;
    std::vector<double> widths;
    std::size_t inside = 0;
    for (const Calibration::Heldout* h : rows) {
        groups.insert(h->group);
        errors.push_back(std::fabs(h->predicted.value / h->measured - 1));
        widths.push_back(h->predicted.low > 0 ? h->predicted.high / h->predicted.low : INFINITY);
        inside += h->measured >= h->predicted.low && h->measured <= h->predicted.high ? 1 : 0;
    }
    out.groups = groups.size();
    out.medianError = quantile(errors, 0.5);
    out.p90Error = quantile(errors, 0.9);
    out.coverage = rows.empty() ? 0 : double(inside) / double(rows.size());
    out.medianWidth = quantile(widths, 0.5);
    return out;
}

} // namespace

std::vector<ValidationRow> summariseHeldout(const std::vector<Calibration::Heldout>& heldout,
                                            const std::function<std::string(const Calibration::Heldout&)>& key)
{
    std::vector<const Calibration::Heldout*> all;
    std::map<std::string, std::vector<const Calibration::Heldout*>> slices;
    for (const Calibration::Heldout& h : heldout) {
        all.push_back(&h);
        if (key) {
            slices[key(h)].push_back(&h);
        }
    }
    std::vector<ValidationRow> rows{summarise("all", all)};
    for (const auto& [label, list] : slices) {
        rows.push_back(summarise(label, list));
    }
    return rows;
}

std::vector<Calibration::Heldout> crossValidateFirstModel(const std::vector<CalibrationCase>& cases,
                                                          const Catalog& catalog,
                                                          const LoadedWorkloads& presets)
{
    std::set<std::string> groups;
    for (const CalibrationCase& c : cases) {
        groups.insert(c.group);
    }
    std::vector<Calibration::Heldout> out;
    for (const std::string& group : groups) {
        std::vector<CalibrationCase> others;
        std::copy_if(cases.begin(), cases.end(), std::back_inserter(others), [&](const CalibrationCase& c) {
            return c.group != group;
        });
        std::vector<Error> ignored;
        const EfficiencyTable table = EfficiencyTable::fit(others, catalog, presets, ignored);
        for (const CalibrationCase& c : cases) {
            if (c.group != group) {
                continue;
            }
            const GpuSpec* gpu = catalog.findGpu(c.gpuId);
            std::optional<PeakChoice> peak = gpu ? peakFor(*gpu, c.precision) : std::nullopt;
            double flops = c.flopsPerUnit;
            if (!c.workloadId.empty()) {
                Result<Workload> preset = presets.find(c.workloadId);
                flops = preset ? trainingFlopsPerUnit(*preset).value_or(0) : 0;
            }
            if (!gpu || !peak || flops <= 0) {
                continue;
            }
            std::optional<EfficiencyTable::Lookup> found = table.lookup(c.modelClass, *gpu, peak->family);
            if (!found) {
                continue;
            }
            const Range scaling = scalingFactor(topologyFor(*gpu, c.count, c.gpusPerNode, true));
            const double peakFlops = c.count * peak->tflops * 1e12;
            const double measured = c.measured ? *c.measured : *c.mfu * peakFlops / flops;
            Calibration::Heldout h;
            h.caseId = c.id;
            h.group = group;
            h.modelClass = c.modelClass;
            h.architecture = gpu->architecture;
            h.stack = c.stack;
            h.measured = measured;
            h.predicted = Range{peakFlops * found->efficiency.value * scaling.value / flops,
                                peakFlops * found->efficiency.low * scaling.low / flops,
                                peakFlops * found->efficiency.high * scaling.high / flops};
            out.push_back(h);
        }
    }
    return out;
}

} // namespace gpuplan::core
