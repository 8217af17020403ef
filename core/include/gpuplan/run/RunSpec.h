#pragma once

#include "gpuplan/core/Result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

// What a training run is: where its code is, what it runs, what comes back. Part of the plan (the plan file's
// "run" object), edited on the Run page and given as `gpuplan run` flags.
namespace gpuplan::core {

/// How a training log says its speed: a preset of a common trainer's progress line, or the user's own pattern.
struct ThroughputPattern
{
    /// "lightning", "hf_trainer", "timm", "ultralytics", "custom"; empty: the log is not read for speed.
    std::string preset;
    /// For "custom": an ECMAScript regular expression whose first group is the number.
    std::string regex;
    /// For "custom": what the number counts per second: "samples", "tokens" or "steps".
    std::string unit = "samples";
    /// Samples (or tokens) per step, to turn steps/s (a progress bar's it/s) into samples/s; 0: unknown.
    double perStep = 0;
};

/// What a spot run does about interruptions: a watcher beside the job that signals it on the provider's notice and
/// syncs its checkpoints to a bucket (also every so often), and, with `recover`, a relaunch that resumes from them.
struct SpotHandling
{
    bool watch = false;       // the interruption watcher and the checkpoint sync run with the job
    bool recover = false;     // relaunch and resume after an interruption (implies watch)
    std::string bucket;       // s3:// gs:// oss:// cos:// obs:// az:// URL under which the run's checkpoints are kept
    std::string bucketRegion; // the bucket's region as the user says it; empty: unknown
    std::string checkpointDir = "checkpoints"; // where the job writes them: relative to the working directory
    std::string signal = "USR1";               // what the training program is sent on a notice
    int syncEverySeconds = 0;  // periodic sync; 0: the plan's checkpoint interval (Daly's optimum), else none
    int onDemandAfter = 0;     // from this many interruptions on, relaunch on demand; 0: always spot
    int maxAttempts = 5;       // instances in all, the first included, before the run is given up
    std::string checkpointUrl; // bucket + "/gpuplan-run-<token>/", fixed when the run starts: every attempt's
    std::string publicKeyFile; // the relaunches' SSH public key; empty: ~/.ssh/id_ed25519.pub, then id_rsa.pub
    std::string sshFrom;       // where relaunches open SSH to; empty: this computer's public address
    std::string metadataUrl;   // the instance metadata service's base URL; empty: the provider's own
};

struct RunSpec
{
    std::string workdir;               // the local folder that goes to the instance; empty: none
    std::vector<std::string> excludes; // beyond each folder's .gitignore and .git/: gitignore patterns
    std::string dataset;               // a local folder, or s3:// cos:// oss:// obs:// gs:// az:// URL; empty: none
    std::string datasetRegion;         // the bucket's region as the user says it; empty: unknown
    std::string image;                 // a container image to run in; empty: the machine's own environment
    std::vector<std::string> setup;    // shell commands run first, in the working directory
    std::string command;               // the training command, run in the working directory
    std::vector<std::string> results;  // paths (relative to the working directory, or absolute) brought back
    ThroughputPattern throughput;
    std::string tensorboardLogdir; // relative to the working directory; empty: no TensorBoard
    SpotHandling spot;
};

/// The signals a spot notice may send the training program.
const std::vector<std::string>& interruptSignals();

/// Checks a spec before anything connects: a command, a working directory that exists when given, result paths
/// that stay inside the working directory when relative ("..", empty), a known throughput preset and a custom regex
/// that compiles, a dataset URL of a known scheme; with spot handling a bucket URL of a known scheme, a checkpoint
/// folder inside the working directory, a known signal, sensible counts. InvalidArgument naming the field ("--command",
/// "results[1]").
Status checkRunSpec(const RunSpec& spec);

/// The spec as the plan file and the ledger keep it ({"workdir", "excludes", "dataset", ..., "throughput": {...}}).
nlohmann::json runSpecJson(const RunSpec& spec);
/// And back: SchemaViolation naming the member (`where` + ".command") that is not of its kind; members left out
/// keep their defaults.
Result<RunSpec> readRunSpec(const nlohmann::json& json, const std::string& where);

/// The object storage a dataset URL names: "s3", "cos", "oss", "obs", "gs", "az"; empty for a local path.
std::string datasetScheme(const std::string& dataset);

} // namespace gpuplan::core
