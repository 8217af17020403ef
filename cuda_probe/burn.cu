// The burn loop of one GPU: GEMMs in rounds of about a second, each output checked against the first result
// on the GPU itself (the stream orders the check after its GEMM), NVML sampled while the host waits.
#include "burn.h"

#include "kernels.h"
#include "nvml.h"
#include "nvml_events.h"
#include "probe.h"
#include "sampling.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace probe::burn {
namespace {

using Clock = std::chrono::steady_clock;
using kernels::Element;

constexpr int kSize = 8192;
constexpr int kMaxRound = 4096;                    // GEMMs per round; rounds last about a second
constexpr auto kGiveUp = std::chrono::seconds(10); // past the deadline: the GPU no longer finishes work

double seconds(Clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

// Device memory, streams and events of one burn; left alone when the GPU hung (freeing would wait for it).
struct Resources
{
    std::vector<void*> memory;
    std::vector<cudaEvent_t> events;
    cudaStream_t stream = nullptr;
    bool abandon = false;

    void* allocate(size_t bytes)
    {
        void* p = nullptr;
        PROBE_CUDA(cudaMalloc(&p, bytes));
        memory.push_back(p);
        return p;
    }
    cudaEvent_t event()
    {
        cudaEvent_t e = nullptr;
        PROBE_CUDA(cudaEventCreate(&e));
        events.push_back(e);
        return e;
    }
    ~Resources()
    {
        if (abandon)
            return;
        if (stream)
            cudaStreamSynchronize(stream);
        for (cudaEvent_t e : events)
            cudaEventDestroy(e);
        for (void* p : memory)
            cudaFree(p);
        if (stream)
            cudaStreamDestroy(stream);
    }
};

#define BURN_LT(call)                                                                        \
    do {                                                                                     \
        const cublasStatus_t burnLt_ = (call);                                               \
        if (burnLt_ != CUBLAS_STATUS_SUCCESS)                                                \
            throw std::runtime_error(std::string(#call) + " -> " + std::to_string(burnLt_)); \
    } while (0)

// C = A x B, FP16 inputs, FP32 accumulate, in the probe's TN layout: cuBLASLt (FP16 output) when it is there and
// offers an algorithm, else the probe's WMMA kernel (FP32 output).
class Gemm
{
public:
    Gemm(const lt::Api* api, int cc, Resources& res)
    {
        if (api) {
            try {
                setUpLt(*api, res);
                return;
            } catch (const std::runtime_error&) {
                tearDownLt();
            }
        }
        if (cc < 70)
            throw std::runtime_error("no cuBLASLt and the WMMA kernel needs sm_70 or newer");
    }
    ~Gemm() { tearDownLt(); }
    Gemm(const Gemm&) = delete;
    Gemm& operator=(const Gemm&) = delete;

    const char* method() const { return api_ ? "cublaslt" : "wmma"; }
    Element output() const { return api_ ? Element::F16 : Element::F32; }
    size_t outputBytes() const { return static_cast<size_t>(kSize) * kSize * (api_ ? 2 : 4); }
    void keep() { keep_ = true; } // a hung GPU: leave the handle alone

    void run(const void* a, const void* b, void* c, cudaStream_t stream)
    {
        if (!api_) {
            kernels::wmmaGemm(a, b, static_cast<float*>(c), kSize, kSize, kSize, stream);
            PROBE_LAUNCH();
            return;
        }
        const float alpha = 1.0f, beta = 0.0f;
        BURN_LT(api_->matmul(
            handle_, op_, &alpha, a, a_, b, b_, &beta, c, c_, c, c_, &algo_, workspace_, kWorkspace, stream));
    }

private:
    static constexpr size_t kWorkspace = 32u << 20;

    void setUpLt(const lt::Api& api, Resources& res)
    {
        api_ = &api;
        BURN_LT(api.create(&handle_));
        BURN_LT(api.descCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        const cublasOperation_t transA = CUBLAS_OP_T, transB = CUBLAS_OP_N;
        BURN_LT(api.descSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &transA, sizeof transA));
        BURN_LT(api.descSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &transB, sizeof transB));
        BURN_LT(api.layoutCreate(&a_, CUDA_R_16F, kSize, kSize, kSize));
        BURN_LT(api.layoutCreate(&b_, CUDA_R_16F, kSize, kSize, kSize));
        BURN_LT(api.layoutCreate(&c_, CUDA_R_16F, kSize, kSize, kSize));
        cublasLtMatmulPreference_t pref = nullptr;
        BURN_LT(api.preferenceCreate(&pref));
        const uint64_t ws = kWorkspace;
        // No in-place (atomic) split-K: every output must be bitwise equal to the first.
        const uint32_t mask =
            CUBLASLT_REDUCTION_SCHEME_MASK & ~static_cast<uint32_t>(CUBLASLT_REDUCTION_SCHEME_INPLACE);
        cublasLtMatmulHeuristicResult_t result{};
        int returned = 0;
        const bool found =
            api.preferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws)
                == CUBLAS_STATUS_SUCCESS
            && api.preferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &mask, sizeof mask)
                   == CUBLAS_STATUS_SUCCESS
            && api.algoGetHeuristic(handle_, op_, a_, b_, c_, c_, pref, 1, &result, &returned) == CUBLAS_STATUS_SUCCESS
            && returned > 0 && result.state == CUBLAS_STATUS_SUCCESS;
        api.preferenceDestroy(pref);
        if (!found)
            throw std::runtime_error("cuBLASLt offers no FP16 algorithm");
        algo_ = result.algo;
        workspace_ = res.allocate(kWorkspace);
    }
    void tearDownLt()
    {
        if (!api_ || keep_)
            return;
        if (c_)
            api_->layoutDestroy(c_);
        if (b_)
            api_->layoutDestroy(b_);
        if (a_)
            api_->layoutDestroy(a_);
        if (op_)
            api_->descDestroy(op_);
        if (handle_)
            api_->destroy(handle_);
        api_ = nullptr;
        handle_ = nullptr;
        op_ = nullptr;
        a_ = b_ = c_ = nullptr;
    }

    const lt::Api* api_ = nullptr;
    bool keep_ = false;
    cublasLtHandle_t handle_ = nullptr;
    cublasLtMatmulDesc_t op_ = nullptr;
    cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
    cublasLtMatmulAlgo_t algo_{};
    void* workspace_ = nullptr;
};

// Lets the GPUs start their loops together (the node's power and heat are the point), yet never waits
// for a thread that failed or is slow to set up beyond `until`.
class StartLine
{
public:
    explicit StartLine(size_t parties)
        : waiting_(parties)
    { }
    void arrive()
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (waiting_ > 0 && --waiting_ == 0)
            cv_.notify_all();
    }
    void arriveAndWait(Clock::time_point until)
    {
        std::unique_lock<std::mutex> lock(mutex_);
        if (waiting_ > 0 && --waiting_ == 0)
            cv_.notify_all();
        cv_.wait_until(lock, until, [this] { return waiting_ == 0; });
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    size_t waiting_;
};

// Waits for `done` while sampling NVML and Xid events; false when the GPU gave up answering.
template <typename Sampler>
bool waitFor(cudaEvent_t done, Clock::time_point giveUp, Sampler&& sample)
{
    for (;;) {
        const cudaError_t q = cudaEventQuery(done);
        if (q == cudaSuccess)
            return true;
        if (q != cudaErrorNotReady)
            throwCuda(q, "cudaEventQuery(round)", __FILE__, __LINE__);
        if (Clock::now() > giveUp)
            return false;
        sample();
    }
}

void burnOne(int device,
             void* nvmlDevice,
             const lt::Api* api,
             double burnSeconds,
             Clock::time_point latest,
             StartLine& startLine,
             bool& arrived,
             Burn& report)
{
    report.index = device;
    PROBE_CUDA(cudaSetDevice(device));
    int major = 0, minor = 0;
    PROBE_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    PROBE_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    Resources res;
    PROBE_CUDA(cudaStreamCreateWithFlags(&res.stream, cudaStreamNonBlocking));
    const cudaStream_t stream = res.stream;
    const size_t elements = static_cast<size_t>(kSize) * kSize;
    void* a = res.allocate(elements * 2);
    void* b = res.allocate(elements * 2);
    kernels::fillRandom(a, Element::F16, elements, 11, stream);
    kernels::fillRandom(b, Element::F16, elements, 12, stream);
    PROBE_LAUNCH();
    Gemm gemm(api, major * 10 + minor, res);
    report.method = gemm.method();
    const size_t outBytes = gemm.outputBytes();
    void* first = res.allocate(outBytes);
    auto* counters = static_cast<unsigned long long*>(res.allocate(2 * kMaxRound * sizeof(unsigned long long)));
    unsigned long long* nanCounters = counters + kMaxRound;

    // The first result, timed, sets the round length.
    cudaEvent_t start = res.event(), stop = res.event();
    PROBE_CUDA(cudaEventRecord(start, stream));
    gemm.run(a, b, first, stream);
    PROBE_CUDA(cudaEventRecord(stop, stream));
    kernels::countNans(first, gemm.output(), elements, nanCounters, stream);
    PROBE_CUDA(cudaStreamSynchronize(stream));
    float firstMs = 0;
    PROBE_CUDA(cudaEventElapsedTime(&firstMs, start, stop));
    unsigned long long firstNans = 0;
    PROBE_CUDA(cudaMemcpy(&firstNans, nanCounters, sizeof firstNans, cudaMemcpyDeviceToHost));
    report.nanCount = static_cast<long long>(firstNans);

    size_t freeBytes = 0, totalBytes = 0;
    PROBE_CUDA(cudaMemGetInfo(&freeBytes, &totalBytes));
    const int wanted = outputBuffers(freeBytes, outBytes, 256u << 20, 0.5, 1024);
    std::vector<void*> outputs;
    for (int i = 0; i < wanted; ++i) {
        void* p = nullptr;
        if (cudaMalloc(&p, outBytes) != cudaSuccess) {
            cudaGetLastError(); // not sticky; fewer buffers will do
            break;
        }
        res.memory.push_back(p);
        outputs.push_back(p);
    }
    if (outputs.empty())
        outputs.push_back(res.allocate(outBytes)); // throws the allocation error
    std::vector<cudaEvent_t> starts, stops;
    for (int i = 0; i < kMaxRound; ++i) {
        starts.push_back(res.event());
        stops.push_back(res.event());
    }
    cudaEvent_t roundDone = res.event();

    nvmlevents::XidWatch xid(nvmlDevice);
    if (xid.supported())
        report.xidErrors = 0;
    const double flopsPerGemm = 2.0 * kSize * static_cast<double>(kSize) * kSize;
    arrived = true;
    startLine.arriveAndWait(latest
                            - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(burnSeconds)));
    const auto began = Clock::now();
    // Setup time (allocation, the first GEMM) is not burn time, but the probe's watchdog bounds the whole.
    const auto deadline = std::min(
        latest, began + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(burnSeconds)));
    auto lastSample = began;
    double pendingFlops = 0, pendingMs = 0;
    std::vector<unsigned long long> reasons;
    std::vector<double> perRound;
    auto sample = [&] {
        const auto now = Clock::now();
        if (now - lastSample >= std::chrono::seconds(1)) {
            lastSample = now;
            BurnSample s;
            s.tS = seconds(now - began);
            s.smMhz = nvml::clockMhz(nvmlDevice, 1);
            s.powerW = nvml::powerUsageW(nvmlDevice);
            s.tempC = nvml::temperatureC(nvmlDevice);
            if (pendingMs > 0)
                s.tflops = pendingFlops / (pendingMs * 1e-3) / 1e12;
            pendingFlops = pendingMs = 0;
            if (const auto r = nvml::clocksEventReasons(nvmlDevice))
                reasons.push_back(*r);
            report.trajectory.push_back(s);
        }
        // The sleep also paces the loop when the event wait returns at once (an NVML error).
        xid.poll(3, &report.xids);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    };

    double gemmMs = std::max(static_cast<double>(firstMs), 0.01);
    size_t next = 0;
    std::vector<unsigned long long> host(2 * kMaxRound);
    try {
        while (Clock::now() < deadline) {
            // About a second of work, cut short so the last round ends near the deadline.
            const double leftMs = std::chrono::duration<double, std::milli>(deadline - Clock::now()).count();
            const int k = static_cast<int>(std::clamp(std::min(1000.0, leftMs) / gemmMs, 1.0, double(kMaxRound)));
            for (int i = 0; i < k; ++i) {
                void* out = outputs[next++ % outputs.size()];
                PROBE_CUDA(cudaEventRecord(starts[static_cast<size_t>(i)], stream));
                gemm.run(a, b, out, stream);
                PROBE_CUDA(cudaEventRecord(stops[static_cast<size_t>(i)], stream));
                kernels::countDifferentWords(first, out, outBytes, counters + i, stream);
                kernels::countNans(out, gemm.output(), elements, nanCounters + i, stream);
            }
            PROBE_LAUNCH();
            PROBE_CUDA(cudaEventRecord(roundDone, stream));
            if (!waitFor(roundDone, deadline + kGiveUp, sample)) {
                res.abandon = true;
                gemm.keep();
                report.error = "GPU " + std::to_string(device) + " still busy "
                               + std::to_string(static_cast<int>(seconds(kGiveUp)))
                               + " s after the burn deadline (hung?)";
                break;
            }
            PROBE_CUDA(
                cudaMemcpy(host.data(), counters, host.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
            double roundMs = 0;
            for (int i = 0; i < k; ++i) {
                float ms = 0;
                PROBE_CUDA(cudaEventElapsedTime(&ms, starts[static_cast<size_t>(i)], stops[static_cast<size_t>(i)]));
                roundMs += ms;
                if (host[static_cast<size_t>(i)] != 0)
                    ++report.wrongResults;
                report.nanCount += static_cast<long long>(host[static_cast<size_t>(kMaxRound + i)]);
            }
            report.gemms += k;
            if (roundMs > 0) {
                gemmMs = roundMs / k;
                pendingFlops += k * flopsPerGemm;
                pendingMs += roundMs;
                perRound.push_back(k * flopsPerGemm / (roundMs * 1e-3) / 1e12);
            }
        }
    } catch (const std::exception& e) {
        report.error = e.what(); // what was counted so far still stands
    }
    report.seconds = seconds(Clock::now() - began);
    if (report.xidErrors)
        report.xidErrors = static_cast<long long>(report.xids.size());
    const Windows w = windows(perRound);
    report.tflopsFirst = w.first;
    report.tflopsLast = w.last;
    report.tflopsMin = w.min;
    report.throttle = sampling::throttleStats(reasons);
}

} // namespace

std::vector<Burn>
run(const std::vector<int>& devices, double seconds, const std::vector<void*>& nvmlDevices, const lt::Api* api)
{
    std::vector<Burn> reports(devices.size());
    // Setup may take up to 30 s beyond the burn time; the loops end by then whatever happens.
    const auto latest = Clock::now() + std::chrono::seconds(30)
                        + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    StartLine startLine(devices.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < devices.size(); ++i) {
        void* nvmlDevice = i < nvmlDevices.size() ? nvmlDevices[i] : nullptr;
        Burn& report = reports[i];
        report.index = devices[i];
        threads.emplace_back([&report, &startLine, device = devices[i], nvmlDevice, api, seconds, latest] {
            bool arrived = false;
            try {
                burnOne(device, nvmlDevice, api, seconds, latest, startLine, arrived, report);
            } catch (const std::exception& e) {
                report.error = e.what();
            }
            if (!arrived)
                startLine.arrive();
        });
    }
    for (auto& t : threads)
        t.join();
    return reports;
}

} // namespace probe::burn
