// NVML found at run time: dlopen("libnvidia-ml.so.1"), every symbol through dlsym, each one optional.
// NVML_ERROR_NOT_SUPPORTED (and a missing symbol) reads as "n/a", never as a failure.
#pragma once

#include <optional>
#include <string>

namespace probe::nvml {

using Device = void*; // nvmlDevice_t

// Loads and initialises NVML; false (with a reason) when the library or its initialisation is missing.
bool load(std::string* reason);
bool available();
void shutdown();

std::optional<std::string> driverVersion();
// The NVML handle of a CUDA device, matched by PCI bus id, then by UUID.
Device deviceFor(const std::string& pciBusId, const std::string& uuid);

std::optional<std::string> name(Device d);
std::optional<std::string> uuid(Device d);
std::optional<int> maxClockMhz(Device d, int clockType); // 1 SM, 2 memory
std::optional<int> clockMhz(Device d, int clockType);
std::optional<double> powerUsageW(Device d);
std::optional<double> enforcedPowerLimitW(Device d);
std::optional<double> defaultPowerLimitW(Device d);
std::optional<int> temperatureC(Device d);
std::optional<int> temperatureThresholdC(Device d, int threshold); // 0 shutdown, 1 slowdown
std::optional<unsigned long long> clocksEventReasons(Device d);

struct EccCounts
{
    bool enabled;
    unsigned long long volatileCorrected, volatileUncorrected, aggregateCorrected, aggregateUncorrected;
};
std::optional<EccCounts> ecc(Device d);
struct Retired
{
    unsigned int count;
    bool pending;
};
std::optional<Retired> retiredPages(Device d);
struct Remapped
{
    unsigned int correctable, uncorrectable, pending, failure;
};
std::optional<Remapped> remappedRows(Device d);
std::optional<int> pcieMaxGeneration(Device d);
std::optional<int> pcieMaxWidth(Device d);
std::optional<int> pcieCurrentGeneration(Device d);
std::optional<int> pcieCurrentWidth(Device d);
std::optional<bool> migEnabled(Device d);
// The MIG device (or GPU) with this NVML UUID ("MIG-..." / "GPU-..."), nullptr when unknown.
Device deviceByUuid(const std::string& uuid);
// nvmlDeviceGetTotalEnergyConsumption: mJ since the driver loaded (Volta and newer).
std::optional<unsigned long long> totalEnergyMj(Device d);
// Whether any NVLink of the device is active (nvmlDeviceGetNvLinkState over the links).
bool anyNvlinkActive(Device d);

} // namespace probe::nvml
