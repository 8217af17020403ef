#pragma once

#include "gpuplan/catalog/Catalog.h"

#include <nlohmann/json.hpp>

namespace gpuplan::core {

/// The JSON forms the CLI prints with --json (and the plan files will embed). Field names are snake_case
/// and stable; unknown values are null, never guessed.
nlohmann::json toJson(const Source& source);
nlohmann::json toJson(const GpuSpec& gpu);
nlohmann::json toJson(const Price& price);
nlohmann::json toJson(const Offer& offer, const Catalog& catalog);
nlohmann::json toJson(const ExchangeRate& rate);

/// "bundled", "user_added", "user_override".
const char* offerOriginName(OfferOrigin origin);

} // namespace gpuplan::core
