#include "numa.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

namespace probe::numa {
namespace {

// POSIX read rather than ifstream: keeps libstdc++'s fstat64 (and a newer glibc floor) out of the probe.
std::optional<std::string> firstLine(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    char buffer[4096];
    const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
    ::close(fd);
    if (n <= 0)
        return std::nullopt;
    std::string text(buffer, static_cast<size_t>(n));
    const auto newline = text.find('\n');
    return newline == std::string::npos ? text : text.substr(0, newline);
}

bool parseInt(const std::string& text, int* out)
{
    if (text.empty())
        return false;
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (*end != '\0' || v < -1 || v > 1 << 20)
        return false;
    *out = static_cast<int>(v);
    return true;
}

} // namespace

std::string sysfsBusId(const std::string& busId)
{
    std::string id = busId;
    for (auto& ch : id)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const auto colon = id.find(':');
    if (colon != std::string::npos && colon > 4) {
        const std::string domain = id.substr(0, colon);
        const std::string kept = domain.substr(domain.size() - 4);
        if (domain.substr(0, domain.size() - 4).find_first_not_of('0') == std::string::npos)
            id = kept + id.substr(colon);
    }
    return id;
}

std::optional<int> nodeOfPciDevice(const std::string& root, const std::string& busId)
{
    if (busId.empty())
        return std::nullopt;
    const auto line = firstLine(root + "/sys/bus/pci/devices/" + sysfsBusId(busId) + "/numa_node");
    int node = -1;
    if (!line || !parseInt(*line, &node) || node < 0)
        return std::nullopt;
    return node;
}

std::vector<int> parseCpuList(const std::string& text)
{
    std::vector<int> cpus;
    std::stringstream list(text);
    std::string item;
    while (std::getline(list, item, ',')) {
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
            item.pop_back();
        if (item.empty())
            continue;
        const auto dash = item.find('-');
        int first = 0, last = 0;
        if (dash == std::string::npos) {
            if (!parseInt(item, &first) || first < 0)
                return {};
            last = first;
        } else if (!parseInt(item.substr(0, dash), &first) || !parseInt(item.substr(dash + 1), &last) || first < 0
                   || last < first) {
            return {};
        }
        for (int c = first; c <= last; ++c)
            cpus.push_back(c);
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

std::vector<int> cpusOfNode(const std::string& root, int node)
{
    const auto line = firstLine(root + "/sys/devices/system/node/node" + std::to_string(node) + "/cpulist");
    return line ? parseCpuList(*line) : std::vector<int>{};
}

bool pinThread(const std::vector<int>& cpus, std::vector<int>* previous)
{
    if (cpus.empty())
        return false;
    cpu_set_t old;
    CPU_ZERO(&old);
    if (sched_getaffinity(0, sizeof old, &old) != 0)
        return false;
    cpu_set_t wanted;
    CPU_ZERO(&wanted);
    for (int c : cpus)
        if (c >= 0 && c < CPU_SETSIZE)
            CPU_SET(c, &wanted);
    if (sched_setaffinity(0, sizeof wanted, &wanted) != 0)
        return false;
    if (previous) {
        previous->clear();
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &old))
                previous->push_back(c);
    }
    return true;
}

void restoreThread(const std::vector<int>& previous)
{
    if (previous.empty())
        return;
    cpu_set_t mask;
    CPU_ZERO(&mask);
    for (int c : previous)
        CPU_SET(c, &mask);
    (void)sched_setaffinity(0, sizeof mask, &mask);
}

} // namespace probe::numa
