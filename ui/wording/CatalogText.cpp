// The catalog's findings (core/catalog/CatalogChecks.h) worded from their figures: the Catalog page and
// `gpuplan catalog validate` show the same sentences.
#include "wording/CatalogText.h"

#include "wording/PlanText.h"

#include <QCoreApplication>

namespace gpuplan::ui {

namespace {

/// The findings' translation context: the Catalog page's, where they were first worded.
struct CatalogFindings
{
    Q_DECLARE_TR_FUNCTIONS(gpuplan::ui::CatalogPage)
};

} // namespace

QString findingKindText(core::Finding::Kind kind)
{
    switch (kind) {
        case core::Finding::Kind::SpotAboveOnDemand:
            return CatalogFindings::tr("spot above on-demand");
        case core::Finding::Kind::PriceOutlier:
            return CatalogFindings::tr("far from the usual price");
        case core::Finding::Kind::StalePrice:
            return CatalogFindings::tr("old price");
        case core::Finding::Kind::FutureDate:
            return CatalogFindings::tr("dated in the future");
        case core::Finding::Kind::UndatedPrice:
            return CatalogFindings::tr("undated price");
    }
    return {};
}

QString findingDetailText(const core::Finding& finding)
{
    const auto param = [&](const char* name) {
        const auto it = finding.params.find(name);
        return it == finding.params.end() ? QString() : QString::fromStdString(it->second);
    };
    switch (finding.kind) {
        case core::Finding::Kind::UndatedPrice:
            return CatalogFindings::tr("the source states no date (read %1), so the price counts as old; check it "
                                       "against the source")
                .arg(param("retrieved"));
        case core::Finding::Kind::StalePrice:
            return CatalogFindings::tr("price as of %1 is %2 days old (older than %3); check it against the source")
                .arg(param("as_of"), param("age_days"), param("max_days"));
        case core::Finding::Kind::FutureDate:
            return CatalogFindings::tr("price is dated %1, after today (%2)").arg(param("as_of"), param("today"));
        case core::Finding::Kind::SpotAboveOnDemand:
            return CatalogFindings::tr("spot price %1 %3 is above the on-demand price %2 %3 in %4")
                .arg(param("spot"), param("on_demand"), param("currency"), param("region"));
        case core::Finding::Kind::PriceOutlier: {
            const QString mode = pricingModeText(param("mode"));
            QString text =
                param("per") == QLatin1String("month")
                    ? CatalogFindings::tr("%1 %2 per GPU-month is more than %3× away from %4, the median of %5 other "
                                          "providers' %6 prices for %7")
                    : CatalogFindings::tr("%1 %2 per GPU-hour is more than %3× away from %4, the median of %5 other "
                                          "providers' %6 prices for %7");
            text = text.arg(param("value"), param("currency"), param("factor"), param("reference"), param("others"))
                       .arg(mode, param("gpu"));
            if (!param("cny_per_usd").isEmpty()) {
                text += CatalogFindings::tr(" (converted at %1 CNY/USD)").arg(param("cny_per_usd"));
            }
            return text;
        }
    }
    return {};
}

} // namespace gpuplan::ui
