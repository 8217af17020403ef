#include "library_search.h"

#include <dirent.h>
#include <glob.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace probe::libsearch {
namespace {

// opendir/access rather than stat: fewer symbols for the probe's glibc floor (glibc_compat.cpp, glibc-floor/).
bool isDirectory(const std::string& path)
{
    DIR* d = ::opendir(path.c_str());
    if (!d)
        return false;
    ::closedir(d);
    return true;
}

bool isFile(const std::string& path)
{
    return ::access(path.c_str(), R_OK) == 0 && !isDirectory(path);
}

class Collector
{
public:
    explicit Collector(const std::string& root)
        : root_(root)
    { }
    // `path` is absolute (without root) and may hold glob patterns.
    void add(const std::string& path)
    {
        for (const auto& d : matchingDirectories(root_ + path))
            if (isDirectory(d) && std::find(dirs_.begin(), dirs_.end(), d) == dirs_.end())
                dirs_.push_back(d);
    }
    const std::vector<std::string>& dirs() const { return dirs_; }

private:
    std::string root_;
    std::vector<std::string> dirs_;
};

// A Python installation or environment: its own lib dirs (conda puts CUDA libraries there) and its wheels.
void addPythonPrefix(Collector& c, const std::string& prefix, const std::vector<std::string>& pipSubdirs)
{
    c.add(prefix + "/lib");
    c.add(prefix + "/lib64");
    for (const char* lib : {"/lib", "/lib64"})
        for (const char* packages : {"site-packages", "dist-packages"})
            for (const auto& sub : pipSubdirs)
                c.add(prefix + lib + "/python3*/" + packages + "/" + sub);
}

} // namespace

std::vector<int> cublasLtMajors(int driverCudaVersion)
{
    if (driverCudaVersion >= 13000)
        return {13, 12, 11};
    if (driverCudaVersion >= 12000)
        return {12, 11};
    if (driverCudaVersion > 0)
        return {11};
    return {12, 11}; // unknown driver: CUDA 13 libraries need R580, the rarest
}

std::vector<std::string> libraryDirectories(const std::map<std::string, std::string>& env,
                                            const std::string& home,
                                            const std::string& root,
                                            const std::vector<std::string>& pipSubdirs)
{
    Collector c(root);
    auto value = [&env](const char* name) {
        const auto it = env.find(name);
        return it == env.end() ? std::string() : it->second;
    };
    for (const char* name : {"CUDA_HOME", "CUDA_PATH"}) {
        const std::string v = value(name);
        if (!v.empty()) {
            c.add(v + "/lib64");
            c.add(v + "/lib");
        }
    }
    for (const char* name : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
        const std::string v = value(name);
        if (!v.empty())
            addPythonPrefix(c, v, pipSubdirs);
    }
    c.add("/usr/local/cuda/lib64");
    c.add("/usr/local/cuda-*/lib64");
    c.add("/usr/local/cuda/targets/*/lib");
    for (const char* dir : {"/usr/lib/x86_64-linux-gnu",
                            "/usr/lib/aarch64-linux-gnu",
                            "/usr/lib/sbsa-linux-gnu",
                            "/usr/lib64",
                            "/usr/lib"})
        c.add(dir);
    // Python: system, user installs, venvs (dot-folders too), pyenv, /opt, conda and its environments.
    std::vector<std::string> prefixes = {"/usr/local", "/usr"};
    if (!home.empty()) {
        for (const char* p : {"/.local",
                              "/.venv",
                              "/venv",
                              "/.pyenv/versions/*",
                              "/.virtualenvs/*",
                              "/*/.venv",
                              "/*/venv",
                              "/*",
                              "/.conda/envs/*"})
            prefixes.push_back(home + p);
    }
    for (const char* p : {"/opt/*", "/opt/*/.venv", "/opt/*/venv"})
        prefixes.push_back(p);
    std::vector<std::string> condaBases = {"/opt/conda", "/opt/miniconda3", "/opt/anaconda3", "/opt/miniforge3"};
    if (!home.empty())
        for (const char* p : {"/miniconda3", "/anaconda3", "/miniforge3", "/mambaforge", "/.conda"})
            condaBases.push_back(home + p);
    for (const auto& base : condaBases) {
        prefixes.push_back(base);
        prefixes.push_back(base + "/envs/*");
    }
    for (const auto& p : prefixes)
        addPythonPrefix(c, p, pipSubdirs);
    return c.dirs();
}

std::vector<std::string> cublasLtCandidates(const std::map<std::string, std::string>& env,
                                            const std::string& home,
                                            const std::string& root,
                                            int driverCudaVersion)
{
    // cu13 wheels put every CUDA library in nvidia/cu13/lib; cu12 wheels in nvidia/cublas/lib (newer: cu12/lib).
    const std::vector<std::string> dirs =
        libraryDirectories(env, home, root, {"nvidia/cu13/lib", "nvidia/cu12/lib", "nvidia/cublas/lib"});
    std::vector<std::string> out;
    for (int major : cublasLtMajors(driverCudaVersion)) {
        const std::string name = "libcublasLt.so." + std::to_string(major);
        out.push_back(name);
        for (const auto& d : dirs) {
            const std::string path = d + "/" + name;
            if (isFile(path) && std::find(out.begin(), out.end(), path) == out.end())
                out.push_back(path);
        }
    }
    return out;
}

std::string cublasLtSearchedPlaces()
{
    return "libcublasLt.so.13/12/11 (13 only with a CUDA 13 driver) in the loader path, $CUDA_HOME, "
           "/usr/local/cuda*/lib64, system lib dirs, and the lib dirs and pip wheels (nvidia/cu13/lib, "
           "nvidia/cu12/lib, nvidia/cublas/lib) of the system Python, ~/.local, venvs (~/.venv, ~/*/.venv, "
           "~/.virtualenvs/*, /opt/*), pyenv and conda installs with their envs";
}

std::vector<std::string> matchingDirectories(const std::string& pattern)
{
    std::vector<std::string> out;
    glob_t g{};
    if (glob(pattern.c_str(), GLOB_ONLYDIR, nullptr, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; ++i)
            out.emplace_back(g.gl_pathv[i]);
    }
    globfree(&g);
    return out;
}

std::map<std::string, std::string> currentEnvironment()
{
    std::map<std::string, std::string> env;
    for (const char* name : {"CUDA_HOME", "CUDA_PATH", "VIRTUAL_ENV", "CONDA_PREFIX"})
        if (const char* v = std::getenv(name); v && *v)
            env[name] = v;
    return env;
}

} // namespace probe::libsearch
