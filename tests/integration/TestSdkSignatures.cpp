// Being written.
#include <QTest>

class TestSdkSignatures : public QObject
{
    Q_OBJECT
};

QTEST_GUILESS_MAIN(TestSdkSignatures)
#include "TestSdkSignatures.moc"
