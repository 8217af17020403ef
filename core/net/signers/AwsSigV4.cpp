#include "gpuplan/net/signers/AwsSigV4.h"

namespace gpuplan::core {

// Being written: see the header for what it does.

} // namespace gpuplan::core
