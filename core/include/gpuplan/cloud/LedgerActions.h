#pragma once

#include "gpuplan/catalog/Catalog.h"
#include "gpuplan/catalog/Money.h"
#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/ledger/Ledger.h"
#include "gpuplan/net/HttpClient.h"
#include "gpuplan/net/signers/Signing.h"
#include "gpuplan/secrets/Credential.h"

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
    std::map<std::string, std::string> settings; // the credential's plain fields (ProviderContext::settings)
};

/// A stored credential as what connectProvider needs: its key (providerKeyFrom: the key id and the secret), and its
/// plain fields (Credential fields of kind Plain: Huawei's project id, Azure's tenant) as settings. Credentials naming
/// what is missing.
Result<CloudAccess> cloudAccessFrom(const Credential& credential, std::string endpoint);

/// The provider of `access.provider` from the registry, signing with its key over `http`: its instances, or with
/// LaunchKind::Job its managed job service. UnknownProvider naming the known ones.
Result<std::unique_ptr<CloudProvider>>
connectProvider(const CloudAccess& access, HttpTransport& http, LaunchKind kind = LaunchKind::Instance);

/// What reconciling did, one note each ("reconcile.adopted" {provider, entry}, worded by ui/wording); and the
/// providers that could not be asked, with why.
struct ReconcileReport
{
    std::vector<Reason> notes;
    std::map<std::string, Error> failures;
};

/// How long an instance may still run after its dead-man before reconciliation terminates it through the provider.
/// The watchdog inside the instance shuts it down at the dead-man (CVM's own timer terminates it then), and the
/// provider takes minutes to end it; still running half an hour later, the watchdog has failed (a hanging
/// shutdown, an image without cloud-init) and the instance bills on.
inline constexpr std::int64_t kDeadmanBackstopSeconds = 30 * 60;

/// Reconciles the ledger with one provider (Launcher::reconcile, at `now`), then:
/// - gives each live adopted entry whose price is unknown the catalog's price for its provider, region, type and
///   pricing mode (the provider says the mode); a newly adopted one without a known price is left at none, and the
///   notes say so (its cost is not counted);
/// - terminates (Launcher::terminate) each live entry whose dead-man passed more than kDeadmanBackstopSeconds ago;
///   the entry is closed once the provider shows the instance terminated. Entries without a dead-man are left alone.
/// What it did, one note each ("reconcile.*" keys; an error inside one is its "error" (detailJson of its reason) and
/// "where"); the provider's error when it could not list our instances (nothing
/// else is done then). `catalog` may be null (no prices). Blocks; not thread safe.
Result<std::vector<Reason>>
reconcileWithProvider(CloudProvider& provider, Ledger& ledger, const Catalog* catalog, std::int64_t now);

/// reconcileWithProvider with each provider in `access` (and its managed job service where it has one), then terminates
/// the instances of plans launched with terminate-at-budget whose spending reached the budget (converted with `rate`;
/// skipped without one). `catalog` prices adopted instances (none without it).
ReconcileReport reconcileLedger(const std::vector<CloudAccess>& access,
                                Ledger& ledger,
                                HttpTransport& http,
                                const std::optional<ExchangeRate>& rate,
                                std::int64_t now,
                                const Catalog* catalog = nullptr);

/// Terminates each entry through its provider (whose access must be in `access`; Credentials otherwise), and
/// records the answer (Launcher::terminate). The errors by entry id; empty when every one was asked.
std::map<std::int64_t, Error> terminateEntries(const std::vector<std::int64_t>& entryIds,
                                               const std::vector<CloudAccess>& access,
                                               Ledger& ledger,
                                               HttpTransport& http);

} // namespace gpuplan::core
