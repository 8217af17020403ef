// Where cuBLASLt is looked for, as a pure function of the environment so it can be tested on a fake tree.
// Over a non-interactive SSH session VIRTUAL_ENV and CONDA_PREFIX are unset, so the usual venv, pyenv and conda
// places are searched whether or not they are active.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace probe::libsearch {

// The cuBLASLt major versions to try, newest the driver runs first: 13 only on a CUDA 13 driver (R580+), 12 on a
// CUDA 12 driver or newer, 11 always. Independent of the toolkit the probe was built with: an 11.8 build must
// still prefer .so.12/.so.13, which hold the Hopper FP8 and Blackwell kernels.
std::vector<int> cublasLtMajors(int driverCudaVersion);

// Directories that may hold CUDA libraries, in search order, each prefixed with `root` (tests use a temporary
// tree; production passes ""). `env` holds CUDA_HOME, CUDA_PATH, VIRTUAL_ENV, CONDA_PREFIX when set. Only
// existing directories are listed, without duplicates. `pipSubdirs` are the wheel folders below
// site-packages/dist-packages (e.g. "nvidia/cublas/lib").
std::vector<std::string> libraryDirectories(const std::map<std::string, std::string>& env,
                                            const std::string& home,
                                            const std::string& root,
                                            const std::vector<std::string>& pipSubdirs);

// Every libcublasLt.so.<major> to dlopen, in order: per major (cublasLtMajors), the bare name (the loader's own
// search: LD_LIBRARY_PATH, ldconfig cache), then each existing file in libraryDirectories.
std::vector<std::string> cublasLtCandidates(const std::map<std::string, std::string>& env,
                                            const std::string& home,
                                            const std::string& root,
                                            int driverCudaVersion);

// The places searched, for the message when none loads.
std::string cublasLtSearchedPlaces();

// The directories a glob pattern matches ("/usr/local/nccl*/lib"), in glob's order.
std::vector<std::string> matchingDirectories(const std::string& pattern);

// The process's own values of the variables libraryDirectories reads.
std::map<std::string, std::string> currentEnvironment();

} // namespace probe::libsearch
