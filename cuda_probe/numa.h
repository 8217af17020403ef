// The host NUMA node next to a GPU, so host-device copies measure the link rather than the CPU interconnect.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace probe::numa {

// The NUMA node of a PCI device from <root>/sys/bus/pci/devices/<bus id, lower case>/numa_node; empty when
// unknown (-1: a single-node machine, or the file is missing). `busId` as cudaDeviceGetPCIBusId writes it.
std::optional<int> nodeOfPciDevice(const std::string& root, const std::string& busId);
// The CPUs of a node from <root>/sys/devices/system/node/node<N>/cpulist; empty when unreadable.
std::vector<int> cpusOfNode(const std::string& root, int node);
// A kernel cpulist such as "0-3,8,10-11"; empty on malformed input.
std::vector<int> parseCpuList(const std::string& text);
// CUDA pads the bus id's domain to 8 digits ("00000000:3B:00.0"); sysfs uses 4 and lower case.
std::string sysfsBusId(const std::string& busId);

// Pins the calling thread to `cpus` (sched_setaffinity); false when that fails. The previous mask is kept in
// *previous for restoreAffinity.
bool pinThread(const std::vector<int>& cpus, std::vector<int>* previous);
void restoreThread(const std::vector<int>& previous);

} // namespace probe::numa
