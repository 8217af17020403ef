#include "gpuplan/core/Result.h"

namespace gpuplan::core {

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
        case ErrorCode::FileNotFound:
            return "file_not_found";
        case ErrorCode::FileUnreadable:
            return "file_unreadable";
        case ErrorCode::JsonSyntax:
            return "json_syntax";
        case ErrorCode::SchemaViolation:
            return "schema_violation";
        case ErrorCode::UnknownReference:
            return "unknown_reference";
        case ErrorCode::UnknownProvider:
            return "unknown_provider";
        case ErrorCode::UnknownGpu:
            return "unknown_gpu";
        case ErrorCode::InvalidArgument:
            return "invalid_argument";
    }
    return "unknown";
}

} // namespace gpuplan::core
