#include "wording/VerdictText.h"

#include "wording/verdict/VerdictTextParts.h"

#include "gpuplan/probe/Checks.h"

namespace gpuplan::ui {

namespace verdicttext {

namespace {

/// How a check is worded: its name in tables (the Verify page, the report) and, for a test, how the reasons'
/// sentences call it ("The memory triad test reached ..."); nullptr where a sentence uses the key.
struct CheckWording
{
    core::Check check;
    const char* name;
    const char* inSentence;
};

// One entry per check of the catalogue (core/probe/Checks.h); TestVerifyGui holds it complete.
const CheckWording kCheckWordings[] = {
    {core::Check::Model, QT_TRANSLATE_NOOP("VerdictText", "GPU model"), nullptr},
    {core::Check::GpuCount, QT_TRANSLATE_NOOP("VerdictText", "GPU count"), nullptr},
    {core::Check::Memory, QT_TRANSLATE_NOOP("VerdictText", "GPU memory"), nullptr},
    {core::Check::Driver, QT_TRANSLATE_NOOP("VerdictText", "NVIDIA driver"), nullptr},
    {core::Check::Nvml, QT_TRANSLATE_NOOP("VerdictText", "NVML"), nullptr},
    {core::Check::Mig, QT_TRANSLATE_NOOP("VerdictText", "MIG mode"), nullptr},
    {core::Check::ProbeError, QT_TRANSLATE_NOOP("VerdictText", "probe error"), nullptr},
    {core::Check::ProbeIncomplete, QT_TRANSLATE_NOOP("VerdictText", "probe incomplete"), nullptr},
    {core::Check::GpuError, QT_TRANSLATE_NOOP("VerdictText", "GPU error"), nullptr},
    {core::Check::Correctness, QT_TRANSLATE_NOOP("VerdictText", "GEMM correctness"), nullptr},
    {core::Check::Fp32Fma,
     QT_TRANSLATE_NOOP("VerdictText", "FP32 FMA peak"),
     QT_TRANSLATE_NOOP("VerdictText", "FP32 FMA")},
    {core::Check::GemmFp16,
     QT_TRANSLATE_NOOP("VerdictText", "FP16 GEMM (cuBLASLt)"),
     QT_TRANSLATE_NOOP("VerdictText", "FP16 tensor GEMM")},
    {core::Check::GemmBf16,
     QT_TRANSLATE_NOOP("VerdictText", "BF16 GEMM (cuBLASLt)"),
     QT_TRANSLATE_NOOP("VerdictText", "BF16 tensor GEMM")},
    {core::Check::GemmTf32,
     QT_TRANSLATE_NOOP("VerdictText", "TF32 GEMM (cuBLASLt)"),
     QT_TRANSLATE_NOOP("VerdictText", "TF32 tensor GEMM")},
    {core::Check::GemmFp8,
     QT_TRANSLATE_NOOP("VerdictText", "FP8 GEMM (cuBLASLt)"),
     QT_TRANSLATE_NOOP("VerdictText", "FP8 tensor GEMM")},
    {core::Check::WmmaFp16,
     QT_TRANSLATE_NOOP("VerdictText", "FP16 tensor cores (own kernel)"),
     QT_TRANSLATE_NOOP("VerdictText", "FP16 WMMA kernel")},
    {core::Check::GemmOwnFp16, QT_TRANSLATE_NOOP("VerdictText", "FP16 GEMM (own kernel, for information)"), nullptr},
    {core::Check::GemmOwnBf16, QT_TRANSLATE_NOOP("VerdictText", "BF16 GEMM (own kernel, for information)"), nullptr},
    {core::Check::DramCopy,
     QT_TRANSLATE_NOOP("VerdictText", "memory bandwidth (copy)"),
     QT_TRANSLATE_NOOP("VerdictText", "memory copy")},
    {core::Check::DramTriad,
     QT_TRANSLATE_NOOP("VerdictText", "memory bandwidth (triad)"),
     QT_TRANSLATE_NOOP("VerdictText", "memory triad")},
    {core::Check::H2dPinned,
     QT_TRANSLATE_NOOP("VerdictText", "host to GPU (pinned)"),
     QT_TRANSLATE_NOOP("VerdictText", "host-to-device copy")},
    {core::Check::D2hPinned,
     QT_TRANSLATE_NOOP("VerdictText", "GPU to host (pinned)"),
     QT_TRANSLATE_NOOP("VerdictText", "device-to-host copy")},
    {core::Check::P2p,
     QT_TRANSLATE_NOOP("VerdictText", "GPU to GPU (peer)"),
     QT_TRANSLATE_NOOP("VerdictText", "peer-to-peer copy")},
    {core::Check::NcclAllreduce, QT_TRANSLATE_NOOP("VerdictText", "NCCL all-reduce"), nullptr},
    {core::Check::Ecc, QT_TRANSLATE_NOOP("VerdictText", "ECC errors"), nullptr},
    {core::Check::RetiredPages, QT_TRANSLATE_NOOP("VerdictText", "retired pages"), nullptr},
    {core::Check::RemappedRows, QT_TRANSLATE_NOOP("VerdictText", "remapped rows"), nullptr},
    {core::Check::Temperature, QT_TRANSLATE_NOOP("VerdictText", "temperature"), nullptr},
    {core::Check::Power, QT_TRANSLATE_NOOP("VerdictText", "power limit"), nullptr},
    {core::Check::Pcie, QT_TRANSLATE_NOOP("VerdictText", "PCIe link"), nullptr},
    {core::Check::Throttle, QT_TRANSLATE_NOOP("VerdictText", "throttling"), nullptr},
    {core::Check::BurnErrors, QT_TRANSLATE_NOOP("VerdictText", "burn-in: results"), nullptr},
    {core::Check::BurnSpeed, QT_TRANSLATE_NOOP("VerdictText", "burn-in: speed"), nullptr},
    {core::Check::BurnThrottle, QT_TRANSLATE_NOOP("VerdictText", "burn-in: throttling"), nullptr},
};

const CheckWording* wordingOf(const QString& key)
{
    const std::optional<core::Check> check = core::checkByKey(key.toStdString());
    for (const CheckWording& wording : kCheckWordings) {
        if (check == wording.check) {
            return &wording;
        }
    }
    return nullptr;
}

} // namespace

/// "a; b; c" in the UI's language: the faults of a GEMM check, the refusals of the bundled probes.
QString clauses(const QStringList& items)
{
    QString text;
    for (const QString& item : items) {
        text = text.isEmpty() ? item : VerdictText::tr("%1; %2").arg(text, item);
    }
    return text;
}

QString testText(const QString& test)
{
    const CheckWording* wording = wordingOf(test);
    return wording && wording->inSentence ? VerdictText::tr(wording->inSentence) : test;
}

} // namespace verdicttext

using namespace verdicttext;

namespace {

QString probeText(const QString& key, const Args& p)
{
    using Wording = QString (*)(const QString&, const Args&);
    // By the key's second part: "probe.ecc.off" -> "ecc".
    static const std::map<QString, Wording> byGroup{{QStringLiteral("driver"), driverText},
                                                    {QStringLiteral("error"), errorText},
                                                    {QStringLiteral("incomplete"), errorText},
                                                    {QStringLiteral("gpu_error"), errorText},
                                                    {QStringLiteral("gpu_count"), inventoryText},
                                                    {QStringLiteral("model"), inventoryText},
                                                    {QStringLiteral("memory"), memoryText},
                                                    {QStringLiteral("correctness"), correctnessText},
                                                    {QStringLiteral("measurement"), measurementText},
                                                    {QStringLiteral("ecc"), memoryHealthText},
                                                    {QStringLiteral("retired_pages"), memoryHealthText},
                                                    {QStringLiteral("remapped_rows"), memoryHealthText},
                                                    {QStringLiteral("temperature"), temperatureText},
                                                    {QStringLiteral("power"), powerText},
                                                    {QStringLiteral("pcie"), pcieText},
                                                    {QStringLiteral("throttle"), throttleText},
                                                    {QStringLiteral("p2p"), peerText},
                                                    {QStringLiteral("nccl"), ncclText},
                                                    {QStringLiteral("burn"), burnText}};
    if (key == QLatin1String("probe.mig.on")) {
        return VerdictText::tr("MIG is on for this GPU: it is split into slices, each with a share of the GPU, so its "
                               "speed cannot be compared with the whole GPU's datasheet.");
    }
    const auto it = byGroup.find(key.section(QLatin1Char('.'), 1, 1));
    return it == byGroup.end() ? QString() : it->second(key, p);
}

} // namespace

QString checkName(const QString& check)
{
    const CheckWording* wording = wordingOf(check);
    return wording ? VerdictText::tr(wording->name) : check;
}

QString verdictReasonText(const QString& key, const std::map<std::string, std::string>& params)
{
    const Args p(params);
    if (key.startsWith(QLatin1String("probe."))) {
        return probeText(key, p);
    }
    if (key.startsWith(QLatin1String("deploy."))) {
        return deployText(key, p);
    }
    return {};
}

} // namespace gpuplan::ui
