#include "CatalogCommands.h"

#include "TerminalOutput.h"
#include "wording/CatalogText.h"
#include "wording/ErrorText.h"

#include "CredsCommands.h"
#include "TextTable.h"
#include "secrets/CredentialStore.h"

#include "gpuplan/catalog/CatalogChecks.h"
#include "gpuplan/catalog/CatalogJson.h"
#include "gpuplan/catalog/CatalogLoader.h"
#include "gpuplan/net/HttpClient.h"
#include "gpuplan/prices/PriceRefresh.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>

namespace gpuplan::cli {

using core::Catalog;
using core::Error;
using core::Finding;
using core::LoadedCatalog;
using nlohmann::json;
using Align = TextTable::Align;

namespace {

std::string number(double value)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

std::string numberOrUnknown(const std::optional<double>& value)
{
    return value ? number(*value) : "-";
}

/// JSON text that survives file names which are not UTF-8.
std::string dump(const json& document)
{
    return document.dump(2, ' ', false, json::error_handler_t::replace);
}

void printProblems(const std::vector<Error>& problems)
{
    for (const Error& problem : problems) {
        std::cerr << "gpuplan: " << said(problem) << '\n';
    }
}

void printFindings(const std::vector<Finding>& findings)
{
    for (const Finding& finding : findings) {
        std::cerr << "gpuplan: warning: " << said(finding) << '\n';
    }
}

/// One line for what the checks flag in the whole catalog: how many prices of each kind, and where the list is.
void printFindingsSummary(const std::vector<Finding>& findings)
{
    if (findings.empty()) {
        return;
    }
    std::map<Finding::Kind, int> counts;
    for (const Finding& finding : findings) {
        ++counts[finding.kind];
    }
    const std::pair<Finding::Kind, const char*> words[] = {
        {Finding::Kind::StalePrice, "old"},
        {Finding::Kind::UndatedPrice, "undated"},
        {Finding::Kind::PriceOutlier, "far from other providers' prices"},
        {Finding::Kind::SpotAboveOnDemand, "spot above on-demand"},
        {Finding::Kind::FutureDate, "dated in the future"},
    };
    std::string parts;
    for (const auto& [kind, word] : words) {
        if (counts.contains(kind)) {
            parts += (parts.empty() ? "" : ", ") + std::to_string(counts[kind]) + " " + word;
        }
    }
    std::cerr << "gpuplan: " << findings.size() << (findings.size() == 1 ? " price" : " prices") << " to check ("
              << parts << "); 'gpuplan catalog validate' lists them\n";
}

json problemsJson(const std::vector<Error>& problems)
{
    json list = json::array();
    for (const Error& problem : problems) {
        list.push_back({{"code", core::errorCodeName(problem.code)},
                        {"where", problem.where},
                        {"detail", ui::errorDetailText(problem).toStdString()},
                        {"key", problem.reason.key}});
    }
    return list;
}

json findingsJson(const std::vector<Finding>& findings)
{
    json list = json::array();
    for (const Finding& finding : findings) {
        list.push_back({{"kind", core::findingKindName(finding.kind)},
                        {"where", finding.where},
                        {"detail", ui::findingDetailText(finding).toStdString()},
                        {"params", finding.params}});
    }
    return list;
}

/// Loads the catalog, or prints why not and sets the exit code. A catalog with problems still loads.
std::optional<LoadedCatalog> load(const CatalogOptions& options, int& exitCode)
{
    core::Result<LoadedCatalog> loaded =
        core::loadCatalog(options.catalogDir, options.userCatalogDir, options.pricesDir);
    if (!loaded) {
        std::cerr << "gpuplan: cannot load the catalog: " << said(loaded.error()) << '\n';
        // A folder the user named is bad input; a broken installation is another failure.
        exitCode = options.catalogDirGiven ? kExitBadInput : kExitFailure;
        return std::nullopt;
    }
    return std::move(loaded).value();
}

core::CheckOptions checkOptions(const CatalogOptions& options)
{
    core::CheckOptions checks;
    checks.today = core::todayUtc();
    checks.maxPriceAgeDays = options.maxPriceAgeDays;
    return checks;
}

std::string regionCell(const core::RegionalOffer& row)
{
    if (!row.region.empty()) {
        return row.region;
    }
    const auto& regions = row.offer.availableRegions;
    if (regions.empty()) {
        return "unknown";
    }
    return regions.size() == 1 ? regions.front()
                               : regions.front() + " +" + std::to_string(regions.size() - 1) + " more";
}

std::string flagsCell(const core::Offer& offer)
{
    std::string flags;
    auto add = [&](const std::string& flag) { flags += (flags.empty() ? "" : " ") + flag; };
    if (offer.service != core::ServiceKind::Vm) {
        add(core::serviceKindName(offer.service));
    }
    if (offer.rdma.value_or(false)) {
        add("rdma");
    }
    if (offer.bareMetal.value_or(false)) {
        add("isolated");
    }
    if (offer.mig.value_or(false)) {
        add("mig");
    }
    if (offer.origin == core::OfferOrigin::UserAdded) {
        add("user");
    } else if (offer.origin == core::OfferOrigin::UserOverride) {
        add("user-override");
    }
    return flags.empty() ? "-" : flags;
}

std::string priceCell(const std::optional<core::Price>& price)
{
    return price ? core::formatMoney(price->amount, price->currency) : "unknown";
}

std::string
convertedCell(const std::optional<core::Price>& price, const core::ExchangeRate& rate, core::Currency currency)
{
    if (!price) {
        return "unknown";
    }
    return core::formatMoney(rate.convert(price->amount, price->currency, currency), currency, 2);
}

} // namespace

int runGpus(const CatalogOptions& options)
{
    int exitCode = kExitOk;
    std::optional<LoadedCatalog> loaded = load(options, exitCode);
    if (!loaded) {
        return exitCode;
    }
    const Catalog& catalog = loaded->catalog;
    if (options.json) {
        json gpus = json::array();
        for (const core::GpuSpec& gpu : catalog.gpus()) {
            gpus.push_back(core::toJson(gpu));
        }
        std::cout << dump(json{{"gpus", gpus}, {"problems", problemsJson(loaded->problems)}}) << '\n';
    } else {
        TextTable table({{"ID"},
                         {"NAME"},
                         {"ARCH"},
                         {"CC"},
                         {"MEMORY", Align::Right},
                         {"GB/S", Align::Right},
                         {"FP32", Align::Right},
                         {"TF32", Align::Right},
                         {"FP16", Align::Right},
                         {"BF16", Align::Right},
                         {"FP8", Align::Right},
                         {"TDP W", Align::Right},
                         {"CONFIDENCE"}});
        for (const core::GpuSpec& gpu : catalog.gpus()) {
            table.addRow({gpu.id,
                          gpu.name,
                          gpu.architecture,
                          gpu.computeCapability.empty() ? "-" : gpu.computeCapability,
                          number(gpu.memoryGb) + " GB " + gpu.memoryType,
                          numberOrUnknown(gpu.memoryBandwidthGBs),
                          numberOrUnknown(gpu.peak.fp32),
                          numberOrUnknown(gpu.peak.tf32),
                          numberOrUnknown(gpu.peak.fp16),
                          numberOrUnknown(gpu.peak.bf16),
                          numberOrUnknown(gpu.peak.fp8),
                          numberOrUnknown(gpu.tdpWatts),
                          core::confidenceName(gpu.confidence)});
        }
        table.print(std::cout);
        std::cout << '\n'
                  << catalog.gpus().size()
                  << " GPUs. Dense datasheet peaks in TFLOPS; '-' means the GPU has no such unit or the datasheet "
                     "does not state it. Sources: gpuplan gpus --json\n";
    }
    printProblems(loaded->problems);
    return loaded->problems.empty() ? kExitOk : kExitBadInput;
}

int runCatalog(const CatalogOptions& options)
{
    int exitCode = kExitOk;
    std::optional<LoadedCatalog> loaded = load(options, exitCode);
    if (!loaded) {
        return exitCode;
    }
    const Catalog& catalog = loaded->catalog;
    core::Result<std::vector<core::Offer>> offers = catalog.select(options.filter);
    if (!offers) {
        std::cerr << "gpuplan: " << said(offers.error()) << '\n';
        return kExitBadInput;
    }
    const std::vector<Finding> findings = core::checkCatalog(catalog, checkOptions(options));
    const std::optional<core::ExchangeRate>& rate = catalog.exchangeRate();
    if (options.displayCurrency && !rate) {
        std::cerr << "gpuplan: --currency: the catalog has no exchange rate (exchange_rate.json)\n";
        return kExitBadInput;
    }
    const std::string newest = core::newestPriceDate(*offers);

    if (options.json) {
        json list = json::array();
        for (const core::Offer& offer : *offers) {
            list.push_back(core::toJson(offer, catalog));
        }
        std::cout << dump(json{{"newest_price_date", newest.empty() ? json(nullptr) : json(newest)},
                               {"exchange_rate", rate ? core::toJson(*rate) : json(nullptr)},
                               {"offers", list},
                               {"findings", findingsJson(findings)},
                               {"problems", problemsJson(loaded->problems)}})
                  << '\n';
    } else {
        const std::vector<core::RegionalOffer> rows = catalog.regionalOffers(*offers);
        // Spot and yearly columns only where some row has such a price: most providers publish neither.
        const bool anySpot =
            std::ranges::any_of(rows, [](const core::RegionalOffer& r) { return r.spotHourly.has_value(); });
        const bool anyYearly =
            std::ranges::any_of(rows, [](const core::RegionalOffer& r) { return r.yearly.has_value(); });
        std::vector<TextTable::Column> columns{{"PROVIDER"},
                                               {"INSTANCE"},
                                               {"GPU"},
                                               {"GPU MEM", Align::Right},
                                               {"VCPU", Align::Right},
                                               {"RAM", Align::Right},
                                               {"REGION"},
                                               {"PRICE/HOUR", Align::Right}};
        if (anySpot) {
            columns.push_back({"SPOT/HOUR", Align::Right});
        }
        columns.push_back({"PRICE/MONTH", Align::Right});
        if (anyYearly) {
            columns.push_back({"YEARLY, /MONTH", Align::Right});
        }
        if (options.displayCurrency) {
            const std::string code = core::currencyCode(*options.displayCurrency);
            columns.push_back({"HOUR IN " + code, Align::Right});
        }
        columns.push_back({"PRICE DATE"});
        columns.push_back({"FLAGS"});
        TextTable table(columns);
        std::set<std::string> providers;
        for (const core::RegionalOffer& row : rows) {
            providers.insert(row.provider.id);
            std::vector<std::string> cells{row.provider.id,
                                           row.offer.instanceType,
                                           std::to_string(row.offer.gpuCount) + "x " + row.gpu.name,
                                           number(row.gpuMemoryTotalGb()) + " GB",
                                           row.offer.vcpus ? std::to_string(*row.offer.vcpus) : "-",
                                           row.offer.ramGib ? number(*row.offer.ramGib) + " GiB" : "-",
                                           regionCell(row),
                                           priceCell(row.onDemandHourly)};
            if (anySpot) {
                cells.push_back(row.spotHourly ? priceCell(row.spotHourly) : "-");
            }
            cells.push_back(row.monthly ? priceCell(row.monthly) : "-");
            if (anyYearly) {
                cells.push_back(row.yearly ? priceCell(row.yearly) : "-");
            }
            if (options.displayCurrency) {
                cells.push_back(convertedCell(row.onDemandHourly, *rate, *options.displayCurrency));
            }
            cells.push_back(row.priceDate().empty() ? "-" : row.priceDate());
            cells.push_back(flagsCell(row.offer));
            table.addRow(std::move(cells));
        }
        table.print(std::cout);
        std::cout << '\n'
                  << offers->size() << (offers->size() == 1 ? " offer from " : " offers from ") << providers.size()
                  << (providers.size() == 1 ? " provider" : " providers") << "; newest price "
                  << (newest.empty() ? "unknown" : newest)
                  << ". 'unknown': no published price was found, none is guessed. Sources: gpuplan catalog --json\n";
        if (options.displayCurrency) {
            std::cout << "Converted at " << number(rate->cnyPerUsd) << " CNY per USD (" << rate->source.asOfOrUndated()
                      << ", " << rate->source.url << ").\n";
        }
    }
    printFindingsSummary(findings);
    printProblems(loaded->problems);
    return loaded->problems.empty() ? kExitOk : kExitBadInput;
}

int runCatalogValidate(const CatalogOptions& options, const std::filesystem::path& file)
{
    if (file.empty()) {
        // The catalog in use, bundled and the user's: every problem and every price to check, one per line.
        int exitCode = kExitOk;
        std::optional<LoadedCatalog> loaded = load(options, exitCode);
        if (!loaded) {
            return exitCode;
        }
        const std::vector<Finding> findings = core::checkCatalog(loaded->catalog, checkOptions(options));
        printProblems(loaded->problems);
        for (const Finding& finding : findings) {
            std::cout << core::findingKindName(finding.kind) << '\t' << said(finding) << '\n';
        }
        std::cout << "catalog: " << loaded->catalog.offers().size() << " offers, "
                  << (loaded->problems.empty() ? "valid" : std::to_string(loaded->problems.size()) + " problem(s)")
                  << ", " << findings.size() << " price(s) to check\n";
        return loaded->problems.empty() ? kExitOk : kExitBadInput;
    }
    // Offers are checked against the GPU ids of the catalog in use, and compared with its prices.
    core::Result<LoadedCatalog> reference = core::loadCatalog(options.catalogDir);
    if (!reference) {
        std::cerr << "gpuplan: warning: GPU ids are not checked, the catalog does not load: " << said(reference.error())
                  << '\n';
    }
    const std::vector<Error> problems = core::validateCatalogFile(file, reference ? &reference->catalog : nullptr);

    std::vector<Finding> findings;
    if (reference) {
        LoadedCatalog merged = *reference;
        merged.problems.clear();
        core::addUserOffers(merged, file);
        const std::string prefix = file.string() + ": ";
        for (const Finding& finding : core::checkCatalog(merged.catalog, checkOptions(options))) {
            if (finding.where.rfind(prefix, 0) == 0) {
                findings.push_back(finding);
            }
        }
    }

    printProblems(problems);
    printFindings(findings);
    if (problems.empty()) {
        std::cout << file.string() << ": valid"
                  << (findings.empty() ? "\n" : ", " + std::to_string(findings.size()) + " finding(s) to check\n");
        return kExitOk;
    }
    std::cerr << file.string() << ": " << problems.size() << (problems.size() == 1 ? " problem" : " problems")
              << (findings.empty() ? "" : ", " + std::to_string(findings.size()) + " finding(s)") << '\n';
    return kExitBadInput;
}

int runPricesRefresh(
    int& argc, char** argv, const CatalogOptions& options, const std::string& provider, const std::string& region)
{
    int exitCode = kExitOk;
    std::optional<LoadedCatalog> loaded = load(options, exitCode);
    if (!loaded) {
        return exitCode;
    }
    if (options.pricesDir.empty()) {
        std::cerr << "gpuplan: prices refresh: nowhere to keep the prices (set HOME, XDG_DATA_HOME or "
                     "GPUPLAN_PRICES_DIR)\n";
        return kExitFailure;
    }
    // Signed price APIs use the stored credential; AWS reads its Price List without one (spot prices need it).
    core::PriceListAccess access;
    if (core::priceListNeedsCredential(provider)) {
        std::optional<QCoreApplication> app;
        makeApplication(argc, argv, app);
        std::unique_ptr<ui::CredentialStore> store = openCredentialStore();
        core::Result<core::PriceListAccess> made =
            core::priceListAccessFrom(provider, store->loadNow(QString::fromStdString(provider)));
        if (made) {
            access = std::move(made).value();
        } else {
            std::cerr << "gpuplan: prices refresh: " << provider
                      << "'s price API needs your credential: " << said(made.error())
                      << "; store one with `gpuplan creds set " << provider << "`\n";
            return kExitFailure;
        }
    }
    core::initializeHttp();
    core::HttpClient http;
    core::Reason shown;
    int lastTenth = -1;
    const core::RefreshProgress progress =
        [&](const core::Reason& what, std::uint64_t done, std::uint64_t total, bool bytes) {
            const int tenth = total > 0 ? int(done * 10 / total) : int(done >> 26); // each 10 %, or each 64 MB
            if (what != shown || tenth != lastTenth) {
                std::cerr << "  " << ui::errorReasonText(what).toStdString();
                if (bytes) {
                    std::cerr << ": " << (done >> 20) << (total > 0 ? " of " + std::to_string(total >> 20) : "")
                              << " MB";
                } else if (total > 1) {
                    std::cerr << " (" << done + 1 << " of " << total << ")";
                }
                std::cerr << '\n';
                shown = what;
                lastTenth = tenth;
            }
            return true;
        };
    core::Result<core::PriceRefresh> refreshed =
        core::refreshProviderPrices(http, provider, loaded->catalog, region, options.pricesDir, access, progress);
    if (!refreshed) {
        std::cerr << "gpuplan: prices refresh: " << said(refreshed.error()) << '\n';
        return refreshed.error().code == core::ErrorCode::InvalidArgument ? kExitBadInput : kExitFailure;
    }
    const core::PriceRefresh& r = *refreshed;
    static const std::map<std::string, std::string> sources{
        {"aws", "AWS prices as of %s (AWS Price List, read %s)"},
        {"azure", "Azure prices as of %s (Azure Retail Prices API, read %s)"},
        {"gcp", "Google Cloud prices as of %s (Cloud Billing Catalog API, read %s)"},
        {"lambda", "Lambda prices as of %s (Lambda Cloud API, read %s)"},
        {"alibaba", "Alibaba Cloud prices as of %s (ECS DescribePrice, read %s)"},
        {"tencent", "Tencent Cloud prices as of %s (CVM price inquiry, read %s)"},
        {"huawei", "Huawei Cloud prices as of %s (BSS price inquiry, read %s)"}};
    std::string heading = sources.contains(provider) ? sources.at(provider) : provider + " prices as of %s (read %s)";
    heading.replace(heading.find("%s"), 2, r.asOf);
    heading.replace(heading.find("%s"), 2, core::todayUtc());
    std::cout << heading << ": " << r.prices.size() << " prices for the catalog's offers, " << r.changes.size()
              << " changed or new, " << r.unchanged << " unchanged.\n";
    if (!r.changes.empty()) {
        TextTable table({{"INSTANCE"},
                         {"REGION"},
                         {"MODE"},
                         {"BEFORE", Align::Right},
                         {"NOW", Align::Right},
                         {"CHANGE", Align::Right}});
        for (const core::PriceChange& c : r.changes) {
            char change[32] = "new";
            if (c.before && *c.before > 0) {
                std::snprintf(change, sizeof change, "%+.1f %%", (c.after / *c.before - 1) * 100);
            }
            table.addRow({c.instanceType,
                          c.region,
                          core::pricingModeName(c.mode),
                          c.before ? core::formatMoney(*c.before, c.currency) : std::string("-"),
                          core::formatMoney(c.after, c.currency),
                          change});
        }
        std::cout << '\n';
        table.print(std::cout);
    }
    for (const core::RefreshNote& note : r.notes) {
        // A note, then the error of the request it is about, when one failed ("x in r, Month: answered HTTP 400").
        std::cout << "note: " << ui::errorReasonText(note.reason).toStdString()
                  << (note.cause ? ": " + ui::errorDetailText(*note.cause).toStdString() : std::string()) << '\n';
    }
    std::cout << "\nKept in " << (options.pricesDir / (provider + ".json")).string()
              << "; plans and the catalog use these prices from now on (delete the file to go back to the bundled "
                 "ones).\n";
    return kExitOk;
}

} // namespace gpuplan::cli
