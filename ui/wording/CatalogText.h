#pragma once

#include "gpuplan/catalog/CatalogChecks.h"

#include <QString>

namespace gpuplan::ui {

/// "spot above on-demand", "old price", ...: the kind of a catalog finding.
QString findingKindText(core::Finding::Kind kind);

/// What is odd about the price, with its figures ("price as of 2024-01-05 is 700 days old ...").
QString findingDetailText(const core::Finding& finding);

} // namespace gpuplan::ui
