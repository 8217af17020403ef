// EC2 Query API answers (core/cloud/providers/aws/Ec2Api.cpp, pugixml): every parser of a 2xx body, and the error
// document of a failed call as mapError words it.
#include "FuzzSupport.h"

#include "gpuplan/cloud/providers/aws/Ec2Api.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace gpuplan;
namespace ec2 = gpuplan::core::ec2;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view body = fuzz::asText(data, size);
    if (auto images = ec2::parseDescribeImages(body)) {
        (void)ec2::newestImage(*images);
    }
    (void)ec2::parseDescribeKeyPairs(body);
    (void)ec2::parseImportKeyPair(body);
    (void)ec2::parseDescribeSecurityGroups(body);
    (void)ec2::parseCreateSecurityGroup(body);
    (void)ec2::parseAuthorizeSecurityGroupIngress(body);
    (void)ec2::parseRunInstances(body, "us-east-1");
    (void)ec2::parseDescribeInstances(body, "us-east-1");
    (void)ec2::parseTerminateInstances(body);
    (void)ec2::parseInstanceTypeOfferings(body);
    (void)ec2::parseError(body);
    const ec2::ErrorContext context{
        .action = "RunInstances", .region = "us-east-1", .instanceType = "p4d.24xlarge", .zone = "us-east-1a"};
    for (int status : {400, 403, 503}) {
        (void)ec2::mapError(core::HttpResponse{.status = status, .headers = {}, .body = std::string(body)}, context);
    }
    return 0;
}
