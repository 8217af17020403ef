// The words of core's error.json.*, error.catalog.*, error.workload.*, error.plan.*, error.estimate.* and
// error.report.* errors: the data files (catalog, workloads, calibration, assumptions, plans) and what is read from
// them.
#include "wording/errors/ErrorWording.h"

#include <QStringList>

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct DataErrors
{
    Q_DECLARE_TR_FUNCTIONS(DataErrors)
};

/// A JSON kind as a value must be it ("object" -> "an object"); core's kind names (JsonChecker, PlanSchema).
QString expectedKind(const QString& kind)
{
    if (kind == QLatin1String("object")) {
        return DataErrors::tr("an object");
    }
    if (kind == QLatin1String("array")) {
        return DataErrors::tr("an array");
    }
    if (kind == QLatin1String("string")) {
        return DataErrors::tr("a string");
    }
    if (kind == QLatin1String("whole_number")) {
        return DataErrors::tr("a whole number");
    }
    if (kind == QLatin1String("number")) {
        return DataErrors::tr("a number");
    }
    if (kind == QLatin1String("boolean")) {
        return DataErrors::tr("true or false");
    }
    if (kind == QLatin1String("null")) {
        return DataErrors::tr("null");
    }
    return kind;
}

/// The kinds a value may have, "object null" -> "an object or null".
QString expectedKinds(const QString& kinds)
{
    QString out;
    for (const QString& kind : kinds.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        out = out.isEmpty() ? expectedKind(kind) : DataErrors::tr("%1 or %2").arg(out, expectedKind(kind));
    }
    return out;
}

/// What was found: a container's kind ("found_kind") or a scalar as JSON writes it ("found").
QString found(const ReasonParams& p)
{
    return p.has("found_kind") ? jsonKindText(p.text("found_kind")) : p.text("found");
}

QString jsonText(const std::string& key, const ReasonParams& p)
{
    if (key == "error.json.unknown_field") {
        return DataErrors::tr("unknown field '%1' (known fields: %2)").arg(p.text("field"), p.text("known"));
    }
    if (key == "error.json.required_missing") {
        return DataErrors::tr("required field is missing");
    }
    if (key == "error.json.required_null") {
        return DataErrors::tr("required field is null");
    }
    if (key == "error.json.wrong_type") {
        return DataErrors::tr("must be %1, found %2").arg(expectedKinds(p.text("expected")), found(p));
    }
    if (key == "error.json.empty_string") {
        return DataErrors::tr("must not be empty");
    }
    if (key == "error.json.not_finite") {
        return DataErrors::tr("must be a finite number, found %1").arg(found(p));
    }
    if (key == "error.json.not_positive") {
        return DataErrors::tr("must be greater than 0, found %1").arg(found(p));
    }
    if (key == "error.json.out_of_range") {
        return DataErrors::tr("must be between %1 and %2, found %3").arg(p.text("min"), p.text("max"), found(p));
    }
    if (key == "error.json.not_text_item") {
        return DataErrors::tr("must be a non-empty string, found %1").arg(found(p));
    }
    if (key == "error.json.not_count") {
        return DataErrors::tr("must be a whole number from %1 to %2, found %3")
            .arg(p.text("min"), p.text("max"), found(p));
    }
    if (key == "error.json.not_date") {
        return DataErrors::tr("must be a calendar date written YYYY-MM-DD, found \"%1\"").arg(p.text("found"));
    }
    if (key == "error.json.unknown_value") {
        return DataErrors::tr("unknown value \"%1\" (known: %2)").arg(p.text("found"), p.text("known"));
    }
    if (key == "error.json.file_not_found") {
        return DataErrors::tr("file not found");
    }
    if (key == "error.json.is_folder") {
        return DataErrors::tr("is a folder, not a file");
    }
    if (key == "error.json.not_regular_file") {
        return DataErrors::tr("is not a regular file");
    }
    if (key == "error.json.cannot_open") {
        return DataErrors::tr("cannot open the file for reading (permissions?)");
    }
    if (key == "error.json.read_error") {
        return DataErrors::tr("read error");
    }
    if (key == "error.json.too_deep") {
        return DataErrors::tr("nested more than %1 levels deep; not one of our files").arg(p.text("levels"));
    }
    if (key == "error.json.invalid") {
        return DataErrors::tr("invalid JSON: %1").arg(p.text("said"));
    }
    if (key == "error.json.source_url") {
        return DataErrors::tr("must be a web address starting with https://, found \"%1\"").arg(p.text("found"));
    }
    if (key == "error.json.source_date_twice") {
        return DataErrors::tr("write as_of and retrieved, not date as well");
    }
    if (key == "error.json.source_as_of_missing") {
        return DataErrors::tr(
            "is missing: the date the source states (or its commit date), or null when it states none");
    }
    if (key == "error.json.source_as_of_null") {
        return DataErrors::tr("is null (the source states no date): say in the note what was looked for");
    }
    if (key == "error.json.source_as_of_late") {
        return DataErrors::tr("is %1, after the day it was retrieved (%2)").arg(p.text("as_of"), p.text("retrieved"));
    }
    if (key == "error.json.wrong_schema") {
        return DataErrors::tr("must be \"%1\", found \"%2\"").arg(p.text("expected"), p.text("found"));
    }
    return {};
}

QString catalogText(const std::string& key, const ReasonParams& p)
{
    if (key == "error.catalog.gpu_id_chars") {
        return DataErrors::tr("must use only a-z, 0-9 and '-', found \"%1\"").arg(p.text("found"));
    }
    if (key == "error.catalog.duplicate_gpu") {
        return DataErrors::tr("duplicate GPU id \"%1\"").arg(p.text("gpu"));
    }
    if (key == "error.catalog.price_unit") {
        return DataErrors::tr("%1 prices are quoted per %2, found \"%3\"")
            .arg(p.text("mode"), p.text("expected"), p.text("found"));
    }
    if (key == "error.catalog.interruption_not_spot") {
        return DataErrors::tr("only spot prices have an interruption band");
    }
    if (key == "error.catalog.unknown_gpu_id") {
        return DataErrors::tr("unknown GPU id \"%1\"; it must be one of the ids in gpus.json").arg(p.text("gpu"));
    }
    if (key == "error.catalog.duplicate_price") {
        return DataErrors::tr("a second %1 price for region %2").arg(p.text("mode"), p.text("region"));
    }
    if (key == "error.catalog.provider_id_chars") {
        return DataErrors::tr("must use only a-z and 0-9, found \"%1\"").arg(p.text("found"));
    }
    if (key == "error.catalog.duplicate_instance_type") {
        return DataErrors::tr("instance type \"%1\" is listed twice").arg(p.text("instance_type"));
    }
    if (key == "error.catalog.cannot_list_folder") {
        return DataErrors::tr("cannot list the folder: %1").arg(p.text("said"));
    }
    if (key == "error.catalog.no_gpus") {
        return DataErrors::tr("no GPU specs in the file");
    }
    if (key == "error.catalog.no_exchange_rate") {
        return DataErrors::tr("no exchange rate in the file");
    }
    if (key == "error.catalog.exchange_rate_missing") {
        return DataErrors::tr(
                   "no such file: the USD-CNY exchange rate (schema %1) that prices in USD and CNY are compared with")
            .arg(p.text("schema"));
    }
    if (key == "error.catalog.duplicate_provider") {
        return DataErrors::tr("provider \"%1\" is already defined by another file").arg(p.text("provider"));
    }
    if (key == "error.catalog.refreshed_unknown_offer") {
        return DataErrors::tr("\"%1\" is not a %2 offer of the catalog; left out")
            .arg(p.text("instance_type"), p.text("provider"));
    }
    if (key == "error.catalog.unknown_schema") {
        const QString what = p.has("found") || p.has("found_kind") ? found(p) : DataErrors::tr("nothing");
        return DataErrors::tr("must be \"%1\" (GPU specs) or \"%2\" (a provider's offers), found %3")
            .arg(p.text("gpus_schema"), p.text("offers_schema"), what);
    }
    if (key == "error.catalog.unknown_gpu") {
        return p.has("alternatives")
                   ? DataErrors::tr("unknown GPU '%1'; did you mean %2?")
                         .arg(p.text("gpu"), alternativesText(p.text("alternatives")))
                   : DataErrors::tr("unknown GPU '%1'; `gpuplan gpus` lists the known ones").arg(p.text("gpu"));
    }
    if (key == "error.catalog.unknown_provider") {
        return DataErrors::tr("unknown provider '%1'; known providers: %2").arg(p.text("provider"), p.text("known"));
    }
    if (key == "error.catalog.no_gpu_match") {
        return DataErrors::tr("no GPU matches '%1'; GPUs with offers: %2").arg(p.text("gpu"), p.text("offered"));
    }
    if (key == "error.catalog.no_region_match") {
        return DataErrors::tr("no offer is sold in a region matching '%1'; known regions: %2")
            .arg(p.text("region"), p.text("known"));
    }
    return {};
}

QString workloadText(const std::string& key, const ReasonParams& p)
{
    if (key == "error.workload.trainable_exceeds_parameters") {
        return DataErrors::tr("must not exceed \"parameters\"");
    }
    if (key == "error.workload.tokens_in_per_sample") {
        return DataErrors::tr("per_sample work counts samples, not tokens");
    }
    if (key == "error.workload.samples_in_transformer") {
        return DataErrors::tr("transformer work counts tokens: give \"tokens\" (per epoch) instead");
    }
    if (key == "error.workload.unknown_unit") {
        return DataErrors::tr("unknown unit \"%1\" (known: %2)").arg(p.text("found"), p.text("known"));
    }
    if (key == "error.workload.schema_not_at_top") {
        return DataErrors::tr("belongs at the top of the file only");
    }
    if (key == "error.workload.measured_not_measured_kind") {
        return DataErrors::tr("only a workload of kind \"measured\" has it");
    }
    if (key == "error.workload.no_sources") {
        return DataErrors::tr("a preset cites at least one source");
    }
    if (key == "error.workload.unknown_preset") {
        return p.has("alternatives")
                   ? DataErrors::tr("unknown preset '%1'; did you mean %2?")
                         .arg(p.text("preset"), alternativesText(p.text("alternatives")))
                   : DataErrors::tr("unknown preset '%1'; known presets: %2").arg(p.text("preset"), p.text("known"));
    }
    if (key == "error.workload.duplicate_preset") {
        return DataErrors::tr("preset \"%1\" is defined twice").arg(p.text("preset"));
    }
    if (key == "error.workload.not_a_workload") {
        return DataErrors::tr("not a workload");
    }
    if (key == "error.workload.option_not_positive") {
        return DataErrors::tr("must be greater than 0");
    }
    if (key == "error.workload.counts_tokens") {
        return DataErrors::tr("'%1' counts its work in tokens; use --tokens (per epoch)").arg(p.text("workload"));
    }
    if (key == "error.workload.counts_samples") {
        return DataErrors::tr("'%1' counts its work in samples; use --samples (per epoch)").arg(p.text("workload"));
    }
    return {};
}

QString planText(const std::string& key, const ReasonParams& p)
{
    if (key == "error.plan.text_too_long") {
        return DataErrors::tr("text of %1 characters; a plan's text is at most %2")
            .arg(p.text("length"), p.text("max"));
    }
    if (key == "error.plan.member_name_too_long") {
        return DataErrors::tr("a member name is too long");
    }
    if (key == "error.plan.not_a_plan") {
        return DataErrors::tr("not a GPU Planner plan (no \"format\": \"gpuplan\")");
    }
    if (key == "error.plan.no_version") {
        return DataErrors::tr("the plan has no valid version number (found %1)").arg(found(p));
    }
    if (key == "error.plan.newer_version") {
        return DataErrors::tr(
                   "written by a newer GPU Planner (plan version %1); this one reads up to version %2: update it")
            .arg(p.text("version"), p.text("max"));
    }
    if (key == "error.plan.unknown_precision") {
        return DataErrors::tr("unknown precision \"%1\"").arg(p.text("found"));
    }
    if (key == "error.plan.not_country_code") {
        return DataErrors::tr("\"%1\" is not a two-letter country code").arg(p.text("found"));
    }
    if (key == "error.plan.unknown_mode") {
        return DataErrors::tr("unknown pricing mode \"%1\"").arg(p.text("found"));
    }
    if (key == "error.plan.too_large") {
        return DataErrors::tr("is %1 MB; a plan is at most %2 MB").arg(p.text("mb"), p.text("max_mb"));
    }
    if (key == "error.plan.bad_country_entry") {
        return DataErrors::tr("\"%1\" is not a country code: write two letters, e.g. CN, HK, US").arg(p.text("found"));
    }
    if (key == "error.plan.unknown_country") {
        const QString known = p.has("known") ? p.text("known") : DataErrors::tr("no known country");
        return DataErrors::tr("unknown country \"%1\": no region in the catalog is there (its regions are in %2)")
            .arg(p.text("country"), known);
    }
    return {};
}

QString estimateText(const std::string& key, const ReasonParams& p)
{
    if (key == "error.estimate.range_order") {
        return DataErrors::tr("must have low <= value <= high");
    }
    if (key == "error.estimate.unknown_gpu") {
        return DataErrors::tr("unknown GPU \"%1\"").arg(p.text("gpu"));
    }
    if (key == "error.estimate.unknown_workload") {
        return DataErrors::tr("unknown workload \"%1\"").arg(p.text("workload"));
    }
    if (key == "error.estimate.no_peak") {
        return DataErrors::tr("no datasheet peak or no FLOPs per unit to compare against");
    }
    if (key == "error.estimate.unknown_unit") {
        return DataErrors::tr("must be samples/s or tokens/s, found \"%1\"").arg(p.text("found"));
    }
    if (key == "error.estimate.measured_or_mfu") {
        return DataErrors::tr("give either \"measured\" or \"mfu\"");
    }
    if (key == "error.estimate.duplicate_case") {
        return DataErrors::tr("the id \"%1\" is used twice").arg(p.text("id"));
    }
    if (key == "error.estimate.unknown_group") {
        return DataErrors::tr("no calibration source is called \"%1\" (known: %2)")
            .arg(p.text("group"), p.text("known"));
    }
    if (key == "error.report.no_options") {
        return DataErrors::tr(
            "the plan has no ranked option, so there is nothing to recommend (every offer was excluded)");
    }
    return {};
}

} // namespace

QString jsonKindText(const QString& kind)
{
    if (kind == QLatin1String("boolean")) {
        return DataErrors::tr("a boolean");
    }
    if (kind == QLatin1String("unsupported")) {
        return DataErrors::tr("an unsupported value");
    }
    return expectedKind(kind);
}

QString dataErrorText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    const std::string& key = reason.key;
    if (key.starts_with("error.json.")) {
        QString worded = jsonText(key, p);
        // gpus.json of a catalog folder could not be read (CatalogLoader): say what such a folder holds.
        if (!worded.isNull() && p.has("catalog_folder")) {
            worded = DataErrors::tr("%1 (a catalog folder holds gpus.json and offers/*.json)").arg(worded);
        }
        return worded;
    }
    if (key.starts_with("error.catalog.")) {
        return catalogText(key, p);
    }
    if (key.starts_with("error.workload.")) {
        return workloadText(key, p);
    }
    if (key.starts_with("error.plan.")) {
        return planText(key, p);
    }
    if (key.starts_with("error.estimate.") || key.starts_with("error.report.")) {
        return estimateText(key, p);
    }
    return {};
}

} // namespace gpuplan::ui::errorwording
