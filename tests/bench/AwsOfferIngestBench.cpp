// Reads an EC2 offer file with the streaming reader and prints what it kept, how long it took and the peak
// memory of the process. Prints figures; asserts nothing. Run through tests/bench/aws-offer-ingest.sh, which
// generates a file of the real shape and runs Python's json.load on the same file beside it.
// Run: build/tests/bench/gpuplan-bench-aws-ingest FILE
#include "gpuplan/prices/AwsOfferFile.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s EC2_OFFER_FILE\n", argv[0]);
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    const gpuplan::core::Result<gpuplan::core::AwsOfferFile> read = gpuplan::core::readAwsOfferFile(argv[1]);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!read) {
        std::fprintf(stderr, "%s\n", gpuplan::core::describe(read.error()).c_str());
        return 1;
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("bytes=%llu seconds=%.3f mb_per_s=%.0f products=%llu gpu_products=%llu prices=%zu peak_rss_kb=%ld\n",
                static_cast<unsigned long long>(read->bytes),
                seconds,
                double(read->bytes) / 1e6 / seconds,
                static_cast<unsigned long long>(read->products),
                static_cast<unsigned long long>(read->gpuProducts),
                read->prices.size(),
                usage.ru_maxrss);
    return 0;
}
