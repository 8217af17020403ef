// Independent reference figures for the device check when PyTorch is not there: cuBLASLt linked the ordinary
// way (not the probe's dlopen), each GEMM with the library's first heuristic choice, and cudaMemcpy timings.
// Same figures, layout and byte accounting as tests/gpu/reference.py; prints one JSON object on stdout.
//
// Build: nvcc -std=c++17 -O2 -arch=native cublas_reference.cu -lcublasLt -o cublas_reference
// Usage: cublas_reference [--device N] [--size 8192]
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

std::map<std::string, double> figures;
std::map<std::string, std::string> problems;

struct Failure
{
    std::string what;
};

void check(cudaError_t e, const char* call, int line)
{
    if (e != cudaSuccess)
        throw Failure{std::string(call) + " (line " + std::to_string(line) + "): " + cudaGetErrorString(e)};
}
void check(cublasStatus_t s, const char* call, int line)
{
    if (s != CUBLAS_STATUS_SUCCESS)
        throw Failure{std::string(call) + " (line " + std::to_string(line) + "): cuBLAS status " + std::to_string(s)};
}
#define CHECK(x) check((x), #x, __LINE__)

// Fills with a hash of the index mapped to [-1, 1): random-looking, never zeros, no host transfer.
template <typename T>
__global__ void fill(T* p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        unsigned h = unsigned(i) * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        p[i] = T(float(h & 0xffffff) / float(0x800000) - 1.0f);
    }
}

template <typename T>
void fillDevice(void* p, size_t n, unsigned seed)
{
    fill<T><<<1024, 256>>>(static_cast<T*>(p), n, seed);
    CHECK(cudaGetLastError());
}

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Median milliseconds per call over 7 samples of `per` calls each, after 3 warm-up calls.
template <typename F>
double medianMs(F&& fn, int per, cudaStream_t stream)
{
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < 3; ++i)
        fn();
    CHECK(cudaStreamSynchronize(stream));
    std::vector<double> ms;
    for (int s = 0; s < 7; ++s) {
        CHECK(cudaEventRecord(start, stream));
        for (int i = 0; i < per; ++i)
            fn();
        CHECK(cudaEventRecord(stop, stream));
        CHECK(cudaEventSynchronize(stop));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, start, stop));
        ms.push_back(double(t) / per);
    }
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return medianOf(ms);
}

struct GemmKind
{
    const char* name;
    cudaDataType_t ab, cd;
    cublasComputeType_t compute;
    size_t abBytes, cdBytes;
    int minCc;
};

void gemm(
    cublasLtHandle_t lt, cudaStream_t stream, const GemmKind& k, int n, int cc, void* workspace, size_t workspaceBytes)
{
    if (cc < k.minCc) {
        problems[k.name] = "needs compute capability " + std::to_string(k.minCc / 10) + "."
                           + std::to_string(k.minCc % 10) + " or newer";
        return;
    }
    const size_t elems = size_t(n) * n;
    void *a = nullptr, *b = nullptr, *c = nullptr;
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
    cublasLtMatmulPreference_t pref = nullptr;
    float* one = nullptr;
    try {
        CHECK(cudaMalloc(&a, elems * k.abBytes));
        CHECK(cudaMalloc(&b, elems * k.abBytes));
        CHECK(cudaMalloc(&c, elems * k.cdBytes));
        if (k.ab == CUDA_R_16F) {
            fillDevice<__half>(a, elems, 1);
            fillDevice<__half>(b, elems, 2);
        } else if (k.ab == CUDA_R_16BF) {
            fillDevice<__nv_bfloat16>(a, elems, 1);
            fillDevice<__nv_bfloat16>(b, elems, 2);
        } else if (k.ab == CUDA_R_32F) {
            fillDevice<float>(a, elems, 1);
            fillDevice<float>(b, elems, 2);
        } else {
            fillDevice<__nv_fp8_e4m3>(a, elems, 1);
            fillDevice<__nv_fp8_e4m3>(b, elems, 2);
        }
        CHECK(cublasLtMatmulDescCreate(&desc, k.compute, CUDA_R_32F));
        CHECK(cudaStreamSynchronize(stream));
        // TN: A stored K x M column-major (= M x K row-major) and transposed; B K x N column-major.
        const cublasOperation_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
        CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opT, sizeof(opT)));
        CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &opN, sizeof(opN)));
        if (k.ab == CUDA_R_8F_E4M3) {
            CHECK(cudaMalloc(&one, sizeof(float)));
            const float h = 1.0f;
            CHECK(cudaMemcpy(one, &h, sizeof(h), cudaMemcpyHostToDevice));
            CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &one, sizeof(one)));
            CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &one, sizeof(one)));
            const int8_t fast = 1;
            CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof(fast)));
        }
        CHECK(cublasLtMatrixLayoutCreate(&la, k.ab, n, n, n));
        CHECK(cublasLtMatrixLayoutCreate(&lb, k.ab, n, n, n));
        CHECK(cublasLtMatrixLayoutCreate(&lc, k.cd, n, n, n));
        CHECK(cublasLtMatmulPreferenceCreate(&pref));
        CHECK(cublasLtMatmulPreferenceSetAttribute(
            pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes, sizeof(workspaceBytes)));
        cublasLtMatmulHeuristicResult_t heuristic{};
        int found = 0;
        CHECK(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, lc, pref, 1, &heuristic, &found));
        if (found == 0)
            throw Failure{"no cuBLASLt algorithm for this problem"};
        const float alpha = 1.0f, beta = 0.0f;
        auto run = [&] {
            CHECK(cublasLtMatmul(lt,
                                 desc,
                                 &alpha,
                                 a,
                                 la,
                                 b,
                                 lb,
                                 &beta,
                                 c,
                                 lc,
                                 c,
                                 lc,
                                 &heuristic.algo,
                                 workspace,
                                 workspaceBytes,
                                 stream));
        };
        const double ms = medianMs(run, 10, stream);
        figures[k.name] = 2.0 * n * double(n) * n / (ms * 1e-3) / 1e12;
    } catch (const Failure& f) {
        problems[k.name] = f.what;
    }
    if (pref)
        cublasLtMatmulPreferenceDestroy(pref);
    if (la)
        cublasLtMatrixLayoutDestroy(la);
    if (lb)
        cublasLtMatrixLayoutDestroy(lb);
    if (lc)
        cublasLtMatrixLayoutDestroy(lc);
    if (desc)
        cublasLtMatmulDescDestroy(desc);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(one);
    cudaGetLastError();
}

void copies(cudaStream_t stream)
{
    try {
        const size_t bytes = size_t(4) << 30;
        void *src = nullptr, *dst = nullptr;
        CHECK(cudaMalloc(&src, bytes));
        CHECK(cudaMalloc(&dst, bytes));
        fillDevice<float>(src, bytes / 4, 3);
        const double ms =
            medianMs([&] { CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream)); }, 5, stream);
        figures["dram_copy"] = 2.0 * double(bytes) / (ms * 1e-3) / 1e9; // read + write, as the probe
        cudaFree(src);
        cudaFree(dst);
    } catch (const Failure& f) {
        problems["dram_copy"] = f.what;
    }
    try {
        const size_t bytes = size_t(256) << 20;
        void *host = nullptr, *dev = nullptr;
        CHECK(cudaMallocHost(&host, bytes));
        std::memset(host, 0x3c, bytes);
        CHECK(cudaMalloc(&dev, bytes));
        double ms =
            medianMs([&] { CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, stream)); }, 8, stream);
        figures["h2d_pinned"] = double(bytes) / (ms * 1e-3) / 1e9;
        ms = medianMs([&] { CHECK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, stream)); }, 8, stream);
        figures["d2h_pinned"] = double(bytes) / (ms * 1e-3) / 1e9;
        cudaFreeHost(host);
        cudaFree(dev);
    } catch (const Failure& f) {
        problems["h2d_pinned"] = problems["d2h_pinned"] = f.what;
    }
}

std::string quoted(const std::string& s)
{
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\')
            out += '\\';
        if (static_cast<unsigned char>(ch) < 0x20)
            ch = ' ';
        out += ch;
    }
    return out + "\"";
}

} // namespace

int main(int argc, char** argv)
{
    int device = 0, n = 8192;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            device = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc)
            n = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: %s [--device N] [--size 8192]\n", argv[0]);
            return 2;
        }
    }
    cudaDeviceProp props{};
    cudaStream_t stream = nullptr;
    cublasLtHandle_t lt = nullptr;
    void* workspace = nullptr;
    const size_t workspaceBytes = size_t(32) << 20;
    try {
        CHECK(cudaSetDevice(device));
        CHECK(cudaGetDeviceProperties(&props, device));
        CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        CHECK(cublasLtCreate(&lt));
        CHECK(cudaMalloc(&workspace, workspaceBytes));
    } catch (const Failure& f) {
        std::fprintf(stderr, "cublas_reference: %s\n", f.what.c_str());
        return 1;
    }
    const int cc = props.major * 10 + props.minor;
    const GemmKind kinds[] = {
        {"gemm_fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 2, 70},
        {"gemm_bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2, 80},
        {"gemm_tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4, 80},
        {"gemm_fp8", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 1, 2, 89},
    };
    for (const GemmKind& k : kinds)
        gemm(lt, stream, k, n, cc, workspace, workspaceBytes);
    copies(stream);

    std::printf("{\n  \"kind\": \"cublaslt\",\n  \"cublaslt_version\": %zu,\n  \"device\": %s,\n",
                cublasLtGetVersion(),
                quoted(props.name).c_str());
    std::printf("  \"compute_capability\": \"%d.%d\",\n  \"figures\": {", props.major, props.minor);
    const char* sep = "";
    for (const auto& f : figures) {
        std::printf("%s\n    %s: %.2f", sep, quoted(f.first).c_str(), f.second);
        sep = ",";
    }
    std::printf("\n  },\n  \"problems\": {");
    sep = "";
    for (const auto& p : problems) {
        std::printf("%s\n    %s: %s", sep, quoted(p.first).c_str(), quoted(p.second).c_str());
        sep = ",";
    }
    std::printf("\n  }\n}\n");
    return 0;
}
