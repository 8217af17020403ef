#pragma once

#include "gpuplan/core/Result.h"

#include <string>
#include <string_view>

namespace gpuplan::core {

/// The bounds of the watchdog's rules: the one set the CLI, the GUI (its spin boxes) and the script
/// (check_config in resources/scripts/gpuplan-watchdog.sh) use. The script checks the same numbers, and
/// TestWatchdogRules fails when the two drift apart. A dead-man of more than a year is no dead-man.
constexpr int kMaxDeadmanHours = 8760; // 365 days
constexpr int kMaxIdleMinutes = 10080; // 7 days
constexpr int kMinIdlePercent = 1;
constexpr int kMaxIdlePercent = 100;
constexpr int kMinCheckSeconds = 1;
constexpr int kMaxCheckSeconds = 86400;    // one day
constexpr int kMaxIdleGraceMinutes = 1440; // one day

/// The rules resources/scripts/gpuplan-watchdog.sh enforces on an instance (see its header). 0 turns a rule off.
struct WatchdogRules
{
    int deadmanHours = 12; // shut down this many hours after boot, whatever the GPUs do
    int idleMinutes = 60;  // shut down after this long with every GPU below idlePercent
    int idlePercent = 5;
    int checkSeconds = 60;
    int idleGraceMinutes = 30;      // idle time counts only after this long: the user's set-up is not idleness
    bool shutdownTerminates = true; // what the script's shutdown does, said in its log (EC2: terminate; CVM: stop)
    /// Whether that shutdown stops the bill (a terminate, or a stop on CVM, ECS, GCE); false on Azure and Lambda, where
    /// only a delete does, which GPU Planner's reconcile makes once the dead-man is past.
    bool shutdownStopsBilling = true;
};

/// Which rule a WatchdogRules check refused, in Error::where: the front ends name their own field for it (the
/// CLI's --hours, the GUI's spin box).
inline constexpr const char* kDeadmanField = "deadman_hours";
inline constexpr const char* kIdleMinutesField = "idle_minutes";
inline constexpr const char* kIdlePercentField = "idle_percent";
inline constexpr const char* kCheckSecondsField = "check_seconds";
inline constexpr const char* kIdleGraceField = "idle_grace_minutes";

/// OK when every rule lies within the bounds above, so that the script installs exactly these rules; else
/// InvalidArgument whose `where` is the rule's field (kDeadmanField, ...) and whose reason gives the bounds.
/// Thread safety: pure.
Status checkWatchdogRules(const WatchdogRules& rules);

/// The script with its "filled in by GPU Planner" defaults set to `rules`, ready to be the instance's user-data.
/// InvalidArgument from checkWatchdogRules when a rule is out of bounds (the script would not install it as
/// given), or naming the script when it lacks one of the four defaults.
Result<std::string> watchdogUserData(std::string_view script, const WatchdogRules& rules);

/// `text` gzip-compressed, as cloud-init takes user-data (https://cloudinit.readthedocs.io/en/latest/explanation/
/// format.html: gzip-compressed content is uncompressed first). EC2 and CVM take at most 16 KB of base64-encoded
/// user-data; the watchdog script alone is close to that, compressed it is about a third. The bytes are the same
/// for the same text (no time stamp in the header), so a resent launch sends the same request.
std::string gzipUserData(std::string_view text);

/// User data as text, for the providers whose API takes it as a string (GCE's startup-script metadata, Lambda's
/// user_data, the script Paperspace runs at start): gzip-compressed data (gzipUserData, what LaunchSetup makes) is
/// uncompressed; anything else is returned as it is.
std::string userDataText(std::string_view userData);

/// The dead-man's default from the plan: its high estimate of the run's hours with a quarter more and one hour
/// of set-up, rounded up to whole hours (the script takes whole hours), at most kMaxDeadmanHours (an estimate
/// longer than that still gets a dead-man, never "off"). 12 when there is no estimate.
int defaultDeadmanHours(double estimatedHoursHigh);

} // namespace gpuplan::core
