#!/usr/bin/env bash
# Ingest of AWS's EC2 regional offer file: our streaming reader against Python's json.load, on the same file,
# in one run. The file is generated here in the shape of the real one (products with EC2's attributes, then
# OnDemand and Reserved terms per SKU; about 3 % GPU instances), at least 400 MB. Prints the figures side by
# side; asserts nothing.
# Usage: tests/bench/aws-offer-ingest.sh [BUILD_DIR] [MB]   (defaults: build, 400)
set -euo pipefail

build=${1:-build}
target_mb=${2:-400}
bench="$build/tests/bench/gpuplan-bench-aws-ingest"
[ -x "$bench" ] || { echo "build $bench first (cmake --build $build)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time, Debian package 'time')" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
file="$work/index.json"

python3 - "$file" "$target_mb" <<'PY'
import json, random, sys
path, target = sys.argv[1], int(sys.argv[2]) * 1_000_000
random.seed(7)
families = ["m5", "c5", "r5", "t3", "m6i", "c6i", "r6i", "m7g", "c7g", "i4i", "x2idn", "z1d"]
gpus = ["g4dn.xlarge", "g5.2xlarge", "g6.xlarge", "g6e.12xlarge", "p4d.24xlarge", "p5.48xlarge"]
sizes = ["large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge"]
oses = ["Linux", "Windows", "RHEL", "SUSE", "Ubuntu Pro"]
software = ["NA", "NA", "NA", "SQL Web", "SQL Std"]
def attributes(itype, gpu):
    a = {"servicecode": "AmazonEC2", "location": "US East (N. Virginia)", "locationType": "AWS Region",
         "instanceType": itype, "currentGeneration": "Yes", "instanceFamily": "GPU instance" if gpu else "General purpose",
         "vcpu": str(random.choice([2, 4, 8, 16, 32, 48, 96])), "physicalProcessor": "Intel Xeon Platinum 8259 (Cascade Lake)",
         "clockSpeed": "3.1 GHz", "memory": "%d GiB" % random.choice([8, 16, 32, 64, 192, 768]),
         "storage": "EBS only", "networkPerformance": "Up to 25 Gigabit", "processorArchitecture": "64-bit",
         "tenancy": random.choice(["Shared", "Shared", "Dedicated", "Host"]), "operatingSystem": random.choice(oses),
         "licenseModel": "No License required", "usagetype": "BoxUsage:" + itype, "operation": "RunInstances",
         "availabilityzone": "NA", "capacitystatus": random.choice(["Used", "UnusedCapacityReservation", "AllocatedCapacityReservation"]),
         "classicnetworkingsupport": "false", "dedicatedEbsThroughput": "Up to 4750 Mbps", "ecu": "NA",
         "enhancedNetworkingSupported": "Yes", "intelAvxAvailable": "Yes", "intelAvx2Available": "Yes",
         "intelTurboAvailable": "Yes", "marketoption": "OnDemand", "normalizationSizeFactor": "4",
         "preInstalledSw": random.choice(software), "processorFeatures": "Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo",
         "regionCode": "us-east-1", "servicename": "Amazon Elastic Compute Cloud", "vpcnetworkingsupport": "true"}
    if gpu:
        a["gpu"] = str(random.choice([1, 4, 8])); a["gpuMemory"] = "24 GB"
    return a
def dimension(sku, code, rate, unit, usd, description):
    return {"unit": unit, "endRange": "Inf", "description": description, "appliesTo": [],
            "rateCode": "%s.%s.%s" % (sku, code, rate), "beginRange": "0", "pricePerUnit": {"USD": usd}}
def term(sku, code, dims, attrs):
    return {"offerTermCode": code, "sku": sku, "effectiveDate": "2026-11-01T00:00:00Z",
            "priceDimensions": {d["rateCode"]: d for d in dims}, "termAttributes": attrs}
reserved_kinds = [(l, c, p) for l in ("1yr", "3yr") for c in ("standard", "convertible")
                  for p in ("No Upfront", "Partial Upfront", "All Upfront")]
with open(path, "w") as out:
    out.write('{"formatVersion":"v1.0","disclaimer":"This pricing list is for informational purposes only.",'
              '"offerCode":"AmazonEC2","version":"20261130150000","publicationDate":"2026-11-30T15:00:00Z","products":{')
    # Products and terms are written in two passes over the same SKUs, as the real file orders them.
    skus, written, first = [], 0, True
    budget_products = target * 0.30
    while written < budget_products:
        gpu = random.random() < 0.03
        itype = random.choice(gpus) if gpu else "%s.%s" % (random.choice(families), random.choice(sizes))
        sku = "".join(random.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(16))
        text = ("" if first else ",") + json.dumps(sku) + ":" + json.dumps(
            {"sku": sku, "productFamily": "Compute Instance", "attributes": attributes(itype, gpu)}, separators=(",", ":"))
        out.write(text); written += len(text); first = False
        skus.append(sku)
    out.write('},"terms":{"OnDemand":{')
    for i, sku in enumerate(skus):
        t = term(sku, "JRTCKXETXF", [dimension(sku, "JRTCKXETXF", "6YS6EN2CT7", "Hrs", "%.10f" % random.uniform(0.05, 98), "On Demand Linux")], {})
        out.write(("," if i else "") + json.dumps(sku) + ":" + json.dumps({sku + ".JRTCKXETXF": t}, separators=(",", ":")))
    out.write('},"Reserved":{')
    size, i = out.tell(), 0
    while out.tell() < target:
        sku = skus[i % len(skus)]
        terms = {}
        for n, (lease, klass, purchase) in enumerate(reserved_kinds):
            code = "R%02d%s" % (n, "".join(random.choice("ABCDEFGHJK") for _ in range(8)))
            dims = [dimension(sku, code, "6YS6EN2CT7", "Hrs", "%.10f" % random.uniform(0.0, 60), "Reserved hourly")]
            if purchase != "No Upfront":
                dims.append(dimension(sku, code, "2TG2D8R56U", "Quantity", "%d" % random.randint(100, 300000), "Upfront Fee"))
            terms[sku + "." + code] = term(sku, code, dims, {"LeaseContractLength": lease, "OfferingClass": klass, "PurchaseOption": purchase})
        out.write(("," if i else "") + json.dumps(sku + ("" if i < len(skus) else "-%d" % i)) + ":" + json.dumps(terms, separators=(",", ":")))
        i += 1
    out.write("}}}")
PY

bytes=$(stat -c %s "$file")
echo "EC2 offer file of the real shape: $((bytes / 1000000)) MB ($file)"
echo

measure() { # label, command...: wall seconds and peak RSS of one run
    local label=$1; shift
    local log="$work/time.log"
    /usr/bin/time -f '%e %M' -o "$log" "$@" >"$work/out.txt"
    read -r seconds kb <"$log"
    printf '%-34s %8.2f s %9.0f MB  %s\n' "$label" "$seconds" "$((kb / 1024))" "$(head -c 200 "$work/out.txt")"
    eval "${label%% *}_s=$seconds; ${label%% *}_kb=$kb"
}
printf '%-34s %10s %12s\n' "reader" "time" "peak RSS"
measure "ours (RapidJSON SAX, streamed)" "$bench" "$file"
measure "python (json.load)" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$file"
echo
python3 - "$ours_s" "$ours_kb" "$python_s" "$python_kb" <<'PY'
import sys
os_, ok, ps, pk = map(float, sys.argv[1:])
print("ours is %.1fx faster and uses 1/%.0f of Python's peak memory (goal: at least 10x and at most 1/20)"
      % (ps / os_, pk / ok))
PY
