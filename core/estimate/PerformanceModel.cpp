#include "gpuplan/estimate/PerformanceModel.h"

#include <algorithm>
#include <cmath>
#include <regex>

namespace gpuplan::core {

namespace {

using P = PerformanceModel;

// name, prior, spread (log), lower, upper. The priors are weak (one source's worth of pull) and only decide
// parameters the calibration cases say little about; where they come from is in docs/estimator.md.
const std::array<P::ParameterInfo, P::ParameterCount> kParameters{{
    {"eta.cnn", 0.45, 0.7, 0.02, 0.95},
    {"eta.detector", 0.30, 0.7, 0.02, 0.95},
    {"eta.encoder", 0.55, 0.5, 0.02, 0.95},
    {"eta.decoder", 0.55, 0.5, 0.02, 0.95},
    {"intensity.cnn", 60, 1.0, 2, 5000},
    {"intensity.detector", 40, 1.0, 2, 5000},
    {"intensity.encoder", 400, 1.0, 2, 5000},
    {"intensity.decoder", 400, 1.0, 2, 5000},
    {"stack.typical.vision", 0.6, 0.5, 0.05, 1.0},
    {"stack.plain.vision", 0.4, 0.5, 0.05, 1.0},
    {"stack.typical.language", 0.7, 0.5, 0.05, 1.0},
    {"stack.plain.language", 0.45, 0.5, 0.05, 1.0},
    {"intensity.typical.vision", 0.6, 0.5, 0.05, 1.0},
    {"intensity.plain.vision", 0.4, 0.5, 0.05, 1.0},
    {"host.typical.cnn", 100e12, 1.0, 5e12, 5e15},
    {"host.typical.detector", 150, 1.0, 1, 1e5}, // images/s per GPU
    {"host.plain.vision", 60e12, 1.0, 1e12, 5e15},
    {"host.typical.language", 400e12, 1.0, 5e12, 5e15},
    {"host.plain.language", 200e12, 1.0, 5e12, 5e15},
    {"arch.volta", 1.0, 0.3, 0.3, 2.0},
    {"arch.turing", 1.0, 0.3, 0.3, 2.0},
    {"arch.ada", 1.0, 0.3, 0.3, 2.0},
    {"arch.hopper", 0.85, 0.3, 0.3, 2.0},
    {"arch.blackwell", 0.8, 0.3, 0.3, 2.0},
    {"family.fp32", 1.0, 0.5, 0.1, 3.0},
    {"family.tf32", 0.8, 0.5, 0.1, 3.0},
    {"family.fp8", 0.6, 0.3, 0.2, 1.0},
    {"small_width", 400, 1.0, 1, 20000},
    {"overlap", 0.7, 0.5, 0.01, 1.0},
    {"overhead_per_doubling", 0.97, 0.05, 0.7, 1.0},
}};

constexpr double kSoftMin = 3;         // sharpness of the host ceiling
constexpr double kGradientBytes = 4;   // FP32 gradients (mixed precision keeps FP32 master weights)
constexpr double kDecodePerVcpu = 130; // ImageNet JPEGs decoded and augmented per vCPU per second (assumption)
constexpr double kRdmaPerGpu = 20e9;   // bytes/s of all-reduce bandwidth per GPU over RDMA between nodes
constexpr double kTcpPerNode = 1.5e9;  // bytes/s per node over plain TCP between nodes

bool isVision(ModelClass c)
{
    return c == ModelClass::Cnn || c == ModelClass::Detector;
}

double archFactor(const P& m, const std::string& architecture)
{
    if (architecture == "Volta") {
        return m.value(P::ArchVolta);
    }
    if (architecture == "Turing") {
        return m.value(P::ArchTuring);
    }
    // wire: an architecture as gpus.json names it
    if (architecture == "Ada Lovelace") {
        return m.value(P::ArchAda);
    }
    if (architecture == "Hopper") {
        return m.value(P::ArchHopper);
    }
    if (architecture == "Blackwell") {
        return m.value(P::ArchBlackwell);
    }
    return 1.0; // Ampere, the reference
}

double familyFactor(const P& m, PeakFamily family)
{
    switch (family) {
        case PeakFamily::Fp32:
            return m.value(P::FamilyFp32);
        case PeakFamily::Tf32:
            return m.value(P::FamilyTf32);
        case PeakFamily::Fp8:
            return m.value(P::FamilyFp8);
        case PeakFamily::Half:
            break;
    }
    return 1.0;
}

double stackFactor(const P& m, SoftwareStack stack, ModelClass c)
{
    switch (stack) {
        case SoftwareStack::Tuned:
            return 1.0;
        case SoftwareStack::Typical:
            return m.value(isVision(c) ? P::TypicalVision : P::TypicalLanguage);
        case SoftwareStack::Plain:
            return m.value(isVision(c) ? P::PlainVision : P::PlainLanguage);
    }
    return 1.0;
}

/// FLOP/s per GPU the stack can feed at most; infinity where it does not limit.
double hostCeiling(const P& m, SoftwareStack stack, ModelClass c)
{
    switch (stack) {
        case SoftwareStack::Tuned:
            return INFINITY;
        case SoftwareStack::Typical:
            return m.value(c == ModelClass::Cnn        ? P::HostCnnTypical
                           : c == ModelClass::Detector ? P::HostDetectorTypical
                                                       : P::HostLanguageTypical);
        case SoftwareStack::Plain:
            return m.value(isVision(c) ? P::HostVisionPlain : P::HostLanguagePlain);
    }
    return INFINITY;
}

/// How much less arithmetic per byte an untuned stack does (vision only: transformers are GEMMs either way).
double intensityFactor(const P& m, SoftwareStack stack, ModelClass c)
{
    if (!isVision(c) || stack == SoftwareStack::Tuned) {
        return 1.0;
    }
    return m.value(stack == SoftwareStack::Typical ? P::IntensityTypicalVision : P::IntensityPlainVision);
}

int classIndex(ModelClass c)
{
    return static_cast<int>(c); // Cnn, Detector, Encoder, Decoder: the order of the Eta and Intensity parameters
}

} // namespace

double intraNodeBusBandwidth(const GpuSpec& gpu)
{
    static const std::regex nvlink(R"(^NVLink\d*\s+([0-9.]+)\s*(GB/s|TB/s))");
    static const std::regex pcie(R"(PCIe Gen(\d))");
    std::smatch m;
    if (std::regex_search(gpu.interconnect, m, nvlink)) {
        const double both = std::stod(m[1].str()) * (m[2].str() == "TB/s" ? 1000 : 1);
        return both / 2 * 0.8 * 1e9;
    }
    if (std::regex_search(gpu.interconnect, m, pcie)) {
        const int gen = std::stoi(m[1].str());
        return std::clamp(10.0 * std::pow(2.0, gen - 3), 5.0, 80.0) * 1e9;
    }
    return 10e9;
}

namespace {

double defaultUnitsPerStep(const RunShape& s)
{
    switch (s.modelClass) {
        case ModelClass::Cnn:
            return 256;
        case ModelClass::Detector:
            return 16;
        case ModelClass::Encoder:
        case ModelClass::Decoder:
            return 16384;
    }
    return 256;
}

/// The normal equations of Levenberg-Marquardt have one row per parameter: Gaussian elimination with pivoting.
bool solve(std::vector<std::vector<double>> a, std::vector<double> b, std::vector<double>& x)
{
    const std::size_t n = b.size();
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r) {
            if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) {
                pivot = r;
            }
        }
        if (std::fabs(a[pivot][col]) < 1e-300) {
            return false;
        }
        std::swap(a[pivot], a[col]);
        std::swap(b[pivot], b[col]);
        for (std::size_t r = col + 1; r < n; ++r) {
            const double f = a[r][col] / a[col][col];
            for (std::size_t c = col; c < n; ++c) {
                a[r][c] -= f * a[col][c];
            }
            b[r] -= f * b[col];
        }
    }
    x.assign(n, 0);
    for (std::size_t i = n; i-- > 0;) {
        double sum = b[i];
        for (std::size_t c = i + 1; c < n; ++c) {
            sum -= a[i][c] * x[c];
        }
        x[i] = sum / a[i][i];
    }
    return true;
}

} // namespace

const char* limiterName(Limiter limiter)
{
    switch (limiter) {
        case Limiter::Compute:
            return "compute";
        case Limiter::MemoryBandwidth:
            return "memory_bandwidth";
        case Limiter::Host:
            return "host";
        case Limiter::InputPipeline:
            return "input_pipeline";
        case Limiter::Communication:
            return "communication";
    }
    return "?";
}

const PerformanceModel::ParameterInfo& PerformanceModel::info(Parameter p)
{
    return kParameters[p];
}

PerformanceModel::PerformanceModel()
{
    for (int i = 0; i < ParameterCount; ++i) {
        m_values[i] = kParameters[i].prior;
    }
}

void PerformanceModel::set(Parameter p, double value)
{
    m_values[p] = std::clamp(value, kParameters[p].lower, kParameters[p].upper);
}

Prediction PerformanceModel::predict(const RunShape& s) const
{
    Prediction out;
    if (!s.gpu || s.flopsPerUnit <= 0 || s.peak.tflops <= 0) {
        return out;
    }
    const GpuSpec& gpu = *s.gpu;
    const int c = classIndex(s.modelClass);
    const double peak = s.peak.tflops * 1e12;
    double eta = m_values[EtaCnn + c] * archFactor(*this, gpu.architecture) * familyFactor(*this, s.peak.family)
                 * stackFactor(*this, s.stack, s.modelClass);
    if (s.hidden > 0) {
        eta *= s.hidden / (s.hidden + m_values[SmallWidth]) / (4096 / (4096 + m_values[SmallWidth]));
    }
    eta = std::min(eta, 0.95);
    const double tCompute = s.flopsPerUnit / (peak * eta);
    const double tMemory = gpu.memoryBandwidthGBs ? s.flopsPerUnit
                                                        / (*gpu.memoryBandwidthGBs * 1e9 * m_values[IntensityCnn + c]
                                                           * intensityFactor(*this, s.stack, s.modelClass))
                                                  : 0;
    const double unbound = 1 / (tCompute + tMemory);
    // A detector's typical pipeline is held by its per-image work on the host (mosaic augmentation, label
    // assignment): a ceiling in images/s, whatever the model's size. Elsewhere the stack feeds FLOP/s.
    const bool perImage = s.modelClass == ModelClass::Detector && s.stack == SoftwareStack::Typical;
    const double ceiling = hostCeiling(*this, s.stack, s.modelClass) / (perImage ? 1.0 : s.flopsPerUnit);
    const double inverse = std::pow(unbound, -kSoftMin) + (std::isinf(ceiling) ? 0 : std::pow(ceiling, -kSoftMin));
    out.perGpu = std::pow(inverse, -1 / kSoftMin);
    out.hostShare = std::isinf(ceiling) ? 0 : std::pow(ceiling, -kSoftMin) / inverse;
    const double gpuTime = 1 - out.hostShare;
    out.computeShare = gpuTime * tCompute / (tCompute + tMemory);
    out.memoryShare = gpuTime * tMemory / (tCompute + tMemory);
    out.efficiency = out.perGpu * s.flopsPerUnit / peak;

    // Many GPUs: the exposed all-reduce and an overhead per doubling.
    const int n = std::max(1, s.gpus);
    const int perNode = std::clamp(s.gpusPerNode, 1, n);
    const int nodes = (n + perNode - 1) / perNode;
    double scaling = 1;
    if (n > 1) {
        const double units = s.unitsPerGpuStep > 0 ? s.unitsPerGpuStep : defaultUnitsPerStep(s);
        const double step = units / out.perGpu;
        const double bytes = s.trainedParameters * kGradientBytes;
        const double intra = s.intraNodeBandwidth > 0 ? s.intraNodeBandwidth : intraNodeBusBandwidth(gpu);
        double comm = perNode > 1 ? 2.0 * (perNode - 1) / perNode * bytes / intra : 0;
        if (nodes > 1) {
            const double between = s.rdma ? kRdmaPerGpu * perNode : kTcpPerNode;
            comm += 2.0 * (nodes - 1) / nodes * bytes / between;
        }
        const double exposed = std::max(0.0, comm - m_values[Overlap] * step * 2 / 3);
        out.communicationShare = exposed / (step + exposed);
        scaling = step / (step + exposed) * std::pow(m_values[OverheadPerDoubling], std::log2(double(n)));
    }
    out.scaling = scaling;
    out.total = out.perGpu * n * scaling;
    if (s.cpuDecode && s.vcpusPerNode && s.modelClass == ModelClass::Cnn) {
        out.inputCeiling = kDecodePerVcpu * *s.vcpusPerNode * nodes;
    }

    const double shares[] = {out.computeShare, out.memoryShare, out.hostShare};
    const int most = int(std::max_element(std::begin(shares), std::end(shares)) - std::begin(shares));
    out.limiter = most == 0 ? Limiter::Compute : most == 1 ? Limiter::MemoryBandwidth : Limiter::Host;
    if (out.communicationShare > 0.5 * (1 - out.communicationShare)) {
        out.limiter = Limiter::Communication;
    }
    if (out.inputCeiling && *out.inputCeiling < out.total) {
        out.total = *out.inputCeiling;
        out.limiter = Limiter::InputPipeline;
    }
    return out;
}

PerformanceModel PerformanceModel::fit(const std::vector<Observation>& cases, const PerformanceModel* start)
{
    PerformanceModel model = start ? *start : PerformanceModel();
    const int np = ParameterCount;
    // Robust weights (Huber on the log residual), refreshed each round.
    std::vector<double> robust(cases.size(), 1.0);
    constexpr double kHuber = 0.35;

    auto residuals = [&](const PerformanceModel& m, std::vector<double>& r) {
        r.clear();
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const Prediction p = m.predict(cases[i].shape);
            const double logError = p.total > 0 ? std::log(p.total / cases[i].measured) : 5.0;
            r.push_back(std::sqrt(cases[i].weight * robust[i]) * logError);
        }
        for (int j = 0; j < np; ++j) {
            const ParameterInfo& in = kParameters[j];
            r.push_back((std::log(m.m_values[j]) - std::log(in.prior)) / in.spread);
        }
    };
    auto cost = [](const std::vector<double>& r) {
        double sum = 0;
        for (double v : r) {
            sum += v * v;
        }
        return sum;
    };

    for (int round = 0; round < 3; ++round) {
        std::vector<double> r;
        residuals(model, r);
        double current = cost(r);
        double lambda = 1e-2;
        for (int iteration = 0; iteration < 60; ++iteration) {
            // Jacobian in log-parameter space, by forward differences.
            std::vector<std::vector<double>> jac(np);
            std::vector<double> shifted;
            for (int j = 0; j < np; ++j) {
                PerformanceModel probe = model;
                const double h = 1e-4;
                probe.m_values[j] = model.m_values[j] * std::exp(h);
                residuals(probe, shifted);
                jac[j].resize(r.size());
                for (std::size_t i = 0; i < r.size(); ++i) {
                    jac[j][i] = (shifted[i] - r[i]) / h;
                }
            }
            std::vector<std::vector<double>> jtj(np, std::vector<double>(np, 0));
            std::vector<double> jtr(np, 0);
            for (int a = 0; a < np; ++a) {
                for (int b = a; b < np; ++b) {
                    double sum = 0;
                    for (std::size_t i = 0; i < r.size(); ++i) {
                        sum += jac[a][i] * jac[b][i];
                    }
                    jtj[a][b] = jtj[b][a] = sum;
                }
                double sum = 0;
                for (std::size_t i = 0; i < r.size(); ++i) {
                    sum += jac[a][i] * r[i];
                }
                jtr[a] = -sum;
            }
            bool accepted = false;
            double gain = 0;
            for (int attempt = 0; attempt < 8 && !accepted; ++attempt) {
                std::vector<std::vector<double>> damped = jtj;
                for (int a = 0; a < np; ++a) {
                    damped[a][a] += lambda * std::max(jtj[a][a], 1e-9);
                }
                std::vector<double> step;
                if (!solve(damped, jtr, step)) {
                    lambda *= 10;
                    continue;
                }
                PerformanceModel trial = model;
                for (int j = 0; j < np; ++j) {
                    trial.set(Parameter(j), model.m_values[j] * std::exp(std::clamp(step[j], -2.0, 2.0)));
                }
                std::vector<double> rt;
                residuals(trial, rt);
                const double c = cost(rt);
                if (c < current) {
                    gain = current - c;
                    model = trial;
                    r = std::move(rt);
                    current = c;
                    lambda = std::max(lambda / 3, 1e-7);
                    accepted = true;
                } else {
                    lambda *= 4;
                }
            }
            if (!accepted || gain < 1e-8 * current) {
                break;
            }
        }
        // Re-weight: a case far off the fit counts less in the next round.
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const Prediction p = model.predict(cases[i].shape);
            const double e = p.total > 0 ? std::fabs(std::log(p.total / cases[i].measured)) : 5.0;
            robust[i] = e <= kHuber ? 1.0 : kHuber / e;
        }
    }
    return model;
}

} // namespace gpuplan::core
