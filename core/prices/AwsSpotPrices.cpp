#include "PriceReading.h"

#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/cloud/providers/aws/Ec2Api.h"
#include "gpuplan/net/signers/AwsSigV4.h"
#include "gpuplan/prices/PriceAnswers.h"

#include <pugixml.hpp>

namespace gpuplan::core {

Result<AwsSpotPage> parseSpotPriceHistory(std::string_view body)
{
    pugi::xml_document document;
    if (!document.load_buffer(body.data(), body.size())) {
        return Error{ErrorCode::ProviderRefused, Reason{"error.prices.spot_answer_not_xml"}, "aws"};
    }
    const pugi::xml_node root = document.child("DescribeSpotPriceHistoryResponse");
    if (!root) {
        return Error{ErrorCode::ProviderRefused,
                     Reason{"error.prices.spot_answer_other_root", {{"element", document.first_child().name()}}},
                     "aws"};
    }
    AwsSpotPage page;
    for (const pugi::xml_node item : root.child("spotPriceHistorySet").children("item")) {
        AwsSpotPrice price;
        price.zone = item.child_value("availabilityZone");
        price.instanceType = item.child_value("instanceType");
        price.productDescription = item.child_value("productDescription");
        price.timestamp = item.child_value("timestamp");
        const std::string text = item.child_value("spotPrice");
        try {
            std::size_t used = 0;
            price.usdPerHour = std::stod(text, &used);
            if (used != text.size() || price.usdPerHour <= 0) {
                continue;
            }
        } catch (const std::exception&) {
            continue; // not a number: that item is left out
        }
        page.prices.push_back(std::move(price));
    }
    page.nextToken = root.child_value("nextToken");
    return page;
}

std::map<std::string, AwsSpotPrice> cheapestLinuxSpot(const std::vector<AwsSpotPrice>& prices)
{
    std::map<std::string, AwsSpotPrice> cheapest;
    for (const AwsSpotPrice& p : prices) {
        if (!p.productDescription.starts_with("Linux/UNIX")) {
            continue;
        }
        auto [it, added] = cheapest.try_emplace(p.instanceType, p);
        if (!added && p.usdPerHour < it->second.usdPerHour) {
            it->second = p;
        }
    }
    return cheapest;
}

Result<PriceRefresh> refreshAwsSpotPrices(HttpTransport& http,
                                          const Catalog& catalog,
                                          const std::string& region,
                                          const PriceListAccess& access,
                                          const RefreshProgress& progress,
                                          const CancelToken* cancel)
{
    Result<pricing::Reading> reading =
        pricing::startReading(catalog, "aws", "AWS", region, access.key.has_value(), "error.prices.needs_aws_spot_key");
    if (!reading) {
        return reading.error();
    }
    PriceRefresh& refresh = reading.value().refresh;
    const std::map<std::string, std::set<std::string>>& offered = reading.value().offered;
    const std::string overridden = endpointOverride("aws");
    const std::map<std::string, std::set<std::string>> wanted = pricing::byRegion(offered);
    std::uint64_t done = 0;
    for (const auto& [r, types] : wanted) {
        const std::string base = overridden.empty() ? ec2::endpointFor(r) : overridden;
        if (Status go = pricing::keepGoing(
                progress, cancel, Reason{"refresh.progress_aws_spot", {{"region", r}}}, done++, wanted.size(), base);
            !go) {
            return go.error();
        }
        // StartTime = EndTime = now: the price in force now, per zone and type.
        const std::string now = extendedIsoTime(access.clock());
        std::vector<AwsSpotPrice> read;
        std::string token;
        for (int page = 0; page == 0 || !token.empty(); ++page) {
            if (page >= 100) {
                return Error{ErrorCode::SchemaViolation, Reason{"error.prices.too_many_spot_pages"}, base};
            }
            const ec2::Call call =
                ec2::spotPriceHistoryCall(std::vector<std::string>(types.begin(), types.end()), "", now, token);
            HttpRequest request = ec2::buildRequest(base, call);
            if (Result<SigningSteps> signedOk = signAwsV4(request, *access.key, {r, "ec2", true}, access.clock());
                !signedOk) {
                return signedOk.error();
            }
            Result<HttpResponse> response = http.send(request, cancel);
            if (!response) {
                return response.error();
            }
            if (response->status != 200) {
                return ec2::mapError(*response, {call.action, r});
            }
            Result<AwsSpotPage> parsed = parseSpotPriceHistory(response->body);
            if (!parsed) {
                Error error = parsed.error();
                error.where = base;
                return error;
            }
            read.insert(read.end(), parsed->prices.begin(), parsed->prices.end());
            token = parsed->nextToken;
        }
        for (const auto& [type, cheapest] : cheapestLinuxSpot(read)) {
            if (!types.contains(type)) {
                continue;
            }
            // source: the price's provenance as its API names it, saved with the price (English data, as
            // resources/catalog's sources)
            refresh.prices.push_back(
                {type,
                 pricing::livePrice(r,
                                    PricingMode::Spot,
                                    cheapest.usdPerHour,
                                    Currency::USD,
                                    base,
                                    "EC2 DescribeSpotPriceHistory, live: Linux/UNIX, the price in force now in the "
                                    "cheapest zone, "
                                        + cheapest.zone)});
        }
    }
    pricing::noteUnpriced(refresh, offered, PricingMode::Spot, "refresh.unpriced_no_spot_now");
    pricing::compareWithCatalog(catalog, refresh);
    return std::move(refresh);
}

} // namespace gpuplan::core
