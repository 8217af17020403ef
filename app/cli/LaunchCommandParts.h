// What `launch` (LaunchCommands.cpp) shares with `instances` and `terminate` (InstancesCommands.cpp): the exit code
// of an error, the network options, a provider's stored access, the confirmation question and a ledger entry as
// JSON. Private to app/cli.
#pragma once

#include "LaunchCommands.h"
#include "secrets/CredentialStore.h"

#include "gpuplan/catalog/Money.h"
#include "gpuplan/cloud/LedgerActions.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/net/HttpClient.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace gpuplan::cli::launching {

using json = nlohmann::ordered_json;

/// Prints the error; kExitBadInput for what the user can correct (a flag, a file, the budget), else kExitFailure.
int fail(const core::Error& error);
/// Prints the message; kExitBadInput.
int badInput(const std::string& message);
/// The HTTP options of this run: Settings -> Network of the GUI (read after makeApplication), then the flags. A CA
/// file that cannot be read is refused here, before anything is sent.
core::Result<core::HttpOptions> httpOptions(const NetworkOptions& flags);
/// The provider's stored key, and its endpoint.
core::Result<core::CloudAccess> cloudAccess(const std::string& provider, ui::CredentialStore& store);
/// The amount with its currency, to the cent.
std::string money(double amount, core::Currency currency);
/// Asks `question` on the terminal; true for y or yes.
bool confirm(const std::string& question);
/// A ledger entry as `gpuplan instances --json` and `gpuplan launch --json` print it.
json entryJson(const core::LedgerEntry& e, std::int64_t now);

} // namespace gpuplan::cli::launching
