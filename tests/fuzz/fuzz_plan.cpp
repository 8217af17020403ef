// Plan files (core/plan/PlanFile.cpp loadPlan: checkPlan, then the typed reader), a plan it accepts turned into the
// report (core/report/Report.cpp buildReport), and written back as JSON (planToJson): checkPlan promises that such a
// plan reads without a type error, so an exception out of any of them is a finding.
#include "FuzzSupport.h"

#include "gpuplan/plan/PlanFile.h"
#include "gpuplan/report/Report.h"

#include <cstddef>
#include <cstdint>

using namespace gpuplan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::filesystem::path file = fuzz::writeInput("plan.gpuplan", data, size);
    core::Result<core::PlanDocument> plan = core::loadPlan(file);
    if (!plan) {
        return 0;
    }
    (void)core::buildReport(*plan, file.string());
    (void)core::planToJson(*plan).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    return 0;
}
