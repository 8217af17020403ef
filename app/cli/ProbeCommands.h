#pragma once

#include "CatalogCommands.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace gpuplan::cli {

struct ProbeOptions
{
    std::string host;     // USER@HOST[:PORT]
    std::string identity; // a private key file; empty: ssh-agent, then ~/.ssh keys
    std::string jump;     // USER@HOST[:PORT][,USER@HOST...] (OpenSSH ProxyJump)
    std::string knownHosts;
    bool acceptNewHostKey = false; // like OpenSSH's StrictHostKeyChecking=accept-new; a changed key is still refused
    bool quick = false;
    int burnSeconds = 0; // --burn SECONDS: sustained GEMM load on every GPU after the tests
    bool json = false;
    std::string expectGpu; // what the offer promised: a catalog GPU id or name
    int expectCount = 1;
    std::string plan;          // --plan PLAN.gpuplan: the verdict is added to the plan's verifications (for the report)
    std::int64_t instance = 0; // --instance ID: the ledger's launch this machine is; the verdict is kept with it
    std::filesystem::path probeDir; // where the bundled probes are (gpuplan-probe, gpuplan-probe-cuda11.8)
};

/// `gpuplan probe --host USER@HOST[:PORT] [--identity KEY] [--jump HOST] [--quick] [--burn SECONDS] [--json]
/// [--instance ID]`:
/// connect, detect, upload the probe that runs there (or build it there), run it, and print the verdict; with
/// --instance the verdict is kept with that launch in the ledger and judged against the offer it launched. Exit 0 when
/// the verdict is pass or warn, 1 when it fails or the probe could not run, 2 on bad input (a --plan that does not read
/// is refused before connecting).
int runProbe(const CatalogOptions& catalog, const ProbeOptions& options);

} // namespace gpuplan::cli
