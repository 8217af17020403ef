#include "cublaslt.h"
#include "errors.h"
#include "kernels.h"
#include "measure.h"
#include "numa.h"
#include "nvml.h"
#include "progress.h"
#include "sampling.h"
#if __has_include("own_gemm.h")
#include "own_gemm.h"
#define PROBE_HAVE_OWN_GEMM 1
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>

namespace probe {

void throwCuda(cudaError_t status, const char* call, const char* file, int line)
{
    const char* base = std::strrchr(file, '/');
    throw CudaFailure(status,
                      std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ") in " + call
                          + " at " + (base ? base + 1 : file) + ":" + std::to_string(line));
}

namespace {

using kernels::Element;
constexpr size_t kMiB = 1024ull * 1024ull;

// GPUs whose measurement failed (main thread only): a later GPU's p2p test leaves them alone, since a lost
// context (sticky error) or a wedged GPU must not be touched again.
std::vector<int> g_failedGpus;

bool isFailed(int device)
{
    return std::find(g_failedGpus.begin(), g_failedGpus.end(), device) != g_failedGpus.end();
}

// Errors after which the context is unusable: every later call in it fails (or the GPU needs a reset).
bool contextLost(cudaError_t status)
{
    const std::string code = errorCode(status);
    return code == "gpu_fault" || code == "ecc_uncorrectable" || code == "nvlink_error";
}

// --- RAII helpers ------------------------------------------------------------------------------------
struct DeviceBuffer
{
    void* ptr = nullptr;
    size_t bytes = 0;
    explicit DeviceBuffer(size_t n)
        : bytes(n)
    {
        PROBE_CUDA(cudaMalloc(&ptr, n));
    }
    ~DeviceBuffer()
    {
        if (ptr)
            cudaFree(ptr);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    template <typename T>
    T* as() const
    {
        return static_cast<T*>(ptr);
    }
};

struct HostPinned
{
    void* ptr = nullptr;
    explicit HostPinned(size_t n) { PROBE_CUDA(cudaHostAlloc(&ptr, n, cudaHostAllocPortable)); }
    ~HostPinned()
    {
        if (ptr)
            cudaFreeHost(ptr);
    }
    HostPinned(const HostPinned&) = delete;
    HostPinned& operator=(const HostPinned&) = delete;
};

struct Event
{
    cudaEvent_t e = nullptr;
    Event() { PROBE_CUDA(cudaEventCreate(&e)); }
    ~Event()
    {
        if (e)
            cudaEventDestroy(e);
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
};

struct Stream
{
    cudaStream_t s = nullptr;
    Stream() { PROBE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
    ~Stream()
    {
        if (s)
            cudaStreamDestroy(s);
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
};

// --- timing ------------------------------------------------------------------------------------------
struct Plan
{
    int warmups;
    int samples;
    double minSampleMs; // each sample repeats the operation until it lasts at least this long
    double warmupMs;    // then keep the GPU busy this long so its clocks have ramped before timing
};

// Energy counter reads around the timed samples of one test (power.under_load_w, method "energy").
struct EnergyWatch
{
    nvml::Device device = nullptr;
    std::vector<sampling::EnergyRegion>* regions = nullptr;
};

// Milliseconds the GPU spent on what `op` queues on `stream`, between two events.
double gpuMs(const std::function<void()>& op, cudaStream_t stream, Event& start, Event& stop)
{
    PROBE_CUDA(cudaEventRecord(start.e, stream));
    op();
    PROBE_CUDA(cudaEventRecord(stop.e, stream));
    PROBE_CUDA(cudaEventSynchronize(stop.e));
    float ms = 0;
    PROBE_CUDA(cudaEventElapsedTime(&ms, start.e, stop.e));
    return ms;
}

// Warm up, calibrate how many operations one sample needs, then time `samples` samples with CUDA events.
// Returns milliseconds per operation, one entry per sample.
std::vector<double> timeIt(const std::function<void()>& op,
                           cudaStream_t stream,
                           const Plan& plan,
                           const EnergyWatch& energy = EnergyWatch{})
{
    using HostClock = std::chrono::steady_clock;
    Event start, stop;
    for (int i = 0; i < plan.warmups; ++i)
        op();
    PROBE_CUDA(cudaStreamSynchronize(stream));
    const HostClock::time_point warmStart = HostClock::now();
    while (std::chrono::duration<double, std::milli>(HostClock::now() - warmStart).count() < plan.warmupMs) {
        op();
        PROBE_CUDA(cudaStreamSynchronize(stream));
    }
    const double perOp = std::max(gpuMs(op, stream, start, stop), 1e-3);
    const int inner = static_cast<int>(std::min(1000.0, std::max(1.0, std::ceil(plan.minSampleMs / perOp))));
    std::vector<double> ms;
    sampling::EnergyRegion region;
    const HostClock::time_point regionStart = HostClock::now();
    if (energy.regions)
        region.startMj = nvml::totalEnergyMj(energy.device);
    const auto sample = [&] {
        for (int i = 0; i < inner; ++i)
            op();
    };
    for (int s = 0; s < plan.samples; ++s)
        ms.push_back(gpuMs(sample, stream, start, stop) / inner);
    if (energy.regions) {
        region.endMj = nvml::totalEnergyMj(energy.device);
        region.seconds = std::chrono::duration<double>(HostClock::now() - regionStart).count();
        energy.regions->push_back(region);
    }
    return ms;
}

// How many copies one timed copy loop may hold: `wanted`, fewer when one copy alone takes so long that a loop would
// pass `budgetMs` (a link trained down to x1 or Gen1, a staged peer copy): with the warm-up and the samples each
// test runs some ten loops, which must stay within the README's budgets and far from the watchdog.
int copiesWithin(const std::function<void()>& copyOnce, cudaStream_t stream, int wanted, double budgetMs)
{
    Event start, stop;
    copyOnce(); // first touch of the pages and the path
    const double ms = gpuMs(copyOnce, stream, start, stop);
    if (ms <= 0 || ms * wanted <= budgetMs)
        return wanted;
    return std::max(1, static_cast<int>(budgetMs / ms));
}

// Figures from per-operation times: `work` units per operation, scaled to TFLOPS (1e12) or GB/s (1e9).
void setFigures(Measurement& m, const std::vector<double>& ms, double work, double scale)
{
    std::vector<double> rates;
    for (double t : ms)
        if (t > 0)
            rates.push_back(work / (t * 1e-3) / scale);
    if (rates.empty()) {
        m.skipped = "no valid timing";
        return;
    }
    std::sort(rates.begin(), rates.end());
    const size_t n = rates.size();
    m.value = n % 2 ? rates[n / 2] : 0.5 * (rates[n / 2 - 1] + rates[n / 2]);
    m.min = rates.front();
    m.max = rates.back();
    m.repetitions = static_cast<int>(n);
}

Measurement skippedMeasurement(const char* name, const char* unit, const char* method, const std::string& why)
{
    Measurement m;
    m.name = name;
    m.unit = unit;
    m.method = method;
    m.skipped = why;
    return m;
}

std::string mib(size_t bytes)
{
    return std::to_string(bytes / kMiB) + " MiB";
}

std::string cubeShape(int m, int n, int k)
{
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

// --- NVML sampling while the GPU is busy --------------------------------------------------------------
class Sampler
{
public:
    enum class Kind
    {
        Pcie,
        Load
    };
    Sampler(nvml::Device d, Kind kind)
        : device_(d)
        , kind_(kind)
    {
        if (d)
            thread_ = std::thread([this] { loop(); });
    }
    ~Sampler() { stop(); }
    void stop()
    {
        running_ = false;
        if (thread_.joinable())
            thread_.join();
    }
    std::optional<int> maxGen, maxWidth, maxTemp;
    std::optional<double> maxPower;
    std::vector<int> smClocks;
    std::vector<unsigned long long> reasonSamples; // one entry per NVML sample

private:
    void loop()
    {
        while (running_) {
            if (kind_ == Kind::Pcie) {
                if (auto g = nvml::pcieCurrentGeneration(device_))
                    maxGen = std::max(maxGen.value_or(0), *g);
                if (auto w = nvml::pcieCurrentWidth(device_))
                    maxWidth = std::max(maxWidth.value_or(0), *w);
            } else {
                if (auto p = nvml::powerUsageW(device_))
                    maxPower = std::max(maxPower.value_or(0.0), *p);
                if (auto t = nvml::temperatureC(device_))
                    maxTemp = std::max(maxTemp.value_or(-1000), *t);
                if (auto c = nvml::clockMhz(device_, 1 /* SM */))
                    smClocks.push_back(*c);
                if (auto r = nvml::clocksEventReasons(device_))
                    reasonSamples.push_back(*r);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(kind_ == Kind::Pcie ? 5 : 25));
        }
    }
    nvml::Device device_;
    Kind kind_;
    std::atomic<bool> running_{true};
    std::thread thread_;
};

// --- the context of one GPU's run ----------------------------------------------------------------------
struct Context
{
    int index = 0;
    int deviceCount = 1;
    bool quick = false;
    cudaDeviceProp props{};
    nvml::Device nvmlDevice = nullptr;
    cudaStream_t stream = nullptr;
    int ccMajor = 0, ccMinor = 0;
    bool mig = false; // a MIG slice: no power of its own
    std::string busId;
    std::vector<sampling::EnergyRegion> energyRegions; // the timed GEMM regions
    GpuReport* report = nullptr;
    int cc() const { return ccMajor * 10 + ccMinor; }
    double warmupMs() const { return quick ? 100 : 200; }
    Plan plan(double fullMinMs = 20, double quickMinMs = 5) const
    {
        return quick ? Plan{2, 3, quickMinMs, warmupMs()} : Plan{3, 7, fullMinMs, warmupMs()};
    }
    Plan copyPlan() const { return Plan{2, quick ? 3 : 5, 0, warmupMs()}; }
    EnergyWatch energy()
    {
        if (mig || !nvmlDevice)
            return EnergyWatch{};
        return EnergyWatch{nvmlDevice, &energyRegions};
    }
    // The test about to run, for the documents printed if the run ends abnormally (and for this GPU's error).
    mutable std::string currentStage;
    void stage(const char* name) const
    {
        currentStage = name;
        progress::stage(index, name);
    }
    // A measurement finished: the fallback documents now carry it.
    void finished() const
    {
        if (report)
            progress::update(*report);
    }
    size_t freeBytes() const
    {
        size_t freeMem = 0, total = 0;
        PROBE_CUDA(cudaMemGetInfo(&freeMem, &total));
        return freeMem;
    }
};

// --- inventory -------------------------------------------------------------------------------------
std::string uuidText(const cudaUUID_t& u)
{
    char out[64];
    const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
    std::snprintf(out,
                  sizeof out,
                  "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                  b[0],
                  b[1],
                  b[2],
                  b[3],
                  b[4],
                  b[5],
                  b[6],
                  b[7],
                  b[8],
                  b[9],
                  b[10],
                  b[11],
                  b[12],
                  b[13],
                  b[14],
                  b[15]);
    return out;
}

void inventory(Context& ctx, GpuReport& gpu)
{
    const cudaDeviceProp& p = ctx.props;
    gpu.computeCapability = std::to_string(p.major) + "." + std::to_string(p.minor);
    gpu.memoryTotalMib = static_cast<long long>(p.totalGlobalMem / kMiB);
    gpu.name = p.name;
    gpu.uuid = uuidText(p.uuid);
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, ctx.index) != cudaSuccess)
        bus[0] = 0;
    ctx.busId = bus;
    // By bus id NVML answers with the physical GPU, also when CUDA sees a MIG slice of it.
    ctx.nvmlDevice = nvml::deviceFor(bus, gpu.uuid);
    const nvml::Device d = ctx.nvmlDevice;
    gpu.migEnabled = nvml::migEnabled(d);
    if (gpu.migEnabled.value_or(false)) {
        // CUDA's UUID of a MIG slice is the MIG device's: NVML knows it as "MIG-<uuid>".
        ctx.mig = true;
        const std::string migUuid = "MIG-" + gpu.uuid.substr(4);
        gpu.parentName = nvml::name(d);
        if (const nvml::Device slice = nvml::deviceByUuid(migUuid)) {
            if (auto v = nvml::name(slice))
                gpu.name = *v;
            gpu.uuid = nvml::uuid(slice).value_or(migUuid);
        } else {
            gpu.uuid = migUuid;
        }
        if (!gpu.parentName)
            gpu.parentName = std::string(p.name);
    } else {
        if (auto v = nvml::name(d))
            gpu.name = *v;
        if (auto v = nvml::uuid(d))
            gpu.uuid = *v;
    }
    gpu.smMaxMhz = nvml::maxClockMhz(d, 1);
    gpu.memoryMaxMhz = nvml::maxClockMhz(d, 2);
    int kHz = 0;
    if (!gpu.smMaxMhz && cudaDeviceGetAttribute(&kHz, cudaDevAttrClockRate, ctx.index) == cudaSuccess && kHz > 0)
        gpu.smMaxMhz = kHz / 1000;
    if (!gpu.memoryMaxMhz && cudaDeviceGetAttribute(&kHz, cudaDevAttrMemoryClockRate, ctx.index) == cudaSuccess
        && kHz > 0)
        gpu.memoryMaxMhz = kHz / 1000;
    if (!ctx.mig) { // a slice has no power of its own; the parent's limit would mislead
        gpu.powerLimitW = nvml::enforcedPowerLimitW(d);
        gpu.powerDefaultLimitW = nvml::defaultPowerLimitW(d);
    }
    gpu.tempCurrentC = nvml::temperatureC(d);
    gpu.tempSlowdownC = nvml::temperatureThresholdC(d, 1);
    gpu.tempShutdownC = nvml::temperatureThresholdC(d, 0);
    if (auto e = nvml::ecc(d)) {
        Ecc ecc;
        ecc.enabled = e->enabled;
        ecc.volatileCorrected = static_cast<long long>(e->volatileCorrected);
        ecc.volatileUncorrected = static_cast<long long>(e->volatileUncorrected);
        ecc.aggregateCorrected = static_cast<long long>(e->aggregateCorrected);
        ecc.aggregateUncorrected = static_cast<long long>(e->aggregateUncorrected);
        gpu.ecc = ecc;
    }
    if (ctx.ccMajor < 8) {
        if (auto r = nvml::retiredPages(d))
            gpu.retiredPages = RetiredPages{r->count, r->pending};
    } else if (auto r = nvml::remappedRows(d)) {
        gpu.remappedRows = RemappedRows{r->correctable, r->uncorrectable, r->pending != 0, r->failure != 0};
    }
    const auto genMax = nvml::pcieMaxGeneration(d);
    const auto widthMax = nvml::pcieMaxWidth(d);
    if (genMax || widthMax)
        gpu.pcie = Pcie{genMax, widthMax, std::nullopt, std::nullopt};
}

// --- host <-> device ------------------------------------------------------------------------------
void hostDevice(Context& ctx, GpuReport& gpu)
{
    const size_t bytes = (ctx.quick ? 64 : 256) * kMiB;
    // Measure the PCIe link, not the CPU interconnect: run on the GPU's NUMA node and allocate (first touch)
    // the pinned buffer there.
    struct Pin
    {
        std::vector<int> previous;
        bool pinned = false;
        ~Pin()
        {
            if (pinned)
                numa::restoreThread(previous);
        }
    } pin;
    if (const auto node = numa::nodeOfPciDevice("", ctx.busId)) {
        pin.pinned = numa::pinThread(numa::cpusOfNode("", *node), &pin.previous);
        if (pin.pinned)
            gpu.hostNumaNode = *node;
    }
    HostPinned host(bytes);
    DeviceBuffer device(bytes);
    std::memset(host.ptr, 0x5a, bytes);
    // nvbandwidth-style: a loop of copies per timed sample (at PCIe 4/5 speeds 10-40 ms a loop).
    const int copies = copiesWithin(
        [&] { PROBE_CUDA(cudaMemcpyAsync(device.ptr, host.ptr, bytes, cudaMemcpyHostToDevice, ctx.stream)); },
        ctx.stream,
        ctx.quick ? 4 : 8,
        ctx.quick ? 100 : 300);
    const Plan plan = ctx.copyPlan();

    ctx.stage("h2d_pinned");
    Measurement h2d;
    h2d.name = "h2d_pinned";
    h2d.unit = "GB/s";
    h2d.method = "pinned";
    h2d.shape = mib(bytes) + " x" + std::to_string(copies);
    {
        Sampler link(ctx.nvmlDevice, Sampler::Kind::Pcie); // the link trains up only under traffic
        const auto ms = timeIt(
            [&] {
                for (int i = 0; i < copies; ++i)
                    PROBE_CUDA(cudaMemcpyAsync(device.ptr, host.ptr, bytes, cudaMemcpyHostToDevice, ctx.stream));
            },
            ctx.stream,
            plan);
        link.stop();
        setFigures(h2d, ms, static_cast<double>(bytes) * copies, 1e9);
        if (gpu.pcie) {
            gpu.pcie->genUnderLoad = link.maxGen;
            gpu.pcie->widthUnderLoad = link.maxWidth;
        } else if (link.maxGen || link.maxWidth) {
            gpu.pcie = Pcie{std::nullopt, std::nullopt, link.maxGen, link.maxWidth};
        }
    }
    gpu.measurements.push_back(h2d);
    ctx.finished();

    ctx.stage("d2h_pinned");
    Measurement d2h;
    d2h.name = "d2h_pinned";
    d2h.unit = "GB/s";
    d2h.method = "pinned";
    d2h.shape = h2d.shape;
    const auto ms = timeIt(
        [&] {
            for (int i = 0; i < copies; ++i)
                PROBE_CUDA(cudaMemcpyAsync(host.ptr, device.ptr, bytes, cudaMemcpyDeviceToHost, ctx.stream));
        },
        ctx.stream,
        plan);
    setFigures(d2h, ms, static_cast<double>(bytes) * copies, 1e9);
    gpu.measurements.push_back(d2h);
    ctx.finished();
}

// --- device memory --------------------------------------------------------------------------------
void deviceMemory(Context& ctx, GpuReport& gpu)
{
    const size_t l2 = static_cast<size_t>(std::max(ctx.props.l2CacheSize, 1));
    size_t per = std::max((ctx.quick ? 4 : 8) * l2, (ctx.quick ? 256 : 1024) * kMiB);
    const size_t cap = static_cast<size_t>(static_cast<double>(ctx.freeBytes()) * 0.8 / 3.0);
    per = std::min(per, cap) / kMiB * kMiB;
    if (per < 16 * kMiB) {
        gpu.measurements.push_back(skippedMeasurement("dram_copy", "GB/s", "copy", "not enough free device memory"));
        gpu.measurements.push_back(skippedMeasurement("dram_triad", "GB/s", "triad", "not enough free device memory"));
        return;
    }
    DeviceBuffer a(per), b(per), c(per);
    const size_t floats = per / sizeof(float);
    kernels::fillRandom(b.ptr, Element::F32, floats, 1, ctx.stream);
    kernels::fillRandom(c.ptr, Element::F32, floats, 2, ctx.stream);
    PROBE_CUDA(cudaStreamSynchronize(ctx.stream));
    const int blocks = ctx.props.multiProcessorCount * 4; // 512 threads each: 2048 per SM
    const std::string note = " (" + std::to_string(per / l2) + "x L2; bytes read+written)";

    ctx.stage("dram_copy");
    Measurement copy;
    copy.name = "dram_copy";
    copy.unit = "GB/s";
    copy.method = "copy";
    copy.shape = "2 x " + mib(per) + note;
    setFigures(copy,
               timeIt([&] { kernels::copy(b.ptr, a.ptr, per, blocks, ctx.stream); }, ctx.stream, ctx.plan()),
               2.0 * static_cast<double>(per),
               1e9);
    gpu.measurements.push_back(copy);
    ctx.finished();

    ctx.stage("dram_triad");
    Measurement triad;
    triad.name = "dram_triad";
    triad.unit = "GB/s";
    triad.method = "triad";
    triad.shape = "3 x " + mib(per) + note;
    setFigures(
        triad,
        timeIt([&] { kernels::triad(b.as<float>(), c.as<float>(), a.as<float>(), 0.5f, floats, blocks, ctx.stream); },
               ctx.stream,
               ctx.plan()),
        3.0 * static_cast<double>(per),
        1e9);
    gpu.measurements.push_back(triad);
    ctx.finished();
}

// --- FP32 FMA -------------------------------------------------------------------------------------
void fmaPeak(Context& ctx, GpuReport& gpu)
{
    const int threads = 256;
    const int blocks = ctx.props.multiProcessorCount * 8;
    const int iterations = 4096;
    ctx.stage("fp32_fma");
    DeviceBuffer sink(static_cast<size_t>(blocks) * threads * sizeof(float));
    Measurement m;
    m.name = "fp32_fma";
    m.unit = "TFLOPS";
    m.method = "fma";
    m.shape =
        std::to_string(blocks) + "x" + std::to_string(threads) + " threads, 8 chains x " + std::to_string(iterations);
    setFigures(m,
               timeIt([&] { kernels::fmaPeak(sink.as<float>(), blocks, threads, iterations, ctx.stream); },
                      ctx.stream,
                      ctx.plan()),
               kernels::fmaPeakFlops(blocks, threads, iterations),
               1e12);
    gpu.measurements.push_back(m);
    ctx.finished();
}

// --- correctness accumulation --------------------------------------------------------------------
struct Checks
{
    bool anyRepeat = false;
    bool repeatIdentical = true;
    long long nans = 0;
    bool anyReference = false;
    double maxRelErr = 0;
    std::vector<CorrectnessCheck> list; // correctness.checks
};

long long readCounter(const DeviceBuffer& counter, cudaStream_t stream)
{
    unsigned long long value = 0;
    PROBE_CUDA(cudaMemcpyAsync(&value, counter.ptr, sizeof value, cudaMemcpyDeviceToHost, stream));
    PROBE_CUDA(cudaStreamSynchronize(stream));
    return static_cast<long long>(value);
}

// Runs `gemm` (writing `out`) twice, compares the bits and counts NaNs in the first result.
void repeatCheck(const std::string& test,
                 const std::function<void()>& gemm,
                 const DeviceBuffer& out,
                 Element type,
                 size_t elements,
                 cudaStream_t stream,
                 Checks& checks)
{
    DeviceBuffer first(out.bytes), counter(sizeof(unsigned long long));
    gemm();
    PROBE_CUDA(cudaMemcpyAsync(first.ptr, out.ptr, out.bytes, cudaMemcpyDeviceToDevice, stream));
    gemm();
    kernels::countDifferentWords(first.ptr, out.ptr, out.bytes, counter.as<unsigned long long>(), stream);
    const long long different = readCounter(counter, stream);
    kernels::countNans(first.ptr, type, elements, counter.as<unsigned long long>(), stream);
    const long long nans = readCounter(counter, stream);
    checks.anyRepeat = true;
    checks.repeatIdentical = checks.repeatIdentical && different == 0;
    checks.nans += nans;
    CorrectnessCheck entry;
    entry.test = test;
    entry.nanCount = nans;
    entry.repeatIdentical = different == 0;
    checks.list.push_back(entry);
}

// Compares an FP32 result against the FP32 SIMT reference of the same (already rounded) inputs.
void referenceCheck(const std::string& test,
                    const float* result,
                    const float* reference,
                    size_t elements,
                    cudaStream_t stream,
                    Checks& checks)
{
    DeviceBuffer counter(sizeof(unsigned long long)), worst(sizeof(unsigned int));
    kernels::countNans(result, Element::F32, elements, counter.as<unsigned long long>(), stream);
    const long long nans = readCounter(counter, stream);
    checks.nans += nans;
    kernels::maxRelativeError(result, reference, elements, worst.as<unsigned int>(), stream);
    unsigned int bits = 0;
    PROBE_CUDA(cudaMemcpyAsync(&bits, worst.ptr, sizeof bits, cudaMemcpyDeviceToHost, stream));
    PROBE_CUDA(cudaStreamSynchronize(stream));
    float value = 0;
    std::memcpy(&value, &bits, sizeof value);
    checks.anyReference = true;
    checks.maxRelErr = std::max(checks.maxRelErr, static_cast<double>(value));
    CorrectnessCheck entry;
    entry.test = test;
    entry.nanCount = nans;
    entry.maxRelativeError = static_cast<double>(value);
    checks.list.push_back(entry);
}

// The reference problem: inputs in F16/BF16 and their exact float copies, plus the FP32 reference. Large enough
// that every GEMM splits it into more tiles than any GPU has SMs (256 tiles of 128x128), so all SMs are checked.
struct ReferenceProblem
{
    static constexpr int kM = 2048, kN = 2048, kK = 1024;
    static constexpr size_t kOut = static_cast<size_t>(kM) * kN;
    Element type;
    DeviceBuffer a, b, af, bf, ref;
    ReferenceProblem(Element t, cudaStream_t stream)
        : type(t)
        , a(sizeof(uint16_t) * kM * kK)
        , b(sizeof(uint16_t) * kK * kN)
        , af(sizeof(float) * kM * kK)
        , bf(sizeof(float) * kK * kN)
        , ref(sizeof(float) * kOut)
    {
        kernels::fillRandom(a.ptr, t, static_cast<size_t>(kM) * kK, 11, stream);
        kernels::fillRandom(b.ptr, t, static_cast<size_t>(kK) * kN, 12, stream);
        kernels::toFloat(a.ptr, t, af.as<float>(), static_cast<size_t>(kM) * kK, stream);
        kernels::toFloat(b.ptr, t, bf.as<float>(), static_cast<size_t>(kK) * kN, stream);
        kernels::referenceGemm(af.as<float>(), bf.as<float>(), ref.as<float>(), kM, kN, kK, stream);
        PROBE_CUDA(cudaStreamSynchronize(stream));
    }
};

// --- WMMA ---------------------------------------------------------------------------------------
void wmmaGemm(Context& ctx, GpuReport& gpu, Checks& checks)
{
    ctx.stage("wmma_fp16");
    const int s = ctx.quick ? 4096 : 8192;
    const size_t need = static_cast<size_t>(s) * s * (2 + 2 + 4 + 4);
    if (need > ctx.freeBytes() * 0.9) {
        gpu.measurements.push_back(skippedMeasurement("wmma_fp16", "TFLOPS", "wmma", "not enough free device memory"));
        return;
    }
    const size_t n = static_cast<size_t>(s) * s;
    {
        DeviceBuffer a(n * 2), b(n * 2), c(n * 4);
        kernels::fillRandom(a.ptr, Element::F16, n, 3, ctx.stream);
        kernels::fillRandom(b.ptr, Element::F16, n, 4, ctx.stream);
        auto op = [&] { kernels::wmmaGemm(a.ptr, b.ptr, c.as<float>(), s, s, s, ctx.stream); };
        Measurement m;
        m.name = "wmma_fp16";
        m.unit = "TFLOPS";
        m.method = "wmma";
        m.shape = cubeShape(s, s, s);
        setFigures(
            m, timeIt(op, ctx.stream, ctx.plan(50, 10), ctx.energy()), 2.0 * s * s * static_cast<double>(s), 1e12);
        gpu.measurements.push_back(m);
        repeatCheck("wmma_fp16", op, c, Element::F32, n, ctx.stream, checks);
        ctx.finished();
    }
    ctx.stage("reference_wmma_fp16");
    ReferenceProblem problem(Element::F16, ctx.stream);
    using R = ReferenceProblem;
    DeviceBuffer out(sizeof(float) * R::kOut);
    kernels::wmmaGemm(problem.a.ptr, problem.b.ptr, out.as<float>(), R::kM, R::kN, R::kK, ctx.stream);
    referenceCheck("reference_wmma_fp16", out.as<float>(), problem.ref.as<float>(), R::kOut, ctx.stream, checks);
}

// --- our own tensor-core GEMM (own_gemm.h): informational until a device check promotes it ----------
void ownGemms(Context& ctx, GpuReport& gpu, Checks& checks)
{
#ifdef PROBE_HAVE_OWN_GEMM
    // Informational: its checks are listed but leave the aggregate verdict (correctness.ok) alone.
    struct KeepAggregates
    {
        Checks& checks;
        Checks saved;
        explicit KeepAggregates(Checks& c)
            : checks(c)
            , saved(c)
        { }
        ~KeepAggregates()
        {
            saved.list = std::move(checks.list);
            checks = std::move(saved);
        }
    } keep(checks);
    owngemm::Choice choice{"mma_sync"};
    std::string why;
    const bool available = owngemm::available(ctx.cc(), &choice, &why);
    const int s = ctx.quick ? 4096 : 8192;
    for (const auto in : {owngemm::Input::F16, owngemm::Input::BF16}) {
        const bool f16 = in == owngemm::Input::F16;
        const char* name = f16 ? "gemm_own_fp16" : "gemm_own_bf16";
        ctx.stage(name);
        Measurement m;
        m.name = name;
        m.unit = "TFLOPS";
        m.method = choice.method ? choice.method : "mma_sync";
        m.shape = cubeShape(s, s, s);
        m.informational = true;
        const size_t n = static_cast<size_t>(s) * s;
        if (!available) {
            m.skipped = why.empty() ? "no own tensor-core kernel for this GPU" : why;
        } else if (!f16 && ctx.cc() < 80) {
            m.skipped = "BF16 tensor cores need sm_80 or newer";
        } else if (n * (2 + 2 + 2 + 2) > ctx.freeBytes() * 0.9) { // a, b, c and repeatCheck's copy of c
            m.skipped = "not enough free device memory";
        } else {
            // Informational and never yet run on every GPU: a launch the driver refuses (no kernel image, too
            // many resources, ...) skips it; only a lost context (sticky error) fails the GPU.
            try {
                const Element type = f16 ? Element::F16 : Element::BF16;
                DeviceBuffer a(n * 2), b(n * 2), c(n * 2);
                kernels::fillRandom(a.ptr, type, n, 21, ctx.stream);
                kernels::fillRandom(b.ptr, type, n, 22, ctx.stream);
                auto op = [&] {
                    PROBE_CUDA(
                        owngemm::gemm(in, owngemm::Output::Same, a.ptr, b.ptr, c.ptr, s, s, s, ctx.stream, ctx.cc()));
                };
                setFigures(m,
                           timeIt(op, ctx.stream, ctx.plan(100, 20), ctx.energy()),
                           2.0 * s * s * static_cast<double>(s),
                           1e12);
                repeatCheck(name, op, c, type, n, ctx.stream, checks);
            } catch (const CudaFailure& e) {
                if (contextLost(e.status))
                    throw;
                (void)cudaGetLastError();
                m.skipped = std::string("own GEMM failed: ") + e.what();
                m.value = m.min = m.max = NAN;
                m.repetitions = 0;
            }
        }
        gpu.measurements.push_back(m);
        ctx.finished();
        if (m.skipped.empty()) {
            using R = ReferenceProblem;
            const std::string test = std::string("reference_own_") + (f16 ? "fp16" : "bf16");
            ctx.stage(test.c_str());
            try {
                ReferenceProblem problem(f16 ? Element::F16 : Element::BF16, ctx.stream);
                DeviceBuffer out(sizeof(float) * R::kOut);
                PROBE_CUDA(owngemm::gemm(in,
                                         owngemm::Output::F32,
                                         problem.a.ptr,
                                         problem.b.ptr,
                                         out.ptr,
                                         R::kM,
                                         R::kN,
                                         R::kK,
                                         ctx.stream,
                                         ctx.cc()));
                referenceCheck(test, out.as<float>(), problem.ref.as<float>(), R::kOut, ctx.stream, checks);
            } catch (const CudaFailure& e) {
                if (contextLost(e.status))
                    throw;
                (void)cudaGetLastError(); // the F32-output variant refused: no reference entry for it
            }
        }
    }
#else
    (void)checks;
    (void)ctx;
    for (const char* name : {"gemm_own_fp16", "gemm_own_bf16"}) {
        Measurement m = skippedMeasurement(name, "TFLOPS", "mma_sync", "this probe build has no own GEMM kernel");
        m.informational = true;
        gpu.measurements.push_back(m);
    }
#endif
}

// --- cuBLASLt -----------------------------------------------------------------------------------
const char* ltStatus(cublasStatus_t s)
{
    switch (s) {
        case CUBLAS_STATUS_SUCCESS:
            return "CUBLAS_STATUS_SUCCESS";
        case CUBLAS_STATUS_NOT_INITIALIZED:
            return "CUBLAS_STATUS_NOT_INITIALIZED";
        case CUBLAS_STATUS_ALLOC_FAILED:
            return "CUBLAS_STATUS_ALLOC_FAILED";
        case CUBLAS_STATUS_INVALID_VALUE:
            return "CUBLAS_STATUS_INVALID_VALUE";
        case CUBLAS_STATUS_ARCH_MISMATCH:
            return "CUBLAS_STATUS_ARCH_MISMATCH";
        case CUBLAS_STATUS_EXECUTION_FAILED:
            return "CUBLAS_STATUS_EXECUTION_FAILED";
        case CUBLAS_STATUS_INTERNAL_ERROR:
            return "CUBLAS_STATUS_INTERNAL_ERROR";
        case CUBLAS_STATUS_NOT_SUPPORTED:
            return "CUBLAS_STATUS_NOT_SUPPORTED";
        default:
            return "CUBLAS_STATUS_ERROR";
    }
}

struct LtFailure : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

#define PROBE_LT(call)                                                       \
    do {                                                                     \
        const cublasStatus_t probeLt_ = (call);                              \
        if (probeLt_ != CUBLAS_STATUS_SUCCESS)                               \
            throw LtFailure(std::string(#call) + ": " + ltStatus(probeLt_)); \
    } while (0)

size_t elementBytes(cudaDataType t)
{
    switch (t) {
        case CUDA_R_32F:
            return 4;
        case CUDA_R_16F:
        case CUDA_R_16BF:
            return 2;
        default:
            return 1; // FP8
    }
}

Element elementOf(cudaDataType t)
{
    switch (t) {
        case CUDA_R_32F:
            return Element::F32;
        case CUDA_R_16F:
            return Element::F16;
        case CUDA_R_16BF:
            return Element::BF16;
        default:
            return Element::FP8E4M3;
    }
}

// One GEMM configuration prepared for cuBLASLt in TN layout (A^T stored K x M, B stored K x N, D M x N).
class LtMatmul
{
public:
    LtMatmul(const lt::Api& api,
             cublasLtHandle_t handle,
             cudaDataType ab,
             cudaDataType cd,
             cublasComputeType_t compute,
             int m,
             int n,
             int k,
             void* workspace,
             size_t workspaceBytes,
             const float* scale)
        : api_(api)
        , handle_(handle)
        , m_(m)
        , n_(n)
        , k_(k)
        , workspace_(workspace)
        , workspaceBytes_(workspaceBytes)
    {
        try {
            create(api, ab, cd, compute, m, n, k, workspaceBytes, scale);
        } catch (...) {
            release(); // a constructor that throws gets no destructor
            throw;
        }
    }
    ~LtMatmul() { release(); }
    LtMatmul(const LtMatmul&) = delete;
    LtMatmul& operator=(const LtMatmul&) = delete;

    std::vector<cublasLtMatmulHeuristicResult_t> heuristics(int wanted)
    {
        std::vector<cublasLtMatmulHeuristicResult_t> results(static_cast<size_t>(wanted));
        int returned = 0;
        const cublasStatus_t s =
            api_.algoGetHeuristic(handle_, op_, a_, b_, c_, c_, pref_, wanted, results.data(), &returned);
        if (s != CUBLAS_STATUS_SUCCESS)
            returned = 0;
        results.resize(static_cast<size_t>(std::max(returned, 0)));
        results.erase(std::remove_if(results.begin(),
                                     results.end(),
                                     [](const auto& r) { return r.state != CUBLAS_STATUS_SUCCESS; }),
                      results.end());
        return results;
    }
    cublasStatus_t run(const cublasLtMatmulAlgo_t& algo, const void* a, const void* b, void* d, cudaStream_t stream)
    {
        const float alpha = 1.0f, beta = 0.0f;
        return api_.matmul(
            handle_, op_, &alpha, a, a_, b, b_, &beta, d, c_, d, c_, &algo, workspace_, workspaceBytes_, stream);
    }

private:
    void create(const lt::Api& api,
                cudaDataType ab,
                cudaDataType cd,
                cublasComputeType_t compute,
                int m,
                int n,
                int k,
                size_t workspaceBytes,
                const float* scale)
    {
        PROBE_LT(api.descCreate(&op_, compute, CUDA_R_32F));
        const cublasOperation_t transA = CUBLAS_OP_T, transB = CUBLAS_OP_N;
        PROBE_LT(api.descSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &transA, sizeof transA));
        PROBE_LT(api.descSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &transB, sizeof transB));
        if (scale) { // FP8: per-tensor scales (1.0) for A and B, as in NVIDIA's LtFp8Matmul sample
            PROBE_LT(api.descSetAttribute(op_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale, sizeof scale));
            PROBE_LT(api.descSetAttribute(op_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale, sizeof scale));
            // Fast accumulation, as the datasheet FP8 peak assumes. Attribute 25 (CUBLASLT_MATMUL_DESC_FAST_ACCUM)
            // by number: same value in cuBLASLt 11.8, 12 and 13, whatever header the probe was built with.
            const int8_t fastAccum = 1;
            PROBE_LT(api.descSetAttribute(
                op_, static_cast<cublasLtMatmulDescAttributes_t>(25), &fastAccum, sizeof fastAccum));
        }
        PROBE_LT(api.layoutCreate(&a_, ab, k, m, k));
        PROBE_LT(api.layoutCreate(&b_, ab, k, n, k));
        PROBE_LT(api.layoutCreate(&c_, cd, m, n, m));
        PROBE_LT(api.preferenceCreate(&pref_));
        const uint64_t ws = workspaceBytes;
        PROBE_LT(api.preferenceSetAttribute(pref_, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
        // No in-place (atomic) split-K reduction: the repeat check needs bitwise-reproducible results.
        const uint32_t mask =
            CUBLASLT_REDUCTION_SCHEME_MASK & ~static_cast<uint32_t>(CUBLASLT_REDUCTION_SCHEME_INPLACE);
        PROBE_LT(api.preferenceSetAttribute(pref_, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &mask, sizeof mask));
    }
    void release()
    {
        if (pref_)
            api_.preferenceDestroy(pref_);
        if (c_)
            api_.layoutDestroy(c_);
        if (b_)
            api_.layoutDestroy(b_);
        if (a_)
            api_.layoutDestroy(a_);
        if (op_)
            api_.descDestroy(op_);
        pref_ = nullptr;
        a_ = b_ = c_ = nullptr;
        op_ = nullptr;
    }

    const lt::Api& api_;
    cublasLtHandle_t handle_;
    int m_, n_, k_;
    void* workspace_;
    size_t workspaceBytes_;
    cublasLtMatmulDesc_t op_ = nullptr;
    cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
    cublasLtMatmulPreference_t pref_ = nullptr;
};

struct LtConfig
{
    const char* name;
    cudaDataType ab, cd;
    cublasComputeType_t compute;
    int minCc;
    const char* archReason;
};

void ltGemm(Context& ctx,
            GpuReport& gpu,
            Checks& checks,
            const lt::Api& api,
            cublasLtHandle_t handle,
            const LtConfig& cfg,
            void* workspace,
            size_t workspaceBytes,
            const float* one)
{
    ctx.stage(cfg.name);
    const int s = ctx.quick ? 4096 : 8192;
    Measurement m;
    m.name = cfg.name;
    m.unit = "TFLOPS";
    m.method = "cublaslt";
    m.shape = cubeShape(s, s, s);
    if (ctx.cc() < cfg.minCc) {
        m.skipped = cfg.archReason;
        gpu.measurements.push_back(m);
        return;
    }
    const size_t n = static_cast<size_t>(s) * s;
    const size_t need = n * (2 * elementBytes(cfg.ab) + 2 * elementBytes(cfg.cd));
    if (need > ctx.freeBytes() * 0.9) {
        m.skipped = "not enough free device memory";
        gpu.measurements.push_back(m);
        return;
    }
    bool pushed = false;
    try {
        const bool fp8 = elementBytes(cfg.ab) == 1;
        LtMatmul mm(api, handle, cfg.ab, cfg.cd, cfg.compute, s, s, s, workspace, workspaceBytes, fp8 ? one : nullptr);
        auto algos = mm.heuristics(ctx.quick ? 2 : 4);
        if (algos.empty()) {
            m.skipped = "cuBLASLt (" + std::to_string(api.version) + ") offers no algorithm for this type on sm_"
                        + std::to_string(ctx.cc());
            gpu.measurements.push_back(m);
            return;
        }
        DeviceBuffer a(n * elementBytes(cfg.ab)), b(n * elementBytes(cfg.ab)), d(n * elementBytes(cfg.cd));
        kernels::fillRandom(a.ptr, elementOf(cfg.ab), n, 5, ctx.stream);
        kernels::fillRandom(b.ptr, elementOf(cfg.ab), n, 6, ctx.stream);
        PROBE_CUDA(cudaStreamSynchronize(ctx.stream));
        // Time each heuristic candidate briefly; keep the fastest.
        int best = -1;
        double bestMs = 1e30;
        for (size_t i = 0; i < algos.size(); ++i) {
            Event start, stop;
            if (mm.run(algos[i].algo, a.ptr, b.ptr, d.ptr, ctx.stream) != CUBLAS_STATUS_SUCCESS)
                continue;
            bool ok = true;
            const double ms = gpuMs(
                [&] {
                    for (int r = 0; r < 3 && ok; ++r)
                        ok = mm.run(algos[i].algo, a.ptr, b.ptr, d.ptr, ctx.stream) == CUBLAS_STATUS_SUCCESS;
                },
                ctx.stream,
                start,
                stop);
            if (ok && ms < bestMs) {
                bestMs = ms;
                best = static_cast<int>(i);
            }
        }
        if (best < 0) {
            m.skipped = "every cuBLASLt algorithm failed to run";
            gpu.measurements.push_back(m);
            return;
        }
        const cublasLtMatmulAlgo_t algo = algos[static_cast<size_t>(best)].algo;
        auto op = [&] {
            const cublasStatus_t st = mm.run(algo, a.ptr, b.ptr, d.ptr, ctx.stream);
            if (st != CUBLAS_STATUS_SUCCESS)
                throw LtFailure(std::string("cublasLtMatmul: ") + ltStatus(st));
        };
        setFigures(
            m, timeIt(op, ctx.stream, ctx.plan(100, 20), ctx.energy()), 2.0 * s * s * static_cast<double>(s), 1e12);
        gpu.measurements.push_back(m);
        pushed = true;
        ctx.finished();
        // Every type: bitwise repeat and NaNs in its output (FP8 writes BF16, TF32 FP32).
        repeatCheck(cfg.name, op, d, elementOf(cfg.cd), n, ctx.stream, checks);
    } catch (const LtFailure& e) {
        if (pushed) {
            // The timed GEMMs ran; the repeat check's did not: the figures stand, the check is missing.
            return;
        }
        m.skipped = std::string("cuBLASLt failed: ") + e.what();
        m.value = m.min = m.max = NAN;
        m.repetitions = 0;
        gpu.measurements.push_back(m);
        ctx.finished();
    }
}

// cuBLASLt FP16 / BF16 on the small problem, FP32 output, against the FP32 reference.
void ltReference(Context& ctx,
                 Checks& checks,
                 const lt::Api& api,
                 cublasLtHandle_t handle,
                 Element type,
                 void* workspace,
                 size_t workspaceBytes)
{
    const std::string test = std::string("reference_cublaslt_") + (type == Element::F16 ? "fp16" : "bf16");
    ctx.stage(test.c_str());
    try {
        using R = ReferenceProblem;
        const cudaDataType ab = type == Element::F16 ? CUDA_R_16F : CUDA_R_16BF;
        LtMatmul mm(
            api, handle, ab, CUDA_R_32F, CUBLAS_COMPUTE_32F, R::kM, R::kN, R::kK, workspace, workspaceBytes, nullptr);
        auto algos = mm.heuristics(1);
        if (algos.empty())
            return;
        ReferenceProblem problem(type, ctx.stream);
        DeviceBuffer out(sizeof(float) * R::kOut);
        if (mm.run(algos[0].algo, problem.a.ptr, problem.b.ptr, out.ptr, ctx.stream) != CUBLAS_STATUS_SUCCESS)
            return;
        referenceCheck(test, out.as<float>(), problem.ref.as<float>(), R::kOut, ctx.stream, checks);
    } catch (const LtFailure&) {
        // this check is extra; the WMMA reference check always runs
    }
}

void cublasLtGemms(Context& ctx, GpuReport& gpu, Checks& checks)
{
    static const LtConfig configs[] = {
        {"gemm_fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 70, ""},
        {"gemm_bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 80, "BF16 tensor cores need sm_80 or newer"},
        {"gemm_tf32",
         CUDA_R_32F,
         CUDA_R_32F,
         CUBLAS_COMPUTE_32F_FAST_TF32,
         80,
         "TF32 tensor cores need sm_80 or newer"},
        {"gemm_fp8", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 89, "FP8 tensor cores need sm_89 or newer"},
    };
    std::string why;
    const lt::Api* api = lt::load(&why);
    if (!api) {
        for (const auto& cfg : configs)
            gpu.measurements.push_back(skippedMeasurement(cfg.name, "TFLOPS", "cublaslt", why));
        return;
    }
    cublasLtHandle_t handle = nullptr;
    const cublasStatus_t created = api->create(&handle);
    if (created != CUBLAS_STATUS_SUCCESS) {
        for (const auto& cfg : configs)
            gpu.measurements.push_back(skippedMeasurement(
                cfg.name, "TFLOPS", "cublaslt", std::string("cublasLtCreate: ") + ltStatus(created)));
        return;
    }
    struct HandleGuard
    {
        const lt::Api* api;
        cublasLtHandle_t h;
        ~HandleGuard() { api->destroy(h); }
    } guard{api, handle};
    const size_t workspaceBytes = 32 * kMiB;
    DeviceBuffer workspace(workspaceBytes), one(sizeof(float));
    kernels::fillConstant(one.as<float>(), 1, 1.0f, ctx.stream);
    PROBE_CUDA(cudaStreamSynchronize(ctx.stream));
    for (const auto& cfg : configs)
        ltGemm(ctx, gpu, checks, *api, handle, cfg, workspace.ptr, workspaceBytes, one.as<float>());
    ltReference(ctx, checks, *api, handle, Element::F16, workspace.ptr, workspaceBytes);
    if (ctx.cc() >= 80)
        ltReference(ctx, checks, *api, handle, Element::BF16, workspace.ptr, workspaceBytes);
}

// --- peer to peer --------------------------------------------------------------------------------
// One peer copy: from this GPU to `other`, reported in this GPU (the other direction appears in the other GPU).
Measurement peerTo(Context& ctx, int other)
{
    const size_t bytes = (ctx.quick ? 64 : 256) * kMiB;
    Measurement m;
    m.name = "p2p";
    m.unit = "GB/s";
    m.method = "peer";
    m.peer = other;
    int canAccess = 0, atomics = 0;
    PROBE_CUDA(cudaDeviceCanAccessPeer(&canAccess, ctx.index, other));
    if (canAccess
        && cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, ctx.index, other) != cudaSuccess) {
        (void)cudaGetLastError();
        atomics = 0;
    }
    m.link = sampling::linkKind(canAccess != 0, atomics != 0, nvml::anyNvlinkActive(ctx.nvmlDevice));
    m.shape =
        mib(bytes) + " to GPU " + std::to_string(other) + (canAccess ? "" : " (no peer access: staged by the driver)");
    // Peer access is enabled for this pair only and disabled again afterwards: left on for every pair, a GPU
    // with more peers than the hardware maps (8 on PCIe systems) would fail with cudaErrorTooManyPeers.
    struct PeerAccess
    {
        int other = -1; // >= 0: enabled here, disable on the way out (current device: this GPU)
        ~PeerAccess()
        {
            if (other >= 0 && cudaDeviceDisablePeerAccess(other) != cudaSuccess)
                (void)cudaGetLastError();
        }
    } access;
    if (canAccess) {
        const cudaError_t e = cudaDeviceEnablePeerAccess(other, 0);
        if (e == cudaSuccess) {
            access.other = other;
        } else if (e != cudaErrorPeerAccessAlreadyEnabled) {
            (void)cudaGetLastError();
            if (contextLost(e))
                throwCuda(e, "cudaDeviceEnablePeerAccess", __FILE__, __LINE__);
            m.skipped = std::string("peer access could not be enabled: ") + cudaGetErrorName(e);
            return m;
        }
        (void)cudaGetLastError(); // clear cudaErrorPeerAccessAlreadyEnabled
    }
    DeviceBuffer src(bytes);
    void* dst = nullptr;
    PROBE_CUDA(cudaSetDevice(other));
    const cudaError_t allocated = cudaMalloc(&dst, bytes);
    // Back to this GPU whatever happened there (the current device is per host thread).
    const cudaError_t back = cudaSetDevice(ctx.index);
    struct PeerFree
    {
        void* p;
        int dev, back;
        ~PeerFree()
        {
            if (!p)
                return;
            cudaSetDevice(dev);
            cudaFree(p);
            cudaSetDevice(back);
        }
    } freeLater{allocated == cudaSuccess ? dst : nullptr, other, ctx.index};
    PROBE_CUDA(back);
    if (allocated != cudaSuccess) {
        (void)cudaGetLastError();
        m.skipped = "could not allocate on GPU " + std::to_string(other) + " (" + cudaGetErrorName(allocated) + ")";
        return m;
    }
    const int copies =
        copiesWithin([&] { PROBE_CUDA(cudaMemcpyPeerAsync(dst, other, src.ptr, ctx.index, bytes, ctx.stream)); },
                     ctx.stream,
                     4,
                     ctx.quick ? 100 : 300);
    setFigures(m,
               timeIt(
                   [&] {
                       for (int i = 0; i < copies; ++i)
                           PROBE_CUDA(cudaMemcpyPeerAsync(dst, other, src.ptr, ctx.index, bytes, ctx.stream));
                   },
                   ctx.stream,
                   ctx.copyPlan()),
               static_cast<double>(bytes) * copies,
               1e9);
    return m;
}

void peer(Context& ctx, GpuReport& gpu)
{
    if (ctx.deviceCount < 2) {
        gpu.measurements.push_back(skippedMeasurement("p2p", "GB/s", "peer", "only one GPU"));
        return;
    }
    for (int other = 0; other < ctx.deviceCount; ++other) {
        if (other == ctx.index)
            continue;
        ctx.stage(("p2p to GPU " + std::to_string(other)).c_str());
        if (isFailed(other)) {
            Measurement m = skippedMeasurement("p2p", "GB/s", "peer", "GPU " + std::to_string(other) + " failed");
            m.peer = other;
            gpu.measurements.push_back(m);
            continue;
        }
        gpu.measurements.push_back(peerTo(ctx, other));
        ctx.finished();
    }
}

} // namespace

void* nvmlHandleFor(int index)
{
    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) != cudaSuccess) {
        (void)cudaGetLastError();
        return nullptr;
    }
    return nvml::deviceFor(bus, "");
}

void measureGpu(int index, int deviceCount, const Options& options, GpuReport& gpu)
{
    gpu.index = index;
    Context ctx;
    ctx.index = index;
    ctx.deviceCount = deviceCount;
    ctx.quick = options.quick;
    ctx.report = &gpu;
    try {
        PROBE_CUDA(cudaGetDeviceProperties(&ctx.props, index));
        ctx.ccMajor = ctx.props.major;
        ctx.ccMinor = ctx.props.minor;
        inventory(ctx, gpu);
        ctx.finished();
        ctx.stage("context");
        PROBE_CUDA(cudaSetDevice(index));
        PROBE_CUDA(cudaFree(nullptr)); // creates the context
        Stream stream;
        ctx.stream = stream.s;
        Checks checks;

        hostDevice(ctx, gpu);
        deviceMemory(ctx, gpu);
        fmaPeak(ctx, gpu);
        {
            // Power, temperature, clocks, throttling. A slice (MIG) has no power of its own.
            Sampler load(ctx.mig ? nullptr : ctx.nvmlDevice, Sampler::Kind::Load);
            wmmaGemm(ctx, gpu, checks);
            cublasLtGemms(ctx, gpu, checks);
            ownGemms(ctx, gpu, checks);
            load.stop();
            if (!ctx.mig) {
                if (auto w = sampling::highestAverageW(ctx.energyRegions)) {
                    gpu.powerUnderLoadW = w;
                    gpu.powerMethod = "energy";
                } else if (load.maxPower) {
                    gpu.powerUnderLoadW = load.maxPower;
                    gpu.powerMethod = "sampled";
                }
            }
            gpu.tempMaxUnderLoadC = load.maxTemp;
            if (!load.smClocks.empty()) {
                auto clocks = load.smClocks;
                std::nth_element(clocks.begin(), clocks.begin() + static_cast<long>(clocks.size() / 2), clocks.end());
                gpu.smUnderLoadMhz = clocks[clocks.size() / 2];
            }
            if (!load.reasonSamples.empty()) {
                const sampling::ThrottleStats stats = sampling::throttleStats(load.reasonSamples);
                gpu.throttleReasons = stats.reasons;
                gpu.throttle = static_cast<const Throttle&>(stats);
            }
        }
        peer(ctx, gpu);

        Correctness& c = gpu.correctness;
        c.measured = checks.anyRepeat && checks.anyReference;
        c.repeatIdentical = checks.anyRepeat && checks.repeatIdentical;
        c.nanCount = checks.nans;
        c.maxRelativeError = checks.anyReference ? checks.maxRelErr : NAN;
        c.tolerance = 1e-3;
        c.ok = c.measured && c.repeatIdentical && c.nanCount == 0 && c.maxRelativeError <= c.tolerance;
        c.checks = checks.list;
        PROBE_CUDA(cudaDeviceSynchronize());
    } catch (const CudaFailure& e) {
        gpu.errorCode = errorCode(e.status);
        gpu.errorStage = ctx.currentStage;
        gpu.errorMessage = std::string("GPU ") + std::to_string(index) + " could not be measured"
                           + (ctx.currentStage.empty() ? "" : " (" + ctx.currentStage + ")") + ": " + e.what();
        (void)cudaGetLastError();
        g_failedGpus.push_back(index);
        // A lost context (sticky error) is left alone: nothing runs on this GPU again (p2p, NCCL and the burn
        // skip it), and cudaDeviceReset on a wedged GPU can block. Otherwise release what this GPU still holds.
        if (!contextLost(e.status) && cudaSetDevice(index) == cudaSuccess)
            (void)cudaDeviceReset();
        (void)cudaGetLastError();
    } catch (const std::exception& e) {
        gpu.errorCode = "internal";
        gpu.errorStage = ctx.currentStage;
        gpu.errorMessage = std::string("GPU ") + std::to_string(index) + " could not be measured"
                           + (ctx.currentStage.empty() ? "" : " (" + ctx.currentStage + ")") + ": " + e.what();
        g_failedGpus.push_back(index);
        (void)cudaGetLastError();
    }
}

} // namespace probe
