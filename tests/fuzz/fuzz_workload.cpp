// Workload files (core/workload/WorkloadLoader.cpp): the user's gpuplan-workload/1 file and the presets file, then
// the round trip a plan file makes of a workload (workloadDefinitionJson, parseWorkload).
#include "FuzzSupport.h"

#include "gpuplan/workload/WorkloadLoader.h"

#include <cstddef>
#include <cstdint>

using namespace gpuplan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::filesystem::path file = fuzz::writeInput("presets.json", data, size);
    if (core::Result<core::Workload> workload = core::loadWorkloadFile(file)) {
        const nlohmann::json definition = core::workloadDefinitionJson(*workload);
        (void)definition.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
        (void)core::parseWorkload(definition, "fuzz: $.workload.definition");
        (void)core::withOverrides(*workload, core::WorkOverrides{.epochs = 2.0});
    }
    if (core::Result<core::LoadedWorkloads> presets = core::loadPresets(fuzz::scratchDir())) {
        for (const core::Workload& preset : presets->presets) {
            (void)core::parseWorkload(core::workloadDefinitionJson(preset), "fuzz");
        }
        (void)presets->find("resnet50-imagenet");
    }
    return 0;
}
