// `gpuplan launch`: the plan's option or the flags made into a launch order, the confirmation with the price and the
// worst case, and the launch followed to running and SSH; with it what the launch commands share
// (LaunchCommandParts.h). `instances` and `terminate` are in InstancesCommands.cpp.
#include "LaunchCommands.h"

#include "LaunchCommandParts.h"

#include "AppSettings.h"
#include "CredsCommands.h"
#include "TerminalOutput.h"
#include "TerminalPrompter.h"
#include "secrets/CredentialStore.h"
#include "wording/ErrorText.h"
#include "wording/LaunchText.h"

#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/cloud/LaunchChoice.h"
#include "gpuplan/cloud/LaunchSetup.h"
#include "gpuplan/cloud/LaunchWorkflow.h"
#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/cloud/LedgerActions.h"
#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/cloud/WatchdogScript.h"
#include "gpuplan/core/Paths.h"
#include "gpuplan/net/Clock.h"
#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/secrets/SignerCredentials.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

namespace gpuplan::cli {

using launching::badInput;
using launching::cloudAccess;
using launching::confirm;
using launching::entryJson;
using launching::fail;
using launching::httpOptions;
using launching::json;
using launching::money;

namespace launching {

namespace {

/// The exit code of an error: kExitBadInput for what the user can correct, else kExitFailure.
int exitCodeOf(const core::Error& error)
{
    switch (error.code) {
        case core::ErrorCode::InvalidArgument:
        case core::ErrorCode::UnknownProvider:
        case core::ErrorCode::SchemaViolation:
        case core::ErrorCode::JsonSyntax:
        case core::ErrorCode::FileNotFound:
        case core::ErrorCode::FileUnreadable:
        case core::ErrorCode::BudgetExceeded:
            return kExitBadInput;
        default:
            return kExitFailure;
    }
}

/// The error, then what to do about it on this command line (" with --key"), in English as the CLI speaks.
int failWith(const core::Error& error, const std::string& hint)
{
    std::cerr << "gpuplan: " << said(error) << hint << '\n';
    return exitCodeOf(error);
}

} // namespace

int fail(const core::Error& error)
{
    std::cerr << "gpuplan: " << said(error) << '\n';
    return exitCodeOf(error);
}

int badInput(const std::string& message)
{
    std::cerr << "gpuplan: " << message << '\n';
    return kExitBadInput;
}

core::Result<core::HttpOptions> httpOptions(const NetworkOptions& flags)
{
    core::HttpOptions options = ui::AppSettings().httpOptions();
    if (flags.proxy) {
        options.proxy = *flags.proxy;
    }
    if (flags.caFile) {
        options.extraCaFile = *flags.caFile;
    }
    if (!options.extraCaFile.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(options.extraCaFile, ec)) {
            return core::Error{core::ErrorCode::FileUnreadable,
                               core::Reason{"error.cloud.ca_file_missing", {{"path", options.extraCaFile}}},
                               flags.caFile ? "--ca-file" : "Settings -> Network"};
        }
    }
    return options;
}

core::Result<core::CloudAccess> cloudAccess(const std::string& provider, ui::CredentialStore& store)
{
    if (!core::ProviderRegistry::builtIn().has(provider)) {
        return core::ProviderRegistry::builtIn().create(provider, {}).error(); // names the known ones
    }
    core::Result<core::Credential> credential = store.loadNow(QString::fromStdString(provider));
    if (!credential) {
        // What went wrong, then how to store one; `instances` and `terminate` print it too.
        core::Error e = credential.error();
        e.reason = core::Reason{"error.cloud.no_stored_credential",
                                {{"said", ui::errorDetailText(e).toStdString()}, {"provider", provider}}};
        e.context.clear();
        return e;
    }
    return core::cloudAccessFrom(*credential, core::endpointOverride(provider));
}

std::string money(double amount, core::Currency currency)
{
    return core::formatMoney(amount, currency, 2);
}

bool confirm(const std::string& question)
{
    std::cout << question << " [y/N] " << std::flush;
    std::string answer;
    if (!std::getline(std::cin, answer)) {
        return false;
    }
    return answer == "y" || answer == "Y" || answer == "yes";
}

json entryJson(const core::LedgerEntry& e, std::int64_t now)
{
    const core::LaunchIntent& i = e.intent;
    json out = {{"id", e.id},
                {"kind", core::launchKindName(i.kind)},
                {"provider", i.provider},
                {"region", i.region},
                {"zone", i.zone},
                {"instance_type", i.instanceType},
                {"pricing_mode", i.pricingMode},
                {"state", core::instanceStateName(e.state)},
                {"instance_id", e.instanceId},
                {"client_token", i.clientToken},
                {"plan_id", i.planId},
                {"price",
                 {{"amount", i.price.amount},
                  {"currency", core::currencyCode(i.price.currency)},
                  {"unit", core::priceUnitName(i.price.unit)}}},
                {"created", core::extendedIsoTime(std::chrono::system_clock::from_time_t(e.createdAt))},
                {"cost_so_far", core::costSoFar(e, now)},
                {"cost_until_deadman", core::costUntilDeadman(e, now)},
                {"deadman_hours", i.deadmanHours},
                {"adopted", e.adopted},
                {"detail", ui::errorReasonText(e.detail).toStdString()},
                {"detail_key", e.detail.key}};
    out["quote"] = i.quote ? json{{"amount", i.quote->amount},
                                  {"currency", core::currencyCode(i.quote->currency)},
                                  {"unit", core::priceUnitName(i.quote->unit)},
                                  {"source", i.quote->source},
                                  {"at", core::extendedIsoTime(std::chrono::system_clock::from_time_t(i.quote->at))}}
                           : json();
    if (i.job) {
        out["job"] = {{"image", i.job->image}, {"command", i.job->command}};
    }
    out["running_since"] =
        e.runningSince ? json(core::extendedIsoTime(std::chrono::system_clock::from_time_t(*e.runningSince))) : json();
    out["ended"] = e.endedAt ? json(core::extendedIsoTime(std::chrono::system_clock::from_time_t(*e.endedAt))) : json();
    return out;
}

} // namespace launching

namespace {

/// The provider (its instances, or its managed job service), signing with the stored credential. The key is wiped
/// with the provider.
core::Result<std::unique_ptr<core::CloudProvider>>
connect(const std::string& provider, core::HttpTransport& http, ui::CredentialStore& store, core::LaunchKind kind)
{
    core::Result<core::CloudAccess> access = cloudAccess(provider, store);
    if (!access) {
        return access.error();
    }
    return core::connectProvider(*access, http, kind);
}

std::string readFile(const std::filesystem::path& file, bool& ok)
{
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    ok = static_cast<bool>(in) || in.eof();
    return text.str();
}

/// The crash tests' seam: $GPUPLAN_TEST_KILL_AT names a launch step at which this process kills itself with
/// SIGKILL, as a power cut or `kill -9` would (tests/integration/TestLaunchFlow.cpp).
void killIfAsked(core::LaunchStep step)
{
    const char* at = std::getenv("GPUPLAN_TEST_KILL_AT");
    if (at && std::string(at) == core::launchStepName(step)) {
        std::cout.flush();
        std::cerr.flush();
        ::kill(::getpid(), SIGKILL);
    }
}

} // namespace

int runLaunch(int& argc, char** argv, const CatalogOptions& catalogOptions, const LaunchOptions& options)
{
    LaunchOptions o = options;
    double hoursHigh = 0;
    std::string planId;
    double planBudget = 0;
    core::Currency planCurrency = core::Currency::CNY;
    if (!o.plan.empty()) {
        core::Result<core::PlanDocument> plan = core::loadPlan(o.plan);
        if (!plan) {
            return fail(plan.error());
        }
        core::Result<core::PlanLaunch> chosen = core::planLaunch(*plan, o.option);
        if (!chosen) {
            core::Error e = chosen.error();
            e.where = o.plan + (e.where.empty() ? "" : ": " + e.where);
            return fail(e);
        }
        if (chosen->passedOver) {
            const auto& [choice, why] = *chosen->passedOver;
            std::cerr << "gpuplan: the plan's choice, option " << choice.rank << ": " << choice.provider << ' '
                      << choice.instanceType << " in " << choice.region << " (" << core::pricingModeName(choice.mode)
                      << "), cannot be launched by GPU Planner yet ("
                      << ui::errorReasonText(core::notLaunchableReason(why, choice.provider, choice.mode)).toStdString()
                      << "); offering option " << chosen->rank << ": " << chosen->provider << ' '
                      << chosen->instanceType << " in " << chosen->region << " (" << core::pricingModeName(chosen->mode)
                      << ")\n";
        }
        o.provider = o.provider.empty() ? chosen->provider : o.provider;
        o.instanceType = o.instanceType.empty() ? chosen->instanceType : o.instanceType;
        o.region = o.region.empty() ? chosen->region : o.region;
        if (!o.spot && o.monthly == 0) {
            o.spot = chosen->mode == core::PricingMode::Spot;
        }
        hoursHigh = chosen->hoursHigh;
        planId = chosen->planId;
        planBudget = chosen->budget;
        planCurrency = chosen->currency;
    }
    if (o.provider.empty() || o.instanceType.empty() || o.region.empty()) {
        return badInput("launch needs --provider, --instance and --region (or a --plan that names them)");
    }
    if (o.spot && o.monthly > 0) {
        return badInput("--spot and --monthly exclude each other");
    }
    if (o.spotMaxPrice > 0 && !o.spot) {
        return badInput("--spot-max-price is for a spot launch: add --spot");
    }
    core::LaunchSettings settings;
    settings.provider = o.provider;
    settings.instanceType = o.instanceType;
    settings.region = o.region;
    settings.zone = o.zone;
    settings.pricing = o.monthly > 0 ? core::LaunchPricing::Subscription
                       : o.spot      ? core::LaunchPricing::Spot
                                     : core::LaunchPricing::OnDemand;
    settings.subscriptionMonths = o.monthly;
    settings.autoRenew = o.autoRenew;
    settings.spotPriceLimit = o.spot ? o.spotMaxPrice : 0;
    settings.price = o.price;
    settings.imageId = o.image;
    settings.planId = planId;
    settings.budget = o.budget ? *o.budget : planBudget;
    settings.budgetCurrency = planCurrency;
    settings.terminateAtBudget = o.terminateAtBudget;
    settings.dryRun = o.dryRun;
    if (o.terminateAtBudget && settings.budget <= 0) {
        return badInput("--terminate-at-budget needs a budget (--budget, or a plan that has one)");
    }
    const int deadman = o.hours ? *o.hours : core::defaultDeadmanHours(hoursHigh);
    settings.watchdog = core::WatchdogRules{deadman, o.idleMinutes, o.idlePercent, 60};
    // The watchdog's bounds, before anything is read or sent: a rule the script cannot honour is refused here.
    if (core::Status rules = core::checkWatchdogRules(settings.watchdog); !rules) {
        core::Error e = rules.error();
        e.where = e.where == core::kDeadmanField       ? "--hours"
                  : e.where == core::kIdleMinutesField ? "--idle-minutes"
                  : e.where == core::kIdlePercentField ? "--idle-percent"
                                                       : e.where;
        return fail(e);
    }

    core::Result<core::LoadedCatalog> catalog =
        core::loadCatalog(catalogOptions.catalogDir, catalogOptions.userCatalogDir, catalogOptions.pricesDir);
    if (!catalog) {
        return fail(catalog.error());
    }
    const core::LaunchKind kind = core::launchKindOf(catalog->catalog, o.provider, o.instanceType);
    if (kind == core::LaunchKind::Job) {
        if (o.command.empty()) {
            return badInput(o.instanceType
                            + " is a managed job: give what it runs with --image IMAGE and --command "
                              "'COMMAND' (see README, Managed training jobs)");
        }
        core::JobSpec job;
        job.image = o.image;
        job.command = core::shellCommand(o.command);
        for (const std::string& pair : o.env) {
            const std::size_t equals = pair.find('=');
            if (equals == std::string::npos || equals == 0) {
                return badInput("--env " + pair + ": give NAME=VALUE");
            }
            job.environment.emplace_back(pair.substr(0, equals), pair.substr(equals + 1));
        }
        settings.job = std::move(job);
        settings.imageId.clear();
    } else if (!o.command.empty() || !o.env.empty()) {
        return badInput("--command and --env are for a managed job; " + o.instanceType
                        + " is an instance (the "
                          "managed offers: gpuplan catalog --service managed)");
    }
    bool scriptOk = false;
    const std::filesystem::path scriptFile = o.scriptsDir / "gpuplan-watchdog.sh";
    const std::string script = readFile(scriptFile, scriptOk);
    if (!scriptOk || script.empty()) {
        return fail(core::Error{
            core::ErrorCode::FileNotFound, core::Reason{"error.cloud.script_missing", {}}, scriptFile.string()});
    }
    std::optional<QCoreApplication> app;
    makeApplication(argc, argv, app);
    core::Result<core::HttpOptions> network = httpOptions(o.network);
    if (!network) {
        return fail(network.error());
    }
    core::initializeHttp();
    core::HttpClient http(*network);
    core::Result<core::PreparedLaunch> prepared =
        core::prepareLaunch({settings, o.key, o.sshFrom}, catalog->catalog, script, http, core::unixNow());
    if (!prepared) {
        core::Error e = prepared.error();
        // The flag to fix, named in the CLI's words.
        const std::optional<core::LaunchInput> input = core::takeLaunchInputFrame(e);
        if (input == core::LaunchInput::PublicKey && o.key.empty()) {
            e.where = "--key";
            return launching::failWith(e, " with --key");
        }
        if (input == core::LaunchInput::SshSource && o.sshFrom.empty()) {
            return launching::failWith(e, "; give the address to open SSH to with --ssh-from");
        }
        if (input == core::LaunchInput::SshSource) {
            e.where = "--ssh-from " + e.where;
        }
        return fail(e);
    }
    if (prepared->addressProblem) {
        std::cerr << "Could not look up this computer's public address (" << said(*prepared->addressProblem)
                  << "); the dry run checks the launch with " << prepared->order.request.sshSourceCidr
                  << " (a documentation address, RFC 5737) in its place.\n";
    }

    std::unique_ptr<ui::CredentialStore> store = openCredentialStore();
    core::Result<std::unique_ptr<core::CloudProvider>> provider = connect(o.provider, http, *store, kind);
    if (!provider) {
        return fail(provider.error());
    }
    core::LaunchOrder order = std::move(prepared->order);
    core::Result<std::unique_ptr<core::Ledger>> ledger = core::openDefaultLedger();
    if (!ledger) {
        return fail(ledger.error());
    }
    core::LaunchWaitOptions wait;
    wait.until = o.wait == "request"   ? core::LaunchWait::Request
                 : o.wait == "running" ? core::LaunchWait::Running
                                       : core::LaunchWait::Ssh;
    if (kind == core::LaunchKind::Job && wait.until == core::LaunchWait::Ssh) {
        wait.until = core::LaunchWait::Running; // a job has no SSH: it runs, then ends by itself
    }
    wait.sshPort = o.sshPort;
    if (const char* poll = std::getenv("GPUPLAN_POLL_SECONDS"); poll && std::atoi(poll) > 0) {
        wait.pollInterval = std::chrono::seconds(std::atoi(poll));
    }
    std::ostream& progress = o.json ? std::cerr : std::cout;
    TerminalPrompter prompter(false, LaunchAnswers{o.yes, o.json});
    core::Result<core::LaunchOutcome> outcome = core::confirmAndLaunch(
        std::move(order),
        **provider,
        **ledger,
        wait,
        prompter,
        nullptr,
        [&](const core::LaunchProgress& p) {
            progress << "[" << core::launchStepName(p.step) << "] " << ui::launchProgressText(p).toStdString()
                     << std::endl;
            killIfAsked(p.step);
        },
        core::unixNow());
    if (!outcome && prompter.launchNeededATerminal()) {
        return badInput("add --yes to launch without being asked (stdin is not a terminal)");
    }
    if (!outcome && outcome.error().code == core::ErrorCode::Cancelled) {
        std::cerr << "gpuplan: not launched\n";
        return kExitFailure;
    }
    if (!outcome) {
        return fail(outcome.error());
    }
    if (outcome->budget && outcome->budget->level == core::BudgetLevel::Warn) {
        std::cerr << "gpuplan: warning: the plan has used 80 % or more of its budget of "
                  << money(outcome->budget->budget, settings.budgetCurrency) << '\n';
    }
    std::vector<std::string> steps;
    for (const core::Reason& step : outcome->steps) {
        steps.push_back(ui::launchStepText(step).toStdString());
        progress << "  " << steps.back() << '\n';
    }
    if (o.dryRun) {
        if (o.json) {
            std::cout << json{{"dry_run", true}, {"passed", outcome->dryRunPassed}, {"steps", steps}}.dump(2) << '\n';
        } else {
            std::cout << (outcome->dryRunPassed ? "The provider says the launch would succeed; nothing was started.\n"
                                                : "Dry run done; nothing was started.\n");
        }
        return kExitOk;
    }
    if (o.json) {
        json out = entryJson(outcome->entry, core::unixNow());
        out["public_ip"] = outcome->instance.publicIp;
        out["resumed"] = outcome->resumed;
        out["zones_tried"] = outcome->zonesTried;
        std::cout << out.dump(2) << '\n';
    } else if (kind == core::LaunchKind::Job) {
        std::cout << "Job " << outcome->entry.instanceId << " is " << core::instanceStateName(outcome->entry.state)
                  << " (ledger entry " << outcome->entry.id << "). Its log: gpuplan logs " << outcome->entry.id
                  << " --follow; cancel it: gpuplan terminate " << outcome->entry.id << '\n';
    } else {
        std::cout << outcome->entry.instanceId << " is " << core::instanceStateName(outcome->entry.state)
                  << (outcome->instance.publicIp.empty() ? "" : " at " + outcome->instance.publicIp)
                  << " (ledger entry " << outcome->entry.id << "). Verify it: gpuplan probe --host USER@"
                  << (outcome->instance.publicIp.empty() ? "HOST" : outcome->instance.publicIp)
                  << "; end it: gpuplan terminate " << outcome->entry.id << '\n';
    }
    return kExitOk;
}

} // namespace gpuplan::cli
