#include "ProbeCommands.h"

#include "TerminalOutput.h"

#include "TerminalPrompter.h"
#include "TextTable.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/deploy/ProbeDeployment.h"
#include "gpuplan/deploy/SshConfig.h"
#include "gpuplan/deploy/Verification.h"
#include "gpuplan/deploy/VerifyWorkflow.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/probe/Verdict.h"
#include "wording/VerdictText.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

namespace gpuplan::cli {

namespace {

int fail(const core::Error& error, int code)
{
    std::cerr << "gpuplan: " << said(error) << '\n';
    return code;
}

const char* stepName(core::VerifyStep step)
{
    switch (step) {
        case core::VerifyStep::Connect:
            return "connecting";
        case core::VerifyStep::Detect:
            return "detecting the driver and GPUs";
        case core::VerifyStep::Upload:
            return "uploading the probe";
        case core::VerifyStep::Build:
            return "building the probe there (this takes a few minutes)";
        case core::VerifyStep::Run:
            return "running the probe";
    }
    return "";
}

} // namespace

int runProbe(const CatalogOptions& catalogOptions, const ProbeOptions& options)
{
    core::Result<core::SshTarget> target = core::resolveSshTarget({options.host, options.identity, options.jump, {}});
    if (!target) {
        core::Error error = target.error();
        error.where = (core::takeJumpHostFrame(error) ? "--jump " : "--host ") + error.where;
        return fail(error, kExitBadInput);
    }
    std::optional<core::PlanDocument> plan;
    if (!options.plan.empty()) {
        core::Result<core::PlanDocument> loaded = core::loadPlan(options.plan);
        if (!loaded) {
            return fail(loaded.error(), kExitBadInput);
        }
        plan = std::move(*loaded);
    }
    core::Result<core::LoadedCatalog> catalog =
        core::loadCatalog(catalogOptions.catalogDir, catalogOptions.userCatalogDir, catalogOptions.pricesDir);
    if (!catalog) {
        return fail(catalog.error(), kExitFailure);
    }
    const core::ProbeBundle bundle = core::findProbeBundle(options.probeDir);
    if (bundle.binaries.empty() && bundle.sourceArchive.empty()) {
        return fail(core::Error{core::ErrorCode::FileNotFound,
                                core::Reason{"error.probe.no_bundle", {{"dir", options.probeDir.string()}}},
                                "probe"},
                    kExitFailure);
    }
    // --instance: the launch the verdict is kept with, and (unless --expect-gpu says otherwise) what it promised.
    std::optional<core::LedgerEntry> launch;
    if (options.instance > 0) {
        core::Result<std::unique_ptr<core::Ledger>> ledger = core::openDefaultLedger();
        if (!ledger) {
            return fail(ledger.error(), kExitFailure);
        }
        core::Result<std::optional<core::LedgerEntry>> found = (*ledger)->find(options.instance);
        if (!found) {
            return fail(found.error(), kExitFailure);
        }
        if (!*found) {
            return fail(core::Error{core::ErrorCode::NotFound,
                                    core::Reason{"error.probe.no_launch", {{"id", std::to_string(options.instance)}}},
                                    "--instance"},
                        kExitBadInput);
        }
        launch = **found;
    }

    core::VerifyRequest request;
    request.target = *target;
    request.knownHostsFile = options.knownHosts;
    request.bundle = bundle;
    request.mode = core::ProbeMode{options.quick, options.burnSeconds};
    request.stated.gpuId = options.expectGpu;
    request.stated.count = options.expectCount;
    request.launch = launch;
    request.ledgerFile = core::defaultLedgerFile();
    TerminalPrompter prompter(options.acceptNewHostKey);
    core::Result<core::VerifyOutcome> outcome = core::verifyMachine(
        request,
        catalog->catalog,
        prompter,
        nullptr,
        [&](core::VerifyStep s) {
            if (!options.json) {
                std::cerr << (s == core::VerifyStep::Connect ? "connecting to " + target->display() : stepName(s))
                          << "...\n";
            }
        },
        core::unixNow());
    if (!outcome) {
        return fail(outcome.error(), kExitFailure);
    }
    const core::ProbeRun& run = outcome->run;
    if (!outcome->judged) {
        // A remote build or a container would be needed, or nothing can run there: the reason says which.
        if (options.json) {
            std::cout << nlohmann::json{{"deployment",
                                         {{"reason", core::reasonJson(run.choice.why)},
                                          {"offer_driver_script", run.choice.offerDriverScript}}}}
                             .dump(2)
                      << '\n';
        } else {
            std::cout << "The probe did not run: " << said(run.choice.why) << '\n';
            if (run.choice.offerDriverScript) {
                std::cout << "A driver set-up script for Ubuntu and Rocky/CentOS is in "
                             "resources/scripts/install-nvidia-driver.sh (run it with --dry-run first to see what it "
                             "does).\n";
            }
        }
        return kExitFailure;
    }
    const core::JudgedRun& judged = *outcome->judged;
    const core::Verdict& verdict = judged.verdict;
    if (plan) {
        plan->verifications.push_back(judged.verification);
        if (core::Status saved = core::savePlan(options.plan, *plan); !saved) {
            return fail(saved.error(), kExitFailure);
        }
        std::cerr << "Added the verdict to " << options.plan << " (its report shows it).\n";
    }
    if (launch) {
        if (outcome->notKept) {
            return fail(*outcome->notKept, kExitFailure);
        }
        if (!options.json) {
            std::cerr << "Kept the verdict with launch " << launch->id << " in the ledger.\n";
        }
    }
    if (options.json) {
        nlohmann::json lines = core::verificationJson(judged.verification)["lines"];
        // Scripts read a line's measured and expected figures as the English text the table shows.
        for (std::size_t i = 0; i < verdict.lines.size() && i < lines.size(); ++i) {
            lines[i]["measured"] = ui::figureText(verdict.lines[i].measured).toStdString();
            lines[i]["expected"] = ui::figureText(verdict.lines[i].expected).toStdString();
        }
        nlohmann::json probe = nlohmann::json::parse(run.output, nullptr, false);
        std::cout << nlohmann::json{{"host", target->display()},
                                    {"deployment",
                                     {{"build", run.buildUsed}, {"reason", core::reasonJson(run.choice.why)}}},
                                    {"verdict", {{"level", core::verdictLevelName(verdict.level)}, {"lines", lines}}},
                                    {"probe", probe.is_discarded() ? nlohmann::json(nullptr) : probe}}
                         .dump(2)
                  << '\n';
    } else {
        std::cout << "Verdict for " << target->display() << ": " << core::verdictLevelName(verdict.level) << " (probe "
                  << run.buildUsed << ")\n\n";
        TextTable table({{"check"}, {"gpu"}, {"level"}, {"measured"}, {"expected"}, {"reason"}});
        for (const core::VerdictLine& line : verdict.lines) {
            table.addRow({line.check,
                          line.gpu ? std::to_string(*line.gpu) : "-",
                          core::verdictLevelName(line.level),
                          ui::figureText(line.measured).toStdString(),
                          ui::figureText(line.expected).toStdString(),
                          said(line.reason)});
        }
        table.print(std::cout);
    }
    return verdict.level == core::VerdictLevel::Fail ? kExitFailure : kExitOk;
}

} // namespace gpuplan::cli
