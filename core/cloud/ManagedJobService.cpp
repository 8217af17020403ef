#include "gpuplan/cloud/ManagedJobService.h"

namespace gpuplan::core {

Result<std::vector<std::string>>
ManagedJobService::zonesOffering(const std::string& region, const std::string& instanceType, const CancelToken* cancel)
{
    (void)region;
    (void)instanceType;
    (void)cancel;
    return std::vector<std::string>{std::string()};
}

} // namespace gpuplan::core
