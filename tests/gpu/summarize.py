#!/usr/bin/env python3
"""The device check's one table: the probe's figures against an independent reference on the same GPU, the
datasheet peak (resources/catalog/gpus.json) and the goal each figure is held to.

Reads what tests/gpu/device-check.sh saved; prints the table; writes DIR/device-check.json (for the verdict's
thresholds) and appends a ready-to-paste markdown section to DIR/device-check.md (for docs/probe-results.md).
Python standard library only.

Usage: summarize.py --out DIR --steps FILE [--quick F] [--full F] [--burn F] [--ptx F] [--reference F]
                    [--catalog resources/catalog/gpus.json] [--date YYYY-MM-DD]
--steps: one line per step, tab-separated: name, status (ok|failed|skipped), seconds, detail.
Exit 0; 1 when a required input cannot be read.
"""
import argparse
import datetime
import json
import os
import re
import sys

# Per-lane PCIe rate in GB/s after encoding, per direction, by generation.
PCIE_LANE_GBS = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}


def load(path):
    if not path or not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"summarize: {path}: {e}", file=sys.stderr)
        return None


def words(text):
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


FORM = re.compile(r"^(sxm\d?|pcie|\d+gb|nvidia|tesla)$")


def catalog_entry(catalog, gpu_name, memory_mib):
    """The catalog GPU whose name words (form factor and memory size aside) all appear in the probe's name;
    ties go to the matching form factor (PCIe or not), then to the nearest memory size."""
    if not catalog or not gpu_name:
        return None
    have = set(words(gpu_name))
    best = None
    for entry in catalog.get("gpus", []):
        core = [w for w in words(entry.get("name", "")) if not FORM.match(w)]
        if not core or not all(w in have for w in core):
            continue
        entry_words = set(words(entry.get("name", "")))
        form_ok = ("pcie" in entry_words) == ("pcie" in have)
        mem = entry.get("memory_gb") or 0
        mem_gap = abs(mem - (memory_mib or 0) / 1024.0) if memory_mib else 0
        key = (len(core), form_ok, -mem_gap)
        if best is None or key > best[0]:
            best = (key, entry)
    return best[1] if best else None


def measurement(gpu, name):
    if not gpu:
        return None
    for m in gpu.get("measurements", []):
        if m.get("name") == name:
            return m
    return None


def value(gpu, name):
    m = measurement(gpu, name)
    if m is None:
        return None, "absent"
    if "skipped" in m:
        return None, "skipped: " + str(m["skipped"])
    v = m.get("value")
    return (float(v), m.get("method")) if isinstance(v, (int, float)) else (None, "null")


def bad_throttle(shares):
    """Clock limits a healthy GPU under load should not show (sw_power_cap is normal under GEMM load)."""
    return any((k.startswith("hw_") or k == "sw_thermal") and v > 0 for k, v in shares.items())


def fmt(v, digits=1):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return f"{v:.{digits}f}"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--steps", required=True)
    for name in ("quick", "full", "burn", "ptx", "reference", "catalog", "date"):
        p.add_argument("--" + name)
    a = p.parse_args()

    steps = []
    try:
        with open(a.steps, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3:
                    steps.append({"step": parts[0], "status": parts[1],
                                  "seconds": float(parts[2]) if parts[2] else None,
                                  "detail": parts[3] if len(parts) > 3 else ""})
    except OSError as e:
        print(f"summarize: cannot read the steps file {a.steps}: {e.strerror}", file=sys.stderr)
        return 1
    step = {s["step"]: s for s in steps}

    docs = {k: load(getattr(a, k)) for k in ("quick", "full", "burn", "ptx")}
    ref = load(a.reference)
    catalog = load(a.catalog)
    main_doc = docs["full"] or docs["quick"] or docs["burn"]
    gpu = (main_doc or {}).get("gpus", [None])[0] if (main_doc or {}).get("gpus") else None
    full_gpu = (docs["full"] or {}).get("gpus", [None])[0] if (docs["full"] or {}).get("gpus") else None
    burn_gpu = (docs["burn"] or {}).get("gpus", [None])[0] if (docs["burn"] or {}).get("gpus") else None
    gpu_name = (gpu or {}).get("name")
    entry = catalog_entry(catalog, gpu_name, (gpu or {}).get("memory_total_mib"))
    peaks = (entry or {}).get("peak_tflops", {})
    cc = (gpu or {}).get("compute_capability", "")
    own_goal = 0.7 if cc.startswith("9") else 0.8
    ref_figures = (ref or {}).get("figures", {})
    ref_problems = (ref or {}).get("problems", {})

    rows = []

    # peak: a number, None (the catalog has none: "unknown") or "" (no peak applies to this row).
    def row(figure, probe, reference, ratio, peak, goal, met, note=""):
        rows.append({"figure": figure, "probe": probe, "reference": reference, "ratio": ratio, "peak": peak,
                     "goal": goal, "met": met, "note": note})

    def versus_reference(name, peak, unit_digits=1):
        v, how = value(full_gpu, name)
        r = ref_figures.get(name)
        ratio = v / r if v is not None and r else None
        note = "" if v is not None else how
        if r is None and name in ref_problems:
            note = (note + "; " if note else "") + "reference: " + ref_problems[name]
        row(name, v, r, ratio, peak, ">= 0.95 of reference", None if ratio is None else ratio >= 0.95, note)

    for name, key in (("gemm_fp16", "fp16"), ("gemm_bf16", "bf16"), ("gemm_tf32", "tf32"), ("gemm_fp8", "fp8")):
        versus_reference(name, peaks.get(key))
    versus_reference("dram_copy", (entry or {}).get("memory_bandwidth_gbs"))
    pcie = (full_gpu or {}).get("pcie") or {}
    link = None
    if pcie.get("gen_max") in PCIE_LANE_GBS and pcie.get("width_max"):
        link = PCIE_LANE_GBS[pcie["gen_max"]] * pcie["width_max"]
    for name in ("h2d_pinned", "d2h_pinned"):
        versus_reference(name, link)
        if link:
            rows[-1]["note"] = (rows[-1]["note"] + "; " if rows[-1]["note"] else "") + \
                f"peak = PCIe Gen{pcie['gen_max']} x{pcie['width_max']} link"
    for own, lib, key in (("gemm_own_fp16", "gemm_fp16", "fp16"), ("gemm_own_bf16", "gemm_bf16", "bf16")):
        v, how = value(full_gpu, own)
        r, _ = value(full_gpu, lib)
        ratio = v / r if v is not None and r else None
        row(own, v, r, ratio, peaks.get(key), f">= {own_goal} of probe cuBLASLt {lib}",
            None if ratio is None else ratio >= own_goal,
            f"method {how}; informational" if v is not None else how)
    v, how = value(full_gpu, "wmma_fp16")
    row("wmma_fp16", v, None, v / peaks["fp16"] if v is not None and peaks.get("fp16") else None, peaks.get("fp16"),
        "(ratio = share of peak)", None, "" if v is not None else how)

    for mode, limit in (("quick", 10.0), ("full", 60.0)):
        s = step.get("run-" + mode)
        doc = docs[mode]
        wall = s["seconds"] if s and s["status"] != "skipped" else None
        # A run that failed fast says nothing about the time limit.
        counts = wall is not None and s["status"] == "ok"
        row(f"{mode} wall time (s)", wall, (doc or {}).get("elapsed_s"), None, "", f"< {limit:g} s",
            (wall < limit) if counts else None, "reference column = the probe's own elapsed_s"
            + ("" if counts or wall is None else "; the run failed"))
    b = (burn_gpu or {}).get("burn")
    if b:
        first, last = b.get("tflops_first"), b.get("tflops_last")
        row("burn: wrong results / nan", f"{b.get('wrong_results')} / {b.get('nan_count')}", None, None, "",
            "0 / 0", b.get("wrong_results") == 0 and b.get("nan_count") == 0,
            f"{b.get('gemms')} GEMMs in {fmt(b.get('seconds'))} s")
        xids = b.get("xid_errors")
        row("burn: xid errors", "n/a" if xids is None else str(xids), None, None, "", "0",
            None if xids is None else xids == 0, "xids " + json.dumps(b.get("xids", [])))
        row("burn: tflops first / last / min", f"{fmt(first)} / {fmt(last)} / {fmt(b.get('tflops_min'))}", None,
            last / first if first and last else None, "", "last/first >= 0.9",
            (last / first >= 0.9) if first and last else None)
        shares = (b.get("throttle") or {}).get("shares", {})
        row("burn: throttle shares", ", ".join(f"{k} {v:.2f}" for k, v in sorted(shares.items())) or "none",
            None, None, "", "no hw_* / sw_thermal", not bad_throttle(shares),
            f"{(b.get('throttle') or {}).get('samples')} samples")
    else:
        s = step.get("run-burn")
        row("burn", None, None, None, "", "ran", None if not s else s["status"] == "ok",
            s["detail"] if s else "not run")
    power = (full_gpu or {}).get("power") or {}
    load_w, limit_w = power.get("under_load_w"), power.get("limit_w")
    row("power under load / limit (W)", load_w, limit_w, load_w / limit_w if load_w and limit_w else None,
        (entry or {}).get("tdp_w"), "informational", None, f"method {power.get('method')}")
    shares = ((full_gpu or {}).get("throttle") or {}).get("shares")
    row("throttle shares (full)", ", ".join(f"{k} {v:.2f}" for k, v in sorted((shares or {}).items())) or
        ("none" if shares is not None else None), None, None, "", "no hw_* / sw_thermal",
        None if shares is None else not bad_throttle(shares),
        "throttle_reasons " + json.dumps((full_gpu or {}).get("throttle_reasons")))
    status = []
    for mode in ("quick", "full", "burn", "ptx"):
        d = docs[mode]
        if d is not None:
            err = d.get("error") or {}
            status.append(f"{mode} " + ("ok" if d.get("ok") else "NOT ok") + (f" ({err.get('code')})" if err else ""))
    errors = "; ".join(f"{m}: {(docs[m].get('error') or {}).get('message')}" for m in ("quick", "full", "burn", "ptx")
                       if docs[m] is not None and docs[m].get("error"))
    row("probe ok", ", ".join(status) or None, None, None, "", "all ok",
        all(docs[m].get("ok") for m in ("quick", "full", "burn", "ptx") if docs[m] is not None) if status else None,
        errors[:300])
    corr = []
    for mode in ("quick", "full", "burn", "ptx"):
        g = (docs[mode] or {}).get("gpus") or [None]
        if g[0] is not None:
            corr.append((mode, bool((g[0].get("correctness") or {}).get("ok"))))
    row("correctness ok", ", ".join(f"{m} {'yes' if ok else 'NO'}" for m, ok in corr) or None, None, None, "",
        "all yes", all(ok for _, ok in corr) if corr else None)
    ptx = docs["ptx"]
    s = step.get("run-cuda11-ptx")
    row("cuda 11.8 PTX JIT --quick", None if not ptx else ("ok" if ptx.get("ok") else "NOT ok"), None, None, "",
        "ok", None if not ptx else bool(ptx.get("ok")), s["detail"] if s and not ptx else "")
    for name in ("quick", "full", "burn", "ptx"):
        s = step.get("schema-" + name)
        if s:
            row(f"schema {name}", s["status"], None, None, "", "ok", s["status"] == "ok" if s["status"] != "skipped"
                else None, s["detail"])

    header = ["figure", "probe", "reference", "ratio", "datasheet peak", "goal", "met", "note"]
    table = [[r["figure"], fmt(r["probe"]), fmt(r["reference"]), fmt(r["ratio"], 3), fmt(r["peak"]) if
              r["peak"] is not None else "unknown", r["goal"], {True: "yes", False: "NO", None: "-"}[r["met"]],
              r["note"]] for r in rows]
    widths = [max(len(str(x[i])) for x in table + [header]) for i in range(len(header) - 1)]
    ref_kind = (ref or {}).get("kind", "none")
    print()
    print(f"GPU: {gpu_name or 'unknown'}   catalog: {(entry or {}).get('name', 'unknown')}   "
          f"driver: {((main_doc or {}).get('driver') or {}).get('version')}   reference: {ref_kind}")
    print(" | ".join(h.ljust(w) for h, w in zip(header, widths)) + " | note")
    print("-+-".join("-" * w for w in widths) + "-+-----")
    for t in table:
        print(" | ".join(str(x).ljust(w) for x, w in zip(t, widths)) + " | " + t[-1])

    def probe_info(doc):
        if not doc:
            return None
        pr = doc.get("probe") or {}
        return {"version": pr.get("version"), "cuda_runtime": pr.get("cuda_runtime"),
                "architectures": pr.get("architectures")}

    date = a.date or datetime.date.today().isoformat()
    summary = {
        "schema": "gpuplan-device-check/1",
        "date": date,
        "gpu": {"name": gpu_name, "compute_capability": cc or None, "uuid": (gpu or {}).get("uuid"),
                "catalog_id": (entry or {}).get("id")},
        "driver": (main_doc or {}).get("driver"),
        "probe": {"cuda13": probe_info(docs["full"] or docs["quick"]), "cuda11_8": probe_info(docs["ptx"])},
        "reference": {k: v for k, v in (ref or {}).items() if k not in ("figures", "problems")} or None,
        "reference_figures": ref_figures,
        "reference_problems": ref_problems,
        "rows": rows,
        "steps": steps,
        "ok": all(s["status"] != "failed" for s in steps),
    }
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "device-check.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    with open(os.path.join(a.out, "device-check.md"), "a", encoding="utf-8") as f:
        f.write(f"\n### {date}: {gpu_name or 'unknown GPU'}, driver "
                f"{((main_doc or {}).get('driver') or {}).get('version')}\n\n")
        f.write(f"Probe {((summary['probe']['cuda13'] or {}).get('version'))} (CUDA "
                f"{(summary['probe']['cuda13'] or {}).get('cuda_runtime')}); reference: {ref_kind}"
                f"{' ' + str(ref.get('torch')) if ref and ref.get('torch') else ''}; catalog entry: "
                f"{(entry or {}).get('name', 'unknown')}.\n\n")
        f.write("| " + " | ".join(header) + " |\n")
        f.write("|" + "---|" * len(header) + "\n")
        for t in table:
            f.write("| " + " | ".join(str(x).replace("|", "/") for x in t) + " |\n")
        f.write("\nSteps: " + "; ".join(f"{s['step']} {s['status']}"
                                         + (f" ({s['seconds']:.1f} s)" if s["seconds"] is not None else "")
                                         for s in steps) + ".\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
