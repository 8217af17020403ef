#pragma once

#include "gpuplan/core/Reason.h"

#include <QString>

namespace gpuplan::ui {

/// What core says about a run as it goes (run.*: advice, throttle reasons, monitor notes), in the reader's language.
/// A key this version does not word reads as the key and its parameters.
QString runReasonText(const core::Reason& reason);

} // namespace gpuplan::ui
