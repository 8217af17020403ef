// The words of core's error.probe.* errors: reading the probe's output (core/probe/ProbeResult.cpp) and the
// `gpuplan probe` command's own (app/cli/ProbeCommands.cpp).
#include "wording/errors/ErrorWording.h"

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct ProbeErrors
{
    Q_DECLARE_TR_FUNCTIONS(ProbeErrors)
};

/// The probe's document carries another schema tag, or none.
QString schemaText(const core::Reason& reason, const ReasonParams& p)
{
    if (reason.key == "error.probe.other_schema") {
        return ProbeErrors::tr("must be \"%1\", found \"%2\"; this GPU Planner reads the probe it ships, deploy that "
                               "probe again")
            .arg(p.text("expected"), p.text("found"));
    }
    if (reason.key == "error.probe.schema_missing") {
        return ProbeErrors::tr(
            "required field is missing; this GPU Planner reads the probe it ships, deploy that probe again");
    }
    if (reason.key == "error.probe.schema_null") {
        return ProbeErrors::tr(
            "required field is null; this GPU Planner reads the probe it ships, deploy that probe again");
    }
    if (reason.key == "error.probe.schema_not_text") {
        return ProbeErrors::tr(
                   "must be a string, found %1; this GPU Planner reads the probe it ships, deploy that probe again")
            .arg(jsonKindText(p.text("found_kind")));
    }
    return {};
}

/// A field of the probe's document that does not hold what the schema says.
QString fieldText(const core::Reason& reason, const ReasonParams& p)
{
    if (reason.key == "error.probe.not_whole_number") {
        if (p.has("found") && p.has("found_kind")) {
            return ProbeErrors::tr("must be a whole number, found %1 %2")
                .arg(jsonKindText(p.text("found_kind")), p.text("found"));
        }
        if (p.has("found") || p.has("found_kind")) {
            return ProbeErrors::tr("must be a whole number, found %1")
                .arg(p.has("found") ? p.text("found") : jsonKindText(p.text("found_kind")));
        }
        return ProbeErrors::tr("must be a whole number");
    }
    if (reason.key == "error.probe.too_small") {
        return ProbeErrors::tr("must be at least %1, found %2").arg(p.text("min"), p.text("found"));
    }
    if (reason.key == "error.probe.too_large") {
        return ProbeErrors::tr("is too large: %1").arg(p.text("found"));
    }
    if (reason.key == "error.probe.bad_mode") {
        return ProbeErrors::tr("must be \"quick\" or \"full\", found \"%1\"").arg(p.text("found"));
    }
    if (reason.key == "error.probe.bad_unit") {
        return ProbeErrors::tr("must be \"TFLOPS\" or \"GB/s\", found \"%1\"").arg(p.text("found"));
    }
    if (reason.key == "error.probe.unknown_method") {
        return ProbeErrors::tr("unknown method \"%1\" (known: %2)").arg(p.text("found"), p.text("known"));
    }
    if (reason.key == "error.probe.not_fraction") {
        return ProbeErrors::tr("must be a fraction from 0 to 1");
    }
    return {};
}

} // namespace

QString probeErrorText(const core::Reason& reason)
{
    if (!reason.key.starts_with("error.probe.")) {
        return {};
    }
    const ReasonParams p(reason.params);
    if (reason.key == "error.probe.no_output") {
        return ProbeErrors::tr("the probe printed nothing; it may have crashed before writing its JSON document, or "
                               "could not start (check that the binary suits the remote system)");
    }
    if (reason.key == "error.probe.no_document") {
        return ProbeErrors::tr("the probe's output holds no JSON document (no line starts with '{'); it begins \"%1\"")
            .arg(p.text("begins"));
    }
    if (reason.key == "error.probe.truncated") {
        // "said": the JSON parser's own words.
        return ProbeErrors::tr("invalid JSON: %1 (the output ends inside the JSON document: truncated, e.g. the probe "
                               "was killed or the connection dropped; run the probe again)")
            .arg(p.text("said"));
    }
    if (reason.key == "error.probe.output_too_large") {
        return ProbeErrors::tr("the output is %1 bytes, far more than a probe document; not the probe's output")
            .arg(p.text("bytes"));
    }
    if (reason.key == "error.probe.no_bundle") {
        return ProbeErrors::tr("neither a bundled probe nor the probe's source beside %1 (gpuplan-probe is built where "
                               "a CUDA compiler is found; the source is in share/gpuplanner/probe-source.tar.gz)")
            .arg(p.text("dir"));
    }
    if (reason.key == "error.probe.no_launch") {
        return ProbeErrors::tr("no launch %1 in the ledger (gpuplan instances lists them)").arg(p.text("id"));
    }
    if (QString text = schemaText(reason, p); !text.isNull()) {
        return text;
    }
    return fieldText(reason, p);
}

} // namespace gpuplan::ui::errorwording
