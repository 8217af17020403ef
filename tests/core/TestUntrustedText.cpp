// Text from outside (a key file, a remote host) that is not UTF-8 must not make nlohmann::json::dump throw out of a
// launch or a verification: it is sent and kept with U+FFFD in place of the bad bytes.
#include "gpuplan/cloud/providers/tencent/CvmApi.h"
#include "gpuplan/deploy/Verification.h"

#include <QTest>

#include <string>

using nlohmann::json;
using namespace gpuplan::core;

namespace {

const std::string kReplacement = "\xEF\xBF\xBD"; // U+FFFD in UTF-8

} // namespace

class TestUntrustedText : public QObject
{
    Q_OBJECT

private slots:
    /// The finding: a Latin-1 comment ("café" as 0xE9) in the public key of a Tencent launch.
    void cvmKeyWithLatin1Comment()
    {
        const std::string key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl "
                                "caf\xE9@lab";
        const cvm::Call call = cvm::importKeyPairCall("gpuplan-test", key);
        std::string body;
        try {
            body = cvm::body(call);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(body.find("caf" + kReplacement + "@lab") != std::string::npos);
        QVERIFY(!json::parse(body, nullptr, false).is_discarded());
    }

    /// A GPU name from the remote driver that is not UTF-8, as the ledger keeps the verification.
    void verificationWithRemoteBytes()
    {
        JudgedRun judged;
        judged.verification = {{"gpu_name", "NVIDIA A100\xFF"}, {"host", "lab@gpu"}};
        Verification kept;
        try {
            kept = verificationRecord(judged, "{\"gpus\":[]}", 1, "lab@gpu", 0);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(kept.summary.find("A100" + kReplacement) != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestUntrustedText)
#include "TestUntrustedText.moc"
