#!/usr/bin/env python3
"""Independent reference figures for the device check, measured through PyTorch on the probe's GPU.

GEMMs at 8192^3 in the probe's layout (A row-major, B column-major: cuBLAS "TN"), FP16/BF16 with the input
type as output, TF32 with FP32 output, FP8 E4M3 through torch._scaled_mm (per-tensor scale 1.0, BF16 output,
use_fast_accum=True, as the probe's cuBLASLt FP8 GEMM). Random normal inputs, never zeros (zeros run faster).
Copies: a 4 GiB device-to-device copy counted read + write (as the probe's dram_copy), pinned H2D/D2H of
256 MiB x 8 counted once (as h2d_pinned/d2h_pinned). Timing: CUDA events, warm-ups, median of the samples.

Prints one JSON object on stdout: {"kind": "torch", "torch": ..., "device": ..., "figures": {name: value}}.
Exit 1 when PyTorch or the GPU is not usable (the device check then builds the cuBLASLt reference instead).
Usage: reference.py [--device N] [--size 8192] [--quick]
"""
import argparse
import json
import statistics
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", type=int, default=0)
    parser.add_argument("--size", type=int, default=8192)
    parser.add_argument("--quick", action="store_true", help="fewer samples, smaller copies (for a smoke test)")
    args = parser.parse_args()

    try:
        import torch
    except Exception as e:  # ImportError, or a broken install raising anything else
        print(f"reference.py: PyTorch cannot be imported: {e}", file=sys.stderr)
        return 1
    if not torch.cuda.is_available():
        print(f"reference.py: torch {torch.__version__} sees no CUDA GPU (built for CUDA {torch.version.cuda})",
              file=sys.stderr)
        return 1

    dev = torch.device("cuda", args.device)
    torch.cuda.set_device(dev)
    props = torch.cuda.get_device_properties(dev)
    result = {
        "kind": "torch",
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "python": sys.executable,
        "device": props.name,
        "compute_capability": f"{props.major}.{props.minor}",
        "figures": {},
        "problems": {},
    }
    samples = 3 if args.quick else 7
    n = args.size
    flops = 2.0 * n * n * n

    def median_ms(fn, per_sample, warmups=3):
        for _ in range(warmups):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(samples):
            start = torch.cuda.Event(enable_timing=True)
            stop = torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(per_sample):
                fn()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop) / per_sample)
        return statistics.median(times)

    def gemm(name, fn):
        try:
            ms = median_ms(fn, per_sample=10)
            result["figures"][name] = flops / (ms * 1e-3) / 1e12
        except Exception as e:  # one dtype unsupported must not lose the others
            result["problems"][name] = f"{type(e).__name__}: {e}"
        torch.cuda.synchronize()

    gen = torch.Generator(device=dev)
    gen.manual_seed(19)

    def operands(dtype):
        a = torch.randn(n, n, device=dev, generator=gen, dtype=torch.float32).to(dtype)
        # B column-major: the transpose of a row-major N x K matrix.
        b = torch.randn(n, n, device=dev, generator=gen, dtype=torch.float32).to(dtype).t()
        return a, b

    for name, dtype in (("gemm_fp16", torch.float16), ("gemm_bf16", torch.bfloat16)):
        a, b = operands(dtype)
        c = torch.empty(n, n, device=dev, dtype=dtype)
        gemm(name, lambda a=a, b=b, c=c: torch.matmul(a, b, out=c))
        del a, b, c

    torch.backends.cuda.matmul.allow_tf32 = True
    a, b = operands(torch.float32)
    c = torch.empty(n, n, device=dev, dtype=torch.float32)
    gemm("gemm_tf32", lambda: torch.matmul(a, b, out=c))
    torch.backends.cuda.matmul.allow_tf32 = False
    del a, b, c

    if (props.major, props.minor) >= (8, 9) and hasattr(torch, "float8_e4m3fn"):
        a, b = operands(torch.float8_e4m3fn)
        one = torch.tensor(1.0, device=dev, dtype=torch.float32)
        gemm("gemm_fp8", lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16,
                                                  use_fast_accum=True))
        del a, b
    else:
        result["problems"]["gemm_fp8"] = f"FP8 needs sm_89 or newer; this GPU is {props.major}.{props.minor}"
    torch.cuda.empty_cache()

    # Device copy: bytes read + bytes written, as the probe's dram_copy.
    try:
        nbytes = (256 if args.quick else 4096) << 20
        src = torch.empty(nbytes // 4, device=dev, dtype=torch.float32).normal_(generator=gen)
        dst = torch.empty_like(src)
        ms = median_ms(lambda: dst.copy_(src), per_sample=5)
        result["figures"]["dram_copy"] = 2.0 * nbytes / (ms * 1e-3) / 1e9
        del src, dst
        torch.cuda.empty_cache()
    except Exception as e:
        result["problems"]["dram_copy"] = f"{type(e).__name__}: {e}"

    # Pinned host memory, bytes counted once, as the probe's h2d_pinned/d2h_pinned.
    try:
        nbytes = (64 if args.quick else 256) << 20
        host = torch.empty(nbytes // 4, dtype=torch.float32).pin_memory()
        host.fill_(1.5)
        devbuf = torch.empty(nbytes // 4, device=dev, dtype=torch.float32)
        per = 4 if args.quick else 8
        ms = median_ms(lambda: devbuf.copy_(host, non_blocking=True), per_sample=per, warmups=2)
        result["figures"]["h2d_pinned"] = nbytes / (ms * 1e-3) / 1e9
        ms = median_ms(lambda: host.copy_(devbuf, non_blocking=True), per_sample=per, warmups=2)
        result["figures"]["d2h_pinned"] = nbytes / (ms * 1e-3) / 1e9
        del host, devbuf
    except Exception as e:
        result["problems"]["h2d_pinned"] = result["problems"]["d2h_pinned"] = f"{type(e).__name__}: {e}"

    result["figures"] = {k: round(v, 2) for k, v in result["figures"].items()}
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    t0 = time.time()
    status = main()
    print(f"reference.py: {time.time() - t0:.1f} s", file=sys.stderr)
    sys.exit(status)
