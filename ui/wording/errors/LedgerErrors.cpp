// The words of core's error.ledger.*, error.launch.*, error.reconcile.* errors, of the ledger's notes on its entries
// (ledger.*, LedgerEntry::detail) and of what reconciling did (reconcile.*, ReconcileReport::notes).
#include "wording/errors/ErrorWording.h"

#include "wording/ErrorText.h"
#include "wording/Format.h"
#include "wording/ProviderText.h"

#include "gpuplan/ledger/Ledger.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct LedgerErrors
{
    Q_DECLARE_TR_FUNCTIONS(LedgerErrors)
};

/// A reason kept inside another one's parameter (core::detailJson), worded; an older ledger's sentence as it was.
QString keptReason(const ReasonParams& p, const char* name)
{
    return errorReasonText(core::readDetailJson(p.text(name).toStdString()));
}

/// An error inside a note: its reason ("error", core::detailJson) and where ("where"), as errorMessage says it.
QString keptError(const ReasonParams& p)
{
    core::Error error;
    error.reason = core::readDetailJson(p.text("error").toStdString());
    error.where = p.text("where").toStdString();
    return errorMessage(error);
}

/// "entry 12 (i-0abc)", or "entry 12" before the provider has named its instance.
QString entryName(const ReasonParams& p)
{
    return p.text("instance").isEmpty() ? LedgerErrors::tr("entry %1").arg(p.text("entry"))
                                        : LedgerErrors::tr("entry %1 (%2)").arg(p.text("entry"), p.text("instance"));
}

/// An amount of money with two decimals and its currency code ("36.00 CNY").
QString money(const ReasonParams& p, const char* name)
{
    return LedgerErrors::tr("%1 %2").arg(p.fixed(name, 2), p.text("currency"));
}

/// A catalog price: two decimals, up to four where it has them, its currency and unit ("21.9576 USD/h").
QString price(const ReasonParams& p)
{
    const std::optional<double> amount = p.number("amount");
    int decimals = 2;
    while (amount && decimals < 4
           && std::fabs(*amount * std::pow(10.0, decimals) - std::round(*amount * std::pow(10.0, decimals))) > 1e-6) {
        ++decimals;
    }
    const QString value = LedgerErrors::tr("%1 %2").arg(p.fixed("amount", decimals), p.text("currency"));
    return p.text("unit") == QLatin1String("month") ? LedgerErrors::tr("%1/month").arg(value)
                                                    : LedgerErrors::tr("%1/h").arg(value);
}

/// "45 min", "3 h 05 min".
QString duration(const ReasonParams& p, const char* name)
{
    const qint64 minutes = std::max<qint64>(0, p.text(name).toLongLong()) / 60;
    if (minutes < 120) {
        return LedgerErrors::tr("%1 min").arg(minutes);
    }
    return LedgerErrors::tr("%1 h %2 min").arg(minutes / 60).arg(minutes % 60, 2, 10, QLatin1Char('0'));
}

QString ledgerError(const core::Reason& reason, const ReasonParams& p)
{
    const std::string& key = reason.key;
    if (key == "error.ledger.sqlite") {
        return LedgerErrors::tr("ledger: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.reading_version") {
        return LedgerErrors::tr("ledger: reading its version: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.recording_launch") {
        return LedgerErrors::tr("ledger: recording a launch: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.marking_requested") {
        return LedgerErrors::tr("ledger: marking a launch requested: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.recording_note") {
        return LedgerErrors::tr("ledger: recording a note on a launch: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.updating") {
        return LedgerErrors::tr("ledger: updating a launch: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.recording_adopted_price") {
        return LedgerErrors::tr("ledger: recording the price of an adopted instance: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.reading") {
        return LedgerErrors::tr("ledger: reading: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.recording_budget") {
        return LedgerErrors::tr("ledger: recording a budget: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.recording_verification") {
        return LedgerErrors::tr("ledger: recording a verification: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.reading_verifications") {
        return LedgerErrors::tr("ledger: reading the verifications: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.recording_address") {
        return LedgerErrors::tr("ledger: recording the instance's address: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.recording_run") {
        return LedgerErrors::tr("ledger: recording a run: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.reading_runs") {
        return LedgerErrors::tr("ledger: reading the runs: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.cannot_add_runs") {
        return LedgerErrors::tr("cannot add the training runs to the ledger (ledger: %1)").arg(p.text("said"));
    }
    if (key == "error.ledger.cannot_add_attempts") {
        return LedgerErrors::tr("cannot add the runs' attempts to the ledger (ledger: %1)").arg(p.text("said"));
    }
    if (key == "error.ledger.no_attempt") {
        return LedgerErrors::tr("no attempt %1 in the ledger").arg(p.text("attempt"));
    }
    if (key == "error.ledger.no_run") {
        return LedgerErrors::tr("no run %1 in the ledger (gpuplan runs lists them)").arg(p.text("run"));
    }
    if (key == "error.ledger.no_launch_to_run_on") {
        return LedgerErrors::tr("no launch %1 in the ledger to run on (gpuplan instances lists them)")
            .arg(p.text("entry"));
    }
    if (key == "error.ledger.reading_budgets") {
        return LedgerErrors::tr("ledger: reading the budgets: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.cannot_open") {
        return LedgerErrors::tr("cannot open the ledger: %1").arg(p.text("said"));
    }
    if (key == "error.ledger.not_a_ledger") {
        return LedgerErrors::tr("not a GPU Planner ledger (ledger: %1)").arg(p.text("said"));
    }
    if (key == "error.ledger.newer_version") {
        return LedgerErrors::tr(
                   "written by a newer GPU Planner (ledger version %1); this one reads up to version %2: update it")
            .arg(p.text("version"), p.text("supported"));
    }
    if (key == "error.ledger.cannot_add_budgets") {
        return LedgerErrors::tr("cannot add the budgets to the ledger (ledger: %1)").arg(p.text("said"));
    }
    if (key == "error.ledger.cannot_add_verifications") {
        return LedgerErrors::tr("cannot add the verifications to the ledger (ledger: %1)").arg(p.text("said"));
    }
    if (key == "error.ledger.cannot_add_request_times") {
        return LedgerErrors::tr("cannot add the request times to the ledger (ledger: %1)").arg(p.text("said"));
    }
    if (key == "error.ledger.cannot_add_quotes") {
        return LedgerErrors::tr("cannot add the launch price quotes to the ledger (ledger: %1)").arg(p.text("said"));
    }
    if (key == "error.ledger.cannot_add_jobs") {
        return LedgerErrors::tr("cannot add the managed jobs to the ledger (ledger: %1)").arg(p.text("said"));
    }
    if (key == "error.ledger.no_client_token") {
        return LedgerErrors::tr("a launch needs a client token (idempotency)");
    }
    if (key == "error.ledger.closed_before_request") {
        return LedgerErrors::tr("another GPU Planner process closed or finished this launch before its request went "
                                "out; nothing was sent (see `gpuplan instances`)");
    }
    if (key == "error.ledger.cannot_create_lock") {
        return LedgerErrors::tr("cannot create the launch's lock file");
    }
    if (key == "error.ledger.attempt_busy") {
        return LedgerErrors::tr("another GPU Planner process is sending this launch (token %1) right now; wait for it "
                                "to finish, then see `gpuplan instances`")
            .arg(p.text("token"));
    }
    if (key == "error.ledger.cannot_lock") {
        return LedgerErrors::tr("cannot lock the launch's lock file");
    }
    if (key == "error.ledger.no_launch") {
        return LedgerErrors::tr("no launch %1 in the ledger").arg(p.text("entry"));
    }
    if (key == "error.ledger.not_adopted") {
        return LedgerErrors::tr("entry %1 is not an adopted instance: a launch keeps the price it was launched at")
            .arg(p.text("entry"));
    }
    if (key == "error.ledger.no_launch_to_verify") {
        return LedgerErrors::tr("no launch %1 in the ledger (gpuplan instances lists them)").arg(p.text("entry"));
    }
    if (key == "error.ledger.no_data_folder") {
        return LedgerErrors::tr("there is no user data folder for the ledger (set HOME)");
    }
    return {};
}

QString launchError(const core::Reason& reason, const ReasonParams& p)
{
    const std::string& key = reason.key;
    if (key == "error.launch.over_budget") {
        return LedgerErrors::tr("this launch could take the plan to %1 of its budget of %2 (spent %3, the running "
                                "instances until their dead-man %4, this one until its dead-man %5); terminate "
                                "something, shorten the dead-man or raise the budget")
            .arg(money(p, "outlook"),
                 money(p, "budget"),
                 money(p, "spent"),
                 money(p, "committed"),
                 money(p, "additional"));
    }
    if (key == "error.launch.no_zone_offers") {
        return LedgerErrors::tr("no zone of %1 offers %2; choose another region (GPU Planner does not switch regions "
                                "without asking)")
            .arg(p.text("region"), p.text("instance_type"));
    }
    if (key == "error.launch.outcome_unknown") {
        return LedgerErrors::tr("%1; the request may have reached %2 and started an instance: the ledger keeps it as "
                                "requested, and launching the same again takes that instance once %2 lists it, or "
                                "resends the request under the same token (never a second instance); `gpuplan "
                                "instances --reconcile` finds out")
            .arg(keptReason(p, "error"), p.text("provider"));
    }
    if (key == "error.launch.resend_waits") {
        const int minutes = std::max(1, (p.text("seconds").toInt() + 59) / 60);
        return LedgerErrors::tr("%1 takes no idempotency token, and the earlier request of ledger entry %2 may have "
                                "started an instance that %1 does not list yet; GPU Planner resends it only when that "
                                "can no longer be, in %n minute(s) (or `gpuplan instances` finds the instance first)",
                                nullptr,
                                minutes)
            .arg(providerDisplayName(p.text("provider").toStdString()), p.text("entry"));
    }
    if (key == "error.launch.no_capacity_anywhere") {
        return LedgerErrors::tr("no capacity for %1 in any zone of %2 (tried %3); try another region or later (GPU "
                                "Planner does not switch regions without asking)")
            .arg(p.text("instance_type"), p.text("region"), p.text("zones"));
    }
    if (key == "error.launch.no_public_address") {
        return LedgerErrors::tr("it runs but has no public address to reach SSH on");
    }
    if (key == "error.launch.ssh_wait_cancelled") {
        return LedgerErrors::tr("stopped waiting for SSH");
    }
    if (key == "error.launch.ssh_timeout") {
        return LedgerErrors::tr(
                   "SSH (port %1) does not answer after %2 s; the instance runs and bills: check it, or terminate it")
            .arg(p.text("port"), p.text("seconds"));
    }
    if (key == "error.launch.no_entry") {
        return LedgerErrors::tr("no such entry in the ledger");
    }
    if (key == "error.launch.other_provider") {
        return LedgerErrors::tr("this entry belongs to %1").arg(p.text("provider"));
    }
    if (key == "error.launch.not_named_yet") {
        return LedgerErrors::tr("the provider has not named this launch's instance yet; reconcile first (`gpuplan "
                                "instances --reconcile`)");
    }
    if (key == "error.launch.still_live") {
        return LedgerErrors::tr("%1 still reports it %2 after the request to terminate it; the ledger keeps it live: "
                                "terminate it again")
            .arg(p.text("provider"), p.text("state"));
    }
    if (key == "error.launch.not_visible_yet") {
        return LedgerErrors::tr("%1 does not show this instance yet (it was launched moments ago), so it may not have "
                                "been terminated; the ledger keeps it live: terminate it again in a minute")
            .arg(p.text("provider"));
    }
    if (key == "error.reconcile.no_catalog") {
        return LedgerErrors::tr("no catalog was loaded");
    }
    if (key == "error.reconcile.payment_unknown") {
        return LedgerErrors::tr("%1 does not say how it is paid for (a prepaid instance's period is not listed)")
            .arg(p.text("provider"));
    }
    if (key == "error.reconcile.no_entry") {
        return LedgerErrors::tr("no such ledger entry");
    }
    if (key == "error.reconcile.no_credential") {
        return LedgerErrors::tr("no credential");
    }
    if (key == "error.launch.nothing_to_wait_for") {
        return LedgerErrors::tr("this launch has no instance to wait for yet");
    }
    return {};
}

/// An entry's detail (core::LedgerEntry::detail).
QString ledgerNote(const core::Reason& reason, const ReasonParams& p)
{
    const std::string& key = reason.key;
    if (key == "ledger.reopened") {
        return LedgerErrors::tr("reopened: %1 shows it %2 after the ledger had closed it (%3)")
            .arg(p.text("provider"), p.text("state"), keptReason(p, "earlier"));
    }
    if (key == "ledger.never_sent") {
        return LedgerErrors::tr("never sent (the program stopped before the request)");
    }
    if (key == "ledger.closed_unsent") {
        return LedgerErrors::tr("never sent");
    }
    if (key == "ledger.never_seen") {
        return LedgerErrors::tr("outcome unknown: the provider never showed an instance for its token in the %1 "
                                "minutes after the request (never seen); reconciliation reopens it if one shows up")
            .arg(p.text("minutes"));
    }
    if (key == "ledger.adopted") {
        return LedgerErrors::tr("found at the provider by reconciliation; its price at launch is unknown");
    }
    if (key == "ledger.adopted_priced") {
        return LedgerErrors::tr("found at the provider by reconciliation; costed at the catalog's %1 price of %2 in "
                                "%3, %4 (its price at launch is unknown)")
            .arg(p.text("pricing_mode"), p.text("instance_type"), p.text("region"), price(p));
    }
    if (key == "ledger.outcome_unknown") {
        return LedgerErrors::tr("outcome unknown: %1; launching the same again resends it with its token")
            .arg(keptError(p));
    }
    if (key == "ledger.refused") {
        return keptError(p); // the provider's refusal, where and what
    }
    if (key == "ledger.terminate_refused") {
        return LedgerErrors::tr("terminate refused: %1").arg(keptError(p));
    }
    if (key == "ledger.job_ended") {
        const QString outcome = p.text("outcome");
        if (outcome == QLatin1String("succeeded")) {
            return LedgerErrors::tr("the job finished (%1)").arg(p.text("provider_state"));
        }
        if (outcome == QLatin1String("cancelled")) {
            return LedgerErrors::tr("the job was cancelled (%1)").arg(p.text("provider_state"));
        }
        if (outcome == QLatin1String("failed")) {
            return LedgerErrors::tr("the job failed (%1): its log says why").arg(p.text("provider_state"));
        }
        return LedgerErrors::tr("the job ended (%1)").arg(p.text("provider_state"));
    }
    if (key == "ledger.resumed") {
        return LedgerErrors::tr("resumed after its outcome was unknown: this is its instance");
    }
    return {};
}

/// What reconciling did (core::ReconcileReport::notes).
QString reconcileNote(const core::Reason& reason, const ReasonParams& p)
{
    const std::string& key = reason.key;
    const bool stopped = p.text("stopped") == QLatin1String("true");
    if (key == "reconcile.adopted") {
        return LedgerErrors::tr("%1 runs an instance of ours the ledger did not have; recorded as entry %2")
            .arg(p.text("provider"), p.text("entry"));
    }
    if (key == "reconcile.closed_failed") {
        return LedgerErrors::tr("entry %1 closed as failed: %2").arg(p.text("entry"), keptReason(p, "detail"));
    }
    if (key == "reconcile.ended_outside") {
        return LedgerErrors::tr("entry %1 ended at %2 (outside this program); closed")
            .arg(p.text("entry"), p.text("provider"));
    }
    if (key == "reconcile.job_ended") {
        const QString outcome = p.text("outcome");
        if (outcome == QLatin1String("succeeded")) {
            return LedgerErrors::tr("job %1 finished; closed").arg(p.text("entry"));
        }
        if (outcome == QLatin1String("cancelled")) {
            return LedgerErrors::tr("job %1 was cancelled; closed").arg(p.text("entry"));
        }
        if (outcome == QLatin1String("failed")) {
            return LedgerErrors::tr("job %1 failed; closed (its log says why)").arg(p.text("entry"));
        }
        return LedgerErrors::tr("job %1 ended; closed").arg(p.text("entry"));
    }
    if (key == "reconcile.reopened") {
        return LedgerErrors::tr("entry %1 (%2) is live at %3 after the ledger had closed it; reopened")
            .arg(p.text("entry"), p.text("instance"), p.text("provider"));
    }
    if (key == "reconcile.adopted_priced") {
        return LedgerErrors::tr("%1, adopted, is costed at the catalog's %2 price of %3 in %4: %5")
            .arg(entryName(p), p.text("pricing_mode"), p.text("instance_type"), p.text("region"), price(p));
    }
    if (key == "reconcile.adopted_price_failed") {
        return LedgerErrors::tr("%1, adopted, could not be given the catalog's price: %2")
            .arg(entryName(p), keptError(p));
    }
    if (key == "reconcile.adopted_no_price") {
        return LedgerErrors::tr("%1, adopted: no price is known for it (%2), so its cost and the budgets leave it out")
            .arg(entryName(p), keptError(p));
    }
    if (key == "reconcile.deadman_terminated") {
        return stopped ? LedgerErrors::tr("the dead-man of %1 passed %2 ago and the instance is still there "
                                          "(stopped): terminated it")
                             .arg(entryName(p), duration(p, "seconds"))
                       : LedgerErrors::tr("the dead-man of %1 passed %2 ago and the instance still runs: terminated it")
                             .arg(entryName(p), duration(p, "seconds"));
    }
    if (key == "reconcile.deadman_not_terminated") {
        return stopped ? LedgerErrors::tr("the dead-man of %1 passed %2 ago and the instance is still there "
                                          "(stopped): could NOT terminate it: %3")
                             .arg(entryName(p), duration(p, "seconds"), keptError(p))
                       : LedgerErrors::tr("the dead-man of %1 passed %2 ago and the instance still runs: could NOT "
                                          "terminate it: %3")
                             .arg(entryName(p), duration(p, "seconds"), keptError(p));
    }
    if (key == "reconcile.budgets_unchecked") {
        return LedgerErrors::tr("the plans' budgets were NOT checked: the catalog has no USD-CNY exchange rate "
                                "(exchange_rate.json in the catalog folder)");
    }
    if (key == "reconcile.budget_terminated") {
        return LedgerErrors::tr("plan %1 has spent its budget: entry %2 (%3) terminated")
            .arg(p.text("plan"), p.text("entry"), p.text("instance"));
    }
    if (key == "reconcile.budget_not_terminated") {
        return LedgerErrors::tr("plan %1 has spent its budget: entry %2 (%3) could NOT be terminated: %4")
            .arg(p.text("plan"), p.text("entry"), p.text("instance"), keptError(p));
    }
    return {};
}

} // namespace

QString ledgerErrorText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    if (reason.key.starts_with("error.ledger.")) {
        return ledgerError(reason, p);
    }
    if (reason.key.starts_with("error.launch.") || reason.key.starts_with("error.reconcile.")) {
        return launchError(reason, p);
    }
    if (reason.key.starts_with("ledger.")) {
        return ledgerNote(reason, p);
    }
    if (reason.key.starts_with("reconcile.")) {
        return reconcileNote(reason, p);
    }
    return {};
}

} // namespace gpuplan::ui::errorwording
