#include "nvml_events.h"

#include <dlfcn.h>

namespace probe::nvmlevents {
namespace {

// From NVML's public nvml.h: nvmlEventTypeXidCriticalError is 0x0000000000000008LL; NVML_SUCCESS 0,
// NVML_ERROR_TIMEOUT 10. The event record gained gpuInstanceId/computeInstanceId with nvmlEventSetWait_v2;
// the padding keeps an older or newer layout from writing past it.
constexpr unsigned long long kXidCriticalError = 0x8ull;
constexpr int kSuccess = 0;

struct EventData
{
    void* device;
    unsigned long long eventType;
    unsigned long long eventData;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
    unsigned char padding[64];
};

using SetCreate = int (*)(void** set);
using SetFree = int (*)(void* set);
using Register = int (*)(void* device, unsigned long long types, void* set);
using Supported = int (*)(void* device, unsigned long long* types);
using Wait = int (*)(void* set, EventData* data, unsigned int timeoutMs);

struct Api
{
    SetCreate create = nullptr;
    SetFree free = nullptr;
    Register registerEvents = nullptr;
    Supported supported = nullptr;
    Wait wait = nullptr;
};

// Resolved once; dlopen only takes another reference on the library the probe already loaded.
const Api* api()
{
    static const Api* loaded = []() -> const Api* {
        void* handle = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!handle)
            return nullptr;
        static Api a;
        a.create = reinterpret_cast<SetCreate>(dlsym(handle, "nvmlEventSetCreate"));
        a.free = reinterpret_cast<SetFree>(dlsym(handle, "nvmlEventSetFree"));
        a.registerEvents = reinterpret_cast<Register>(dlsym(handle, "nvmlDeviceRegisterEvents"));
        a.supported = reinterpret_cast<Supported>(dlsym(handle, "nvmlDeviceGetSupportedEventTypes"));
        a.wait = reinterpret_cast<Wait>(dlsym(handle, "nvmlEventSetWait_v2"));
        if (!a.wait)
            a.wait = reinterpret_cast<Wait>(dlsym(handle, "nvmlEventSetWait"));
        if (!a.create || !a.free || !a.registerEvents || !a.wait)
            return nullptr;
        return &a;
    }();
    return loaded;
}

} // namespace

XidWatch::XidWatch(void* nvmlDevice)
{
    const Api* a = nvmlDevice ? api() : nullptr;
    if (!a)
        return;
    if (a->supported) {
        unsigned long long types = 0;
        if (a->supported(nvmlDevice, &types) != kSuccess || !(types & kXidCriticalError))
            return;
    }
    void* set = nullptr;
    if (a->create(&set) != kSuccess || !set)
        return;
    if (a->registerEvents(nvmlDevice, kXidCriticalError, set) != kSuccess) {
        a->free(set);
        return;
    }
    set_ = set;
}

XidWatch::~XidWatch()
{
    if (set_)
        api()->free(set_);
}

void XidWatch::poll(unsigned int timeoutMs, std::vector<int>* xids)
{
    if (!set_)
        return;
    // After the first event, drain what is queued without waiting again.
    for (unsigned int wait = timeoutMs;; wait = 0) {
        EventData data{};
        if (api()->wait(set_, &data, wait) != kSuccess)
            return;
        if ((data.eventType & kXidCriticalError) && xids)
            xids->push_back(static_cast<int>(data.eventData));
        if (xids && xids->size() > 10000)
            return;
    }
}

} // namespace probe::nvmlevents
