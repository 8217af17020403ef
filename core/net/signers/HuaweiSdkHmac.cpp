#include "gpuplan/net/signers/HuaweiSdkHmac.h"

namespace gpuplan::core {

// Being written: see the header for what it does.

} // namespace gpuplan::core
