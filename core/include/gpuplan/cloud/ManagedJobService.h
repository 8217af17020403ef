#pragma once

#include "gpuplan/cloud/CloudProvider.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpuplan::core {

/// One line of a job's log, as the service kept it.
struct JobLogLine
{
    std::int64_t at = 0; // Unix seconds; 0 when the service gave no time
    std::string text;    // one line, without its line end
};

/// A page of a job's log, oldest first.
struct JobLogPage
{
    std::vector<JobLogLine> lines;
    /// Where the next read goes on (give it back as `after`); the same cursor again when nothing new was read.
    std::string next;
};

/// A cloud's managed training service (Vertex AI custom jobs, Azure ML command jobs) through the kit: its instance is
/// a job, so the Launcher, the ledger, reconciliation and terminate treat it as they treat a VM.
/// - launch() submits request.job on request.instanceType (the catalog's managed offer, "vertex/g2-standard-8",
///   "azureml/Standard_NC4as_T4_v3"), on spot capacity when request.pricing is Spot, ended by the service at
///   request.terminateAt (its timeout: the dead-man on the provider's side). The same client token returns the job it
///   submitted, never a second one; a service without tokens finds the job by its token label before it submits.
/// - describe() and listOurs() report jobs as RemoteInstance: the job's id, its token, the ledger state (see
///   LaunchKind), launchedAt when it started running, providerState the service's own word ("JOB_STATE_RUNNING").
/// - terminate() cancels the job (best effort: it ends Cancelled, or finishes first); a job already ended is no error.
class ManagedJobService : public CloudProvider
{
public:
    using CloudProvider::CloudProvider;

    /// A service places its jobs itself: one "zone", the empty one, in every region the service is in.
    Result<std::vector<std::string>>
    zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel) override;

    /// The job's log after `after` (a JobLogPage::next; empty: from its start), oldest first, at most a few thousand
    /// lines a page. An empty page while the job has written nothing yet.
    virtual Result<JobLogPage>
    logs(const std::string& region, const std::string& jobId, const std::string& after, const CancelToken* cancel) = 0;
};

} // namespace gpuplan::core
