#pragma once
// The transport the JSON wire-conformance tests (TestHuaweiEcsWire, TestGceWire, TestAzureVmWire) drive our provider
// with: it answers the i-th request with the i-th scripted answer (the documented response, adapted to the
// sequence) and keeps every request, so that each can be compared with the official SDK's request for the same
// answer.

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpuplan/net/Http.h"

namespace gpuplan::testing {

class RecordingTransport final : public core::HttpTransport
{
public:
    struct Answer
    {
        std::string label;
        int status = 200;
        std::vector<core::HttpHeader> headers; // beside the Content-Type (Azure's Azure-AsyncOperation, Retry-After)
        std::string body;
    };

    /// Every answer carries `contentType` as the provider's service writes it.
    explicit RecordingTransport(std::string contentType)
        : m_contentType(std::move(contentType))
    { }

    /// The next answer: `body` as JSON (a null body is an empty one), its status and headers.
    void queue(const std::string& label,
               const nlohmann::json& body,
               int status = 200,
               std::vector<core::HttpHeader> headers = {})
    {
        script.push_back({label, status, std::move(headers), body.is_null() ? std::string() : body.dump()});
    }

    using core::HttpTransport::send;
    core::Result<core::HttpResponse> send(const core::HttpRequest& request, const core::CancelToken*) override
    {
        const std::size_t index = requests.size();
        requests.push_back(request);
        if (index >= script.size()) {
            return core::Error{core::ErrorCode::Network, core::Reason{"error.test.no_canned_answer", {}}, request.url};
        }
        std::vector<core::HttpHeader> headers = script[index].headers;
        headers.push_back({"Content-Type", m_contentType});
        return core::HttpResponse{script[index].status, headers, script[index].body};
    }

    std::vector<Answer> script;
    std::vector<core::HttpRequest> requests;

private:
    std::string m_contentType;
};

} // namespace gpuplan::testing
