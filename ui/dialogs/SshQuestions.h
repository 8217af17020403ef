#pragma once

#include "workers/UiThreadPrompter.h"

#include "gpuplan/core/Prompter.h"

#include <optional>
#include <string>

class QWidget;

namespace gpuplan::ui {

/// Trust a host seen for the first time? Its fingerprint, to compare with the provider's console (as OpenSSH asks).
bool askToTrustHostKey(QWidget* parent, const core::HostKey& key);
/// The passphrase of an encrypted key file; nullopt when the user declines.
std::optional<std::string> askForKeyPassphrase(QWidget* parent, const std::string& keyFile);
/// Both, as the answers of a page's UiThreadPrompter for an SSH login (the Verify and Run pages).
UiThreadPrompter::Answers sshLoginAnswers(QWidget* page);

} // namespace gpuplan::ui
