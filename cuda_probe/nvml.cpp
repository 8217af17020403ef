#include "nvml.h"

#include <dlfcn.h>

#include <cstring>
#include <vector>

namespace probe::nvml {
namespace {

// The few NVML types the probe needs, declared here so no nvml.h is required at build time.
using Return = int; // nvmlReturn_t
constexpr Return kSuccess = 0;
constexpr Return kInsufficientSize = 7;

struct Library
{
    void* handle = nullptr;
    bool initialised = false;
    Return (*init)() = nullptr;
    Return (*shutdown)() = nullptr;
    const char* (*errorString)(Return) = nullptr;
    Return (*systemGetDriverVersion)(char*, unsigned int) = nullptr;
    Return (*getHandleByPciBusId)(const char*, Device*) = nullptr;
    Return (*getHandleByUuid)(const char*, Device*) = nullptr;
    Return (*getName)(Device, char*, unsigned int) = nullptr;
    Return (*getUuid)(Device, char*, unsigned int) = nullptr;
    Return (*getMaxClockInfo)(Device, int, unsigned int*) = nullptr;
    Return (*getClockInfo)(Device, int, unsigned int*) = nullptr;
    Return (*getPowerUsage)(Device, unsigned int*) = nullptr;
    Return (*getEnforcedPowerLimit)(Device, unsigned int*) = nullptr;
    Return (*getPowerManagementDefaultLimit)(Device, unsigned int*) = nullptr;
    Return (*getTemperature)(Device, int, unsigned int*) = nullptr;
    Return (*getTemperatureThreshold)(Device, int, unsigned int*) = nullptr;
    Return (*getClocksEventReasons)(Device, unsigned long long*) = nullptr;
    Return (*getEccMode)(Device, int*, int*) = nullptr;
    Return (*getTotalEccErrors)(Device, int, int, unsigned long long*) = nullptr;
    Return (*getRetiredPages)(Device, int, unsigned int*, unsigned long long*) = nullptr;
    Return (*getRetiredPagesPendingStatus)(Device, int*) = nullptr;
    Return (*getRemappedRows)(Device, unsigned int*, unsigned int*, unsigned int*, unsigned int*) = nullptr;
    Return (*getMaxPcieLinkGeneration)(Device, unsigned int*) = nullptr;
    Return (*getMaxPcieLinkWidth)(Device, unsigned int*) = nullptr;
    Return (*getCurrPcieLinkGeneration)(Device, unsigned int*) = nullptr;
    Return (*getCurrPcieLinkWidth)(Device, unsigned int*) = nullptr;
    Return (*getMigMode)(Device, unsigned int*, unsigned int*) = nullptr;
    Return (*getTotalEnergyConsumption)(Device, unsigned long long*) = nullptr;
    Return (*getNvLinkState)(Device, unsigned int, int*) = nullptr;
};

Library lib;

template <typename F>
void resolve(F& target, const char* first, const char* second = nullptr)
{
    void* symbol = dlsym(lib.handle, first);
    if (!symbol && second)
        symbol = dlsym(lib.handle, second);
    target = reinterpret_cast<F>(symbol);
}

std::optional<std::string> text(Return (*f)(Device, char*, unsigned int), Device d)
{
    if (!lib.initialised || !f || !d)
        return std::nullopt;
    char buffer[256] = {};
    if (f(d, buffer, sizeof buffer) != kSuccess)
        return std::nullopt;
    return std::string(buffer);
}

std::optional<int> uintValue(Return (*f)(Device, unsigned int*), Device d)
{
    if (!lib.initialised || !f || !d)
        return std::nullopt;
    unsigned int value = 0;
    if (f(d, &value) != kSuccess)
        return std::nullopt;
    return static_cast<int>(value);
}

std::optional<double> milliwatts(Return (*f)(Device, unsigned int*), Device d)
{
    if (!lib.initialised || !f || !d)
        return std::nullopt;
    unsigned int value = 0;
    if (f(d, &value) != kSuccess)
        return std::nullopt;
    return value / 1000.0;
}

} // namespace

bool load(std::string* reason)
{
    if (lib.initialised)
        return true;
    lib.handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib.handle) {
        if (reason) {
            const char* why = dlerror();
            *reason = std::string("libnvidia-ml.so.1 could not be loaded: ") + (why ? why : "not found");
        }
        return false;
    }
    resolve(lib.init, "nvmlInit_v2", "nvmlInit");
    resolve(lib.shutdown, "nvmlShutdown");
    resolve(lib.errorString, "nvmlErrorString");
    resolve(lib.systemGetDriverVersion, "nvmlSystemGetDriverVersion");
    resolve(lib.getHandleByPciBusId, "nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId");
    resolve(lib.getHandleByUuid, "nvmlDeviceGetHandleByUUID");
    resolve(lib.getName, "nvmlDeviceGetName");
    resolve(lib.getUuid, "nvmlDeviceGetUUID");
    resolve(lib.getMaxClockInfo, "nvmlDeviceGetMaxClockInfo");
    resolve(lib.getClockInfo, "nvmlDeviceGetClockInfo");
    resolve(lib.getPowerUsage, "nvmlDeviceGetPowerUsage");
    resolve(lib.getEnforcedPowerLimit, "nvmlDeviceGetEnforcedPowerLimit");
    resolve(lib.getPowerManagementDefaultLimit, "nvmlDeviceGetPowerManagementDefaultLimit");
    resolve(lib.getTemperature, "nvmlDeviceGetTemperature");
    resolve(lib.getTemperatureThreshold, "nvmlDeviceGetTemperatureThreshold");
    resolve(lib.getClocksEventReasons,
            "nvmlDeviceGetCurrentClocksEventReasons",
            "nvmlDeviceGetCurrentClocksThrottleReasons");
    resolve(lib.getEccMode, "nvmlDeviceGetEccMode");
    resolve(lib.getTotalEccErrors, "nvmlDeviceGetTotalEccErrors");
    resolve(lib.getRetiredPages, "nvmlDeviceGetRetiredPages");
    resolve(lib.getRetiredPagesPendingStatus, "nvmlDeviceGetRetiredPagesPendingStatus");
    resolve(lib.getRemappedRows, "nvmlDeviceGetRemappedRows");
    resolve(lib.getMaxPcieLinkGeneration, "nvmlDeviceGetMaxPcieLinkGeneration");
    resolve(lib.getMaxPcieLinkWidth, "nvmlDeviceGetMaxPcieLinkWidth");
    resolve(lib.getCurrPcieLinkGeneration, "nvmlDeviceGetCurrPcieLinkGeneration");
    resolve(lib.getCurrPcieLinkWidth, "nvmlDeviceGetCurrPcieLinkWidth");
    resolve(lib.getMigMode, "nvmlDeviceGetMigMode");
    resolve(lib.getTotalEnergyConsumption, "nvmlDeviceGetTotalEnergyConsumption");
    resolve(lib.getNvLinkState, "nvmlDeviceGetNvLinkState");
    if (!lib.init) {
        if (reason)
            *reason = "libnvidia-ml.so.1 has no nvmlInit";
        return false;
    }
    const Return status = lib.init();
    if (status != kSuccess) {
        if (reason) {
            const char* why = lib.errorString ? lib.errorString(status) : nullptr;
            *reason = std::string("nvmlInit failed: ") + (why ? why : ("error " + std::to_string(status)));
        }
        return false;
    }
    lib.initialised = true;
    return true;
}

bool available()
{
    return lib.initialised;
}

void shutdown()
{
    if (lib.initialised && lib.shutdown)
        lib.shutdown();
    lib.initialised = false;
}

std::optional<std::string> driverVersion()
{
    if (!lib.initialised || !lib.systemGetDriverVersion)
        return std::nullopt;
    char buffer[96] = {};
    if (lib.systemGetDriverVersion(buffer, sizeof buffer) != kSuccess)
        return std::nullopt;
    return std::string(buffer);
}

Device deviceFor(const std::string& pciBusId, const std::string& uuidText)
{
    if (!lib.initialised)
        return nullptr;
    Device d = nullptr;
    if (lib.getHandleByPciBusId && !pciBusId.empty() && lib.getHandleByPciBusId(pciBusId.c_str(), &d) == kSuccess)
        return d;
    d = nullptr;
    if (lib.getHandleByUuid && !uuidText.empty() && lib.getHandleByUuid(uuidText.c_str(), &d) == kSuccess)
        return d;
    return nullptr;
}

std::optional<std::string> name(Device d)
{
    return text(lib.getName, d);
}
std::optional<std::string> uuid(Device d)
{
    return text(lib.getUuid, d);
}

std::optional<int> maxClockMhz(Device d, int clockType)
{
    if (!lib.initialised || !lib.getMaxClockInfo || !d)
        return std::nullopt;
    unsigned int value = 0;
    if (lib.getMaxClockInfo(d, clockType, &value) != kSuccess || value == 0)
        return std::nullopt;
    return static_cast<int>(value);
}

std::optional<int> clockMhz(Device d, int clockType)
{
    if (!lib.initialised || !lib.getClockInfo || !d)
        return std::nullopt;
    unsigned int value = 0;
    if (lib.getClockInfo(d, clockType, &value) != kSuccess)
        return std::nullopt;
    return static_cast<int>(value);
}

std::optional<double> powerUsageW(Device d)
{
    return milliwatts(lib.getPowerUsage, d);
}
std::optional<double> enforcedPowerLimitW(Device d)
{
    return milliwatts(lib.getEnforcedPowerLimit, d);
}
std::optional<double> defaultPowerLimitW(Device d)
{
    return milliwatts(lib.getPowerManagementDefaultLimit, d);
}

std::optional<int> temperatureC(Device d)
{
    if (!lib.initialised || !lib.getTemperature || !d)
        return std::nullopt;
    unsigned int value = 0;
    if (lib.getTemperature(d, 0 /* NVML_TEMPERATURE_GPU */, &value) != kSuccess)
        return std::nullopt;
    return static_cast<int>(value);
}

std::optional<int> temperatureThresholdC(Device d, int threshold)
{
    if (!lib.initialised || !lib.getTemperatureThreshold || !d)
        return std::nullopt;
    unsigned int value = 0;
    if (lib.getTemperatureThreshold(d, threshold, &value) != kSuccess || value == 0)
        return std::nullopt;
    return static_cast<int>(value);
}

std::optional<unsigned long long> clocksEventReasons(Device d)
{
    if (!lib.initialised || !lib.getClocksEventReasons || !d)
        return std::nullopt;
    unsigned long long value = 0;
    if (lib.getClocksEventReasons(d, &value) != kSuccess)
        return std::nullopt;
    return value;
}

std::optional<EccCounts> ecc(Device d)
{
    if (!lib.initialised || !lib.getEccMode || !d)
        return std::nullopt;
    int current = 0, pending = 0;
    if (lib.getEccMode(d, &current, &pending) != kSuccess)
        return std::nullopt; // not supported: no ECC
    EccCounts counts{current != 0, 0, 0, 0, 0};
    if (lib.getTotalEccErrors && counts.enabled) {
        // errorType 0 corrected, 1 uncorrected; counterType 0 volatile, 1 aggregate.
        unsigned long long value = 0;
        if (lib.getTotalEccErrors(d, 0, 0, &value) == kSuccess)
            counts.volatileCorrected = value;
        if (lib.getTotalEccErrors(d, 1, 0, &value) == kSuccess)
            counts.volatileUncorrected = value;
        if (lib.getTotalEccErrors(d, 0, 1, &value) == kSuccess)
            counts.aggregateCorrected = value;
        if (lib.getTotalEccErrors(d, 1, 1, &value) == kSuccess)
            counts.aggregateUncorrected = value;
    }
    return counts;
}

std::optional<Retired> retiredPages(Device d)
{
    if (!lib.initialised || !lib.getRetiredPages || !d)
        return std::nullopt;
    Retired result{0, false};
    bool any = false;
    for (int cause = 0; cause < 2; ++cause) { // multiple single-bit, double-bit
        unsigned int count = 0;
        const Return status = lib.getRetiredPages(d, cause, &count, nullptr);
        if (status == kSuccess || status == kInsufficientSize) {
            result.count += count;
            any = true;
        }
    }
    if (!any)
        return std::nullopt;
    int pending = 0;
    if (lib.getRetiredPagesPendingStatus && lib.getRetiredPagesPendingStatus(d, &pending) == kSuccess)
        result.pending = pending != 0;
    return result;
}

std::optional<Remapped> remappedRows(Device d)
{
    if (!lib.initialised || !lib.getRemappedRows || !d)
        return std::nullopt;
    Remapped r{0, 0, 0, 0};
    if (lib.getRemappedRows(d, &r.correctable, &r.uncorrectable, &r.pending, &r.failure) != kSuccess)
        return std::nullopt;
    return r;
}

std::optional<int> pcieMaxGeneration(Device d)
{
    return uintValue(lib.getMaxPcieLinkGeneration, d);
}
std::optional<int> pcieMaxWidth(Device d)
{
    return uintValue(lib.getMaxPcieLinkWidth, d);
}
std::optional<int> pcieCurrentGeneration(Device d)
{
    return uintValue(lib.getCurrPcieLinkGeneration, d);
}
std::optional<int> pcieCurrentWidth(Device d)
{
    return uintValue(lib.getCurrPcieLinkWidth, d);
}

std::optional<bool> migEnabled(Device d)
{
    if (!lib.initialised || !lib.getMigMode || !d)
        return std::nullopt;
    unsigned int current = 0, pending = 0;
    if (lib.getMigMode(d, &current, &pending) != kSuccess)
        return std::nullopt;
    return current == 1;
}

Device deviceByUuid(const std::string& uuidText)
{
    if (!lib.initialised || !lib.getHandleByUuid || uuidText.empty())
        return nullptr;
    Device d = nullptr;
    if (lib.getHandleByUuid(uuidText.c_str(), &d) != kSuccess)
        return nullptr;
    return d;
}

std::optional<unsigned long long> totalEnergyMj(Device d)
{
    if (!lib.initialised || !lib.getTotalEnergyConsumption || !d)
        return std::nullopt;
    unsigned long long value = 0;
    if (lib.getTotalEnergyConsumption(d, &value) != kSuccess)
        return std::nullopt;
    return value;
}

bool anyNvlinkActive(Device d)
{
    if (!lib.initialised || !lib.getNvLinkState || !d)
        return false;
    for (unsigned int link = 0; link < 18; ++link) { // NVML_NVLINK_MAX_LINKS (18 since Hopper)
        int active = 0;
        if (lib.getNvLinkState(d, link, &active) == kSuccess && active != 0)
            return true;
    }
    return false;
}

} // namespace probe::nvml
