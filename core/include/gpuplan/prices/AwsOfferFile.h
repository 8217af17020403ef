#pragma once

#include "gpuplan/catalog/Offer.h"
#include "gpuplan/core/Result.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace gpuplan::core {

/// One price of a GPU instance in AWS's EC2 offer file (the Price List bulk API's regional file).
struct AwsListedPrice
{
    std::string sku;
    std::string instanceType;                 // "p4d.24xlarge"
    std::string regionCode;                   // "us-east-1"
    PricingMode mode = PricingMode::OnDemand; // on-demand, or a 1- or 3-year standard reservation, no upfront
    double usdPerHour = 0;
};

/// What was kept from an offer file: Linux, shared tenancy, no pre-installed software, GPU instances only.
struct AwsOfferFile
{
    std::string publicationDate; // YYYY-MM-DD, the file's own date: the prices' as_of
    std::string version;         // the file's version, e.g. "20261130150000"
    std::vector<AwsListedPrice> prices;
    std::uint64_t products = 0;    // every product in the file
    std::uint64_t gpuProducts = 0; // those kept
    std::uint64_t bytes = 0;       // read
};

/// Called every few MB with the bytes read and the file's size; returning false cancels the read.
using ReadProgress = std::function<bool(std::uint64_t done, std::uint64_t total)>;

/// Reads an EC2 offer file as a stream (the file is hundreds of MB; it is never held in memory): products first,
/// then the OnDemand and Reserved terms of the GPU products kept. Errors: FileNotFound, FileUnreadable,
/// JsonSyntax (with the byte offset), SchemaViolation (not an EC2 offer file, or terms before products),
/// Cancelled.
Result<AwsOfferFile> readAwsOfferFile(const std::filesystem::path& file, const ReadProgress& progress = {});

} // namespace gpuplan::core
