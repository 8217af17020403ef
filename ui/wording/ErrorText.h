#pragma once

#include "gpuplan/core/Result.h"

#include <QString>

namespace gpuplan::ui {

/// Translated name of an error code, for messages ("JSON syntax error").
QString errorCodeText(core::ErrorCode code);
/// An error for a message: its code's translated name, then what it says and where ("network error: ...").
QString errorText(const core::Error& error);

} // namespace gpuplan::ui
