// Object storage as a run's instance reaches it (run/ObjectStore.h).

#include "run/ObjectStore.h"

#include "gpuplan/deploy/SshSession.h"
#include "gpuplan/run/RunSpec.h"

namespace gpuplan::core {

namespace {

/// How one object store is reached: its CLI, what runs when the CLI is missing, and its sync command.
struct Store
{
    const char* scheme;
    const char* cli;
    const char* whenMissing; // installs it, or says what is needed and stops the job (exit 3)
    const char* sync;        // the command before FROM and TO
    const char* after;       // after TO
};

// wire: the job's shell commands, run on the instance
constexpr Store kStores[] = {
    // source: https://docs.aws.amazon.com/cli/latest/reference/s3/sync.html
    {"s3",
     "aws",
     "python3 -m pip install --user --quiet awscli && export PATH=\"$HOME/.local/bin:$PATH\"",
     "aws s3 sync",
     ""},
    // source: https://cloud.google.com/sdk/gcloud/reference/storage/rsync
    {"gs",
     "gcloud",
     "echo 'gpuplan: the Google Cloud CLI (gcloud) is needed for gs:// buckets' >&2; exit 3",
     "gcloud storage rsync --recursive",
     ""},
    // source: https://www.alibabacloud.com/help/en/oss/developer-reference/sync-command
    {"oss",
     "ossutil",
     "echo 'gpuplan: Alibaba Cloud ossutil is needed for oss:// buckets' >&2; exit 3",
     "ossutil sync",
     ""},
    // source: https://www.tencentcloud.com/document/product/436/43257 (coscli sync)
    {"cos",
     "coscli",
     "echo 'gpuplan: Tencent Cloud coscli is needed for cos:// buckets' >&2; exit 3",
     "coscli sync -r",
     ""},
    // source: https://support.huaweicloud.com/intl/en-us/utiltg-obs/obs_11_0042.html (obsutil sync)
    {"obs",
     "obsutil",
     "echo 'gpuplan: Huawei Cloud obsutil is needed for obs:// buckets' >&2; exit 3",
     "obsutil sync",
     ""},
    // source: https://learn.microsoft.com/azure/storage/common/storage-ref-azcopy-sync
    {"az", "azcopy", "echo 'gpuplan: azcopy is needed for az:// buckets' >&2; exit 3", "azcopy sync", " --recursive"},
};

/// A URL as its CLI takes it: az://ACCOUNT/CONTAINER/PATH is https://ACCOUNT.blob.core.windows.net/CONTAINER/PATH.
std::string cliUrl(const std::string& url)
{
    if (datasetScheme(url) != "az") {
        return url;
    }
    const std::string rest = url.substr(5);
    const std::size_t slash = rest.find('/');
    return "https://" + rest.substr(0, slash) + ".blob.core.windows.net"
           + (slash == std::string::npos ? std::string() : rest.substr(slash));
}

} // namespace

std::string objectStoreSync(const std::string& from, const std::string& to)
{
    const std::string fromScheme = datasetScheme(from);
    const std::string scheme = fromScheme.empty() ? datasetScheme(to) : fromScheme;
    for (const Store& store : kStores) {
        if (scheme != store.scheme) {
            continue;
        }
        // wire: the job's shell commands, run on the instance
        return std::string("command -v ") + store.cli + " >/dev/null || { " + store.whenMissing + "; }\n" + store.sync
               + " " + shellQuote(cliUrl(from)) + " " + shellQuote(cliUrl(to)) + store.after + "\n";
    }
    return {};
}

} // namespace gpuplan::core
