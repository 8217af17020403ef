#include "gpuplan/deploy/VerifyWorkflow.h"

namespace gpuplan::core {

Result<VerifyOutcome> verifyMachine(const VerifyRequest& request,
                                    const Catalog& catalog,
                                    Prompter& prompter,
                                    const CancelToken* cancel,
                                    const std::function<void(VerifyStep)>& onStage,
                                    std::int64_t now)
{
    const auto stage = [&](VerifyStep step) {
        if (onStage) {
            onStage(step);
        }
    };
    stage(VerifyStep::Connect);
    SshOptions options;
    options.knownHostsFile = request.knownHostsFile;
    options.prompter = &prompter;
    Result<std::unique_ptr<SshSession>> session = SshSession::connect(request.target, options, cancel);
    if (!session) {
        return session.error();
    }
    Result<ProbeRun> run = runProbeOver(**session, request.bundle, request.mode, stage, cancel);
    if (!run) {
        return run.error();
    }
    VerifyOutcome outcome;
    outcome.run = std::move(*run);
    if (!outcome.run.result) {
        return outcome;
    }
    const std::string host = request.target.display();
    const LedgerEntry* launch = request.launch ? &*request.launch : nullptr;
    outcome.judged = judgeRun(
        *outcome.run.result, catalog, promisedHardware(request.stated, catalog, launch, outcome.run.facts), host, now);
    if (launch) {
        Result<std::unique_ptr<Ledger>> ledger = Ledger::open(request.ledgerFile);
        Result<std::int64_t> kept = ledger ? (*ledger)->recordVerification(
                                        verificationRecord(*outcome.judged, outcome.run.output, launch->id, host, now))
                                           : Result<std::int64_t>(ledger.error());
        if (!kept) {
            outcome.notKept = kept.error();
        }
    }
    return outcome;
}

} // namespace gpuplan::core
