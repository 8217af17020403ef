#pragma once

#include "gpuplan/core/Result.h"
#include "gpuplan/plan/PlanDocument.h"

#include <nlohmann/json.hpp>

#include <string>

namespace gpuplan::core {

/// A plan document checkPlan has accepted, read into a PlanDocument (PlanFile.h, planFromJson).
Result<PlanDocument> readPlanDocument(const nlohmann::json& plan, const std::string& where);

} // namespace gpuplan::core
