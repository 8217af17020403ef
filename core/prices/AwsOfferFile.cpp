#include "gpuplan/prices/AwsOfferFile.h"

#include <rapidjson/error/en.h>
#include <rapidjson/filereadstream.h>
#include <rapidjson/reader.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <unordered_map>

namespace gpuplan::core {

namespace {

using std::string_view_literals::operator""sv;

/// The product attributes a kept product must have, and what it keeps.
struct Product
{
    std::string productFamily;
    std::string instanceType;
    std::string regionCode;
    std::string gpu;
    std::string operatingSystem;
    std::string tenancy;
    std::string preInstalledSw;
    std::string capacityStatus;
    std::string licenseModel;

    void clear() { *this = Product{}; }

    bool isLinuxSharedGpu() const
    {
        // wire: values of the provider's price API, matched as it writes them
        return productFamily.starts_with("Compute Instance") && !gpu.empty() && gpu != "0" && !instanceType.empty()
               && !regionCode.empty() && operatingSystem == "Linux" && tenancy == "Shared" && preInstalledSw == "NA"
               && (capacityStatus.empty() || capacityStatus == "Used")
               && (licenseModel.empty() || licenseModel == "No License required");
    }
};

struct Kept
{
    std::string instanceType;
    std::string regionCode;
};

/// One term of a kept product, buffered until its object ends (its termAttributes follow its prices).
struct Term
{
    std::string unit;
    std::string usd;
    bool hourlyFound = false;
    double hourly = 0;
    double upfront = 0;
    std::string lease;    // "1yr", "3yr"
    std::string klass;    // "standard", "convertible"
    std::string purchase; // "No Upfront", ...

    void clear() { *this = Term{}; }
};

/// A SAX handler that follows the path of keys and keeps only what it needs. Depth 0 is outside the document;
/// `m_keys[d]` is the key of the member being read at object depth d.
class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler>
{
public:
    Handler(AwsOfferFile& out, const std::function<bool()>& tick)
        : m_out(out)
        , m_tick(tick)
    { }

    std::string problem;    // the reason's key, set when the handler stops the parse (not a syntax error)
    bool cancelled = false; // set when the progress callback asked to stop

    bool StartObject() { return open(); }
    bool StartArray() { return open(); }
    bool EndArray(rapidjson::SizeType) { return close(); }

    bool EndObject(rapidjson::SizeType)
    {
        if (m_depth == 3 && m_section == Section::Products) {
            ++m_out.products;
            if (m_product.isLinuxSharedGpu()) {
                ++m_out.gpuProducts;
                m_kept.emplace(m_sku, Kept{m_product.instanceType, m_product.regionCode});
            }
            m_product.clear();
        } else if (m_depth == 5 && m_section == Section::Terms && m_termSku) {
            finishTerm();
        } else if (m_depth == 7 && m_section == Section::Terms && m_termSku) {
            finishDimension();
        }
        return close();
    }

    bool Key(const char* text, rapidjson::SizeType length, bool)
    {
        const std::string_view key(text, length);
        if (m_depth == 1) {
            m_section = key == "products"sv ? Section::Products : key == "terms"sv ? Section::Terms : Section::Other;
            m_topKey.assign(key);
            if (m_section == Section::Terms) {
                m_termsSeen = true;
            }
            if (m_section == Section::Products && m_termsSeen) {
                problem = "error.prices.terms_before_products";
                return false;
            }
        } else if (m_section == Section::Products) {
            if (m_depth == 2) {
                m_sku.assign(key);
            } else if (m_depth == 3) {
                m_field = key == "productFamily"sv ? Field::ProductFamily : Field::None;
                m_inAttributes = key == "attributes"sv;
            } else if (m_depth == 4 && m_inAttributes) {
                m_field = key == "instanceType"sv      ? Field::InstanceType
                          : key == "regionCode"sv      ? Field::RegionCode
                          : key == "gpu"sv             ? Field::Gpu
                          : key == "operatingSystem"sv ? Field::OperatingSystem
                          : key == "tenancy"sv         ? Field::Tenancy
                          : key == "preInstalledSw"sv  ? Field::PreInstalledSw
                          : key == "capacitystatus"sv  ? Field::CapacityStatus
                          : key == "licenseModel"sv    ? Field::LicenseModel
                                                       : Field::None;
            }
        } else if (m_section == Section::Terms) {
            if (m_depth == 2) {
                m_termType = key == "OnDemand"sv   ? TermType::OnDemand
                             : key == "Reserved"sv ? TermType::Reserved
                                                   : TermType::Other;
            } else if (m_depth == 3) {
                auto it = m_termType == TermType::Other ? m_kept.end() : m_kept.find(std::string(key));
                m_termSku = it == m_kept.end() ? nullptr : &*it;
            } else if (m_termSku) {
                if (m_depth == 5) {
                    m_part = key == "priceDimensions"sv  ? Part::Dimensions
                             : key == "termAttributes"sv ? Part::Attributes
                                                         : Part::None;
                    m_field = Field::None;
                } else if (m_depth == 6 && m_part == Part::Attributes) {
                    m_field = key == "LeaseContractLength"sv ? Field::Lease
                              : key == "OfferingClass"sv     ? Field::OfferingClass
                              : key == "PurchaseOption"sv    ? Field::PurchaseOption
                                                             : Field::None;
                } else if (m_depth == 7 && m_part == Part::Dimensions) {
                    m_field = key == "unit"sv ? Field::Unit : Field::None;
                    m_inPricePerUnit = key == "pricePerUnit"sv;
                } else if (m_depth == 8 && m_part == Part::Dimensions && m_inPricePerUnit) {
                    m_field = key == "USD"sv ? Field::Usd : Field::None;
                }
            }
        }
        return true;
    }

    bool String(const char* text, rapidjson::SizeType length, bool)
    {
        const std::string_view value(text, length);
        if (m_depth == 1) {
            if (m_topKey == "publicationDate") {
                m_out.publicationDate.assign(value.substr(0, 10));
            } else if (m_topKey == "version") {
                m_out.version.assign(value);
            }
            return true;
        }
        switch (m_field) {
            case Field::ProductFamily:
                m_product.productFamily.assign(value);
                break;
            case Field::InstanceType:
                m_product.instanceType.assign(value);
                break;
            case Field::RegionCode:
                m_product.regionCode.assign(value);
                break;
            case Field::Gpu:
                m_product.gpu.assign(value);
                break;
            case Field::OperatingSystem:
                m_product.operatingSystem.assign(value);
                break;
            case Field::Tenancy:
                m_product.tenancy.assign(value);
                break;
            case Field::PreInstalledSw:
                m_product.preInstalledSw.assign(value);
                break;
            case Field::CapacityStatus:
                m_product.capacityStatus.assign(value);
                break;
            case Field::LicenseModel:
                m_product.licenseModel.assign(value);
                break;
            case Field::Lease:
                m_term.lease.assign(value);
                break;
            case Field::OfferingClass:
                m_term.klass.assign(value);
                break;
            case Field::PurchaseOption:
                m_term.purchase.assign(value);
                break;
            case Field::Unit:
                m_term.unit.assign(value);
                break;
            case Field::Usd:
                m_term.usd.assign(value);
                break;
            case Field::None:
                break;
        }
        m_field = Field::None;
        return true;
    }

    bool Default()
    {
        m_field = Field::None;
        return true;
    }

private:
    enum class Section
    {
        Other,
        Products,
        Terms
    };
    enum class TermType
    {
        Other,
        OnDemand,
        Reserved
    };
    enum class Part
    {
        None,
        Dimensions,
        Attributes
    };
    enum class Field
    {
        None,
        ProductFamily,
        InstanceType,
        RegionCode,
        Gpu,
        OperatingSystem,
        Tenancy,
        PreInstalledSw,
        CapacityStatus,
        LicenseModel,
        Lease,
        OfferingClass,
        PurchaseOption,
        Unit,
        Usd
    };

    bool open()
    {
        ++m_depth;
        m_field = Field::None;
        if ((++m_events & 0xFFFF) == 0 && m_tick && !m_tick()) {
            cancelled = true;
            return false;
        }
        return true;
    }

    bool close()
    {
        if (m_depth == 4 && m_section == Section::Products) {
            m_inAttributes = false;
        }
        if (m_depth == 8 && m_section == Section::Terms) {
            m_inPricePerUnit = false;
        }
        if (m_depth == 3 && m_section == Section::Terms) {
            m_termSku = nullptr;
        }
        --m_depth;
        m_field = Field::None;
        return true;
    }

    /// One price dimension of a term: its unit and USD amount.
    void finishDimension()
    {
        char* end = nullptr;
        const double amount = std::strtod(m_term.usd.c_str(), &end);
        const bool number = !m_term.usd.empty() && end && *end == '\0' && amount >= 0;
        if (number && m_term.unit == "Hrs") {
            m_term.hourly = amount;
            m_term.hourlyFound = true;
        } else if (number && m_term.unit == "Quantity") {
            m_term.upfront += amount;
        }
        m_term.unit.clear();
        m_term.usd.clear();
    }

    /// A whole term: an on-demand hourly price, or a standard no-upfront reservation of 1 or 3 years.
    void finishTerm()
    {
        const Kept& kept = m_termSku->second;
        if (m_term.hourlyFound && m_term.hourly > 0) {
            std::optional<PricingMode> mode;
            if (m_termType == TermType::OnDemand) {
                mode = PricingMode::OnDemand;
            } else if (m_termType == TermType::Reserved && m_term.klass == "standard" && m_term.purchase == "No Upfront"
                       && m_term.upfront == 0) {
                mode = m_term.lease == "1yr"   ? std::optional(PricingMode::Reserved1Year)
                       : m_term.lease == "3yr" ? std::optional(PricingMode::Reserved3Year)
                                               : std::nullopt;
            }
            if (mode) {
                m_out.prices.push_back({m_termSku->first, kept.instanceType, kept.regionCode, *mode, m_term.hourly});
            }
        }
        m_term.clear();
    }

    AwsOfferFile& m_out;
    const std::function<bool()>& m_tick;
    int m_depth = 0;
    std::uint64_t m_events = 0;
    Section m_section = Section::Other;
    std::string m_topKey;
    bool m_termsSeen = false;
    // products
    std::string m_sku;
    bool m_inAttributes = false;
    Product m_product;
    std::unordered_map<std::string, Kept> m_kept; // SKU -> what it is
    // terms
    TermType m_termType = TermType::Other;
    const std::pair<const std::string, Kept>* m_termSku = nullptr; // the kept product whose terms are being read
    Part m_part = Part::None;
    bool m_inPricePerUnit = false;
    Term m_term;
    Field m_field = Field::None;
};

struct FileCloser
{
    void operator()(std::FILE* f) const { std::fclose(f); }
};

} // namespace

Result<AwsOfferFile> readAwsOfferFile(const std::filesystem::path& file, const ReadProgress& progress)
{
    const std::string where = file.string();
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) {
        return Error{ErrorCode::FileNotFound, Reason{"error.prices.no_such_file"}, where};
    }
    if (std::filesystem::is_directory(file, ec)) {
        return Error{ErrorCode::FileUnreadable, Reason{"error.prices.offer_file_is_folder"}, where};
    }
    const std::uint64_t total = std::filesystem::file_size(file, ec);
    std::unique_ptr<std::FILE, FileCloser> in(std::fopen(file.c_str(), "rb"));
    if (!in) {
        return Error{ErrorCode::FileUnreadable, Reason{"error.prices.cannot_open"}, where};
    }

    AwsOfferFile out;
    std::array<char, 1 << 16> buffer;
    rapidjson::FileReadStream stream(in.get(), buffer.data(), buffer.size());
    const std::function<bool()> tick = [&] { return !progress || progress(stream.Tell(), total); };
    Handler handler(out, tick);
    rapidjson::Reader reader;
    const rapidjson::ParseResult parsed = reader.Parse<rapidjson::kParseNumbersAsStringsFlag>(stream, handler);
    out.bytes = stream.Tell();
    if (std::ferror(in.get())) {
        return Error{ErrorCode::FileUnreadable,
                     Reason{"error.prices.read_error_after", {{"bytes", std::to_string(out.bytes)}}},
                     where};
    }
    if (parsed.IsError()) {
        if (handler.cancelled) {
            return Error{ErrorCode::Cancelled,
                         Reason{"error.prices.cancelled_after", {{"bytes", std::to_string(out.bytes)}}},
                         where};
        }
        if (!handler.problem.empty()) {
            return Error{ErrorCode::SchemaViolation, Reason{handler.problem}, where};
        }
        return Error{
            ErrorCode::JsonSyntax,
            Reason{"error.prices.invalid_json_at",
                   {{"byte", std::to_string(parsed.Offset())}, {"said", rapidjson::GetParseError_En(parsed.Code())}}},
            where};
    }
    if (out.products == 0 || out.publicationDate.size() != 10) {
        return Error{ErrorCode::SchemaViolation,
                     Reason{"error.prices.not_an_offer_file", {{"products", std::to_string(out.products)}}},
                     where};
    }
    if (progress) {
        progress(out.bytes, total);
    }
    return out;
}

} // namespace gpuplan::core
