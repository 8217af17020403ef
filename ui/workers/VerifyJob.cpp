#include "VerifyJob.h"

#include <chrono>

namespace gpuplan::ui {

core::Result<VerifyOutcome> runVerification(VerifyRequest request,
                                            std::shared_ptr<core::CancelToken> cancel,
                                            std::function<void(core::VerifyStep)> onStage,
                                            core::Prompter& prompter)
{
    onStage(core::VerifyStep::Connect);
    core::SshOptions options;
    options.knownHostsFile = request.knownHostsFile;
    options.prompter = &prompter;
    core::Result<std::unique_ptr<core::SshSession>> session =
        core::SshSession::connect(request.target, options, cancel.get());
    if (!session) {
        return session.error();
    }
    core::Result<core::ProbeRun> run = core::runProbeOver(
        **session, request.bundle, core::ProbeMode{request.quick, request.burnSeconds}, onStage, cancel.get());
    if (!run) {
        return run.error();
    }
    VerifyOutcome outcome;
    outcome.run = std::move(*run);
    if (!outcome.run.result) {
        return outcome;
    }
    const std::string host = request.target.display();
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    const core::LedgerEntry* launch = request.launch ? &*request.launch : nullptr;
    outcome.judged = core::judgeRun(*outcome.run.result,
                                    *request.catalog,
                                    core::promisedHardware(request.stated, *request.catalog, launch, outcome.run.facts),
                                    host,
                                    now);
    if (launch) {
        core::Result<std::unique_ptr<core::Ledger>> ledger = core::Ledger::open(request.ledgerFile);
        core::Result<std::int64_t> kept = ledger ? (*ledger)->recordVerification(core::verificationRecord(
                                              *outcome.judged, outcome.run.output, launch->id, host, now))
                                                 : core::Result<std::int64_t>(ledger.error());
        if (!kept) {
            outcome.notKept = kept.error();
        }
    }
    return outcome;
}

} // namespace gpuplan::ui
