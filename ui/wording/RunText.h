#pragma once

#include "gpuplan/core/Reason.h"
#include "gpuplan/ledger/Ledger.h"

#include <optional>

#include <QString>

namespace gpuplan::ui {

/// What core says about a run as it goes (run.*: advice, throttle reasons, monitor notes), in the reader's language.
/// A key this version does not word reads as the key and its parameters.
QString runReasonText(const core::Reason& reason);

/// Where a run stands: "running", "finished", "failed (exit 1)", "stopped", "lost".
QString runStateText(core::RunState state, std::optional<int> exitCode = std::nullopt);

} // namespace gpuplan::ui
