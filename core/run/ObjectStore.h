#pragma once
// Object storage as a run's instance reaches it: the shell lines that copy between a bucket URL (s3:// gs:// oss://
// cos:// obs:// az://) and a folder there with the provider's own CLI. Private to core/run.

#include <string>

namespace gpuplan::core {

/// The lines that make `to` hold what `from` holds (one is a bucket URL, the other a folder on the instance): the CLI
/// installed when it can be (aws), else a message naming it and exit 3, then its sync command. Empty when neither
/// is a URL of a known store.
std::string objectStoreSync(const std::string& from, const std::string& to);

} // namespace gpuplan::core
