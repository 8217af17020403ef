#include "gpuplan/net/signers/ApiKey.h"

namespace gpuplan::core {

void authorizeWithApiKey(HttpRequest& request, const std::string& apiKey)
{
    // setHeader replaces any Authorization already there, so a request is never sent with two.
    request.setHeader("Authorization", "Bearer " + apiKey);
}

} // namespace gpuplan::core
