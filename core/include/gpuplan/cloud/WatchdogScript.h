#pragma once

#include "gpuplan/core/Result.h"

#include <string>
#include <string_view>

namespace gpuplan::core {

/// The rules resources/scripts/gpuplan-watchdog.sh enforces on an instance (see its header). 0 turns a rule off.
struct WatchdogRules
{
    int deadmanHours = 12; // shut down this many hours after boot, whatever the GPUs do
    int idleMinutes = 60;  // shut down after this long with every GPU below idlePercent
    int idlePercent = 5;
    int checkSeconds = 60;
};

/// The script with its "filled in by GPU Planner" defaults set to `rules`, ready to be the instance's user-data.
/// InvalidArgument naming the line when the script lacks one of the four defaults, or a rule is out of range
/// (negative; idlePercent outside 1-100; checkSeconds below 1).
Result<std::string> watchdogUserData(std::string_view script, const WatchdogRules& rules);

/// `text` gzip-compressed, as cloud-init takes user-data (https://cloudinit.readthedocs.io/en/latest/explanation/
/// format.html: gzip-compressed content is uncompressed first). EC2 and CVM take at most 16 KB of base64-encoded
/// user-data; the watchdog script alone is close to that, compressed it is about a third. The bytes are the same
/// for the same text (no time stamp in the header), so a resent launch sends the same request.
std::string gzipUserData(std::string_view text);

/// The dead-man's default from the plan: its high estimate of the run's hours with a quarter more and one hour
/// of set-up, rounded up to whole hours (the script takes whole hours). 12 when there is no estimate.
int defaultDeadmanHours(double estimatedHoursHigh);

} // namespace gpuplan::core
