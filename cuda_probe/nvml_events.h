// Xid errors through NVML events (nvmlEventSetCreate / nvmlDeviceRegisterEvents / nvmlEventSetWait_v2).
// Loads libnvidia-ml.so.1 on its own (dlopen reference-counts it); nvmlInit is the caller's business (nvml.h).
#pragma once

#include <vector>

namespace probe::nvmlevents {

// Watches one device for critical Xid events. Not copyable; one per thread.
class XidWatch
{
public:
    explicit XidWatch(void* nvmlDevice);
    ~XidWatch();
    XidWatch(const XidWatch&) = delete;
    XidWatch& operator=(const XidWatch&) = delete;

    // False when NVML, the symbols or the event type are unavailable (xid_errors is then null).
    bool supported() const { return set_ != nullptr; }
    // Waits up to timeoutMs for events; appends the Xid numbers seen. Returns at once when unsupported.
    void poll(unsigned int timeoutMs, std::vector<int>* xids);

private:
    void* set_ = nullptr; // nvmlEventSet_t
};

} // namespace probe::nvmlevents
