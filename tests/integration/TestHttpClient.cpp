// Being written.
#include <QTest>

class TestHttpClient : public QObject
{
    Q_OBJECT
};

QTEST_GUILESS_MAIN(TestHttpClient)
#include "TestHttpClient.moc"
