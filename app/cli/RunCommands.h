#pragma once

#include "CatalogCommands.h"
#include "LaunchCommands.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpuplan::cli {

struct RunOptions
{
    // Starting a run: the plan, the machine, the spec (flags override the plan's "run").
    std::string plan;          // PLAN.gpuplan; its run spec is used and the flags' spec is saved into it
    std::int64_t instance = 0; // the ledger's launch of the machine
    std::string host;          // USER@HOST[:PORT], or a Host of ~/.ssh/config
    std::string identity;
    std::string jump;
    std::string knownHosts;
    bool acceptNewHostKey = false;
    std::string workdir;
    std::string command;
    std::vector<std::string> setup;
    std::vector<std::string> excludes;
    std::string dataset;
    std::string datasetRegion;
    std::string image;
    std::vector<std::string> results;
    std::string throughput; // a preset
    std::string throughputRegex;
    std::string throughputUnit;
    double perStep = 0;
    std::string tensorboardLogdir;
    std::string sync = "auto";
    std::string detachWith = "auto";
    int interval = 2;

    // Spot: the interruption watcher, checkpoints to a bucket, relaunch and resume.
    bool spot = false;    // --spot: the watcher and the checkpoint sync run with the job
    bool recover = false; // --recover: relaunch and resume after an interruption (implies --spot)
    std::string checkpointBucket;
    std::string checkpointBucketRegion;
    std::string checkpointDir;
    std::string signal;
    int syncEvery = -1;     // seconds; -1: the plan's checkpoint interval
    int onDemandAfter = -1; // -1: the spec's (0: never)
    int maxAttempts = -1;
    std::string publicKey; // the relaunches' SSH key
    std::string sshFrom;   // where relaunches open SSH to
    std::string metadataUrl;
    NetworkOptions network;
    std::string init; // --init DIR: write the starter training script there and stop

    // Following and acting on a run.
    std::int64_t attach = 0;   // --attach RUN
    std::int64_t stop = 0;     // --stop RUN
    std::int64_t download = 0; // --download RUN
    std::int64_t openTensorboard = 0;
    int grace = 30;
    bool noFollow = false;
    std::string resultsDir = "gpuplan-results";
    int adviceAfter = 180; // seconds under 70 % before advice
    int pollSeconds = 2;
};

/// `gpuplan run PLAN --instance ID --host USER@HOST --workdir DIR --command CMD ...`: sync, start detached, follow
/// (log, a monitor line, advice, the speed against the plan's) until it ends, then bring the results home.
/// `--attach RUN` follows a run started before; `--stop RUN`, `--download RUN`, `--open-tensorboard RUN`.
/// Ctrl-C while following leaves the run going on the instance. Exit 0 when the run finished (exit 0), 1 when it
/// failed or could not start, 2 on bad input.
/// With --spot the job runs beside an interruption watcher that syncs its checkpoints to a bucket; with --recover a
/// reclaimed instance is relaunched in the plan's fallback order and the run resumes from the bucket (attempts in
/// the ledger). `--init DIR` writes the starter training script from the plan and stops.
int runRun(int& argc,
           char** argv,
           const CatalogOptions& catalog,
           const RunOptions& options,
           const std::filesystem::path& scriptsDir);

/// `gpuplan runs [--json] [--csv FILE [--currency CNY|USD]]`: every run in the ledger with its state and plan against
/// actual; --csv writes every run and launch as CSV (core::runsReportCsv), money converted at the catalog's rate.
int runRuns(bool json,
            const std::string& csvFile = {},
            const std::string& currency = "CNY",
            const CatalogOptions& catalog = {});

} // namespace gpuplan::cli
