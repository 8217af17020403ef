#include "gpuplan/net/signers/TokenCache.h"

#include <chrono>

namespace gpuplan::core {

namespace {

constexpr std::chrono::minutes kRefreshMargin{5};

} // namespace

TokenCache::TokenCache(Clock clock)
    : m_clock(std::move(clock))
{ }

Result<AccessToken> TokenCache::get(const std::function<Result<AccessToken>(TimePoint now)>& fetch)
{
    std::lock_guard lock(m_mutex);
    const TimePoint now = m_clock();
    if (m_cached && now + kRefreshMargin < m_cached->expires) {
        return *m_cached;
    }
    m_cached.reset();
    Result<AccessToken> token = fetch(now);
    if (token) {
        m_cached = *token;
    }
    return token;
}

} // namespace gpuplan::core
