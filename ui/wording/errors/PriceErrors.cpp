// The words of core's error.prices.* errors and of a price refresh's notes (refresh.*, core::RefreshNote).
#include "wording/errors/ErrorWording.h"

namespace gpuplan::ui::errorwording {

namespace {

/// The translation context of these errors.
struct PriceErrors
{
    Q_DECLARE_TR_FUNCTIONS(PriceErrors)
};

/// A refresh's note (refresh.*), or a null QString for another key.
QString refreshNoteText(const core::Reason& reason, const ReasonParams& p)
{
    const std::string& k = reason.key;
    if (k == "refresh.no_region_file") {
        return PriceErrors::tr("%1: the region index has no price file for it").arg(p.text("region"));
    }
    if (k == "refresh.aws_unpriced") {
        return PriceErrors::tr("%1: no Linux price in the file for %2 of the catalog's %3 instance types there (they "
                               "keep their bundled prices): %4")
            .arg(p.text("region"), p.text("count"), p.text("total"), p.text("types"));
    }
    if (k == "refresh.azure_unpriced") {
        return PriceErrors::tr("%1: no Linux price in %2 (the bundled prices stay there)")
            .arg(p.text("size"), p.text("regions"));
    }
    if (k == "refresh.aws_spot_needs_key") {
        return PriceErrors::tr("spot prices not read: they come from EC2's spot price history, which needs your AWS "
                               "key (gpuplan creds set aws)");
    }
    if (k == "refresh.quote_failed") {
        return PriceErrors::tr("%1 in %2, %3").arg(p.text("type"), p.text("region"), p.text("unit"));
    }
    if (k == "refresh.prepaid_quote_failed") {
        return PriceErrors::tr("%1 in %2, %3 month(s) prepaid").arg(p.text("type"), p.text("region"), p.text("months"));
    }
    if (k == "refresh.region_rating_failed") {
        return PriceErrors::tr("%1, on_demand").arg(p.text("region"));
    }
    if (k == "refresh.huawei_no_project") {
        return PriceErrors::tr("%1: the account has no project there (IAM KeystoneListProjects); its bundled prices "
                               "stay")
            .arg(p.text("region"));
    }
    if (k == "refresh.huawei_no_spot") {
        return PriceErrors::tr("Huawei Cloud publishes no spot price: spot stays unknown");
    }
    if (k == "refresh.lambda_no_price") {
        return PriceErrors::tr("%1: the answer has no price_cents_per_hour; the bundled price stays")
            .arg(p.text("type"));
    }
    if (k == "refresh.gcp_not_joined") {
        return PriceErrors::tr("%1: not read from the SKUs (TPUs and this machine series are not joined yet); the "
                               "bundled prices stay")
            .arg(p.text("type"));
    }
    if (k == "refresh.tencent_no_image") {
        return PriceErrors::tr("%1 in %2: no public image to quote a prepaid price with")
            .arg(p.text("type"), p.text("region"));
    }
    if (k == "refresh.alibaba_spot_advice_failed") {
        return PriceErrors::tr("%1 in %2, spot interruption rate (DescribeSpotAdvice; the spot price stays, unranked)")
            .arg(p.text("type"), p.text("region"));
    }
    if (k == "refresh.alibaba_no_spot_band") {
        return PriceErrors::tr("%1 in %2: Alibaba Cloud publishes no interruption rate for it in %3, the zone of its "
                               "spot price; that price is shown but not ranked")
            .arg(p.text("type"), p.text("region"), p.text("zone"));
    }
    // What is being read, for the progress (RefreshProgress).
    if (k == "refresh.progress_aws_file") {
        return PriceErrors::tr("%1 price file").arg(p.text("region"));
    }
    if (k == "refresh.progress_aws_reading") {
        return PriceErrors::tr("reading %1 price file").arg(p.text("region"));
    }
    if (k == "refresh.progress_aws_spot") {
        return PriceErrors::tr("AWS spot prices in %1").arg(p.text("region"));
    }
    if (k == "refresh.progress_azure") {
        return PriceErrors::tr("Azure retail prices of %1").arg(p.text("size"));
    }
    if (k == "refresh.progress_gcp_skus") {
        return PriceErrors::tr("Google Cloud SKUs, page %1").arg(p.text("page"));
    }
    if (k == "refresh.progress_lambda") {
        return PriceErrors::tr("Lambda instance types");
    }
    if (k == "refresh.progress_alibaba") {
        return PriceErrors::tr("Alibaba Cloud prices of %1 in %2").arg(p.text("type"), p.text("region"));
    }
    if (k == "refresh.progress_tencent") {
        return PriceErrors::tr("Tencent Cloud prices in %1").arg(p.text("region"));
    }
    if (k == "refresh.progress_huawei") {
        return PriceErrors::tr("Huawei Cloud prices in %1").arg(p.text("region"));
    }
    // noteUnpriced: "<type>: no <mode> price in <regions> (<why>)".
    const QString type = p.text("type");
    const QString mode = p.text("mode");
    const QString regions = p.text("regions");
    if (k == "refresh.unpriced_no_spot_history") {
        return PriceErrors::tr("%1: no %2 price in %3 (no spot price history for it)").arg(type, mode, regions);
    }
    if (k == "refresh.unpriced_no_spot_now") {
        return PriceErrors::tr("%1: no %2 price in %3 (no spot price there now)").arg(type, mode, regions);
    }
    if (k == "refresh.unpriced_no_skus") {
        return PriceErrors::tr("%1: no %2 price in %3 (no matching SKUs there; the bundled price stays)")
            .arg(type, mode, regions);
    }
    if (k == "refresh.unpriced_not_rated") {
        return PriceErrors::tr("%1: no %2 price in %3 (BSS did not rate it; the bundled price stays)")
            .arg(type, mode, regions);
    }
    if (k == "refresh.unpriced_not_listed") {
        return PriceErrors::tr("%1: no %2 price in %3 (Lambda no longer lists the type; the bundled price stays)")
            .arg(type, mode, regions);
    }
    if (k == "refresh.unpriced_not_sold") {
        return PriceErrors::tr("%1: no %2 price in %3 (not sold there now; the bundled price stays)")
            .arg(type, mode, regions);
    }
    return {};
}

} // namespace

QString priceErrorText(const core::Reason& reason)
{
    const ReasonParams p(reason.params);
    const std::string& k = reason.key;
    if (k.starts_with("refresh.")) {
        return refreshNoteText(reason, p);
    }
    // Reading a price list: the catalog's offers, the credential it needs.
    if (k == "error.prices.no_offers") {
        return PriceErrors::tr("the catalog has no %1 offers to refresh").arg(p.text("name"));
    }
    if (k == "error.prices.no_offer_in_region") {
        return PriceErrors::tr("the catalog has no %1 offer in %2").arg(p.text("name"), p.text("region"));
    }
    if (k == "error.prices.needs_alibaba_key") {
        return PriceErrors::tr("reading %1's prices needs your AccessKey").arg(p.text("name"));
    }
    if (k == "error.prices.needs_aws_spot_key") {
        return PriceErrors::tr("reading %1's prices needs your access key (spot prices)").arg(p.text("name"));
    }
    if (k == "error.prices.needs_gcp_account") {
        return PriceErrors::tr("reading %1's prices needs your service account (or an API key)").arg(p.text("name"));
    }
    if (k == "error.prices.needs_huawei_key") {
        return PriceErrors::tr("reading %1's prices needs your AK/SK").arg(p.text("name"));
    }
    if (k == "error.prices.needs_lambda_key") {
        return PriceErrors::tr("reading %1's prices needs your API key").arg(p.text("name"));
    }
    if (k == "error.prices.needs_tencent_key") {
        return PriceErrors::tr("reading %1's prices needs your SecretId and SecretKey").arg(p.text("name"));
    }
    if (k == "error.prices.paperspace_no_api") {
        return PriceErrors::tr("Paperspace publishes no price API; its prices stay the bundled ones");
    }
    if (k == "error.prices.unknown_provider") {
        return PriceErrors::tr("unknown provider '%1'; prices are read for aws, azure, gcp, lambda, alibaba, tencent "
                               "and huawei")
            .arg(p.text("provider"));
    }
    if (k == "error.prices.not_read") {
        return PriceErrors::tr("not read");
    }
    if (k == "error.prices.cancelled") {
        return PriceErrors::tr("cancelled");
    }
    // The answers of the price APIs.
    if (k == "error.prices.http_status") {
        return PriceErrors::tr("answered HTTP %1: %2").arg(p.text("status"), p.text("said"));
    }
    if (k == "error.prices.answered_http") {
        return PriceErrors::tr("answered HTTP %1").arg(p.text("status"));
    }
    if (k == "error.prices.answered_http_code") {
        return PriceErrors::tr("answered HTTP %1: %2: %3").arg(p.text("status"), p.text("code"), p.text("said"));
    }
    if (k == "error.prices.answered_http_code_suggestion") {
        return PriceErrors::tr("answered HTTP %1: %2: %3 (%4)")
            .arg(p.text("status"), p.text("code"), p.text("said"), p.text("suggestion"));
    }
    if (k == "error.prices.answered_http_request") {
        return PriceErrors::tr("answered HTTP %1: %2: %3 (RequestId %4)")
            .arg(p.text("status"), p.text("code"), p.text("said"), p.text("request_id"));
    }
    if (k == "error.prices.not_a_region_index") {
        return PriceErrors::tr("not a region index: it has no \"regions\" object");
    }
    if (k == "error.prices.too_many_pages_vm_size") {
        return PriceErrors::tr("more than 200 pages for one VM size: stopped");
    }
    if (k == "error.prices.not_a_retail_page") {
        return PriceErrors::tr("not a Retail Prices page: it has no \"Items\" list");
    }
    if (k == "error.prices.too_many_sku_pages") {
        return PriceErrors::tr("more than 200 pages of SKUs: stopped");
    }
    if (k == "error.prices.not_a_sku_list") {
        return PriceErrors::tr("not a SKU list: it has no \"skus\"");
    }
    if (k == "error.prices.not_lambda_instance_types") {
        return PriceErrors::tr("not an instance-types answer: it has no \"data\" object");
    }
    if (k == "error.prices.spot_answer_not_xml") {
        return PriceErrors::tr("DescribeSpotPriceHistory answer is not XML");
    }
    if (k == "error.prices.spot_answer_other_root") {
        return PriceErrors::tr("DescribeSpotPriceHistory answer has another root element: %1").arg(p.text("element"));
    }
    if (k == "error.prices.too_many_spot_pages") {
        return PriceErrors::tr("more than 100 pages of spot prices: stopped");
    }
    if (k == "error.prices.alibaba_price_without_type") {
        return PriceErrors::tr("DescribePrice answer without an instanceType price (PriceInfo.Price.DetailInfos)");
    }
    if (k == "error.prices.huawei_period_without_amount") {
        return PriceErrors::tr(
            "ListRateOnPeriodDetail answer without official_website_rating_result.official_website_amount");
    }
    if (k == "error.prices.tencent_quote_without_price") {
        return PriceErrors::tr("InquiryPriceRunInstances answer without Price.InstancePrice.OriginalPrice");
    }
    // Files: the AWS offer file, the downloads' folder, the refreshed prices.
    if (k == "error.prices.no_such_file") {
        return PriceErrors::tr("no such file");
    }
    if (k == "error.prices.offer_file_is_folder") {
        return PriceErrors::tr("is a folder, not an offer file");
    }
    if (k == "error.prices.cannot_open") {
        return PriceErrors::tr("cannot be opened for reading");
    }
    if (k == "error.prices.read_error_after") {
        return PriceErrors::tr("read error after %1 bytes").arg(p.text("bytes"));
    }
    if (k == "error.prices.cancelled_after") {
        return PriceErrors::tr("cancelled after %1 bytes").arg(p.text("bytes"));
    }
    if (k == "error.prices.invalid_json_at") {
        return PriceErrors::tr("invalid JSON at byte %1: %2").arg(p.text("byte"), p.text("said"));
    }
    if (k == "error.prices.terms_before_products") {
        return PriceErrors::tr(
            "its terms come before its products; this reader needs the products first (as AWS publishes them)");
    }
    if (k == "error.prices.not_an_offer_file") {
        return PriceErrors::tr("not an EC2 offer file: it needs \"publicationDate\" and \"products\" at the top "
                               "(found %1 products)")
            .arg(p.text("products"));
    }
    if (k == "error.prices.cannot_create") {
        return PriceErrors::tr("cannot be created: %1").arg(p.text("said"));
    }
    if (k == "error.prices.cannot_write") {
        return PriceErrors::tr("cannot be written");
    }
    if (k == "error.prices.cannot_replace") {
        return PriceErrors::tr("cannot be replaced: %1").arg(p.text("said"));
    }
    return {};
}

} // namespace gpuplan::ui::errorwording
