#include "gpuplan/estimate/Estimator.h"

#include "gpuplan/catalog/Catalog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpuplan::core {

namespace {

std::string gb(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f GB", value);
    return buffer;
}

/// Peak × efficiency × scaling of a setup, in FLOP/s over all GPUs.
struct Rate
{
    PeakChoice peak;
    EfficiencyTable::Lookup efficiency;
    Range scaling;
    Range flops;
};

std::optional<Rate> rateOf(ModelClass modelClass,
                           const GpuSpec& gpu,
                           int gpus,
                           int gpusPerNode,
                           bool rdma,
                           Precision precision,
                           const EfficiencyTable& table,
                           Reason& why)
{
    std::optional<PeakChoice> peak = peakFor(gpu, precision);
    if (!peak) {
        why = Reason{"unknown.no_peak",
                     {{"gpu", gpu.name}, {"precision", precisionName(precision)}},
                     "the datasheet of " + gpu.name + " gives no peak for " + precisionName(precision)};
        return std::nullopt;
    }
    std::optional<EfficiencyTable::Lookup> efficiency = table.lookup(modelClass, gpu, peak->family);
    if (!efficiency && peak->family == PeakFamily::Fp8) {
        // No FP8 measurement: claim no speed-up over BF16/FP16.
        if (std::optional<PeakChoice> half = peakFor(gpu, Precision::Bf16)) {
            efficiency = table.lookup(modelClass, gpu, PeakFamily::Half);
            peak = PeakChoice{
                half->tflops, PeakFamily::Half, half->used, "no FP8 calibration case: estimated at BF16 speed"};
        }
    }
    if (!efficiency) {
        why = Reason{"unknown.no_calibration",
                     {{"family", peakFamilyName(peak->family)}},
                     std::string("no calibration case for ") + peakFamilyName(peak->family) + " training"};
        return std::nullopt;
    }
    const Range scaling = scalingFactor(topologyFor(gpu, gpus, gpusPerNode, rdma));
    const double peakFlops = peak->tflops * 1e12 * gpus;
    const Range flops{peakFlops * efficiency->efficiency.value * scaling.value,
                      peakFlops * efficiency->efficiency.low * scaling.low,
                      peakFlops * efficiency->efficiency.high * scaling.high};
    return Rate{*peak, *efficiency, scaling, flops};
}

} // namespace

TrainingEstimate
estimateTraining(const Workload& w, const TrainingSetup& setup, const EfficiencyTable& table, const Catalog& catalog)
{
    TrainingEstimate e;
    e.precision = setup.precision;
    e.unit = w.throughputUnit();
    const GpuSpec& gpu = *setup.gpu;
    std::optional<Rate> rate =
        rateOf(w.modelClass, gpu, setup.gpus, setup.gpusPerNode, setup.rdma, setup.precision, table, e.unknown);
    if (!rate) {
        return e;
    }
    e.peak = rate->peak;
    e.efficiency = rate->efficiency.efficiency;
    e.efficiencyBasis = rate->efficiency.basis;
    e.scaling = rate->scaling;
    if (!rate->peak.note.empty()) {
        e.notes.push_back(rate->peak.note);
    }

    e.memory = fitMemory(w, setup.precision, gpu.memoryGb, setup.gpus);
    const double recompute = e.memory.activationCheckpointing ? 0.75 : 1.0;
    const std::optional<double> flopsPerUnit = trainingFlopsPerUnit(w);

    if (w.kind == WorkKind::Measured) {
        const MeasuredThroughput& m = *w.measured;
        const GpuSpec* seen = catalog.findGpu(m.gpuId);
        if (!seen) {
            e.unknown = Reason{
                "unknown.measured_gpu", {{"gpu", m.gpuId}}, "the measured GPU '" + m.gpuId + "' is not in the catalog"};
            return e;
        }
        Reason why;
        std::optional<Rate> base =
            rateOf(w.modelClass, *seen, m.count, std::min(m.count, 8), true, m.precision, table, why);
        if (!base) {
            e.unknown = why;
            return e;
        }
        const double ratio = rate->flops.value / base->flops.value;
        e.throughput = Range{m.value * ratio,
                             m.value * rate->flops.low / base->flops.value,
                             m.value * rate->flops.high / base->flops.value};
        e.notes.push_back("scaled from the measured " + std::to_string(int(m.value)) + " " + w.throughputUnit() + " on "
                          + std::to_string(m.count) + " x " + seen->name);
    } else {
        if (!flopsPerUnit || *flopsPerUnit <= 0) {
            e.unknown = Reason{"unknown.no_flops", {}, "the workload does not say how many FLOPs a sample takes"};
            return e;
        }
        e.throughput =
            Range{rate->flops.value / *flopsPerUnit, rate->flops.low / *flopsPerUnit, rate->flops.high / *flopsPerUnit};
    }
    e.throughput = e.throughput * recompute;
    if (recompute < 1) {
        e.notes.push_back("activation checkpointing recomputes the forward pass: a third more compute");
    }
    if (flopsPerUnit && *flopsPerUnit > 0) {
        e.mfu = e.throughput.value * *flopsPerUnit / (setup.gpus * e.peak.tflops * 1e12);
    }
    const double units = w.totalUnits();
    e.computeHours =
        Range{units / e.throughput.value / 3600, units / e.throughput.high / 3600, units / e.throughput.low / 3600};
    e.gpuHours = e.computeHours * setup.gpus;
    e.known = true;

    if (!e.memory.known) {
        e.notes.push_back("memory fit unknown: the workload gives no parameter count");
    } else if (!e.memory.fits) {
        Reason& fit = e.fit;
        fit.key = "fit.advice";
        fit.params = {{"needed_gb", reasonNumber(e.memory.totalGb())},
                      {"capacity_gb", reasonNumber(gpu.memoryGb)},
                      {"sharding", shardingName(e.memory.sharding)},
                      {"checkpointing", e.memory.activationCheckpointing ? "1" : "0"},
                      {"micro_batch", std::to_string(e.memory.microBatch)},
                      {"gpu", gpu.name},
                      {"gpus", std::to_string(setup.gpus)}};
        std::string advice = "needs " + gb(e.memory.totalGb()) + " per GPU even with " + e.memory.describe() + ", "
                             + gb(gpu.memoryGb) + " available";
        std::vector<std::string> options;
        if (std::optional<int> needed = gpusNeededToFit(w, setup.precision, gpu.memoryGb, 512)) {
            options.push_back(std::to_string(*needed) + " x " + gpu.name + " with FSDP");
            fit.params["fsdp_gpus"] = std::to_string(*needed);
        }
        if (w.method == TrainingMethod::Full && w.modelClass == ModelClass::Decoder) {
            options.push_back("LoRA instead of a full fine-tune");
            fit.params["lora"] = "1";
        }
        double larger = 0;
        for (const GpuSpec& other : catalog.gpus()) {
            if (other.memoryGb > gpu.memoryGb && fitMemory(w, defaultPrecision(other), other.memoryGb, setup.gpus).fits
                && (larger == 0 || other.memoryGb < larger)) {
                larger = other.memoryGb;
            }
        }
        if (larger > 0) {
            options.push_back((setup.gpus == 1 ? std::string("a card of ") : std::to_string(setup.gpus) + " cards of ")
                              + gb(larger) + " or more");
            fit.params["larger_gb"] = reasonNumber(larger);
        }
        if (!options.empty()) {
            advice += "; would fit: ";
            for (std::size_t i = 0; i < options.size(); ++i) {
                advice += (i ? ", or " : "") + options[i];
            }
        }
        fit.text = advice;
    }
    return e;
}

} // namespace gpuplan::core
