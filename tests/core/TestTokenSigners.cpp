// Being written.
#include <QTest>

class TestTokenSigners : public QObject
{
    Q_OBJECT
};

QTEST_GUILESS_MAIN(TestTokenSigners)
#include "TestTokenSigners.moc"
