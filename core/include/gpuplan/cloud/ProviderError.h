#pragma once

#include <string>

namespace gpuplan::core {

/// An error as a provider's API documents it: its code (kept in Error::providerCode), its message, and the request
/// id that its support asks for. Each provider parses its own error document into this.
struct ApiError
{
    std::string code;
    std::string message;
    std::string requestId;
};

/// What a failed call was about, for the advice a provider's error mapping gives (which zone to try next, which
/// quota to raise for which type, which permission the action needs).
struct CallContext
{
    std::string action; // "RunInstances"
    std::string region;
    std::string instanceType;
    std::string zone;
    bool spot = false;
};

} // namespace gpuplan::core
