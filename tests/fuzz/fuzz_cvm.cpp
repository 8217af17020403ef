// Tencent Cloud API 3.0 answers (core/cloud/providers/tencent/CvmApi.cpp): every parser of a CVM or VPC answer,
// and Response.Error as mapError words it.
#include "FuzzSupport.h"

#include "gpuplan/cloud/providers/tencent/CvmApi.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace gpuplan;
namespace cvm = gpuplan::core::cvm;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view body = fuzz::asText(data, size);
    if (auto images = cvm::parseDescribeImages(body)) {
        (void)cvm::newestGpuImage(*images);
    }
    (void)cvm::parseDescribeKeyPairs(body);
    (void)cvm::parseImportKeyPair(body);
    (void)cvm::parseDescribeSecurityGroups(body);
    (void)cvm::parseCreateSecurityGroup(body);
    (void)cvm::parseEmptyAnswer(body, "TerminateInstances");
    (void)cvm::parseRunInstances(body);
    (void)cvm::parseDescribeInstances(body, "ap-guangzhou");
    (void)cvm::parseZoneConfig(body);
    (void)cvm::responseError(body);
    const cvm::ErrorContext context{.action = "RunInstances",
                                    .service = cvm::Service::Cvm,
                                    .region = "ap-guangzhou",
                                    .instanceType = "GN10Xp.2XLARGE40",
                                    .zone = "ap-guangzhou-3"};
    for (int status : {200, 400, 503}) {
        (void)cvm::mapError(core::HttpResponse{.status = status, .headers = {}, .body = std::string(body)}, context);
    }
    return 0;
}
