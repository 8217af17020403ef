#pragma once

#include "workers/PageJob.h"

#include "gpuplan/cloud/LaunchWorkflow.h"
#include "gpuplan/core/Prompter.h"

#include <functional>
#include <optional>
#include <string>

namespace gpuplan::ui {

/// core's questions (core::Prompter), asked by a page on the UI thread while its job's worker waits for the answer.
/// A cancel (or the page going away) answers no, and so does a question the page gives no answer for. The
/// question's data is copied to the UI thread: the dialog may outlive a wait that a cancel ended.
class UiThreadPrompter final : public core::Prompter
{
public:
    /// The page's dialogs, each called on the UI thread.
    struct Answers
    {
        std::function<bool(const core::HostKey&)> trustNewHostKey;
        std::function<std::optional<std::string>(const std::string& keyFile)> passphrase;
        /// The order to launch and why the provider's current price could not be asked (nullopt: it was, or
        /// it has no price API).
        std::function<bool(const core::LaunchOrder&, const std::optional<core::Error>& quoteProblem)> confirmLaunch;
    };

    UiThreadPrompter(QObject* page, PageJob::Token cancel, Answers answers)
        : m_page(page)
        , m_cancel(std::move(cancel))
        , m_answers(std::move(answers))
    { }

    bool trustNewHostKey(const core::HostKey& key) override
    {
        return m_answers.trustNewHostKey
               && askOnUiThread<bool>(m_page, m_cancel, false, [a = m_answers.trustNewHostKey, key] { return a(key); });
    }

    std::optional<std::string> passphrase(const std::string& keyFile) override
    {
        if (!m_answers.passphrase) {
            return std::nullopt;
        }
        return askOnUiThread<std::optional<std::string>>(
            m_page, m_cancel, std::nullopt, [a = m_answers.passphrase, keyFile] { return a(keyFile); });
    }

    bool confirmLaunch(const core::LaunchConfirmation& c) override
    {
        return m_answers.confirmLaunch
               && askOnUiThread<bool>(
                   m_page, m_cancel, false, [a = m_answers.confirmLaunch, order = c.order, problem = c.quoteProblem] {
                       return a(order, problem);
                   });
    }

private:
    QObject* m_page;
    PageJob::Token m_cancel;
    Answers m_answers;
};

} // namespace gpuplan::ui
