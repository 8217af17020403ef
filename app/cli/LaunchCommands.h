#pragma once

#include "CatalogCommands.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cli {

/// How the cloud APIs are reached: the GUI's Settings -> Network (the same settings file), unless a flag says
/// otherwise. An empty --proxy means the environment's https_proxy.
struct NetworkOptions
{
    std::optional<std::string> proxy;  // --proxy URL
    std::optional<std::string> caFile; // --ca-file FILE: a CA trusted beside the system's (TLS-inspecting networks)
};

struct LaunchOptions
{
    std::string provider;     // aws, tencent, alibaba, huawei; from the plan's option when --plan is given
    std::string instanceType; // likewise
    std::string region;       // likewise
    std::string zone;         // empty: every zone that offers the type, in order, until one has capacity
    std::string plan;         // a .gpuplan: its option, budget guard and estimate (dead-man default)
    int option = 0;           // the plan's option by rank; 0: its choice, or the best one that can be launched
    bool spot = false;
    double spotMaxPrice = 0; // --spot-max-price: the most to pay per hour for spot, in the provider's currency
    int monthly = 0;         // months of a prepaid subscription
    bool autoRenew = false;
    std::optional<int> hours; // dead-man; default from the plan's estimate, else 12; 0 turns it off
    int idleMinutes = 60;     // 0 turns the idle rule off
    int idlePercent = 5;
    std::string image;            // empty: the provider's GPU image; a managed job: its container image
    std::string command;          // a managed job: the command line its container's shell runs
    std::vector<std::string> env; // a managed job: NAME=VALUE, each an environment variable
    std::string key;              // public key file; empty: ~/.ssh/id_ed25519.pub, then id_rsa.pub
    std::string sshFrom;          // CIDR SSH is opened to; empty: this computer's public address
    std::optional<double> price;  // per hour (per month for a subscription), in the provider's currency
    std::optional<double> budget; // overrides the plan's
    bool terminateAtBudget = false;
    bool dryRun = false;
    bool yes = false;         // no confirmation question
    std::string wait = "ssh"; // request, running or ssh
    int sshPort = 22;
    bool json = false;
    std::filesystem::path scriptsDir; // where gpuplan-watchdog.sh is
    NetworkOptions network;
};

/// `gpuplan launch`: confirms price and worst case, records the launch in the ledger, launches, and follows it
/// to running and SSH. Exit 2 for bad flags, files or a refused budget; 1 when the provider or network fails.
int runLaunch(int& argc, char** argv, const CatalogOptions& catalog, const LaunchOptions& options);

struct InstancesOptions
{
    bool json = false;
    bool all = false;      // also the ended ones
    bool reconcile = true; // ask each provider first
    NetworkOptions network;
};

/// `gpuplan instances`: what the ledger has, after reconciling with each provider it names; instances of a plan
/// launched with --terminate-at-budget whose spending reached the budget are terminated then.
int runInstances(int& argc, char** argv, const CatalogOptions& catalog, const InstancesOptions& options);

struct LogsOptions
{
    std::string target;   // ledger entry id or the job's id
    bool follow = false;  // keep reading until the job ends
    int pollSeconds = 10; // between reads while following
    NetworkOptions network;
};

/// `gpuplan logs ID [--follow]`: a managed job's log, from its service.
int runLogs(int& argc, char** argv, const LogsOptions& options);

struct TerminateOptions
{
    std::string target; // ledger entry id or the provider's instance id
    bool all = false;
    bool yes = false;
    NetworkOptions network;
};

/// `gpuplan terminate ID|--all`.
int runTerminate(int& argc, char** argv, const TerminateOptions& options);

} // namespace gpuplan::cli
