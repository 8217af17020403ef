#pragma once

#include "gpuplan/core/Result.h"

#include <QString>

namespace gpuplan::ui {

/// An error a front end words itself (a GUI check, a CLI flag): `text` is already in the reader's language and is
/// shown as it is. Core never makes one (tests/quality/core-says-keys.sh): it says things as keys.
core::Error frontEndError(core::ErrorCode code, const QString& text, std::string where = {});
core::Error frontEndError(core::ErrorCode code, const std::string& text, std::string where = {});
core::Error frontEndError(core::ErrorCode code, const char* text, std::string where = {});

/// Translated name of an error code, for messages ("JSON syntax error").
QString errorCodeText(core::ErrorCode code);
/// What an error says, in the reader's language: its context frames, outermost first, then its reason
/// ("jump host bastion: the server refused the key"). A key this version does not word reads as the key and its
/// parameters, never as nothing.
QString errorDetailText(const core::Error& error);
/// Where and what: "catalog/offers/aws.json: $.offers[3].gpu: unknown GPU "h300"", or just what, with no place.
QString errorMessage(const core::Error& error);
/// An error for a message: its code's translated name, then where and what ("network error: ...").
QString errorText(const core::Error& error);
/// Any reason core gives alone: an error's reason or context frame, a note of a price refresh or a reconcile, or
/// (through reasonText()) a plan's or a verdict's reason.
QString errorReasonText(const core::Reason& reason);

} // namespace gpuplan::ui
