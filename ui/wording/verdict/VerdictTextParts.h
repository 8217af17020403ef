// The pieces of ui/wording/VerdictText.cpp's wording shared by the files that word one group of reasons each
// (ui/wording/verdict/*.cpp): the translation context, a reason's parameters, and each group's wording. Private to ui.
#pragma once

#include <cmath>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>

#include <QCoreApplication>
#include <QLocale>
#include <QString>
#include <QStringList>

#include "wording/Format.h"
#include "wording/ReasonParams.h"

namespace gpuplan::ui::verdicttext {

/// The translation context of the verdict's and the deployment's sentences.
class VerdictText
{
    Q_DECLARE_TR_FUNCTIONS(VerdictText)
};

using ParamMap = std::map<std::string, std::string>;

/// A reason's parameters as core/probe/Verdict.cpp sets them: text, and numbers as reasonNumber() writes them.
using Args = ReasonParams;

/// "a; b; c" in the UI's language: the faults of a GEMM check, the refusals of the bundled probes.
QString clauses(const QStringList& items);

/// A test by name as the reasons' sentences call it ("the memory triad test"); a test the catalogue does not know,
/// or one without a word for sentences, by its key (VerdictText.cpp).
QString testText(const QString& test);

// One group of reasons each, by the key ("probe.driver.ok"); empty for a key or parameters they cannot word.
// IdentityText.cpp: the driver, the probe's errors, inventory, memory, GEMM correctness.
QString driverText(const QString& key, const Args& p);
QString errorText(const QString& key, const Args& p);
QString inventoryText(const QString& key, const Args& p);
QString memoryText(const QString& key, const Args& p);
QString correctnessText(const QString& key, const Args& p);
// MeasurementText.cpp: the measured speeds, peer copies and NCCL.
QString measurementText(const QString& key, const Args& p);
QString peerText(const QString& key, const Args& p);
QString ncclText(const QString& key, const Args& p);
// HealthText.cpp: memory health, temperature, power, PCIe, throttling and the burn-in.
QString memoryHealthText(const QString& key, const Args& p);
QString temperatureText(const QString& key, const Args& p);
QString powerText(const QString& key, const Args& p);
QString pcieText(const QString& key, const Args& p);
QString throttleText(const QString& key, const Args& p);
QString burnText(const QString& key, const Args& p);
// DeployText.cpp: the probe's deployment ("deploy.*").
QString deployText(const QString& key, const Args& p);

} // namespace gpuplan::ui::verdicttext
