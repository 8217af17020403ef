#pragma once

#include <filesystem>

namespace gpuplan::core {

/// GPU Planner's data folder (XDG Base Directory): $XDG_DATA_HOME/gpuplanner, else ~/.local/share/gpuplanner;
/// empty when neither XDG_DATA_HOME nor HOME is set. The user's offers, the ledger and the encrypted
/// credentials live under it.
std::filesystem::path userDataDir();

} // namespace gpuplan::core
