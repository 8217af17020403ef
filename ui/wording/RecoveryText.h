#pragma once

#include "gpuplan/run/SpotRecovery.h"

#include <QString>

namespace gpuplan::ui {

/// A step of a spot recovery (core/run/SpotRecovery.h), as the Run page and `gpuplan run --recover` say it.
QString recoveryProgressText(const core::RecoveryProgress& progress);

/// Where a recovery may relaunch, and why it is in the order: "aws us-east-1b, spot: the same zone".
QString relaunchCandidateText(const core::RelaunchCandidate& candidate);

/// How an attempt ended: "reclaimed (notice at 10:02, checkpoint synced 10:02)", "finished", "running".
QString attemptEndText(const core::RunAttempt& attempt);

/// A spot notice the watcher saw: "termination notice from aws, the instance goes at 10:04".
QString spotNoticeText(const core::SpotNotice& notice);

/// A run's attempts in one line, against the plan's spot percentiles where it had them: "2 attempts, 1 interruption,
/// 0.4 h lost; $3.10 (plan P50 $2.80, P90 $3.40)".
QString runTotalsText(const core::RunTotals& totals, const core::PlannedRun& planned);

} // namespace gpuplan::ui
