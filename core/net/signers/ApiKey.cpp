#include "gpuplan/net/signers/ApiKey.h"

namespace gpuplan::core {

// Being written: see the header for what it does.

} // namespace gpuplan::core
