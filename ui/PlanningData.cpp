#include "PlanningData.h"

#include "gpuplan/prices/PriceRefresh.h"
#include "wording/ErrorText.h"

#include <QCoreApplication>

#include <fstream>
#include <sstream>

namespace gpuplan::ui {

PlanningData loadPlanningData(const std::filesystem::path& catalogDir,
                              const std::filesystem::path& userCatalogDir,
                              const std::filesystem::path& workloadDir)
{
    PlanningData data;
    data.workloadDir = workloadDir;
    // Refreshed prices lie over the bundled ones wherever the user's own data is read (not in a test's folder).
    core::Result<core::LoadedCatalog> catalog = core::loadCatalog(
        catalogDir, userCatalogDir, userCatalogDir.empty() ? std::filesystem::path() : core::refreshedPricesDir());
    if (!catalog) {
        data.failure = catalog.error();
        return data;
    }
    data.catalog = std::move(catalog).value();
    const std::filesystem::path script = catalogDir.parent_path() / "scripts" / "gpuplan-watchdog.sh";
    std::ifstream in(script, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    data.watchdogScript = in ? text.str() : std::string();
    if (data.watchdogScript.empty()) {
        data.scriptProblem =
            frontEndError(core::ErrorCode::FileNotFound,
                          QCoreApplication::translate("gpuplan::ui::MainWindow", "cannot read the watchdog script"),
                          script.string());
    }
    const std::filesystem::path run = catalogDir.parent_path() / "scripts" / "gpuplan-run.sh";
    std::ifstream runIn(run, std::ios::binary);
    std::ostringstream runText;
    runText << runIn.rdbuf();
    data.runScript = runIn ? runText.str() : std::string();
    if (data.runScript.empty() && !data.scriptProblem) {
        data.scriptProblem =
            frontEndError(core::ErrorCode::FileNotFound,
                          QCoreApplication::translate("gpuplan::ui::MainWindow", "cannot read the run script"),
                          run.string());
    }
    core::CheckOptions checks;
    checks.today = core::todayUtc();
    data.findings = core::checkCatalog(data.catalog->catalog, checks);

    if (core::Result<core::LoadedWorkloads> presets = core::loadPresets(workloadDir)) {
        data.presets = std::move(presets).value();
        data.problems = data.presets.problems;
    } else {
        data.problems.push_back(presets.error());
    }
    if (core::Result<core::Calibration> calibration = core::Calibration::load(
            workloadDir, core::userCalibrationDir(), data.catalog->catalog, data.presets, data.problems)) {
        data.calibration = std::move(calibration).value();
    } else {
        data.problems.push_back(calibration.error());
    }
    core::LoadedAssumptions assumptions = core::loadAssumptions(catalogDir);
    data.assumptions = std::move(assumptions.assumptions);
    data.problems.insert(data.problems.end(), assumptions.problems.begin(), assumptions.problems.end());
    core::LoadedOwnership ownership = core::loadOwnership(catalogDir);
    data.ownership = std::move(ownership.facts);
    data.problems.insert(data.problems.end(), ownership.problems.begin(), ownership.problems.end());
    return data;
}

} // namespace gpuplan::ui
