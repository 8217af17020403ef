#pragma once

#include "gpuplan/cloud/LaunchWorkflow.h"
#include "gpuplan/cloud/Launcher.h"
#include "gpuplan/ledger/Ledger.h"

#include <QString>
#include <QStringList>

namespace gpuplan::ui {

/// A step of a launch in the reader's language: "Recorded the launch in the ledger (entry 3, token gpuplan-…)",
/// "i-0abc is starting in us-east-1b". The Launch page shows it as its status, `gpuplan launch` prints it.
QString launchProgressText(const core::LaunchProgress& progress);

/// What a provider found or set up on the way to a launch (core::LaunchResult::steps, "step.<what>"), in the reader's
/// language: "Imported key pair gpuplanner-1a2b", "Security group sg-1 (gpuplanner-ssh-…) opens SSH to 203.0.113.7/32
/// only". `gpuplan launch` prints them. A key this version does not word reads as the key and its parameters.
QString launchStepText(const core::Reason& step);

/// What a launch will cost and do, a line each, for the user's yes or no: the Launch page's dialog and `gpuplan
/// launch`'s summary say the same. The instance, provider, zone, way of paying and price; the provider's own price
/// now, or why it could not be asked; a prepaid period and what terminating it refunds; a spot bid; what the dead-man
/// and the idle rule do to the machine and to its bill; where SSH is open; a dry run.
QStringList launchConfirmationLines(const core::LaunchConfirmation& confirmation);

/// A launch of the ledger as the pages that log in to one list it: "#3 aws p4d.24xlarge i-0abc (running)".
QString launchEntryText(const core::LedgerEntry& entry);

} // namespace gpuplan::ui
