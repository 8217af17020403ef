#pragma once

#include "gpuplan/cloud/Launcher.h"

#include <QString>

namespace gpuplan::ui {

/// A step of a launch in the reader's language: "Recorded the launch in the ledger (entry 3, token gpuplan-…)",
/// "i-0abc is starting in us-east-1b". The Launch page shows it as its status, `gpuplan launch` prints it.
QString launchProgressText(const core::LaunchProgress& progress);

} // namespace gpuplan::ui
