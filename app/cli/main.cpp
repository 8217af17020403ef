// gpuplan: the command-line face of GPU Planner. Every GUI capability has a CLI form (DESIGN.md).
#include "CatalogCommands.h"
#include "CredsCommands.h"
#include "LaunchCommands.h"
#include "PlanCommands.h"
#include "ProbeCommands.h"
#include "ReportCommands.h"
#include "RunCommands.h"
#include "TerminalOutput.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/cloud/WatchdogScript.h"
#include "gpuplan/core/Log.h"
#include "gpuplan/deploy/ProbeDeployment.h"
#include "gpuplan/prices/PriceRefresh.h"
#include "gpuplan/secrets/Credential.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <system_error>

namespace {

std::filesystem::path executableDir(const char* argv0)
{
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) {
        self = std::filesystem::absolute(argv0, ec);
    }
    return self.parent_path();
}

/// "aws, tencent or alibaba".
std::string listed(const std::vector<std::string>& ids)
{
    std::string out;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        out += (i == 0 ? "" : i + 1 == ids.size() ? " or " : ", ") + ids[i];
    }
    return out;
}

/// 600, 0.5, 1e+15: a bound as a person writes it.
std::string boundText(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.15g", value);
    return buffer;
}

/// A finite number from `min` to `max` (above `min` when `aboveMin`; no upper bound when `max` is infinite).
/// CLI::Range, PositiveNumber and NonNegativeNumber let NaN through (every comparison with it is false) and
/// word their bounds with std::to_string, which writes the largest double as 309 digits.
CLI::Validator numberIn(double min, double max, bool aboveMin = false)
{
    const bool bounded = std::isfinite(max);
    const std::string range = bounded    ? (aboveMin ? "more than " + boundText(min) + " and at most " + boundText(max)
                                                     : "from " + boundText(min) + " to " + boundText(max))
                              : aboveMin ? "more than " + boundText(min)
                                         : boundText(min) + " or more";
    return CLI::Validator(
        [=](std::string& input) -> std::string {
            char* end = nullptr;
            errno = 0;
            const double value = std::strtod(input.c_str(), &end);
            const bool number = !input.empty() && end && *end == '\0' && errno != ERANGE && std::isfinite(value);
            if (number && (aboveMin ? value > min : value >= min) && value <= max) {
                return {};
            }
            return "must be a number " + range + ", not '" + input + "'";
        },
        "NUMBER: " + range,
        "NUMBER");
}

} // namespace

/// The commands; main() is only the boundary that no exception crosses.
static int runCommand(int argc, char** argv)
{
    using namespace gpuplan::cli;
    namespace core = gpuplan::core;

    CLI::App app{"GPU Planner: compare cloud GPU offers for a training run, launch and verify them."};
    app.name("gpuplan");
    app.require_subcommand(1);
    app.fallthrough(); // global options may also follow the subcommand

    CatalogOptions options;
    std::string catalogDir;
    std::string userCatalogDir;
    app.add_option("--catalog", catalogDir, "Catalog folder to use instead of the bundled one")
        ->check(CLI::ExistingDirectory);
    app.add_option("--user-catalog",
                   userCatalogDir,
                   "Folder of your own offers files (default: ~/.local/share/gpuplanner/offers)");
    int verbosity = 0;
    app.add_flag("-v,--verbose",
                 verbosity,
                 "Log what is done to stderr: -v the main steps, -vv also each request, -vvv everything (secrets "
                 "are always redacted; GPUPLAN_LOG=net=trace,cloud=debug chooses per category)");

    CLI::App* gpus = app.add_subcommand("gpus", "List the GPU models with their datasheet figures");
    gpus->add_flag("--json", options.json, "Print JSON instead of a table");

    CLI::App* catalog = app.add_subcommand("catalog", "List the cloud offers: instance, GPUs, region, price");
    core::OfferFilter& filter = options.filter;
    catalog->add_option("--provider", filter.provider, "Only this provider (aws, alibaba, tencent, ...)");
    catalog->add_option("--gpu", filter.gpu, "Only GPUs whose id or name contains this (e.g. A100)");
    catalog->add_option("--region", filter.region, "Only regions whose name contains this (e.g. us-east)");
    catalog->add_option("--min-gpus", filter.minGpus, "Only offers with at least this many GPUs")
        ->check(CLI::Range(0, 100000));
    catalog->add_option("--min-gpu-memory", filter.minGpuMemoryGb, "Only GPUs with at least this much memory (GB)")
        ->check(numberIn(0, 100000));
    catalog->add_flag("--isolated", filter.physicallyIsolated, "Only offers with a bare-metal or dedicated option");
    catalog->add_flag("--rdma", filter.rdma, "Only offers with RDMA / InfiniBand / EFA networking");
    std::string service;
    catalog->add_option("--service", service, "Only this kind: vm, bare_metal, managed, tpu")
        ->check(CLI::IsMember({"vm", "bare_metal", "managed", "tpu"}));
    std::string currency;
    catalog->add_option("--currency", currency, "Also show hourly prices converted to CNY or USD")
        ->check(CLI::IsMember({"CNY", "USD"}));
    catalog->add_option("--max-age", options.maxPriceAgeDays, "Flag prices older than this many days (365)")
        ->check(CLI::Range(1, 100000));
    catalog->add_flag("--json", options.json, "Print JSON instead of a table");
    catalog->require_subcommand(0, 1);
    catalog->fallthrough();

    std::string fileToValidate;
    CLI::App* validate = catalog->add_subcommand(
        "validate", "Check the catalog in use, or one file: name every problem and every price to check");
    validate->add_option("FILE", fileToValidate, "gpus.json or a provider's offers file (default: the whole catalog)");

    CLI::App* prices = app.add_subcommand("prices", "The catalog's prices, refreshed from the providers");
    prices->require_subcommand(1);
    std::string refreshProvider;
    std::string refreshRegion;
    CLI::App* refresh = prices->add_subcommand(
        "refresh", "Read a provider's current price list, lay it over the bundled prices and show what changed");
    refresh
        ->add_option("--provider",
                     refreshProvider,
                     "The provider whose prices to read: aws, azure, gcp, lambda, alibaba, tencent, huawei")
        ->required();
    refresh->add_option("--region", refreshRegion, "Only this region (default: every region the catalog prices)");

    WorkloadOptions work;
    std::optional<double> epochs, samples, tokens;
    std::string stack;
    auto addWorkload = [&](CLI::App* command) {
        command->add_option("--preset", work.preset, "A bundled workload (resnet50-imagenet, llama2-7b-lora, ...)");
        command->add_option("--workload", work.workloadFile, "Your own workload file (docs/workloads.md)")
            ->check(CLI::ExistingFile);
        // Bounded so that their product stays a number: 1e308 epochs made every offer take "inf h".
        command->add_option("--epochs", epochs, "Override the number of epochs")->check(numberIn(0, 1e6, true));
        command->add_option("--samples", samples, "Override the samples per epoch")->check(numberIn(0, 1e13, true));
        command->add_option("--tokens", tokens, "Override the tokens per epoch")->check(numberIn(0, 1e15, true));
        command
            ->add_option("--stack",
                         stack,
                         "How tuned the training code is: tuned (MLPerf/NGC-grade: DALI, fused kernels, CUDA graphs), "
                         "typical (framework defaults with mixed precision and a good data loader; the default), "
                         "plain (eager code, default data loading)")
            ->check(CLI::IsMember({"tuned", "typical", "plain"}));
        command->add_flag("--json", options.json, "Print JSON instead of text");
        command->add_option("--hold-out",
                            work.holdOut,
                            "Leave a calibration source out (e.g. lambda-dl-benchmark): the estimate as if it had "
                            "never been published (gpuplan calibrate lists the sources)");
    };

    EstimateOptions estimateOptions;
    CLI::App* estimate = app.add_subcommand("estimate", "How fast one workload trains on N GPUs of one model");
    addWorkload(estimate);
    estimate->add_option("--gpu", estimateOptions.gpu, "GPU id, name or alias (gpuplan gpus), e.g. A100-SXM4-80GB")
        ->required();
    estimate->add_option("--count", estimateOptions.count, "Number of GPUs (1)")->check(CLI::Range(1, 100000));
    estimate->add_option("--gpus-per-node", estimateOptions.gpusPerNode, "GPUs in one server (8)")
        ->check(CLI::Range(1, 64));
    estimate->add_option("--precision", estimateOptions.precision, "fp32, tf32, amp, bf16 or fp8 (default: best)");

    CLI::App* calibrate = app.add_subcommand(
        "calibrate", "How well the estimator predicts published results it did not see (leave-one-source-out)");
    bool calibrateReport = false;
    calibrate->add_flag("--report", calibrateReport, "Print the cross-validation report (the default)");
    calibrate->add_flag("--json", options.json, "Print JSON instead of text");

    PlanOptions planOptions;
    core::Constraints& constraints = planOptions.constraints;
    CLI::App* plan = app.add_subcommand("plan", "Rank every cloud offer for a workload, with reasons");
    addWorkload(plan);
    std::optional<double> budget;
    plan->add_option("--budget", budget, "Most you will spend, in --currency")
        ->check(numberIn(0, std::numeric_limits<double>::infinity(), true));
    std::string planCurrency = "CNY";
    plan->add_option("--currency", planCurrency, "CNY or USD (CNY)")->check(CLI::IsMember({"CNY", "USD"}));
    plan->add_option("--deadline", planOptions.deadline, "Must finish within, e.g. 14d, 36h");
    plan->add_flag("--sensitive", constraints.sensitive, "Only physically isolated or compliant offers");
    plan->add_option("--framework", constraints.framework, "pytorch, tensorflow, jax, paddle, mindspore (pytorch)")
        ->check(CLI::IsMember({"pytorch", "tensorflow", "jax", "paddle", "mindspore"}));
    plan->add_option(
        "--countries", planOptions.countries, "Only regions in these countries, e.g. CN or CN,HK (default: anywhere)");
    plan->add_option("--min-gpus", constraints.minGpus, "At least this many GPUs (1)")->check(CLI::Range(1, 4096));
    plan->add_option("--max-gpus", constraints.maxGpus, "At most this many GPUs (64)")->check(CLI::Range(1, 4096));
    plan->add_option("--top", constraints.top, "Show this many options (5)")->check(CLI::Range(1, 1000));
    std::string objective;
    plan->add_option("--objective",
                     objective,
                     "cheapest, fastest or value (default: cheapest with a --deadline, else fastest with a --budget, "
                     "else value)")
        ->check(CLI::IsMember({"cheapest", "fastest", "value"}));
    plan->add_option("--project-months",
                     constraints.projectMonths,
                     "Length of the whole project (0: this run only; the deadline does not set it): "
                     "reservations count from 12 months")
        ->check(numberIn(0, 600));
    std::string planPrecision;
    plan->add_option("--precision", planPrecision, "fp32, tf32, amp, bf16 or fp8 (default: best per card)")
        ->check(CLI::IsMember({"fp32", "tf32", "amp", "bf16", "fp8"}));
    plan->add_option("-o,--output", planOptions.output, "Save the plan (.gpuplan)");
    plan->add_flag("--all-excluded",
                   planOptions.allExcluded,
                   "List every excluded offer with its reason (default: how many each rule excluded, with an example)");

    CredsOptions credsOptions;
    CLI::App* creds = app.add_subcommand("creds", "Cloud credentials: kept in the system keychain, never printed");
    creds->require_subcommand(1);
    CLI::App* credsSet = creds->add_subcommand(
        "set", "Store a provider's credential (asked on the terminal without echo, or JSON fields with --stdin)");
    credsSet->add_option("PROVIDER", credsOptions.provider, listed(core::credentialProviderIds()))->required();
    credsSet->add_flag("--stdin",
                       credsOptions.fromStdin,
                       "Read the fields as one JSON object from stdin, e.g. {\"access_key_id\": ..., "
                       "\"secret_access_key\": ...}; for gcp, the key file's JSON");
    credsSet->add_option("--key-file", credsOptions.keyFile, "gcp: the service account's JSON key file")
        ->check(CLI::ExistingFile);
    CLI::App* credsList =
        creds->add_subcommand("list", "The stored credentials: provider, masked key ID, where each is kept");
    credsList->add_flag("--json", credsOptions.json, "Print JSON instead of a table");
    CLI::App* credsRemove = creds->add_subcommand("remove", "Remove a provider's credential");
    credsRemove->add_option("PROVIDER", credsOptions.provider, "The provider whose credential goes")->required();

    ProbeOptions probeOptions;
    CLI::App* probe = app.add_subcommand(
        "probe", "Verify a GPU machine over SSH: upload the bundled probe, run it, judge the GPUs it finds");
    probe
        ->add_option("--host",
                     probeOptions.host,
                     "[USER@]HOST[:PORT], or a Host of ~/.ssh/config (its HostName, User, Port, IdentityFile and "
                     "ProxyJump apply)")
        ->required();
    probe->add_option("--identity", probeOptions.identity, "Private key file (default: ssh-agent, then ~/.ssh keys)");
    probe->add_option("--jump", probeOptions.jump, "Jump host(s) USER@HOST[:PORT][,...], as OpenSSH's ProxyJump");
    probe->add_option("--known-hosts", probeOptions.knownHosts, "known_hosts file (default ~/.ssh/known_hosts)");
    probe->add_flag("--accept-new-host-key",
                    probeOptions.acceptNewHostKey,
                    "Trust a host seen for the first time without asking (a changed key is always refused)");
    probe->add_flag("--quick", probeOptions.quick, "The quick probe (under 10 s)");
    probe
        ->add_option("--burn",
                     probeOptions.burnSeconds,
                     "Then a burn-in of SECONDS of sustained GEMM load on every GPU, checking every result (like "
                     "gpu-burn)")
        ->check(CLI::Range(1, gpuplan::core::kMaxBurnSeconds));
    probe->add_flag("--json", probeOptions.json, "Print JSON: deployment, verdict and the probe's document");
    probe->add_option("--expect-gpu", probeOptions.expectGpu, "The GPU the offer promised (catalog id or name)");
    probe->add_option("--plan", probeOptions.plan, "Add the verdict to this plan file, for its PDF report");
    probe
        ->add_option("--instance",
                     probeOptions.instance,
                     "The launch this machine is (its id in `gpuplan instances`): the verdict is kept with it in the "
                     "ledger and judged against the offer it launched")
        ->check(numberIn(0, std::numeric_limits<double>::infinity(), true));
    probe->add_option("--expect-count", probeOptions.expectCount, "How many GPUs the offer promised")
        ->check(CLI::Range(1, 64));

    // How the cloud APIs are reached, for every command that talks to them.
    const auto addNetworkOptions = [](CLI::App* command, NetworkOptions& network) {
        command->add_option("--proxy",
                            network.proxy,
                            "HTTP(S) proxy for the cloud APIs, e.g. http://proxy.example.edu.cn:3128 (default: "
                            "Settings -> Network of the GUI, else https_proxy)");
        command->add_option("--ca-file",
                            network.caFile,
                            "A CA certificate (PEM) trusted beside the system's, for networks that inspect TLS "
                            "(default: Settings -> Network of the GUI)");
    };

    LaunchOptions launchOptions;
    CLI::App* launch = app.add_subcommand(
        "launch", "Launch a GPU instance: recorded in the ledger first, with a dead-man timer and an idle watchdog");
    const std::vector<std::string> launchable = core::ProviderRegistry::builtIn().ids();
    launch->add_option("--provider", launchOptions.provider, listed(launchable) + " (default: the plan's option)")
        ->check(CLI::IsMember(launchable));
    launch->add_option("--instance",
                       launchOptions.instanceType,
                       "Instance type, e.g. p3.2xlarge, GN7.2XLARGE32, ecs.gn7i-c8g1.2xlarge, pi2.2xlarge.4");
    launch->add_option(
        "--region", launchOptions.region, "Region, e.g. us-east-1, ap-guangzhou, cn-beijing, cn-north-4");
    launch->add_option("--zone", launchOptions.zone, "Zone (default: every zone that offers it, until one has room)");
    launch->add_option("--plan", launchOptions.plan, "Launch an option of this plan, under its budget guard");
    launch
        ->add_option("--option",
                     launchOptions.option,
                     "The plan's option by rank (default: its recommendation, else the best-ranked option GPU "
                     "Planner can launch)")
        ->check(CLI::Range(1, 100000));
    launch->add_flag("--spot", launchOptions.spot, "A spot instance (cheaper, may be interrupted)");
    launch
        ->add_option("--spot-max-price",
                     launchOptions.spotMaxPrice,
                     "With --spot: the most to pay per hour, in the provider's currency (default: the provider's "
                     "market price, at most the on-demand price)")
        ->check(numberIn(0, std::numeric_limits<double>::infinity()));
    launch
        ->add_option(
            "--monthly", launchOptions.monthly, "A prepaid subscription of this many months (Tencent, Alibaba, Huawei)")
        ->check(CLI::Range(1, 60));
    launch->add_flag("--auto-renew", launchOptions.autoRenew, "Renew the subscription when it ends (off by default)");
    launch->add_option("--hours",
                       launchOptions.hours,
                       "Dead-man: terminate after this many hours, at most " + std::to_string(core::kMaxDeadmanHours)
                           + " (default: the plan's estimate with a margin, else 12; 0 turns it off)");
    // The watchdog's bounds are checked by runLaunch (core::checkWatchdogRules), the same as the GUI's and the
    // script's, with a message that names the flag.
    launch->add_option("--idle-minutes",
                       launchOptions.idleMinutes,
                       "Shut down after this long with idle GPUs, at most " + std::to_string(core::kMaxIdleMinutes)
                           + " (60; 0: off)");
    launch->add_option("--idle-percent", launchOptions.idlePercent, "GPU use below this is idle (5; 1-100)");
    launch->add_option(
        "--image",
        launchOptions.image,
        "Image id (default: the provider's GPU deep-learning image); a managed job: its container image");
    launch->add_option("--command",
                       launchOptions.command,
                       "A managed job (gpuplan catalog --service managed): the command its container runs, e.g. "
                       "'python train.py --epochs 3'");
    launch->add_option("--env", launchOptions.env, "A managed job: an environment variable NAME=VALUE (repeatable)");
    launch->add_option("--key", launchOptions.key, "Your SSH public key file (default ~/.ssh/id_ed25519.pub)");
    launch->add_option(
        "--ssh-from",
        launchOptions.sshFrom,
        "Open SSH to this address or CIDR only, e.g. 198.51.100.1 or 198.51.100.0/24 (default: your public address)");
    launch
        ->add_option("--price",
                     launchOptions.price,
                     "Price to record when the catalog has none (per hour, or per month with --monthly)")
        ->check(numberIn(0, std::numeric_limits<double>::infinity(), true));
    launch->add_option("--budget", launchOptions.budget, "Budget guard in the plan's currency (default: the plan's)")
        ->check(numberIn(0, std::numeric_limits<double>::infinity()));
    launch->add_flag("--terminate-at-budget",
                     launchOptions.terminateAtBudget,
                     "Terminate the plan's instances once they have spent its budget (checked by `gpuplan instances`)");
    launch->add_flag("--dry-run", launchOptions.dryRun, "Only ask the provider whether the launch would succeed");
    launch->add_flag("-y,--yes", launchOptions.yes, "Do not ask for confirmation");
    launch->add_option("--wait", launchOptions.wait, "Wait until: request, running or ssh (default ssh)")
        ->check(CLI::IsMember({"request", "running", "ssh"}));
    launch->add_option("--ssh-port", launchOptions.sshPort, "The port the image's sshd listens on (22)")
        ->check(CLI::Range(1, 65535));
    launch->add_flag("--json", launchOptions.json, "Print JSON (progress goes to stderr)");
    addNetworkOptions(launch, launchOptions.network);

    InstancesOptions instancesOptions;
    CLI::App* instances =
        app.add_subcommand("instances", "What runs and what it costs, from the ledger, reconciled with each provider");
    instances->add_flag("--json", instancesOptions.json, "Print JSON instead of a table");
    instances->add_flag("--all", instancesOptions.all, "Also the instances that ended");
    bool noReconcile = false;
    instances->add_flag("--no-reconcile", noReconcile, "Only read the ledger; do not ask the providers");
    addNetworkOptions(instances, instancesOptions.network);

    LogsOptions logsOptions;
    CLI::App* logs = app.add_subcommand("logs", "A managed job's log, from its service (Vertex AI, Azure ML)");
    logs->add_option("ID", logsOptions.target, "Ledger entry (see `gpuplan instances`) or job id")->required();
    logs->add_flag("-f,--follow", logsOptions.follow, "Keep printing new lines until the job ends");
    logs->add_option("--poll", logsOptions.pollSeconds, "Seconds between reads while following (10)")
        ->check(CLI::Range(1, 3600));
    addNetworkOptions(logs, logsOptions.network);

    TerminateOptions terminateOptions;
    CLI::App* terminate = app.add_subcommand("terminate", "Terminate an instance, or all of them");
    terminate->add_option("ID", terminateOptions.target, "Ledger entry (see `gpuplan instances`) or instance id");
    terminate->add_flag("--all", terminateOptions.all, "Every live instance in the ledger");
    terminate->add_flag("-y,--yes", terminateOptions.yes, "Do not ask for confirmation");
    addNetworkOptions(terminate, terminateOptions.network);

    RunOptions runOptions;
    CLI::App* run = app.add_subcommand(
        "run",
        "Run the training on an instance: sync the working directory, start the command detached, follow its log, "
        "the GPUs and its speed against the plan, then bring the results home");
    run->add_option("PLAN", runOptions.plan, "The plan (.gpuplan): its run settings, saved back with these flags");
    run->add_option("--instance", runOptions.instance, "The launch this machine is (its id in `gpuplan instances`)")
        ->check(numberIn(0, std::numeric_limits<double>::infinity(), true));
    run->add_option("--host", runOptions.host, "[USER@]HOST[:PORT] of the instance, or a Host of ~/.ssh/config");
    run->add_option("--identity", runOptions.identity, "Private key file (default: ssh-agent, then ~/.ssh keys)");
    run->add_option("--jump", runOptions.jump, "Jump host(s) USER@HOST[:PORT][,...], as OpenSSH's ProxyJump");
    run->add_option("--known-hosts", runOptions.knownHosts, "known_hosts file (default ~/.ssh/known_hosts)");
    run->add_flag("--accept-new-host-key",
                  runOptions.acceptNewHostKey,
                  "Trust a host seen for the first time without asking (a changed key is always refused)");
    run->add_option(
        "--workdir", runOptions.workdir, "The local folder that goes to the instance (.gitignore honoured)");
    run->add_option("--command", runOptions.command, "The training command, run in that folder on the instance");
    run->add_option("--setup", runOptions.setup, "A command run before the training command (repeatable)");
    run->add_option("--exclude", runOptions.excludes, "A pattern not sent, as in .gitignore (repeatable)");
    run->add_option("--dataset",
                    runOptions.dataset,
                    "A local folder sent beside the code, or s3:// cos:// oss:// obs:// gs:// az:// pulled on the "
                    "instance; the job finds it in $GPUPLAN_DATA");
    run->add_option("--dataset-region",
                    runOptions.datasetRegion,
                    "The bucket's region: a bucket elsewhere than the instance is said before the run starts");
    run->add_option("--image", runOptions.image, "Run in this container image (Docker with the NVIDIA toolkit)");
    run->add_option("--results", runOptions.results, "A path (in the working directory) brought home (repeatable)");
    run->add_option("--throughput",
                    runOptions.throughput,
                    "Read the speed from the log: lightning, hf_trainer, timm or ultralytics");
    run->add_option(
        "--throughput-regex", runOptions.throughputRegex, "Or your own pattern; its first group is the number");
    run->add_option(
        "--throughput-unit", runOptions.throughputUnit, "What that number counts: samples, tokens or steps");
    run->add_option("--per-step", runOptions.perStep, "Samples per step, to turn it/s into samples/s");
    run->add_option(
        "--tensorboard", runOptions.tensorboardLogdir, "TensorBoard's log folder, in the working directory");
    run->add_option("--sync", runOptions.sync, "How the folder goes over: auto (rsync, else SFTP), rsync or sftp");
    run->add_option("--detach-with", runOptions.detachWith, "What keeps the job running: auto, systemd, tmux or nohup");
    run->add_option("--interval", runOptions.interval, "Seconds between GPU samples on the instance (2)")
        ->check(CLI::Range(1, 60));
    run->add_option("--poll", runOptions.pollSeconds, "Seconds between reads while following (2)")
        ->check(CLI::Range(1, 600));
    run->add_option("--advice-after",
                    runOptions.adviceAfter,
                    "Seconds the GPUs must stay under 70 % busy before advice is given (180)")
        ->check(CLI::Range(5, 86400));
    run->add_flag("--no-follow", runOptions.noFollow, "Start it and return (it keeps running)");
    run->add_option("--results-dir", runOptions.resultsDir, "Where results are brought home (./gpuplan-results)");
    run->add_option("--attach", runOptions.attach, "Follow run RUN (its id in `gpuplan runs`) again");
    run->add_option("--stop", runOptions.stop, "Stop run RUN: SIGINT, then SIGTERM, then SIGKILL");
    run->add_option("--grace", runOptions.grace, "Seconds between those signals (30)")->check(CLI::Range(1, 3600));
    run->add_option("--download", runOptions.download, "Bring run RUN's results home (resumable, checksummed)");
    run->add_option("--open-tensorboard",
                    runOptions.openTensorboard,
                    "Start run RUN's TensorBoard there and forward it to a local port until Ctrl-C");
    run->add_flag("--spot",
                  runOptions.spot,
                  "Watch for the provider's spot interruption notice beside the job: signal it, and sync its "
                  "checkpoints to --checkpoint-bucket (also every checkpoint interval of the plan)");
    run->add_flag("--recover",
                  runOptions.recover,
                  "When the spot instance is reclaimed, relaunch (same zone, other zones, the plan's other regions "
                  "and providers) and resume from the bucket's newest checkpoint (implies --spot)");
    run->add_option("--checkpoint-bucket",
                    runOptions.checkpointBucket,
                    "s3:// gs:// oss:// cos:// obs:// az:// URL the run's checkpoints are kept under");
    run->add_option("--checkpoint-bucket-region",
                    runOptions.checkpointBucketRegion,
                    "The bucket's region: one elsewhere than the instance is said (traffic between regions is billed)");
    run->add_option("--checkpoint-dir",
                    runOptions.checkpointDir,
                    "Where the job writes its checkpoints, in the working directory (checkpoints)");
    run->add_option("--signal",
                    runOptions.signal,
                    "What the training program is sent on a notice: USR1 (default), USR2, INT, TERM or HUP");
    run->add_option("--sync-every",
                    runOptions.syncEvery,
                    "Seconds between checkpoint syncs (default: the plan's checkpoint interval, Daly's optimum)")
        ->check(CLI::Range(0, 30 * 86400));
    run->add_option("--on-demand-after",
                    runOptions.onDemandAfter,
                    "Relaunch on demand from this many interruptions on (0: always spot)")
        ->check(CLI::Range(0, 100));
    run->add_option("--max-attempts", runOptions.maxAttempts, "Instances in all before the run is given up (5)")
        ->check(CLI::Range(1, 50));
    run->add_option("--public-key", runOptions.publicKey, "The relaunches' SSH public key (~/.ssh/id_ed25519.pub)");
    run->add_option("--ssh-from",
                    runOptions.sshFrom,
                    "Where relaunches open SSH to, an address or CIDR (default: this computer's public address)");
    run->add_option("--metadata-url",
                    runOptions.metadataUrl,
                    "The instance metadata service's base URL, when it is not the provider's own");
    run->add_option("--init",
                    runOptions.init,
                    "Write a starter training script (PyTorch, mixed precision, checkpoints on the signal, resume) "
                    "for PLAN into this folder, and stop");
    addNetworkOptions(run, runOptions.network);
    bool runsJson = false;
    CLI::App* runs = app.add_subcommand("runs", "Every training run with its state, speed and cost against the plan");
    runs->add_flag("--json", runsJson, "Print JSON instead of a table");
    std::string runsCsv;
    std::string runsCurrency = "CNY";
    runs->add_option("--csv", runsCsv, "Write every run and launch, plan against actual, to this CSV file");
    runs->add_option("--currency", runsCurrency, "Currency of the CSV's money: CNY (default) or USD")
        ->check(CLI::IsMember({"CNY", "USD"}, CLI::ignore_case));

    ReportOptions reportOptions;
    CLI::App* report = app.add_subcommand("report", "Write the PI's PDF report of a plan file");
    report->add_option("PLAN", reportOptions.plan, "The plan (.gpuplan) to report on")->required();
    report->add_option("-o,--output", reportOptions.output, "The PDF to write")->required();
    report->add_option("--lang", reportOptions.language, "Language of the report: en or zh_CN (default: the system's)")
        ->check(CLI::IsMember({"en", "zh_CN"}));
    report->add_option("--paper", reportOptions.paper, "Paper size: a4 (default) or letter")
        ->check(CLI::IsMember({"a4", "letter"}, CLI::ignore_case));
    report->add_option("--lab", reportOptions.lab, "Lab or project named on the cover");
    report->add_option("--author", reportOptions.author, "Author named on the cover");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kExitOk : kExitBadInput;
    }
    for (const std::string& problem : core::configureLogging(verbosity, std::getenv("GPUPLAN_LOG"))) {
        std::cerr << "gpuplan: warning: " << problem << '\n';
    }
    core::logDebug(core::LogCategory::App, [&] {
        std::string command = "gpuplan";
        for (const CLI::App* sub = &app; sub;) {
            const std::vector<CLI::App*> chosen = sub->get_subcommands();
            sub = chosen.empty() ? nullptr : chosen.front();
            command += sub ? " " + sub->get_name() : "";
        }
        return command;
    });

    const char* envCatalog = std::getenv("GPUPLAN_CATALOG_DIR");
    options.catalogDirGiven = !catalogDir.empty() || (envCatalog && *envCatalog);
    options.catalogDir = catalogDir.empty() ? gpuplan::core::bundledCatalogDir(executableDir(argv[0]))
                                            : std::filesystem::path(catalogDir);
    options.userCatalogDir =
        userCatalogDir.empty() ? gpuplan::core::userCatalogDir() : std::filesystem::path(userCatalogDir);
    options.pricesDir = gpuplan::core::refreshedPricesDir();
    if (!service.empty()) {
        filter.service = gpuplan::core::parseServiceKind(service);
    }
    if (!currency.empty()) {
        options.displayCurrency = gpuplan::core::parseCurrency(currency);
    }

    const char* envWorkloads = std::getenv("GPUPLAN_WORKLOAD_DIR");
    work.workloadDir = envWorkloads && *envWorkloads ? std::filesystem::path(envWorkloads)
                                                     : gpuplan::core::bundledWorkloadDir(executableDir(argv[0]));
    work.overrides = {epochs, samples, tokens, stack.empty() ? std::nullopt : core::parseStack(stack)};
    if (*estimate) {
        return runEstimate(options, work, estimateOptions);
    }
    if (*calibrate) {
        return runCalibrate(options, work, options.json);
    }
    if (*plan) {
        constraints.budget = budget;
        constraints.currency = *gpuplan::core::parseCurrency(planCurrency);
        if (!objective.empty()) {
            constraints.objective = gpuplan::core::parseObjective(objective);
        }
        if (!planPrecision.empty()) {
            constraints.precision = gpuplan::core::parsePrecision(planPrecision);
        }
        return runPlan(options, work, planOptions);
    }
    if (*credsSet) {
        return runCreds(argc, argv, CredsCommand::Set, credsOptions);
    }
    if (*credsList) {
        return runCreds(argc, argv, CredsCommand::List, credsOptions);
    }
    if (*credsRemove) {
        return runCreds(argc, argv, CredsCommand::Remove, credsOptions);
    }
    if (*probe) {
        probeOptions.probeDir = gpuplan::core::bundledProbeDir(executableDir(argv[0]));
        return runProbe(options, probeOptions);
    }
    if (*report) {
        return runReport(argc, argv, reportOptions);
    }
    if (*launch) {
        const char* envScripts = std::getenv("GPUPLAN_SCRIPTS_DIR");
        launchOptions.scriptsDir =
            envScripts && *envScripts
                ? std::filesystem::path(envScripts)
                : (executableDir(argv[0]) / ".." / "share" / "gpuplanner" / "scripts").lexically_normal();
        return runLaunch(argc, argv, options, launchOptions);
    }
    if (*instances) {
        instancesOptions.reconcile = !noReconcile;
        return runInstances(argc, argv, options, instancesOptions);
    }
    if (*run) {
        const char* envScripts = std::getenv("GPUPLAN_SCRIPTS_DIR");
        const std::filesystem::path scripts =
            envScripts && *envScripts
                ? std::filesystem::path(envScripts)
                : (executableDir(argv[0]) / ".." / "share" / "gpuplanner" / "scripts").lexically_normal();
        return runRun(argc, argv, options, runOptions, scripts);
    }
    if (*runs) {
        return runRuns(runsJson, runsCsv, runsCurrency, options);
    }
    if (*terminate) {
        return runTerminate(argc, argv, terminateOptions);
    }
    if (*logs) {
        return runLogs(argc, argv, logsOptions);
    }
    if (*gpus) {
        return runGpus(options);
    }
    if (*validate) {
        return runCatalogValidate(options, fileToValidate);
    }
    if (*refresh) {
        return runPricesRefresh(argc, argv, options, refreshProvider, refreshRegion);
    }
    if (*catalog) {
        return runCatalog(options);
    }
    return kExitFailure;
}

int main(int argc, char** argv)
{
    // Core reports failures as values, but a third-party library can still throw (nlohmann on text that is not
    // UTF-8, std::bad_alloc): say what happened and exit, instead of std::terminate's "terminate called" and abort.
    gpuplan::cli::makeTerminalOutputSafe();
    if (gpuplan::core::Status kept = gpuplan::core::keepSecretsOutOfCoreDumps(); !kept) {
        std::cerr << "gpuplan: warning: " << gpuplan::cli::said(kept.error()) << '\n';
    }
    try {
        return runCommand(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "gpuplan: internal error, nothing more was done: " << e.what()
                  << "\nPlease report it with the command you ran.\n";
    } catch (...) {
        std::cerr << "gpuplan: internal error (unknown exception), nothing more was done\n";
    }
    return gpuplan::cli::kExitFailure;
}
