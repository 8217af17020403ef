#pragma once

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/Instance.h"
#include "gpuplan/cloud/providers/azure/ArmApi.h"
#include "gpuplan/core/Result.h"
#include "gpuplan/net/Http.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

// The pieces of Azure Machine Learning that the managed job service (AzureMlJobs.cpp) uses: a workspace, its AmlCompute
// clusters, environment versions and command jobs over ARM, and the run history's run details for a job's log. Each
// call as an azure::Call (method, path, query, body), the parsers of the documented answers and the error mapping.
// Pure functions: no network, thread-safe. Public so that TestAzureMl and TestAzureMlWire check each piece.
// source: the REST spec (https://github.com/Azure/azure-rest-api-specs, specification/machinelearningservices/
// resource-manager/Microsoft.MachineLearningServices/stable/2022-10-01) and the SDK in tests/integration/sdk/
// node_modules/@azure/arm-machinelearning 2.1.1 (dist/index.js: each operation's path, method and api-version).
namespace gpuplan::core::azureml {

/// The api-version @azure/arm-machinelearning 2.1.1 sends (its apiVersion parameter's defaultValue).
inline constexpr std::string_view kApiVersion = "2022-10-01";
/// instanceType "azureml/<VM size>": the catalog's managed offer.
inline constexpr std::string_view kTypePrefix = "azureml/";
/// The experiment every job goes in, and the environment and cluster name prefixes.
inline constexpr std::string_view kExperiment = "gpuplanner";
inline constexpr std::string_view kClusterPrefix = "gpl-";
inline constexpr std::string_view kEnvironmentPrefix = "gpuplanner-";
inline constexpr std::string_view kEnvironmentVersion = "1";
/// The cluster scales down to no node this long after its last job (ISO-8601).
inline constexpr std::string_view kIdleBeforeScaleDown = "PT2M";

/// The workspace of the credential's "ml_workspace" setting: "<resource group>/<workspace name>".
struct Workspace
{
    std::string subscription;
    std::string resourceGroup;
    std::string name;
    /// "/subscriptions/{s}/resourceGroups/{rg}/providers/Microsoft.MachineLearningServices/workspaces/{name}".
    std::string path() const;
};
/// InvalidArgument "error.azureml.no_workspace" when `setting` is empty, "error.azureml.workspace_invalid" when it is
/// not "<resource group>/<name>".
Result<Workspace> parseWorkspaceSetting(const std::string& subscription, const std::string& setting);

/// The VM size of "azureml/<size>"; InvalidArgument "error.azureml.instance_type" otherwise.
Result<std::string> vmSizeOf(const std::string& instanceType);
/// "Dedicated" or "LowPriority" (spot).
std::string vmPriority(bool spot);
/// "gpl-" + the first 8 hex digits of SHA-256(size + priority): 12 characters, within AmlCompute's rule (2 to 16
/// characters, a letter first, letters, digits and '-').
std::string clusterName(const std::string& vmSize, const std::string& priority);
/// "gpuplanner-" + the first 12 hex digits of SHA-256(image).
std::string environmentName(const std::string& image);
/// argv as one POSIX shell command line: each word as it is when it holds only safe characters, else in single
/// quotes (a ' written as '\'').
std::string shellCommand(const std::vector<std::string>& argv);
/// "PT<seconds>S".
std::string isoSeconds(std::int64_t seconds);
/// Whether `name` can name a job (the client token): 1 to 255 letters, digits, '-' and '_', a letter or digit first.
bool validJobName(const std::string& name);

// ---- Calls (each an azure::Call: its path from "/subscriptions", api-version 2022-10-01).

/// Workspaces - Get.
azure::Call getWorkspaceCall(const Workspace& workspace);
/// Compute - Get of a cluster (404 when absent).
azure::Call getComputeCall(const Workspace& workspace, const std::string& cluster);
/// Compute - CreateOrUpdate: an AmlCompute cluster of `vmSize` at `priority`, 0 to 1 node, scaled down after PT2M.
azure::Call putComputeCall(const Workspace& workspace,
                           const std::string& location,
                           const std::string& cluster,
                           const std::string& vmSize,
                           const std::string& priority);
/// EnvironmentVersions - Get (404 when absent).
azure::Call getEnvironmentCall(const Workspace& workspace, const std::string& name, const std::string& version);
/// EnvironmentVersions - CreateOrUpdate: {"properties": {"image"}}.
azure::Call putEnvironmentCall(const Workspace& workspace,
                               const std::string& name,
                               const std::string& version,
                               const std::string& image);

/// What a command job's PUT carries.
struct JobInput
{
    std::string name;          // the client token
    std::string computeId;     // the cluster's ARM id
    std::string environmentId; // the environment version's ARM id
    std::vector<std::string> command;
    std::vector<std::pair<std::string, std::string>> environment;
    std::int64_t timeoutSeconds = 0;                       // 0: no limits
    std::vector<std::pair<std::string, std::string>> tags; // besides gpuplanner-token
};
/// Jobs - CreateOrUpdate: PUT .../jobs/{name} of a Command job. InvalidArgument for a name ARM refuses, an empty
/// command, or a tag that clashes with gpuplanner-token.
Result<azure::Call> putJobCall(const Workspace& workspace, const JobInput& input);
/// Jobs - Get.
azure::Call getJobCall(const Workspace& workspace, const std::string& name);
/// Jobs - List with tag=gpuplanner-token (jobs that carry the tag); nextLink pages follow with azure::getUrlCall.
azure::Call listJobsCall(const Workspace& workspace);
/// Jobs - Cancel: POST .../jobs/{name}/cancel (202 accepted, not waited for).
azure::Call cancelJobCall(const Workspace& workspace, const std::string& name);
/// The run history's run details: GET <api>/history/v1.0/subscriptions/{s}/resourceGroups/{rg}/providers/
/// Microsoft.MachineLearningServices/workspaces/{ws}/runs/{runId}/details (no api-version).
/// source: azure-ai-ml _restclient/runhistory/operations/_runs_operations.py build_get_details_request.
std::string runDetailsUrl(const std::string& apiBase, const Workspace& workspace, const std::string& runId);

// ---- Parsers.

struct WorkspaceInfo
{
    std::string location;
    std::string discoveryUrl;
};
Result<WorkspaceInfo> parseWorkspace(std::string_view body);
/// The "api" base URL of the workspace's discovery document (the run history's host, as azure-ai-ml's
/// _get_workspace_base_url reads it).
Result<std::string> parseDiscovery(std::string_view body);

struct Compute
{
    std::string id;
    std::string name;
    std::string computeType;
    std::string provisioningState;
    std::string vmSize;
    std::string vmPriority;
};
Result<Compute> parseCompute(std::string_view body, const std::string& action);

/// Whether `a` and `b` name the same Azure region ("East US" and "eastus" alike).
bool sameRegion(const std::string& a, const std::string& b);

struct Job
{
    std::string name;
    std::string id;
    std::string status;      // NotStarted, Starting, Provisioning, Preparing, Queued, Running, Finalizing, ...
    std::string clientToken; // tags["gpuplanner-token"]
    std::string computeId;
    std::string displayName;
    std::optional<std::int64_t> createdAt; // systemData.createdAt
};
Result<Job> parseJob(std::string_view body, const std::string& action);
struct JobPage
{
    std::vector<Job> jobs;
    std::string nextLink;
};
Result<JobPage> parseJobs(std::string_view body);

struct RunDetails
{
    std::string status;
    std::vector<std::pair<std::string, std::string>> logFiles; // name -> URL (with its SAS)
};
Result<RunDetails> parseRunDetails(std::string_view body);
/// The user's log among the run's log files: user_logs/std_log.txt, else the first user_logs/std_log*.txt, else
/// the legacy azureml-logs/70_driver_log.txt; empty when none is there yet.
/// source: azure-ai-ml constants/_job/job.py JobLogPattern (COMMON_RUNTIME_STREAM_LOG_PATTERN,
/// COMMAND_JOB_LOG_PATTERN).
std::string userLogFile(const RunDetails& details);

/// The job's status as a ledger state: NotStarted/Starting/Provisioning/Preparing/Queued -> Pending, Running/
/// Finalizing -> Running, CancelRequested -> Stopping, Completed/Canceled -> Terminated, Failed/NotResponding ->
/// Failed; anything else (Paused, Unknown) -> Pending.
InstanceState stateOf(const std::string& status);
/// The job as GPU Planner records it; "azureml/<size>" from `vmSize` when known.
RemoteInstance toRemote(const Job& job, const std::string& region, const std::string& instanceType);

/// The lines of `text` after byte `offset`: complete lines only unless `all` (the log is finished); `consumed` is the
/// byte offset after the last line given.
std::vector<std::string> logLines(const std::string& text, std::size_t offset, bool all, std::size_t& consumed);

// ---- Errors.

/// azure::mapError, with Azure ML's advice: quota -> "error.azureml.quota" (the cluster's family vCPU quota in the
/// region; Azure ML studio -> Quota), AuthorizationFailed -> "error.azureml.permission" (the action; the role AzureML
/// Data Scientist), the rest as ARM's.
std::optional<Error> mapError(const HttpResponse& response, const azure::ErrorContext& context);

} // namespace gpuplan::core::azureml
