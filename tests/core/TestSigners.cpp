// Being written.
#include <QTest>

class TestSigners : public QObject
{
    Q_OBJECT
};

QTEST_GUILESS_MAIN(TestSigners)
#include "TestSigners.moc"
