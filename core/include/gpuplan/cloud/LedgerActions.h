#pragma once

#include "gpuplan/catalog/Money.h"
#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/net/HttpClient.h"
#include "gpuplan/net/signers/Signing.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// What `gpuplan instances`, `gpuplan terminate` and the Instances page do to the ledger's instances across
// providers, in one place. Calls block (network, SQLite); not thread safe (the ledger is not).
namespace gpuplan::core {

/// One provider's API key and where its API is (endpointOverride, else the public endpoint).
struct CloudAccess
{
    std::string provider;
    AccessKey key;
    std::string endpoint;
};

/// The provider of `access.provider` from the registry, signing with its key over `http`. UnknownProvider naming
/// the known ones.
Result<std::unique_ptr<CloudProvider>> connectProvider(const CloudAccess& access, HttpTransport& http);

/// What reconciling did, in plain English, one line each; and the providers that could not be asked, with why.
struct ReconcileReport
{
    std::vector<std::string> notes;
    std::map<std::string, Error> failures;
};

/// Reconciles the ledger with each provider in `access` (Launcher::reconcile), then terminates the instances of
/// plans launched with terminate-at-budget whose spending reached the budget (converted with `rate`; skipped
/// without one).
ReconcileReport reconcileLedger(const std::vector<CloudAccess>& access,
                                Ledger& ledger,
                                HttpTransport& http,
                                const std::optional<ExchangeRate>& rate,
                                std::int64_t now);

/// Terminates each entry through its provider (whose access must be in `access`; Credentials otherwise), and
/// records the answer (Launcher::terminate). The errors by entry id; empty when every one was asked.
std::map<std::int64_t, Error> terminateEntries(const std::vector<std::int64_t>& entryIds,
                                               const std::vector<CloudAccess>& access,
                                               Ledger& ledger,
                                               HttpTransport& http);

} // namespace gpuplan::core
