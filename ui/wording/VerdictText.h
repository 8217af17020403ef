#pragma once

#include "gpuplan/core/Reason.h"

#include <map>
#include <string>

#include <QString>

namespace gpuplan::ui {

/// The name of a verdict check ("dram_triad", core/probe/Checks.h) in the UI's language, as the Verify page's table
/// and the report show it: "memory bandwidth (triad)". A key the catalogue does not know comes back as itself.
/// Thread-safe, as QCoreApplication::translate is.
QString checkName(const QString& check);

/// A reason of the GPU verdict ("probe.*", core/probe/Verdict.cpp) or of the probe's deployment ("deploy.*",
/// core/deploy/DeployStrategy.cpp) worded in the UI's language from its key and parameters. Returns an empty
/// string for a key it does not know, or when a parameter it needs is missing, so that the caller shows the
/// reason's key and figures instead. Thread-safe, as QCoreApplication::translate is.
QString verdictReasonText(const QString& key, const std::map<std::string, std::string>& params);

/// A verdict line's measured or expected figure (core::VerdictLine::measured, ::expected: "figure.*" keys with raw
/// parameters, core/probe/verdict/) in the UI's language: "312 TFLOPS (0.99 of 312)", ">= 0.75 x 300 W", "not
/// reported". An empty key is no figure (an empty string); "saved.text" the text an older plan saved; a key this
/// version does not word reads as its key and parameters. In the C locale (the CLI) the English is what the probe's
/// table always printed. Thread-safe, as QCoreApplication::translate is.
QString figureText(const core::Reason& figure);

} // namespace gpuplan::ui
