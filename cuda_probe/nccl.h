// NCCL all-reduce bus bandwidth across the selected GPUs of this machine, measured like nccl-tests'
// all_reduce_perf. libnccl.so.2 is dlopen'ed at run time (the probe must run where NCCL is absent), so the few
// NCCL declarations it needs are written here rather than taken from nccl.h.
#pragma once

#include "probe.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace probe::nccl {

// What the probe reports under libraries.nccl / libraries.nccl_problem.
struct LibraryInfo
{
    std::string path; // empty: not loaded
    int version = 0;  // ncclGetVersion: major*10000 + minor*100 + patch (2.9+), major*1000 + minor*100 + patch before
    std::string problem; // why none was found or what failed; empty when all went well
};

// nccl_allreduce (GB/s, method "nccl"): float sum of 256 MiB (quick: 64 MiB) over `devices` (CUDA ordinals),
// value = bus bandwidth. `skipped` carries the reason when it cannot run (one GPU, no library, an NCCL or CUDA
// error). Never throws. `used` (may be null) receives the library found and any problem.
Measurement allReduce(const std::vector<int>& devices, bool quick, LibraryInfo* used);

// --- pure helpers (unit-tested without a GPU) ---------------------------------------------------------
// nccl-tests' definitions: algbw = bytes / time; busbw = algbw * 2(n-1)/n for all-reduce. GB/s = 1e9 bytes/s.
double algBandwidthGBs(size_t bytes, double seconds);
double busBandwidthGBs(double algBandwidth, int ranks);

// Where libnccl.so.2 is looked for, in order: the bare name (the loader's own search), $NCCL_HOME and $NCCL_ROOT
// (lib, lib64), /usr/local/nccl*/lib(64), then libsearch::libraryDirectories (library_search.h) with the pip
// wheel folder nvidia/nccl/lib: $CUDA_HOME, venv/conda prefixes, /usr/local/cuda*, system lib dirs, the system
// Python, ~/.local, venvs, pyenv, /opt/*, conda installs and their envs. `env` holds the variables
// (libsearch::currentEnvironment() plus NCCL_HOME, NCCL_ROOT). `root` prefixes every place, the environment's
// and home's too, as in libsearch (tests use a temporary tree; production passes ""). Apart from the bare name
// only existing files are listed, once.
std::vector<std::string>
libraryCandidates(const std::map<std::string, std::string>& env, const std::string& home, const std::string& root);
// The places searched, for the "not found" message.
std::string searchedPlaces();

} // namespace probe::nccl
