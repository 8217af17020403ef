#pragma once

#include "gpuplan/net/Http.h"

#include <string>

namespace gpuplan::core {

/// Lambda Cloud (https://cloud.lambda.ai/api/v1) and Paperspace (https://api.paperspace.com/v1) take their API
/// key as a bearer token: adds Authorization: Bearer <key>.
void authorizeWithApiKey(HttpRequest& request, const std::string& apiKey);

} // namespace gpuplan::core
