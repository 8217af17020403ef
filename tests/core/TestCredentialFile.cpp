// Being written.
#include <QTest>

class TestCredentialFile : public QObject
{
    Q_OBJECT
};

QTEST_GUILESS_MAIN(TestCredentialFile)
#include "TestCredentialFile.moc"
