#pragma once
// What the Compute Engine provider and the Vertex AI job service share to call Google: the service account of the
// credential (AccessKey::id its client_email, AccessKey::secret its private_key PEM, settings "private_key_id" and
// "project_id"), the project it works in, and the OAuth2 bearer token that authorizes each request (one token source,
// made on the first request). Private to core/cloud/providers/gcp.

#include "gpuplan/cloud/CloudProvider.h"
#include "gpuplan/cloud/providers/gcp/ComputeApi.h"
#include "gpuplan/net/signers/GoogleServiceAccount.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>

namespace gpuplan::core::gcp {

class GoogleSession
{
public:
    explicit GoogleSession(const ProviderContext& context)
        : m_context(context)
    {
        const auto setting = [&context](const char* name) {
            const auto found = context.settings.find(name);
            return found == context.settings.end() ? std::string() : found->second;
        };
        m_project = projectOf(setting("project_id"), context.key.id).value_or(std::string());
        m_account.clientEmail = context.key.id;
        m_account.privateKeyPem = pemOf(context.key.secret);
        m_account.privateKeyId = setting("private_key_id");
        m_account.tokenUri = tokenUri(context.endpoint);
    }
    ~GoogleSession() { std::fill(m_account.privateKeyPem.begin(), m_account.privateKeyPem.end(), '\0'); }
    GoogleSession(const GoogleSession&) = delete;
    GoogleSession& operator=(const GoogleSession&) = delete;

    /// The project: settings["project_id"], else the one named in client_email; empty when neither gives one.
    const std::string& project() const { return m_project; }

    /// Adds "Authorization: Bearer <token>", asking the token endpoint for one first when none is current.
    Status authorize(HttpRequest& request)
    {
        GoogleTokenSource* tokens = nullptr;
        {
            std::lock_guard lock(m_mutex);
            if (!m_tokens) {
                m_tokens = std::make_unique<GoogleTokenSource>(
                    m_account, std::string(kScope), *m_context.http, m_context.clock);
            }
            tokens = m_tokens.get();
        }
        return tokens->authorize(request);
    }

    /// The PEM as the key file holds it; pasted from the JSON text its line breaks may still be "\n" escapes.
    static std::string pemOf(const std::string& secret)
    {
        if (secret.find('\n') != std::string::npos || secret.find("\\n") == std::string::npos) {
            return secret;
        }
        std::string pem;
        for (std::size_t i = 0; i < secret.size(); ++i) {
            if (secret[i] == '\\' && i + 1 < secret.size() && secret[i + 1] == 'n') {
                pem += '\n';
                ++i;
            } else {
                pem += secret[i];
            }
        }
        return pem;
    }

private:
    const ProviderContext& m_context; // the provider's, which outlives this
    std::string m_project;
    GoogleServiceAccount m_account;
    std::mutex m_mutex;
    std::unique_ptr<GoogleTokenSource> m_tokens; // needs the transport: made on the first request
};

} // namespace gpuplan::core::gcp
