#include "gpuplan/estimate/Estimator.h"

#include "gpuplan/catalog/Catalog.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpuplan::core {

Range storageReadBytesPerSecond(bool localNvme)
{
    constexpr double kMiB = 1024.0 * 1024.0;
    return localNvme ? Range{2e9, 2e9, 2e9} : Range{125 * kMiB, 1000 * kMiB, 125 * kMiB};
}

RunShape runShape(const Workload& w, const TrainingSetup& setup, const PeakChoice& peak)
{
    RunShape s;
    s.modelClass = w.modelClass;
    s.flopsPerUnit = trainingFlopsPerUnit(w).value_or(0);
    s.tokens = w.countsTokens();
    s.trainedParameters = w.model.trainableParameters.value_or(w.model.parameters);
    s.hidden = w.model.hidden.value_or(0);
    s.unitsPerGpuStep = double(std::max(1, w.microBatch)) * (w.countsTokens() ? std::max(1, w.sequenceLength) : 1);
    s.gpu = setup.gpu;
    s.peak = peak;
    s.gpus = std::max(1, setup.gpus);
    s.gpusPerNode = std::clamp(setup.gpusPerNode, 1, s.gpus);
    s.intraNodeBandwidth = intraNodeBusBandwidth(*setup.gpu);
    s.rdma = setup.rdma;
    s.stack = w.stack;
    // Images are decoded by the CPU unless a tuned stack decodes them on the GPU (DALI / nvJPEG).
    s.cpuDecode = w.kind == WorkKind::PerSample && w.modelClass == ModelClass::Cnn && w.stack != SoftwareStack::Tuned;
    s.vcpusPerNode = setup.vcpusPerNode;
    return s;
}

namespace {

/// The highest efficiency (achieved / peak per GPU) any calibration case of the class reached: no estimate claims
/// more than what has been published for its kind of model.
double highestPublishedEfficiency(const Calibration& calibration, ModelClass modelClass)
{
    double highest = 0;
    for (const Calibration::Resolved& r : calibration.cases()) {
        if (r.shape.modelClass == modelClass) {
            const double e = r.measured * r.shape.flopsPerUnit / (r.shape.gpus * r.shape.peak.tflops * 1e12);
            highest = std::max(highest, e);
        }
    }
    return highest;
}

bool vendorCovered(const Calibration& calibration, const GpuSpec& gpu)
{
    return std::any_of(calibration.cases().begin(), calibration.cases().end(), [&](const Calibration::Resolved& r) {
        return r.shape.gpu->vendor == gpu.vendor;
    });
}

} // namespace

TrainingEstimate
estimateTraining(const Workload& w, const TrainingSetup& setup, const Calibration& calibration, const Catalog& catalog)
{
    TrainingEstimate e;
    e.precision = setup.precision;
    e.stack = w.stack;
    e.unit = w.throughputUnit();
    const GpuSpec& gpu = *setup.gpu;
    e.gpuFigures = gpu.confidence;
    std::optional<PeakChoice> peak = peakFor(gpu, setup.precision);
    if (!peak) {
        e.unknown = Reason{"unknown.no_peak", {{"gpu", gpu.name}, {"precision", precisionName(setup.precision)}}};
        return e;
    }
    if (!vendorCovered(calibration, gpu)) {
        e.unknown = Reason{"unknown.no_calibration_vendor", {{"gpu", gpu.name}, {"vendor", gpu.vendor}}};
        return e;
    }
    e.peak = *peak;
    if (!peak->note.empty()) {
        e.notes.push_back(peak->note);
    }
    if (gpu.confidence == Confidence::Low) {
        e.notes.push_back(Reason{"note.third_party_figures", {{"gpu", gpu.name}}});
    }
    e.memory = fitMemory(w, setup.precision, gpu.memoryGb, setup.gpus);
    const double recompute = e.memory.activationCheckpointing ? 0.75 : 1.0;

    const RunShape shape = runShape(w, setup, *peak);
    if (w.kind == WorkKind::Measured) {
        const MeasuredThroughput& m = *w.measured;
        const GpuSpec* seen = catalog.findGpu(m.gpuId);
        if (!seen) {
            e.unknown = Reason{"unknown.measured_gpu", {{"gpu", m.gpuId}}};
            return e;
        }
        std::optional<PeakChoice> seenPeak = peakFor(*seen, m.precision);
        if (!seenPeak) {
            e.unknown = Reason{"unknown.no_peak", {{"gpu", seen->name}, {"precision", precisionName(m.precision)}}};
            return e;
        }
        // The measured rate is carried over by the ratio of the model's predictions for the two setups. A measured
        // workload seldom states its FLOPs; without them a nominal 1 GFLOP per unit stands in, which gives the same
        // ratio except where a host ceiling (in FLOP/s) would bind.
        const TrainingSetup measuredSetup{seen, m.count, std::min(m.count, 8), true, m.precision, std::nullopt};
        RunShape here = shape;
        RunShape there = runShape(w, measuredSetup, *seenPeak);
        here.flopsPerUnit = there.flopsPerUnit = shape.flopsPerUnit > 0 ? shape.flopsPerUnit : 1e9;
        const Calibration::Estimate a = calibration.estimate(here, w.id);
        const Calibration::Estimate b = calibration.estimate(there, w.id);
        const double ratio = a.total.value / b.total.value;
        // The range is this setup's: the measurement fixes the other end.
        const auto [low, high] = calibration.rangeFactors(a.nearness, w.stack, w.modelClass);
        e.throughput = Range{m.value * ratio, m.value * ratio * low, m.value * ratio * high};
        e.prediction = a.prediction;
        e.nearness = a.nearness;
        e.notes.push_back(Reason{"note.scaled_from_measurement",
                                 {{"value", reasonNumber(m.value)},
                                  {"unit", w.throughputUnit()},
                                  {"count", std::to_string(m.count)},
                                  {"gpu", seen->name}}});
    } else {
        if (shape.flopsPerUnit <= 0) {
            e.unknown = Reason{"unknown.no_flops", {}};
            return e;
        }
        const Calibration::Estimate a = calibration.estimate(shape, w.id);
        e.throughput = a.total;
        e.prediction = a.prediction;
        e.nearness = a.nearness;
        e.basedOn = a.basedOn;
        e.userData = a.userData;
        // No more than the best published efficiency for the class, at the high end.
        const double bound = highestPublishedEfficiency(calibration, w.modelClass) * 1.05;
        const double ceiling = bound * setup.gpus * peak->tflops * 1e12 / shape.flopsPerUnit;
        if (bound > 0 && e.throughput.high > ceiling) {
            e.throughput.high = std::max(ceiling, e.throughput.value);
            e.notes.push_back(Reason{"note.high_end_capped", {}});
        }
    }
    e.limiter = e.prediction.limiter;
    e.scaling = Range::exact(e.prediction.scaling);
    // Every epoch reads the data set again unless it stays in the page cache: the instance's storage can cap the
    // rate (per-sample work; a tokenised text corpus is small beside its compute).
    const int nodes = (setup.gpus + std::max(1, setup.gpusPerNode) - 1) / std::max(1, setup.gpusPerNode);
    if (!w.countsTokens() && w.datasetGb && w.samplesPerEpoch > 0 && w.epochs > 1 && setup.ramGib
        && *w.datasetGb > 0.8 * *setup.ramGib * 1.073741824) {
        const bool nvme = setup.localDiskGb && *setup.localDiskGb >= *w.datasetGb;
        const Range read = storageReadBytesPerSecond(nvme);
        const double bytesPerSample = *w.datasetGb * 1e9 / w.samplesPerEpoch;
        const Range ceiling = read * (double(nodes) / bytesPerSample);
        e.storageCeiling = ceiling.value;
        if (ceiling.value < e.throughput.value) {
            e.throughput = Range{
                ceiling.value, std::min(e.throughput.low, ceiling.value), std::min(e.throughput.high, ceiling.high)};
            e.limiter = Limiter::InputPipeline;
            e.notes.push_back(Reason{"note.dataset_streamed", {{"storage", nvme ? "local_nvme" : "network_volume"}}});
        }
    }
    e.throughput = e.throughput * recompute;
    if (recompute < 1) {
        e.notes.push_back(Reason{"note.checkpointing_recompute", {}});
    }
    const std::optional<double> flopsPerUnit = trainingFlopsPerUnit(w);
    if (flopsPerUnit && *flopsPerUnit > 0) {
        const double peakFlops = setup.gpus * e.peak.tflops * 1e12;
        e.mfu = e.throughput.value * *flopsPerUnit / peakFlops;
        e.efficiency = e.throughput * (*flopsPerUnit / peakFlops);
    }
    const std::size_t cases = calibration.caseCount();
    e.efficiencyBasis = Reason{"efficiency.basis",
                               {{"cases", std::to_string(cases)},
                                {"level", std::to_string(int(e.nearness))},
                                {"nearby", std::to_string(e.basedOn.size())},
                                {"user", e.userData ? "1" : "0"}}};
    const double units = w.totalUnits();
    e.computeHours =
        Range{units / e.throughput.value / 3600, units / e.throughput.high / 3600, units / e.throughput.low / 3600};
    e.gpuHours = e.computeHours * setup.gpus;
    e.known = true;

    if (!e.memory.known) {
        e.notes.push_back(Reason{"reason.memory_unknown", {}});
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
        if (std::optional<int> needed = gpusNeededToFit(w, setup.precision, gpu.memoryGb, 512)) {
            fit.params["fsdp_gpus"] = std::to_string(*needed);
        }
        if (w.method == TrainingMethod::Full && w.modelClass == ModelClass::Decoder) {
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
            fit.params["larger_gb"] = reasonNumber(larger);
        }
        // A run that does not fit has no throughput to show: say so, and what would fit.
        e.known = false;
        e.unknown = Reason{"unknown.does_not_fit", fit.params};
    }
    return e;
}

} // namespace gpuplan::core
