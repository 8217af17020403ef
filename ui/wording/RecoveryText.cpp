// A spot run's interruptions and its recovery (core/run/SpotRecovery.h), in the reader's language.
#include "wording/RecoveryText.h"

#include "wording/ErrorText.h"
#include "wording/Format.h"
#include "wording/LaunchText.h"
#include "wording/RunText.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

namespace gpuplan::ui {

namespace {

/// The translation context of these texts.
struct RecoveryText
{
    Q_DECLARE_TR_FUNCTIONS(RecoveryText)
};

QString timeText(std::int64_t unix)
{
    return QLocale().toString(QDateTime::fromSecsSinceEpoch(unix).time(), QStringLiteral("HH:mm:ss"));
}

QString whyText(const core::Reason& why)
{
    if (why.key == "recovery.same_zone") {
        return RecoveryText::tr("the same zone");
    }
    if (why.key == "recovery.other_zones") {
        return RecoveryText::tr("the region's other zones");
    }
    if (why.key == "recovery.other_region") {
        return RecoveryText::tr("another region of the plan");
    }
    if (why.key == "recovery.other_provider") {
        return RecoveryText::tr("another provider of the plan");
    }
    return QString::fromStdString(why.key);
}

} // namespace

QString relaunchCandidateText(const core::RelaunchCandidate& c)
{
    const QString where = QStringLiteral("%1 %2 %3")
                              .arg(QString::fromStdString(c.provider),
                                   QString::fromStdString(c.instanceType),
                                   QString::fromStdString(c.zone.empty() ? c.region : c.zone));
    return c.pricing == core::LaunchPricing::OnDemand ? RecoveryText::tr("%1, on demand: %2").arg(where, whyText(c.why))
                                                      : RecoveryText::tr("%1, spot: %2").arg(where, whyText(c.why));
}

QString recoveryProgressText(const core::RecoveryProgress& p)
{
    switch (p.step) {
        case core::RecoveryStep::Interrupted:
            return RecoveryText::tr("the spot instance was reclaimed: recovering, attempt %1").arg(p.attempt);
        case core::RecoveryStep::TerminatingOld:
            return RecoveryText::tr("terminating the reclaimed instance, so that it bills nothing more");
        case core::RecoveryStep::Launching:
            return p.candidate ? RecoveryText::tr("relaunching on %1").arg(relaunchCandidateText(*p.candidate))
                               : QString();
        case core::RecoveryStep::CandidateRefused:
            return RecoveryText::tr("%1: not there (%2)")
                .arg(p.candidate ? relaunchCandidateText(*p.candidate) : QString(),
                     p.error ? errorText(*p.error) : QString());
        case core::RecoveryStep::Launch:
            return p.launch ? launchProgressText(*p.launch) : QString();
        case core::RecoveryStep::Starting:
            if (p.run && !p.run->note.empty()) {
                return runReasonText(p.run->note);
            }
            return RecoveryText::tr("starting the job again, from the bucket's newest checkpoint");
        case core::RecoveryStep::Resumed:
            return RecoveryText::tr("attempt %1 runs: resumed from the bucket's newest checkpoint").arg(p.attempt);
    }
    return {};
}

QString attemptEndText(const core::RunAttempt& a)
{
    if (a.end.empty()) {
        return a.remoteDir.empty() ? RecoveryText::tr("starting") : RecoveryText::tr("running");
    }
    if (a.end == "interrupted") {
        QString text = a.noticeAt ? RecoveryText::tr("reclaimed (notice at %1)").arg(timeText(*a.noticeAt))
                                  : RecoveryText::tr("reclaimed without a notice");
        text += a.checkpointAt ? RecoveryText::tr("; checkpoint in the bucket at %1").arg(timeText(*a.checkpointAt))
                               : RecoveryText::tr("; no checkpoint reached the bucket");
        return text;
    }
    if (a.end == "finished") {
        return RecoveryText::tr("finished");
    }
    if (a.end == "failed") {
        return RecoveryText::tr("failed");
    }
    if (a.end == "stopped") {
        return RecoveryText::tr("stopped");
    }
    return RecoveryText::tr("never ran");
}

QString spotNoticeText(const core::SpotNotice& n)
{
    if (n.kind == "shutdown") {
        return RecoveryText::tr("the instance is shutting down (%1): checkpointing before %2")
            .arg(QString::fromStdString(n.provider), timeText(n.deadline));
    }
    return RecoveryText::tr("%1 gave its spot interruption notice at %2: the instance goes at %3; checkpointing")
        .arg(QString::fromStdString(n.provider), timeText(n.seen), timeText(n.deadline));
}

QString runTotalsText(const core::RunTotals& t, const core::PlannedRun& planned)
{
    const QString attempts =
        t.attempts == 1 ? RecoveryText::tr("1 attempt") : RecoveryText::tr("%1 attempts").arg(t.attempts);
    const QString interruptions = t.interruptions == 1 ? RecoveryText::tr("1 interruption")
                                                       : RecoveryText::tr("%1 interruptions").arg(t.interruptions);
    const QString cost = t.cost                    ? formatMoney(*t.cost, QString::fromStdString(t.currency))
                         : t.costInMixedCurrencies ? RecoveryText::tr("cost in several currencies")
                                                   : RecoveryText::tr("cost unknown");
    QString text = RecoveryText::tr("%1, %2, %3 lost; %4").arg(attempts, interruptions, formatHours(t.lostHours), cost);
    if (planned.spotCostP50 && planned.spotCostP90) {
        const QString currency = QString::fromStdString(planned.currency);
        text += QStringLiteral(" ")
                + RecoveryText::tr("(plan P50 %1, P90 %2)")
                      .arg(formatMoney(*planned.spotCostP50, currency), formatMoney(*planned.spotCostP90, currency));
    } else if (planned.spotHoursP50 && planned.spotHoursP90) {
        text += QStringLiteral(" ")
                + RecoveryText::tr("(plan P50 %1, P90 %2)")
                      .arg(formatHours(*planned.spotHoursP50), formatHours(*planned.spotHoursP90));
    }
    return text;
}

} // namespace gpuplan::ui
