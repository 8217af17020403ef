// The gpuplan CLI as a script would use it: exit codes, JSON output, error messages.
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>
#include <map>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run gpuplan(const QStringList& arguments, const QString& catalogDir = {}, const QProcessEnvironment& extra = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("GPUPLAN_CATALOG_DIR"));
    // Never the tester's own offers or refreshed prices: empty folders unless a test names its own.
    env.insert(QStringLiteral("GPUPLAN_USER_CATALOG_DIR"), QStringLiteral(GPUPLAN_BINARY_DIR "/tests/no-user-catalog"));
    env.insert(QStringLiteral("GPUPLAN_PRICES_DIR"), QStringLiteral(GPUPLAN_BINARY_DIR "/tests/no-refreshed-prices"));
    // Nor the tester's credentials: a file that does not exist, unless a test stores its own.
    env.insert(QStringLiteral("GPUPLAN_CREDENTIALS_BACKEND"), QStringLiteral("file"));
    env.insert(QStringLiteral("GPUPLAN_CREDENTIALS_FILE"),
               QStringLiteral(GPUPLAN_BINARY_DIR "/tests/no-credentials.enc"));
    if (!catalogDir.isEmpty()) {
        env.insert(QStringLiteral("GPUPLAN_CATALOG_DIR"), catalogDir);
    }
    for (const QString& name : extra.keys()) {
        env.insert(name, extra.value(name));
    }
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan"), arguments);
    if (!process.waitForFinished(30000)) {
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

QJsonObject offerNamed(const QJsonArray& offers, const QString& type)
{
    for (const QJsonValue& offer : offers) {
        if (offer[QStringLiteral("instance_type")].toString() == type) {
            return offer.toObject();
        }
    }
    return {};
}

/// Stores a provider's credential with `gpuplan creds set P --stdin` in the environment's credentials file; the
/// error output when it fails.
QString storeCredential(const QProcessEnvironment& env, const QString& provider, const QJsonObject& fields)
{
    QProcess creds;
    QProcessEnvironment all = QProcessEnvironment::systemEnvironment();
    all.insert(env);
    creds.setProcessEnvironment(all);
    creds.start(QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan"), {"creds", "set", provider, "--stdin"});
    creds.write(QJsonDocument(fields).toJson());
    creds.closeWriteChannel();
    if (!creds.waitForFinished(30000) || creds.exitCode() != 0) {
        return QString::fromUtf8(creds.readAllStandardError()) + QStringLiteral(" (gpuplan creds set failed)");
    }
    return {};
}

/// Prices in `dir`, credentials in an encrypted file there holding a test key of each provider whose price API
/// needs one (the FAKE price APIs take these keys); empty, with `problem` set, when one cannot be stored.
QProcessEnvironment priceApiEnvironment(const QTemporaryDir& dir, QString& problem)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("GPUPLAN_PRICES_DIR"), dir.filePath(QStringLiteral("prices")));
    env.insert(QStringLiteral("GPUPLAN_CREDENTIALS_BACKEND"), QStringLiteral("file"));
    env.insert(QStringLiteral("GPUPLAN_CREDENTIALS_FILE"), dir.filePath(QStringLiteral("credentials.enc")));
    env.insert(QStringLiteral("GPUPLAN_CREDENTIALS_PASSPHRASE"), QStringLiteral("a passphrase for the price tests"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    QFile pem(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/test-service-account-key.pem"));
    if (!pem.open(QIODevice::ReadOnly)) {
        problem = QStringLiteral("no test service-account key");
        return {};
    }
    const QJsonObject keyPair{{"access_key_id", "AKIDEXAMPLEFORPRICES"},
                              {"secret_access_key", "a-secret-that-never-shows"}};
    const std::map<QString, QJsonObject> credentials{{"lambda", {{"api_key", "test-lambda-key"}}},
                                                     {"gcp",
                                                      {{"type", "service_account"},
                                                       {"client_email", "prices@example.iam.gserviceaccount.com"},
                                                       {"private_key", QString::fromUtf8(pem.readAll())},
                                                       {"private_key_id", "abc123"}}},
                                                     {"alibaba", keyPair},
                                                     {"tencent", keyPair},
                                                     {"huawei",
                                                      {{"access_key_id", "AKIDEXAMPLEFORPRICES"},
                                                       {"secret_access_key", "a-secret-that-never-shows"},
                                                       {"project_id", "p"}}}};
    for (const auto& [provider, fields] : credentials) {
        problem = storeCredential(env, provider, fields);
        if (!problem.isEmpty()) {
            return {};
        }
    }
    return env;
}

/// Starts tests/integration/fakes/fake_price_apis.py with `options` and points every signed price API of `env` at
/// it; false when it does not start.
bool startPriceFake(QProcess& fake, const QStringList& options, QProcessEnvironment& env)
{
    fake.start(QStringLiteral("python3"),
               QStringList{QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/fakes/fake_price_apis.py"),
                           QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/catalog")}
                   + options);
    if (!fake.waitForReadyRead(10000)) {
        return false;
    }
    const int port = QJsonDocument::fromJson(fake.readLine())["http"].toInt();
    const QString base = QStringLiteral("http://127.0.0.1:%1").arg(port);
    for (const char* name : {"GPUPLAN_ENDPOINT_LAMBDA",
                             "GPUPLAN_ENDPOINT_GCP_BILLING",
                             "GPUPLAN_ENDPOINT_ALIBABA",
                             "GPUPLAN_ENDPOINT_TENCENT",
                             "GPUPLAN_ENDPOINT_HUAWEI",
                             "GPUPLAN_ENDPOINT_AWS"}) {
        env.insert(QString::fromLatin1(name), base);
    }
    env.insert(QStringLiteral("GPUPLAN_ENDPOINT_GCP_TOKEN"), base + QStringLiteral("/token"));
    return port > 0;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void catalogJsonHasTheSeedOffersWithSources()
    {
        const Run run = gpuplan({"catalog", "--json"});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(run.out.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonArray offers = doc[QStringLiteral("offers")].toArray();

        const QJsonObject p3 = offerNamed(offers, "p3.2xlarge");
        QCOMPARE(p3["provider"].toString(), QString("aws"));
        QCOMPARE(p3["gpu"].toString(), QString("v100-sxm2-16gb"));
        bool usEast = false;
        for (const QJsonValue& price : p3["prices"].toArray()) {
            QVERIFY(price["source"]["url"].toString().startsWith("https://"));
            QCOMPARE(price["source"]["as_of"].toString().size(), 10);
            QCOMPARE(price["source"]["retrieved"].toString().size(), 10);
            if (price["region"] == "us-east-1" && price["mode"] == "on_demand") {
                usEast = true;
                QCOMPARE(price["currency"].toString(), QString("USD"));
                QVERIFY(price["amount"].toDouble() > 0);
            }
        }
        QVERIFY(usEast);

        const QJsonObject gn6i = offerNamed(offers, "ecs.gn6i-c4g1.xlarge");
        QCOMPARE(gn6i["provider"].toString(), QString("alibaba"));
        QCOMPARE(gn6i["gpu"].toString(), QString("t4"));
        QVERIFY(gn6i["spec_source"]["url"].toString().startsWith("https://"));
        QVERIFY(!gn6i["spec_source"]["as_of"].toString().isEmpty());

        const QJsonObject gn10xp = offerNamed(offers, "GN10Xp.2XLARGE40");
        QCOMPARE(gn10xp["provider"].toString(), QString("tencent"));
        QVERIFY(gn10xp["gpu_name"].toString().contains("V100"));
        QVERIFY(gn10xp["spec_source"]["as_of"].isString());
        QVERIFY(doc["problems"].toArray().isEmpty());
    }

    void tableShowsRowsAndSaysUnknown()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(GPUPLAN_SOURCE_DIR "/tests/data/unpriced-offer.json", dir.filePath("campus.json")));
        const Run run = gpuplan({"catalog", "--user-catalog", dir.path()});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(QRegularExpression("^PROVIDER +INSTANCE +GPU", QRegularExpression::MultilineOption)));
        QVERIFY(run.out.contains(QRegularExpression("^aws +p3\\.2xlarge +1x V100 SXM2 16GB .* 3\\.06 USD",
                                                    QRegularExpression::MultilineOption)));
        // An offer without a price is listed, and says so, rather than being dropped or guessed.
        QVERIFY2(run.out.contains(QRegularExpression(
                     "^campus +lab-a100-node +4x A100 PCIe 40GB .* campus-dc1 +unknown .* bare_metal user$",
                     QRegularExpression::MultilineOption)),
                 qPrintable(run.out.right(600)));
    }

    void filtersNarrowTheList()
    {
        const Run run = gpuplan({"catalog", "--gpu", "A100", "--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray offers = QJsonDocument::fromJson(run.out.toUtf8())["offers"].toArray();
        QVERIFY(offers.size() >= 2);
        for (const QJsonValue& offer : offers) {
            QVERIFY(offer["gpu_name"].toString().contains("A100"));
        }
    }

    void queriesUsedByThePlanner()
    {
        auto offersFor = [](const QStringList& arguments) {
            const Run run = gpuplan(QStringList{"catalog", "--json"} + arguments);
            return QJsonDocument::fromJson(run.out.toUtf8())["offers"].toArray();
        };
        const QJsonArray all = offersFor({});
        QVERIFY(!all.isEmpty());

        const QJsonArray big = offersFor({"--min-gpus", "8"});
        QVERIFY(!big.isEmpty() && big.size() < all.size());
        for (const QJsonValue& offer : big) {
            QVERIFY(offer["gpu_count"].toInt() >= 8);
        }
        const QJsonArray roomy = offersFor({"--min-gpu-memory", "80"});
        QVERIFY(!roomy.isEmpty() && roomy.size() < all.size());
        for (const QJsonValue& offer : roomy) {
            QVERIFY(offer["gpu_memory_gb"].toDouble() / offer["gpu_count"].toInt() >= 80);
        }
        const QJsonArray rdma = offersFor({"--rdma"});
        QVERIFY(!rdma.isEmpty() && rdma.size() < all.size());
        for (const QJsonValue& offer : rdma) {
            QCOMPARE(offer["rdma"].toBool(), true);
        }
        for (const QJsonValue& offer : offersFor({"--isolated"})) {
            QVERIFY(offer["bare_metal"].toBool() || offer["service"].toString() == "bare_metal");
        }
        for (const QJsonValue& offer : offersFor({"--service", "vm", "--provider", "gcp"})) {
            QCOMPARE(offer["service"].toString(), QString("vm"));
        }
        QCOMPARE(gpuplan({"catalog", "--service", "spaceship"}).exitCode, 2);
    }

    void everyProviderOffersPricedA100sAndChineseCloudsPriceInCny()
    {
        const Run run = gpuplan({"catalog", "--json"});
        const QJsonArray offers = QJsonDocument::fromJson(run.out.toUtf8())["offers"].toArray();
        QSet<QString> providers;
        for (const QJsonValue& offer : offers) {
            providers.insert(offer["provider"].toString());
            bool onDemand = false;
            for (const QJsonValue& price : offer["prices"].toArray()) {
                if (price["mode"] == "on_demand") {
                    onDemand = true;
                    const bool chinese = offer["provider"] == "alibaba" || offer["provider"] == "tencent"
                                         || offer["provider"] == "huawei";
                    QCOMPARE(price["currency"].toString(), chinese ? QString("CNY") : QString("USD"));
                    QVERIFY(!price["source"]["url"].toString().isEmpty());
                    // Dated, or undated (null) with a note that says what was looked for.
                    QVERIFY(price["source"]["as_of"].toString().size() == 10
                            || (price["source"]["as_of"].isNull() && !price["source"]["note"].toString().isEmpty()));
                    QCOMPARE(price["source"]["retrieved"].toString().size(), 10);
                }
            }
            QVERIFY2(onDemand, qPrintable(offer["instance_type"].toString()));
        }
        QVERIFY2(providers.size() == 8, qPrintable(QStringList(providers.values()).join(", ")));

        QSet<QString> a100;
        for (const QJsonValue& offer :
             QJsonDocument::fromJson(gpuplan({"catalog", "--gpu", "A100", "--json"}).out.toUtf8())["offers"]
                 .toArray()) {
            a100.insert(offer["provider"].toString());
        }
        QVERIFY2(a100.size() >= 6, qPrintable(QStringList(a100.values()).join(", ")));
    }

    void currencyColumnConvertsWithTheDatedRate()
    {
        const Run run =
            gpuplan({"catalog", "--provider", "aws", "--gpu", "v100", "--region", "us-east-1", "--currency", "CNY"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(QRegularExpression("HOUR IN CNY")));
        QVERIFY(run.out.contains(QRegularExpression("Converted at [0-9.]+ CNY per USD \\(2026-01-06, https://")));
    }

    void validateFlagsOddPrices()
    {
        const QString file = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/odd-prices.json");
        const Run run = gpuplan({"catalog", "validate", file});
        QCOMPARE(run.exitCode, 0); // well-formed: findings are flags, not errors
        QVERIFY2(run.err.contains(
                     file + ": $.offers[0].prices[1]: spot price 0.9 USD is above the on-demand price 0.5 USD in r1"),
                 qPrintable(run.err));
        QVERIFY2(run.err.contains(file + ": $.offers[1].prices[0]: price as of 2019-05-01 is"), qPrintable(run.err));
        QVERIFY2(run.err.contains(file + ": $.offers[2].prices[0]: 25 USD per GPU-hour is more than 3× away from "),
                 qPrintable(run.err)); // against the bundled providers' T4 prices, one vote each
        QVERIFY2(run.err.contains("other providers' on-demand prices for T4"), qPrintable(run.err));
        // Its spot price is also more than 3x above the other providers' spot prices for a T4.
        QVERIFY2(run.err.contains(file + ": $.offers[0].prices[1]: 0.9 USD per GPU-hour is more than 3× away from "),
                 qPrintable(run.err));
        QVERIFY(run.out.contains("valid, 4 finding(s) to check"));
    }

    void catalogSummarisesFindingsAndValidateListsThem()
    {
        // A listing says in one line how many prices to check; `catalog validate` lists each with its kind.
        const Run listing = gpuplan({"catalog", "--provider", "tencent"});
        QCOMPARE(listing.exitCode, 0);
        QVERIFY2(!listing.err.contains("warning"), qPrintable(listing.err));
        const QRegularExpression summary("^gpuplan: (\\d+) prices to check \\((\\d+) old, (\\d+) undated, .*\\); "
                                         "'gpuplan catalog validate' lists them$",
                                         QRegularExpression::MultilineOption);
        const QRegularExpressionMatch line = summary.match(listing.err);
        QVERIFY2(line.hasMatch(), qPrintable(listing.err));
        QCOMPARE(listing.err.count('\n'), 1);

        const Run all = gpuplan({"catalog", "validate"});
        QCOMPARE(all.exitCode, 0);
        QCOMPARE(all.out.count(QRegularExpression("^(stale_price|undated_price|price_outlier|spot_above_on_demand|"
                                                  "future_date)\t",
                                                  QRegularExpression::MultilineOption)),
                 line.captured(1).toInt());
        QCOMPARE(all.out.count(QRegularExpression("^stale_price\t", QRegularExpression::MultilineOption)),
                 line.captured(2).toInt());
        // Tencent's list price is as of 2021-09-27 (read in 2026): old by the source's date, not the day it was read.
        QVERIFY2(all.out.contains(QRegularExpression("^stale_price\t.*tencent\\.json: .*price as of 2021-09-27 is",
                                                     QRegularExpression::MultilineOption)),
                 qPrintable(all.out.left(2000)));
        // SkyPilot's snapshots state no date: undated, counted as old.
        QVERIFY(all.out.contains(QRegularExpression("^undated_price\t.*lambda\\.json: .*the source states no date",
                                                    QRegularExpression::MultilineOption)));
        QVERIFY(all.out.contains(QRegularExpression("^catalog: \\d+ offers, valid, \\d+ price\\(s\\) to check$",
                                                    QRegularExpression::MultilineOption)));
    }

    void userCatalogOverridesAndIsMarked()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(GPUPLAN_SOURCE_DIR "/tests/data/user-quote.json", dir.filePath("quote.json")));
        const Run run = gpuplan({"catalog", "--provider", "aws", "--gpu", "v100", "--user-catalog", dir.path()});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(QRegularExpression("^aws +p3\\.2xlarge .* 2\\.20 USD .* user-override",
                                                     QRegularExpression::MultilineOption)),
                 qPrintable(run.out));
    }

    void unknownProviderExitsTwoListingTheKnownOnes()
    {
        const Run run = gpuplan({"catalog", "--provider", "nosuch"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("unknown provider 'nosuch'"), qPrintable(run.err));
        QVERIFY2(run.err.contains("known providers: alibaba, aws, "), qPrintable(run.err));
        QVERIFY2(run.err.contains(", tencent"), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    void badFlagExitsTwo()
    {
        const Run run = gpuplan({"catalog", "--no-such-flag"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("--no-such-flag"));
    }

    void validateNamesTheJsonPath()
    {
        const QString file = QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/broken-offers.json");
        const Run run = gpuplan({"catalog", "validate", file});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(file + ": $.offers[0].prices[0].amount: must be greater than 0, found -3.06"),
                 qPrintable(run.err));
        QVERIFY2(run.err.contains(file + ": $.offers[1].gpu: unknown GPU id \"v100x\""), qPrintable(run.err));

        const Run good = gpuplan({"catalog", "validate", GPUPLAN_SOURCE_DIR "/resources/catalog/offers/aws.json"});
        QCOMPARE(good.exitCode, 0);
        QVERIFY(good.out.contains(": valid"));

        const Run missing = gpuplan({"catalog", "validate", "/nonexistent/x.json"});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("/nonexistent/x.json: file not found"));
    }

    void brokenCatalogFileExitsTwoAndKeepsTheRest()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath("offers")));
        QVERIFY(QFile::copy(GPUPLAN_SOURCE_DIR "/resources/catalog/gpus.json", dir.filePath("gpus.json")));
        QVERIFY(QFile::copy(GPUPLAN_SOURCE_DIR "/resources/catalog/offers/aws.json", dir.filePath("offers/aws.json")));
        QVERIFY(QFile::copy(GPUPLAN_SOURCE_DIR "/tests/data/broken-offers.json", dir.filePath("offers/broken.json")));

        // --catalog may stand before or after the subcommand.
        for (const QStringList& arguments :
             {QStringList{"--catalog", dir.path(), "catalog"}, QStringList{"catalog", "--catalog", dir.path()}}) {
            const Run run = gpuplan(arguments);
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains("broken.json: $.offers[0].prices[0].amount"), qPrintable(run.err));
            QVERIFY(run.out.contains("p3.2xlarge"));
        }

        // A file name that is not UTF-8 still gives valid JSON output.
        QVERIFY(QFile::rename(dir.filePath("offers/broken.json"),
                              QFile::decodeName(QByteArray(dir.filePath("offers/").toLocal8Bit()) + "\xff.json")));
        const Run json = gpuplan({"catalog", "--json", "--catalog", dir.path()});
        QCOMPARE(json.exitCode, 2);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(json.out.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(json.out.left(300)));
        QCOMPARE(doc["problems"].toArray().size(), 2);
    }

    void absurdFilesAreRefusedNotCrashedOn()
    {
        QTemporaryDir dir;
        const QByteArray documents[] = {"{\"schema\": \"gpuplan-offers/1\", \"x\": 1e400}",
                                        QByteArray(50000, '[') + QByteArray(50000, ']'),
                                        "",
                                        "\"just a string\""};
        for (const QByteArray& document : documents) {
            QFile file(dir.filePath("odd.json"));
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(document);
            file.close();
            const Run run = gpuplan({"catalog", "validate", file.fileName()});
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains(file.fileName()), qPrintable(run.err));
        }
    }

    void estimateOrdersTheGenerationsWithRanges()
    {
        double previous = 0;
        for (const char* gpu : {"T4", "V100", "A100-SXM4-80GB", "H100", "H200"}) {
            const Run run = gpuplan({"estimate",
                                     "--preset",
                                     "resnet50-imagenet",
                                     "--gpu",
                                     gpu,
                                     "--count",
                                     "8",
                                     "--precision",
                                     "amp",
                                     "--json"});
            QCOMPARE(run.exitCode, 0);
            const QJsonObject e = QJsonDocument::fromJson(run.out.toUtf8()).object();
            const QJsonObject t = e["throughput"].toObject();
            QCOMPARE(t["unit"].toString(), QStringLiteral("samples/s"));
            QVERIFY2(t["low"].toDouble() < t["value"].toDouble() && t["value"].toDouble() < t["high"].toDouble(), gpu);
            QVERIFY2(t["value"].toDouble() >= previous, gpu);
            previous = t["value"].toDouble();
            const QJsonObject h = e["hours"].toObject();
            QVERIFY(h["low"].toDouble() < h["value"].toDouble() && h["value"].toDouble() < h["high"].toDouble());
            QVERIFY(std::abs(e["gpu_hours"]["value"].toDouble() - 8 * h["value"].toDouble()) < 1e-6);
            QVERIFY(e["mfu"].toDouble() > 0.05 && e["mfu"].toDouble() < 0.5);
            QCOMPARE(e["fits_memory"].toBool(), true);
            QVERIFY(!e.contains("fit_reason"));
        }
        const Run tooBig = gpuplan({"estimate", "--preset", "llama2-7b-full", "--gpu", "t4", "--json"});
        QCOMPARE(QJsonDocument::fromJson(tooBig.out.toUtf8())["fits_memory"].toBool(true), false);
        // Why, as a key with figures: what would fit.
        const QJsonValue fit = QJsonDocument::fromJson(tooBig.out.toUtf8())["fit_reason"];
        QCOMPARE(fit["key"].toString(), QStringLiteral("fit.advice"));
        QVERIFY(fit["params"]["fsdp_gpus"].toString().toInt() > 1);
        // And in words, as `gpuplan estimate` prints it.
        const Run worded = gpuplan({"estimate", "--preset", "llama2-7b-full", "--gpu", "t4"});
        QVERIFY2(worded.out.contains("would fit: ") && worded.out.contains("× T4 with FSDP"), qPrintable(worded.out));
    }

    void unknownGpuOrPresetExitsTwoWithSuggestions()
    {
        const Run gpu = gpuplan({"estimate", "--preset", "gpt2-124m", "--gpu", "a100-80g"});
        QCOMPARE(gpu.exitCode, 2);
        QVERIFY2(gpu.err.contains("did you mean") && gpu.err.contains("a100-80gb"), qPrintable(gpu.err));
        const Run preset = gpuplan({"estimate", "--preset", "lama2-7b-lora", "--gpu", "h100"});
        QCOMPARE(preset.exitCode, 2);
        QVERIFY2(preset.err.contains("did you mean llama2-7b-lora"), qPrintable(preset.err));
        const Run deadline = gpuplan({"plan", "--preset", "gpt2-124m", "--deadline", "soon"});
        QCOMPARE(deadline.exitCode, 2);
        QVERIFY(deadline.err.contains("--deadline"));
        const Run countries = gpuplan({"plan", "--preset", "gpt2-124m", "--countries", "CN,China"});
        QCOMPARE(countries.exitCode, 2);
        QVERIFY2(countries.err.contains("--countries") && countries.err.contains("\"China\" is not a country code"),
                 qPrintable(countries.err));
    }

    void planComparesEachOptionsPricingModesWithTheirDates()
    {
        // A lab in China over a year: every way each option can be paid for, with the date of each price.
        const Run run = gpuplan({"plan", "--preset", "llama2-7b-lora", "--countries", "CN", "--project-months", "12"});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.count("   pricing modes:\n"), 5);
        // Tencent's list prices are as of the page's last change, both modes of one offer.
        const QRegularExpression tencent(
            "Tencent Cloud GT4\\.41XLARGE948 in [^\n]*:\n(?:   - [^\n]*\n)+   pricing modes:\n"
            "     \\* on_demand: 237\\.51 CNY/hour \\(as of 2021-09-27\\) -> this run [^\n]* CNY\n"
            "       subscription_monthly: 114016\\.00 CNY/month \\(as of 2021-09-27\\) -> this run 114016 CNY, "
            "binds 114016 CNY over 1 month\n");
        QVERIFY2(tencent.match(run.out).hasMatch(), qPrintable(run.out.left(3000)));
        // Every mode line states its price's date, or says the source has none.
        const QRegularExpression modeLine("^     [* ] [a-z_0-9]+: .* \\(as of ([0-9-]{10}|undated)\\) -> this run ",
                                          QRegularExpression::MultilineOption);
        QVERIFY(run.out.count(modeLine) >= 6);
        QCOMPARE(run.out.count(modeLine),
                 run.out.count(QRegularExpression("^     [* ] ", QRegularExpression::MultilineOption)));
    }

    void awsPricesRefreshFromThePriceListAndShowWhatChanged()
    {
        // AWS's Price List bulk API on loopback: a static server (Python's http.server) holding the documented
        // region index and an EC2 offer file of the documented shape for us-east-1.
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("pricing"));
        const QString ec2 = root + QStringLiteral("/offers/v1.0/aws/AmazonEC2");
        QVERIFY(QDir().mkpath(ec2 + QStringLiteral("/current")));
        QVERIFY(QDir().mkpath(ec2 + QStringLiteral("/20261130150000/us-east-1")));
        QVERIFY(QFile::copy(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/aws/region_index.json"),
                            ec2 + QStringLiteral("/current/region_index.json")));
        QVERIFY(QFile::copy(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/aws/ec2-offer-sample.json"),
                            ec2 + QStringLiteral("/20261130150000/us-east-1/index.json")));
        QProcess server;
        const auto stop = qScopeGuard([&server] {
            server.kill();
            server.waitForFinished();
        });
        server.start(QStringLiteral("python3"),
                     {"-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root});
        QVERIFY(server.waitForReadyRead(10000));
        const QRegularExpressionMatch port =
            QRegularExpression(QStringLiteral("port (\\d+)")).match(QString::fromUtf8(server.readLine()));
        QVERIFY(port.hasMatch());
        QProcessEnvironment env;
        env.insert(QStringLiteral("GPUPLAN_ENDPOINT_AWS_PRICING"),
                   QStringLiteral("http://127.0.0.1:") + port.captured(1));
        env.insert(QStringLiteral("GPUPLAN_PRICES_DIR"), dir.filePath(QStringLiteral("prices")));

        const Run before = gpuplan({"catalog", "--provider", "aws", "--gpu", "A100", "--json"}, {}, env);
        const QJsonObject p4dBefore = offerNamed(QJsonDocument::fromJson(before.out.toUtf8())["offers"].toArray(),
                                                 QStringLiteral("p4d.24xlarge"));
        double bundled = 0;
        for (const QJsonValue& p : p4dBefore["prices"].toArray()) {
            if (p["region"] == "us-east-1" && p["mode"] == "on_demand") {
                bundled = p["amount"].toDouble();
            }
        }
        QVERIFY(bundled > 0 && bundled != 32.7726);

        const Run run = gpuplan({"prices", "refresh", "--provider", "aws", "--region", "us-east-1"}, {}, env);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.startsWith(QStringLiteral("AWS prices as of 2026-11-30 (AWS Price List, read ")),
                 qPrintable(run.out));
        // The change, old -> new, by how much, per offer and mode; g5.xlarge's price is where the catalog has one.
        const QRegularExpressionMatch row =
            QRegularExpression("p4d\\.24xlarge +us-east-1 +on_demand +([0-9.]+) USD +32\\.7726 USD +([+-][0-9.]+) %")
                .match(run.out);
        QVERIFY2(row.hasMatch(), qPrintable(run.out));
        QVERIFY(std::abs(row.captured(1).toDouble() - bundled) < 1e-4); // as the table rounds it
        QVERIFY(std::abs(row.captured(2).toDouble() - (32.7726 / bundled - 1) * 100) < 0.06);
        QVERIFY2(
            run.out.contains(QRegularExpression("p4d\\.24xlarge +us-east-1 +reserved_1y +[0-9.]+ USD +19\\.2217 USD")),
            qPrintable(run.out));
        QVERIFY2(run.err.contains(QStringLiteral("us-east-1 price file:")), qPrintable(run.err)); // progress
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("prices/aws.json"))));

        // The catalog now shows the refreshed price with the provider's date, where it was read, and that it was.
        const Run after = gpuplan({"catalog", "--provider", "aws", "--gpu", "A100", "--json"}, {}, env);
        const QJsonObject p4d =
            offerNamed(QJsonDocument::fromJson(after.out.toUtf8())["offers"].toArray(), QStringLiteral("p4d.24xlarge"));
        bool seen = false;
        for (const QJsonValue& p : p4d["prices"].toArray()) {
            if (p["region"] == "us-east-1" && p["mode"] == "on_demand") {
                seen = true;
                QCOMPARE(p["amount"].toDouble(), 32.7726);
                QCOMPARE(p["source"]["as_of"].toString(), QStringLiteral("2026-11-30"));
                QVERIFY(p["source"]["url"].toString().endsWith(
                    QStringLiteral("/offers/v1.0/aws/AmazonEC2/20261130150000/us-east-1/index.json")));
                QVERIFY(p["refreshed"].toBool());
            } else if (p["region"] != "us-east-1") {
                QVERIFY(!p["refreshed"].toBool()); // other regions keep their bundled prices
            }
        }
        QVERIFY(seen);

        // A region the index names but whose file is missing: said, nothing half-written.
        const Run missing = gpuplan({"prices", "refresh", "--provider", "aws", "--region", "eu-central-1"}, {}, env);
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("answered HTTP 404")), qPrintable(missing.err));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("prices/aws.json"))));
        // Without a stored key the spot prices are not read, and the output says why.
        QVERIFY2(run.out.contains(QStringLiteral("note: spot prices not read")), qPrintable(run.out));
        // With one, EC2's spot price history (a FAKE EC2, two pages: the cheapest zone is on the second) adds them.
        env.insert(QStringLiteral("GPUPLAN_CREDENTIALS_FILE"), dir.filePath(QStringLiteral("credentials.enc")));
        env.insert(QStringLiteral("GPUPLAN_CREDENTIALS_PASSPHRASE"),
                   QStringLiteral("a passphrase for the price tests"));
        QProcess creds;
        QProcessEnvironment all = QProcessEnvironment::systemEnvironment();
        all.insert(env);
        all.insert(QStringLiteral("GPUPLAN_CREDENTIALS_BACKEND"), QStringLiteral("file"));
        creds.setProcessEnvironment(all);
        creds.start(QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan"), {"creds", "set", "aws", "--stdin"});
        creds.write(R"({"access_key_id": "AKIDEXAMPLEFORPRICES", "secret_access_key": "never-shown"})");
        creds.closeWriteChannel();
        QVERIFY(creds.waitForFinished(30000) && creds.exitCode() == 0);
        QProcess fake;
        fake.start(QStringLiteral("python3"),
                   {QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/fakes/fake_price_apis.py"),
                    QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/catalog")});
        const auto stopFake = qScopeGuard([&fake] {
            fake.closeWriteChannel();
            fake.kill();
            fake.waitForFinished();
        });
        QVERIFY(fake.waitForReadyRead(10000));
        env.insert(QStringLiteral("GPUPLAN_ENDPOINT_AWS"),
                   QStringLiteral("http://127.0.0.1:%1").arg(QJsonDocument::fromJson(fake.readLine())["http"].toInt()));
        const Run spot = gpuplan({"prices", "refresh", "--provider", "aws", "--region", "us-east-1"}, {}, env);
        QVERIFY2(spot.exitCode == 0, qPrintable(spot.err));
        const QRegularExpressionMatch spotRow =
            QRegularExpression("p4d\\.24xlarge +us-east-1 +spot +[0-9.-]+( USD)? +([0-9.]+) USD").match(spot.out);
        QVERIFY2(spotRow.hasMatch(), qPrintable(spot.out));
        QVERIFY(std::abs(spotRow.captured(2).toDouble() - bundled / 2) < 1e-4); // the second page's zone, Linux
        QVERIFY(!spot.out.contains(QStringLiteral("never-shown")) && !spot.err.contains(QStringLiteral("never-shown")));
    }

    void azurePricesRefreshPageByPageThroughThrottlingAndACutOffPage()
    {
        // A FAKE Retail Prices API (tests/integration/fakes/fake_azure_prices.py) pages the documented items two
        // at a time, throttles a page once, or cuts a page off mid-body: faults the real API will not produce on
        // demand.
        QTemporaryDir dir;
        QProcessEnvironment env;
        env.insert(QStringLiteral("GPUPLAN_PRICES_DIR"), dir.filePath(QStringLiteral("prices")));
        auto withFake = [&](const QStringList& faults, const std::function<void()>& body) {
            QProcess fake;
            fake.start(QStringLiteral("python3"),
                       QStringList{QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/integration/fakes/fake_azure_prices.py"),
                                   QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/azure/retail-prices.json")}
                           + faults);
            const auto stop = qScopeGuard([&fake] {
                fake.closeWriteChannel();
                fake.kill();
                fake.waitForFinished();
            });
            QVERIFY(fake.waitForReadyRead(10000));
            const int port = QJsonDocument::fromJson(fake.readLine())["http"].toInt();
            QVERIFY(port > 0);
            env.insert(QStringLiteral("GPUPLAN_ENDPOINT_AZURE_PRICING"),
                       QStringLiteral("http://127.0.0.1:%1").arg(port));
            body();
        };

        withFake({QStringLiteral("--throttle-page-2")}, [&] {
            const Run run = gpuplan({"prices", "refresh", "--provider", "azure"}, {}, env);
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            QVERIFY2(run.out.startsWith(QStringLiteral("Azure prices as of ")), qPrintable(run.out));
            for (const char* row : {"Standard_NC24ads_A100_v4 +eastus +on_demand +[0-9.]+ USD +3\\.90 USD",
                                    "Standard_NC24ads_A100_v4 +eastus +spot +[0-9.]+ USD +0\\.99 USD",
                                    "Standard_NC24ads_A100_v4 +westus2 +spot +[0-9.]+ USD +1\\.10 USD"}) {
                QVERIFY2(run.out.contains(QRegularExpression(QString::fromLatin1(row))), qPrintable(run.out));
            }
            // Windows, Low Priority and the reservation are not a Linux hourly price.
            for (const char* never : {"4.69 USD", "0.60 USD", "25000"}) {
                QVERIFY2(!run.out.contains(QString::fromLatin1(never)), qPrintable(run.out));
            }
            // Sizes the API has no items for keep their bundled prices, and say so.
            QVERIFY(run.out.contains(QStringLiteral("note: Standard_ND96isr_H100_v5: no Linux price in eastus")));
        });
        const Run listed = gpuplan({"catalog", "--provider", "azure", "--json"}, {}, env);
        const QJsonObject nc24 = offerNamed(QJsonDocument::fromJson(listed.out.toUtf8())["offers"].toArray(),
                                            QStringLiteral("Standard_NC24ads_A100_v4"));
        int refreshed = 0;
        for (const QJsonValue& p : nc24["prices"].toArray()) {
            if (p["refreshed"].toBool()) {
                ++refreshed;
                QCOMPARE(p["source"]["as_of"].toString().size(), 10);
                QVERIFY(p["source"]["note"].toString().contains(QStringLiteral("effective since 2026-10-01")));
            }
        }
        QCOMPARE(refreshed, 5); // pay-as-you-go and Spot in eastus and westus2, pay-as-you-go in southcentralus

        // A page cut off mid-body (every time): the refresh fails saying so, and the earlier refresh stays whole.
        const QByteArray before = [&] {
            QFile f(dir.filePath(QStringLiteral("prices/azure.json")));
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        QVERIFY(!before.isEmpty());
        withFake({QStringLiteral("--cut-page-2")}, [&] {
            const Run cut = gpuplan({"prices", "refresh", "--provider", "azure"}, {}, env);
            QCOMPARE(cut.exitCode, 1);
            QVERIFY2(cut.err.contains(QStringLiteral("before the whole answer")), qPrintable(cut.err));
        });
        QFile after(dir.filePath(QStringLiteral("prices/azure.json")));
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), before);
    }

    void signedPriceApisRefreshFromTheirFake()
    {
        // A FAKE of each price API that needs an account (tests/integration/fakes/fake_price_apis.py): answers of
        // the documented shapes, made-up prices (x2 pay-as-you-go, /2 spot, x400 a month, x4000 a year), a wrong key
        // refused, each route's first answer throttled or cut off mid-body on demand.
        QTemporaryDir dir;
        QString problem;
        QProcessEnvironment env = priceApiEnvironment(dir, problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        auto store = [&](const QString& provider, const QJsonObject& fields) {
            const QString failed = storeCredential(env, provider, fields);
            QVERIFY2(failed.isEmpty(), qPrintable(failed));
        };
        auto withFake = [&](const QStringList& faults, const std::function<void()>& body) {
            QProcess fake;
            const auto stop = qScopeGuard([&fake] {
                fake.closeWriteChannel();
                fake.kill();
                fake.waitForFinished();
            });
            QVERIFY(startPriceFake(fake, faults, env));
            body();
        };
        // provider, instance type, region, mode -> the price the fake gives.
        struct Expected
        {
            const char* provider;
            const char* type;
            const char* region;
            const char* mode;
            double amount;
        };
        const std::vector<Expected> expected{
            {"lambda", "gpu_1x_a10", "us-west-1", "on_demand", 1.50},
            {"gcp", "a2-highgpu-1g", "us-central1", "on_demand", 12 * 0.031611 + 85 * 0.004237 + 2.933908},
            {"gcp", "a2-highgpu-1g", "us-central1", "spot", 12 * 0.0158055 + 85 * 0.0021185 + 1.466954},
            {"alibaba", "ecs.gn7e-c16g1.4xlarge", "cn-shanghai", "on_demand", 34.742 * 2},
            {"alibaba", "ecs.gn7e-c16g1.4xlarge", "cn-shanghai", "subscription_monthly", 34.742 * 400},
            {"alibaba", "ecs.gn7e-c16g1.4xlarge", "cn-shanghai", "subscription_yearly", 34.742 * 4000 / 12},
            {"alibaba", "ecs.gn7e-c16g1.4xlarge", "cn-shanghai", "spot", 34.742 / 2},
            {"tencent", "GT4.4XLARGE96", "ap-shanghai", "on_demand", 57.28},
            {"tencent", "GT4.4XLARGE96", "ap-shanghai", "spot", 14.32},
            {"tencent", "GT4.4XLARGE96", "ap-shanghai", "subscription_monthly", 11456},
            {"tencent", "GT4.4XLARGE96", "ap-shanghai", "subscription_yearly", 114560.0 / 12},
            {"huawei", "p2v.16xlarge.8", "cn-north-4", "on_demand", 133.58356 * 2},
            {"huawei", "p2v.16xlarge.8", "cn-north-4", "subscription_monthly", 133.58356 * 400},
            {"huawei", "p2v.16xlarge.8", "cn-north-4", "subscription_yearly", 133.58356 * 4000 / 12},
        };
        auto refreshedAmount = [&](const Expected& e) -> double {
            const Run listed = gpuplan({"catalog", "--provider", e.provider, "--json"}, {}, env);
            const QJsonObject offer = offerNamed(QJsonDocument::fromJson(listed.out.toUtf8())["offers"].toArray(),
                                                 QString::fromLatin1(e.type));
            for (const QJsonValue& p : offer["prices"].toArray()) {
                if (p["region"].toString() == QLatin1String(e.region) && p["mode"].toString() == QLatin1String(e.mode)
                    && p["refreshed"].toBool()) {
                    return p["amount"].toDouble();
                }
            }
            return -1;
        };
        for (const QStringList& faults : {QStringList{QStringLiteral("--throttle-once")}, QStringList{}}) {
            withFake(faults, [&] {
                for (const char* provider : {"lambda", "gcp", "alibaba", "tencent", "huawei"}) {
                    const Run run = gpuplan({"prices", "refresh", "--provider", provider}, {}, env);
                    QVERIFY2(run.exitCode == 0, qPrintable(provider + (": " + run.err)));
                    QVERIFY2(run.out.contains(QStringLiteral(" prices as of ")), qPrintable(run.out));
                    QVERIFY2(run.out.contains(QStringLiteral("changed or new")), qPrintable(run.out));
                    // The secret never shows.
                    QVERIFY(!run.out.contains(QStringLiteral("a-secret-that-never-shows")));
                    QVERIFY(!run.err.contains(QStringLiteral("a-secret-that-never-shows")));
                }
                for (const Expected& e : expected) {
                    const double amount = refreshedAmount(e);
                    QVERIFY2(std::abs(amount - e.amount) < 1e-6,
                             qPrintable(QStringLiteral("%1 %2 %3 %4: %5, expected %6")
                                            .arg(e.provider, e.type, e.region, e.mode)
                                            .arg(amount)
                                            .arg(e.amount)));
                }
            });
        }
        // Alibaba's spot price carries the interruption band DescribeSpotAdvice gives its type in the zone it is the
        // price of (the fake: 0-3% there, 10-100% in the region's other zone), under the catalog's name for it.
        auto refreshedSpot = [&](const char* provider, const QString& type, const QString& region) {
            const Run listed = gpuplan({"catalog", "--provider", provider, "--json"}, {}, env);
            const QJsonObject offer =
                offerNamed(QJsonDocument::fromJson(listed.out.toUtf8())["offers"].toArray(), type);
            for (const QJsonValue& p : offer["prices"].toArray()) {
                if (p["region"].toString() == region && p["mode"].toString() == QLatin1String("spot")
                    && p["refreshed"].toBool()) {
                    return p.toObject();
                }
            }
            return QJsonObject();
        };
        const QString gn7e = QStringLiteral("ecs.gn7e-c16g1.4xlarge");
        const QJsonObject alibabaSpot = refreshedSpot("alibaba", gn7e, QStringLiteral("cn-shanghai"));
        QCOMPARE(alibabaSpot["interruption"].toString(), QStringLiteral("alibaba:0-3%"));
        QVERIFY2(alibabaSpot["source"]["note"].toString().contains(QStringLiteral("cn-shanghai-b")),
                 qPrintable(alibabaSpot["source"]["note"].toString()));
        // ... and the planner ranks it with that band's monthly probability (regions.json: 0 to 3 %, 1.5 %), where
        // a spot price without a band is left out (Tencent's: no published rate).
        {
            const Run ranked =
                gpuplan({"plan", "--preset", "llama2-7b-lora", "--countries", "CN", "--top", "100", "--json"}, {}, env);
            QVERIFY2(ranked.exitCode == 0, qPrintable(ranked.err));
            const QJsonArray options = QJsonDocument::fromJson(ranked.out.toUtf8())["results"]["options"].toArray();
            // An option is an offer in its best region; the fake prices and bands every region alike.
            auto spotMode = [&](const QString& type) {
                for (const QJsonValue& o : options) {
                    if (o["instance_type"].toString() == type) {
                        for (const QJsonValue& m : o["modes"].toArray()) {
                            if (m["mode"].toString() == QLatin1String("spot")) {
                                return m.toObject();
                            }
                        }
                    }
                }
                return QJsonObject();
            };
            const QJsonObject banded = spotMode(gn7e);
            QVERIFY2(!banded.isEmpty(), qPrintable(ranked.out.left(3000)));
            QVERIFY2(banded["eligible"].toBool(), qPrintable(QJsonDocument(banded).toJson()));
            const QJsonObject p = banded["spot"]["monthly_interruption"].toObject();
            QCOMPARE(p["value"].toDouble(), 0.015);
            QCOMPARE(p["low"].toDouble(), 0.0);
            QCOMPARE(p["high"].toDouble(), 0.03);
            QVERIFY2(banded["spot"]["rate_source"].toString().contains(QStringLiteral("describespotadvice")),
                     qPrintable(banded["spot"]["rate_source"].toString()));
            const QJsonObject unbanded = spotMode(QStringLiteral("GT4.4XLARGE96"));
            QVERIFY2(!unbanded.isEmpty(), qPrintable(ranked.out.left(3000)));
            QVERIFY(!unbanded["eligible"].toBool());
            QCOMPARE(unbanded["why_not"]["key"].toString(), QStringLiteral("excluded.spot_rate_unknown"));
        }
        // With the refreshed prices, a China plan compares every way to pay for an option, each with its date.
        const Run plan = gpuplan(
            {"plan", "--preset", "llama2-7b-lora", "--countries", "CN", "--project-months", "12", "--top", "10"},
            {},
            env);
        QVERIFY2(plan.exitCode == 0, qPrintable(plan.err));
        const QString today = QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate);
        for (const char* mode : {"on_demand: [0-9.]+ CNY/hour",
                                 "subscription_monthly: [0-9.]+ CNY/month",
                                 "subscription_yearly: [0-9.]+ CNY/month",
                                 "spot: [0-9.]+ CNY/hour"}) {
            const QString line = QStringLiteral("%1 \\(as of %2\\)").arg(QString::fromLatin1(mode), today);
            QVERIFY2(plan.out.contains(QRegularExpression(line)), qPrintable(line + "\n" + plan.out));
        }

        // The change summary names the offer, the region and the mode, old -> new.
        withFake({}, [&] {
            QVERIFY(QFile::remove(dir.filePath(QStringLiteral("prices/alibaba.json"))));
            const Run run = gpuplan({"prices", "refresh", "--provider", "alibaba", "--region", "cn-shanghai"}, {}, env);
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral(
                         "ecs.gn7e-c16g1.4xlarge +cn-shanghai +on_demand +34.742 CNY +69.484 CNY +\\+100.0 %"))),
                     qPrintable(run.out));
            QVERIFY2(run.out.contains(QRegularExpression(
                         QStringLiteral("ecs.gn7e-c16g1.4xlarge +cn-shanghai +spot +- +17.371 CNY +new"))),
                     qPrintable(run.out));
        });
        // A cut-off answer: retried like any safe read, the refresh completes.
        withFake({QStringLiteral("--cut-once")}, [&] {
            const Run run = gpuplan({"prices", "refresh", "--provider", "lambda"}, {}, env);
            QVERIFY2(run.exitCode == 0 || run.err.contains(QStringLiteral("before the whole answer")),
                     qPrintable(run.err));
        });
        // A refused key: the provider's own words, exit 1, the earlier refresh kept byte for byte.
        QFile kept(dir.filePath(QStringLiteral("prices/lambda.json")));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        const QByteArray before = kept.readAll();
        kept.close();
        store(QStringLiteral("lambda"), {{"api_key", "a-wrong-key"}});
        withFake({}, [&] {
            const Run run = gpuplan({"prices", "refresh", "--provider", "lambda"}, {}, env);
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains(QStringLiteral("global/invalid-api-key")), qPrintable(run.err));
        });
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), before);
        // Paperspace has no price API, and says so.
        const Run paperspace = gpuplan({"prices", "refresh", "--provider", "paperspace"}, {}, env);
        QCOMPARE(paperspace.exitCode, 2);
        QVERIFY(paperspace.err.contains(QStringLiteral("no price API")));
    }

    void signedPriceApisRefreshFromTheirDocumentedAnswers()
    {
        // The answers the providers' documentation prints, replayed verbatim by the fake (--documented;
        // tests/data/<provider>/README.md names each page), with user offers named as in those examples
        // (tests/data/documented-offers): each refresh reads them and prints what changed.
        QTemporaryDir dir;
        QString problem;
        QProcessEnvironment env = priceApiEnvironment(dir, problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("user"))));
        for (const char* provider : {"lambda", "alibaba", "tencent"}) {
            QVERIFY(
                QFile::copy(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/documented-offers/%1.json").arg(provider),
                            dir.filePath(QStringLiteral("user/%1.json").arg(provider))));
        }
        env.insert(QStringLiteral("GPUPLAN_USER_CATALOG_DIR"), dir.filePath(QStringLiteral("user")));
        QProcess fake;
        const auto stop = qScopeGuard([&fake] {
            fake.closeWriteChannel();
            fake.kill();
            fake.waitForFinished();
        });
        QVERIFY(startPriceFake(fake, {QStringLiteral("--documented")}, env));
        auto refresh = [&](const QStringList& arguments) {
            const Run run = gpuplan(QStringList{"prices", "refresh"} + arguments, {}, env);
            return run.exitCode == 0 ? run.out : QStringLiteral("exit %1: %2").arg(run.exitCode).arg(run.err);
        };
        // Lambda: 1592 cents an hour for gpu_8x_example.
        const QString lambda = refresh({"--provider", "lambda", "--region", "us-west-1"});
        QVERIFY2(lambda.contains(
                     QRegularExpression("gpu_8x_example +us-west-1 +on_demand +14.00 USD +15.92 USD +\\+13.7 %")),
                 qPrintable(lambda));
        // Google: the A2 core, RAM and A100 SKUs of the recorded page make a2-highgpu-1g's price.
        const QString gcp = refresh({"--provider", "gcp", "--region", "us-central1"});
        QVERIFY2(
            gcp.contains(QRegularExpression("a2-highgpu-1g +us-central1 +on_demand +[0-9.]+ USD +3\\.673[0-9]* USD")),
            qPrintable(gcp));
        // Alibaba: the spot history's newest price of ecs.g5.large in its cheapest zone; the DescribePrice example is
        // a one-year quote (rule ONE_YEAR_85_PERCENT) that the fake gives to every request, so it is the yearly one.
        const QString alibaba = refresh({"--provider", "alibaba", "--region", "cn-hangzhou"});
        QVERIFY2(alibaba.contains(QRegularExpression("ecs.g5.large +cn-hangzhou +spot +- +0.036 CNY +new")),
                 qPrintable(alibaba));
        QVERIFY2(
            alibaba.contains(QRegularExpression("ecs.g5.large +cn-hangzhou +subscription_yearly +- +364.00 CNY +new")),
            qPrintable(alibaba));
        // The documented DescribeSpotAdvice example rates ecs.c5.large only: ecs.g5.large's spot price comes without
        // a band, and the output says so.
        QVERIFY2(alibaba.contains(QStringLiteral("note: ecs.g5.large in cn-hangzhou: Alibaba Cloud publishes no "
                                                 "interruption rate for it in cn-hangzhou-g")),
                 qPrintable(alibaba));
        // Tencent: the documented zone listing gives S2.SMALL1 no hourly price (all its hourly fields are 0): none is
        // taken, and the output says so.
        const QString tencent = refresh({"--provider", "tencent", "--region", "ap-guangzhou"});
        QVERIFY2(tencent.contains(QStringLiteral("note: S2.SMALL1: no on_demand price in ap-guangzhou")),
                 qPrintable(tencent));
        // Huawei: the documented period rating, 32.2 yuan; its on-demand rating has no documented example.
        const QString huawei = refresh({"--provider", "huawei"});
        QVERIFY2(
            huawei.contains(QRegularExpression("p2v.16xlarge.8 +cn-north-4 +subscription_monthly +- +32.20 CNY +new")),
            qPrintable(huawei));
        QVERIFY2(huawei.contains(QStringLiteral("note: cn-north-4, on_demand: answered HTTP 400")), qPrintable(huawei));
    }

    void everyRegionHasACountry()
    {
        // No offer is dropped for a region whose country the catalog does not know (Lambda's had none, so
        // --countries US dropped every Lambda offer).
        const Run run = gpuplan({"plan", "--preset", "llama2-7b-lora", "--countries", "US", "--top", "100", "--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject results = QJsonDocument::fromJson(run.out.toUtf8())["results"].toObject();
        bool lambda = false;
        for (const QJsonValue& o : results["options"].toArray()) {
            lambda = lambda || o["provider"] == "lambda";
        }
        QVERIFY(lambda);
        for (const QJsonValue& x : results["excluded"].toArray()) {
            QVERIFY2(x["reason"]["key"] != "excluded.country_unknown",
                     qPrintable(x["provider"].toString() + " " + x["region"].toString()));
        }
    }

    void planRanksWithReasonsAndSensitiveExcludesSharedVms()
    {
        const QStringList args{
            "plan", "--preset", "llama2-7b-lora", "--budget", "3000", "--currency", "CNY", "--deadline", "14d"};
        const Run text = gpuplan(args);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("the cheapest of"));
        const Run run = gpuplan(args + QStringList{"--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject plan = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(plan["format"].toString(), QStringLiteral("gpuplan"));
        const QJsonArray options = plan["results"]["options"].toArray();
        QCOMPARE(options.size(), 5);
        for (const QJsonValue& o : options) {
            QVERIFY(o["cost"]["value"].toDouble() <= 3000);
            QVERIFY(o["reasons"].toArray().size() >= 4);
            QVERIFY(!o["modes"].toArray().isEmpty());
        }
        const Run sensitive = gpuplan(args + QStringList{"--sensitive", "--json", "--top", "100"});
        QCOMPARE(sensitive.exitCode, 0);
        const QJsonObject results = QJsonDocument::fromJson(sensitive.out.toUtf8())["results"].toObject();
        QVERIFY(!results["options"].toArray().isEmpty());
        for (const QJsonValue& o : results["options"].toArray()) {
            QVERIFY(o["reasons"].toArray().last()["key"] == "reason.energy"
                    || o["reasons"].toArray().at(o["reasons"].toArray().size() - 2)["key"] == "reason.isolated");
        }
        int bySensitivity = 0;
        for (const QJsonValue& x : results["excluded"].toArray()) {
            QVERIFY(!x["rule"].toString().isEmpty());
            QVERIFY(!x["reason"]["key"].toString().isEmpty());
            bySensitivity += x["rule"] == "sensitive" ? 1 : 0;
        }
        QVERIFY(bySensitivity > 10);
    }

    // Issue 23: a plan excludes hundreds of offers; the terminal shows how many each rule excluded, with an example,
    // as the GUI groups them, and --all-excluded lists each one.
    void planGroupsTheExcludedOffersByRule()
    {
        const QStringList args{"plan", "--preset", "llama2-7b-lora", "--deadline", "14d", "--sensitive"};
        const Run json = gpuplan(args + QStringList{"--json"});
        QCOMPARE(json.exitCode, 0);
        const QJsonArray excluded = QJsonDocument::fromJson(json.out.toUtf8())["results"]["excluded"].toArray();
        QMap<QString, int> byRule;
        for (const QJsonValue& x : excluded) {
            ++byRule[x["rule"].toString()];
        }
        QVERIFY(excluded.size() > 20 && byRule.size() >= 2);

        const Run grouped = gpuplan(args);
        QCOMPARE(grouped.exitCode, 0);
        const QString section = grouped.out.mid(grouped.out.indexOf("\nExcluded: "));
        QVERIFY2(section.startsWith(QStringLiteral("\nExcluded: %1 offers").arg(excluded.size())), qPrintable(section));
        const QStringList lines = section.trimmed().split('\n');
        QCOMPARE(lines.size(), byRule.size() + 2); // the count, the table's heading, a row per rule
        QVERIFY2(section.contains(
                     QRegularExpression(QStringLiteral("Not for sensitive data +%1 ").arg(byRule.value("sensitive")))),
                 qPrintable(section));

        const Run all = gpuplan(args + QStringList{"--all-excluded"});
        QCOMPARE(all.exitCode, 0);
        const QString list = all.out.mid(all.out.indexOf("\nExcluded ("));
        QVERIFY2(list.startsWith(QStringLiteral("\nExcluded (%1):").arg(excluded.size())), qPrintable(list.left(200)));
        QCOMPARE(list.count(" [sensitive] "), byRule.value("sensitive"));
        QCOMPARE(list.trimmed().split('\n').size(), excluded.size() + 1);
    }

    // Issue 20, finding 14: a deadline is when the run must finish, not how long the lab keeps paying. A loose one
    // once passed for a 13-month project and put a 1-year reservation first, priced at the run's share only.
    void aLooseDeadlineRecommendsNoCommitment()
    {
        const QStringList args{"plan", "--preset", "llama2-7b-lora", "--deadline", "400d"};
        const Run run = gpuplan(args + QStringList{"--json", "--top", "100"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject plan = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(plan["constraints"]["project_months"].toDouble(), 0.0);
        const QJsonArray options = plan["results"]["options"].toArray();
        QVERIFY(!options.isEmpty());
        int withTerms = 0;
        for (const QJsonValue& o : options) {
            for (const QJsonValue& m : o["modes"].toArray()) {
                if (m["mode"] == o["mode"]) {
                    QVERIFY2(!m.toObject().contains("commitment"),
                             qPrintable(o["instance_type"].toString() + " " + o["mode"].toString()));
                }
                if (m.toObject().contains("commitment")) {
                    ++withTerms;
                    QVERIFY2(!m["eligible"].toBool(), qPrintable(o["instance_type"].toString()));
                }
            }
        }
        QVERIFY2(withTerms > 0, "the catalog has reservations for these offers, left out for the project's length");
        const Run text = gpuplan(args);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(!text.out.contains(QRegularExpression(QStringLiteral("paying (reserved|subscription)"))),
                 qPrintable(text.out.left(2000)));
    }

    // Finding 14: with a project that long a reservation may win, and wherever its price is shown the whole
    // commitment is shown beside it: in the table row and in the option's cost line.
    void aCommitmentIsShownWithItsFullAmount()
    {
        const QStringList args{"plan", "--preset", "llama2-7b-lora", "--deadline", "400d", "--project-months", "12"};
        const Run planRun = gpuplan(args + QStringList{"--json"});
        QCOMPARE(planRun.exitCode, 0);
        const QJsonArray options = QJsonDocument::fromJson(planRun.out.toUtf8())["results"]["options"].toArray();
        const Run text = gpuplan(args);
        QCOMPARE(text.exitCode, 0);
        const QStringList lines = text.out.split('\n');
        int committed = 0;
        for (const QJsonValue& o : options) {
            QJsonObject commitment;
            for (const QJsonValue& m : o["modes"].toArray()) {
                if (m["mode"] == o["mode"]) {
                    commitment = m["commitment"].toObject();
                }
            }
            if (commitment.isEmpty()) {
                continue;
            }
            ++committed;
            const QString rank = QString::number(o["rank"].toInt());
            const QString instance = o["instance_type"].toString();
            const QString amount = QString::number(commitment["amount"].toDouble(), 'f', 0);
            const QString months = QString::number(commitment["months"].toDouble(), 'f', 0);
            const QRegularExpression row(QStringLiteral("^%1 .* %2 ").arg(rank, QRegularExpression::escape(instance)));
            const QStringList rows = lines.filter(row);
            QCOMPARE(rows.size(), 1);
            QVERIFY2(rows[0].contains(amount) && rows[0].contains(months + " months"), qPrintable(rows[0]));
            // indexOf matches a whole line.
            const int heading = int(lines.indexOf(QRegularExpression(
                QStringLiteral("%1\\. .* %2 in .*").arg(rank, QRegularExpression::escape(instance)))));
            QVERIFY2(heading >= 0, qPrintable(instance));
            QVERIFY2(heading + 1 < lines.size() && lines[heading + 1].contains("costs about")
                         && lines[heading + 1].contains("¥" + amount),
                     qPrintable(lines.mid(heading, 2).join('\n')));
        }
        QVERIFY2(committed > 0, "with a 12-month project a reservation is among the best (the catalog's AWS g6e)");
    }

    // Issue 20, finding 16: flags that must be refused (exit 2, naming the flag), with bounds written readably.
    void flagsThatCannotBeHonouredAreRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        const QStringList plan{"plan", "--preset", "gpt2-124m"};
        QTest::newRow("budget nan") << plan + QStringList{"--budget", "nan"}
                                    << "--budget: must be a number more than 0";
        QTest::newRow("budget inf") << plan + QStringList{"--budget", "inf"}
                                    << "--budget: must be a number more than 0";
        QTest::newRow("project-months nan") << plan + QStringList{"--project-months", "nan"}
                                            << "--project-months: must be a number from 0 to 600, not 'nan'";
        QTest::newRow("epochs 1e308") << plan + QStringList{"--epochs", "1e308"}
                                      << "--epochs: must be a number more than 0 and at most 1000000";
        QTest::newRow("estimate epochs 1e308")
            << QStringList{"estimate", "--preset", "gpt2-124m", "--gpu", "h100", "--epochs", "1e308"} << "--epochs";
        QTest::newRow("min above max") << plan + QStringList{"--min-gpus", "8", "--max-gpus", "2"}
                                       << "--min-gpus: at least 8 GPUs is more than the most, 2";
        QTest::newRow("unknown country") << plan + QStringList{"--countries", "CN,XX"}
                                         << "--countries: unknown country \"XX\"";
        QTest::newRow("negative budget, readable bound")
            << plan + QStringList{"--budget", "-1"} << "--budget: must be a number more than 0, not '-1'";
        QTest::newRow("launch budget, readable bound")
            << QStringList{"launch", "--provider", "aws", "--budget", "-1"} << "must be a number 0 or more, not '-1'";
    }
    void flagsThatCannotBeHonouredAreRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const Run run = gpuplan(arguments);
        QVERIFY2(run.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(run.exitCode).arg(run.err)));
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
        // Bounds as a person writes them: no 309-digit DBL_MAX, no "600.000000".
        QVERIFY2(!run.err.contains(QRegularExpression(QStringLiteral("\\d{16,}|\\.000000"))), qPrintable(run.err));
        QVERIFY2(!run.out.contains(" h "), qPrintable(run.out.left(300)));
    }

    // Finding 16: a broken exchange_rate.json is bad input, named with its file and JSON path (it was exit 1 with
    // "the catalog has no exchange rate" and no cause).
    void aBrokenExchangeRateFileExitsTwoNamingItsPath()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath("offers")));
        for (const char* file : {"gpus.json", "regions.json", "offers/aws.json"}) {
            QVERIFY(QFile::copy(QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/catalog/") + file, dir.filePath(file)));
        }
        QFile rate(dir.filePath("exchange_rate.json"));
        QVERIFY(rate.open(QIODevice::WriteOnly));
        rate.write("{\"schema\": \"gpuplan-exchange-rate/1\", \"cny_per_usd\": -7, \"source\": "
                   "{\"url\": \"https://www.pbc.gov.cn/\", \"date\": \"2026-01-06\"}}");
        rate.close();
        const Run run = gpuplan({"plan", "--preset", "gpt2-124m", "--catalog", dir.path()});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(rate.fileName() + ": $.cny_per_usd"), qPrintable(run.err));
        QVERIFY2(run.err.contains("exchange rate"), qPrintable(run.err));

        QVERIFY(rate.remove());
        const Run missing = gpuplan({"plan", "--preset", "gpt2-124m", "--catalog", dir.path()});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains(rate.fileName()), qPrintable(missing.err));
    }

    // Finding 5: a dead-man or idle rule the watchdog cannot honour is refused before anything is read or sent
    // (here the key file does not exist, and is never looked at), with the same bounds as the GUI and the script.
    void launchRefusesAWatchdogRuleBeforeAnythingIsSent_data()
    {
        QTest::addColumn<QStringList>("rule");
        QTest::addColumn<QString>("expected");
        QTest::newRow("dead-man over a year")
            << QStringList{"--hours", "9000"} << "--hours: the dead-man switch takes 0 (off) to 8760 hours, not 9000";
        QTest::newRow("dead-man the old flag bound")
            << QStringList{"--hours", "100000"} << "--hours: the dead-man switch takes 0 (off) to 8760 hours";
        QTest::newRow("dead-man negative") << QStringList{"--hours", "-1"} << "--hours: the dead-man switch takes";
        QTest::newRow("idle over a week") << QStringList{"--idle-minutes", "20000"}
                                          << "--idle-minutes: the idle shutdown takes 0 (off) to 10080 minutes";
        QTest::newRow("idle percent 0") << QStringList{"--idle-percent", "0"} << "--idle-percent: the idle threshold";
    }
    void launchRefusesAWatchdogRuleBeforeAnythingIsSent()
    {
        QFETCH(QStringList, rule);
        QFETCH(QString, expected);
        const Run run = gpuplan(QStringList{"launch",
                                            "--provider",
                                            "aws",
                                            "--instance",
                                            "p3.2xlarge",
                                            "--region",
                                            "us-east-1",
                                            "--ssh-from",
                                            "203.0.113.7/32",
                                            "--key",
                                            "/nonexistent/gpuplan-test.pub",
                                            "--yes"}
                                + rule);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
        QVERIFY2(!run.err.contains("gpuplan-test.pub"), qPrintable(run.err));
    }

    // Issue 20, finding 15: the bundled example's first option is on Lambda, where GPU Planner cannot launch.
    // `launch --plan` offers the best-ranked option it can launch and says so; an option asked for by rank is never
    // swapped, and refused when it cannot be launched. (The key file does not exist: nothing is ever sent.)
    void launchOffersThePlansBestOptionItCanLaunch_data()
    {
        QTest::addColumn<QStringList>("option");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QStringList>("said");
        QTest::addColumn<QStringList>("notSaid");
        const QString launchable =
            QStringLiteral("aws, tencent, alibaba, huawei, gcp, azure, lambda and paperspace only, not yet on campus");
        QTest::newRow("the plan's choice")
            << QStringList{} << 2
            << QStringList{"gpuplan: the plan's choice, option 1: campus gpu_4x_h100_sxm5 "
                           "in us-east-1 (on_demand), cannot be launched by GPU Planner "
                           "yet (GPU Planner launches on "
                               + launchable
                               + "); offering option 10: aws p4d.24xlarge in "
                                 "us-east-2 (on_demand)",
                           "gpuplan-test.pub"}
            << QStringList{};
        QTest::newRow("--option 1, a lab's own")
            << QStringList{"--option", "1"} << 2
            << QStringList{"--option: option 1, campus gpu_4x_h100_sxm5 in us-east-1 (on_demand), cannot be launched "
                           "by GPU Planner yet (GPU Planner launches on "
                           + launchable + "); choose another --option"}
            << QStringList{"offering", "gpuplan-test.pub"};
        QTest::newRow("--option 10, on AWS") << QStringList{"--option", "10"} << 2 << QStringList{"gpuplan-test.pub"}
                                             << QStringList{"offering", "cannot be launched"};
    }
    void launchOffersThePlansBestOptionItCanLaunch()
    {
        QFETCH(QStringList, option);
        QFETCH(int, exitCode);
        QFETCH(QStringList, said);
        QFETCH(QStringList, notSaid);
        // The example plan with its Lambda offers made a lab's own ("campus", which GPU Planner has no launch API
        // for): its first nine options cannot be launched, option 10 (AWS) can.
        QFile example(GPUPLAN_SOURCE_DIR "/resources/examples/resnet50-imagenet.gpuplan");
        QVERIFY(example.open(QIODevice::ReadOnly));
        QJsonObject plan = QJsonDocument::fromJson(example.readAll()).object();
        QJsonObject results = plan.value("results").toObject();
        QJsonArray options = results.value("options").toArray();
        for (qsizetype i = 0; i < options.size(); ++i) {
            QJsonObject o = options[i].toObject();
            if (o.value("provider").toString() == "lambda") {
                o.insert("provider", "campus");
                options[i] = o;
            }
        }
        results.insert("options", options);
        plan.insert("results", results);
        QTemporaryDir dir;
        QFile labs(dir.filePath("labs-own.gpuplan"));
        QVERIFY(labs.open(QIODevice::WriteOnly) && labs.write(QJsonDocument(plan).toJson()) > 0);
        labs.close();
        const Run run = gpuplan(QStringList{"launch",
                                            "--plan",
                                            labs.fileName(),
                                            "--ssh-from",
                                            "203.0.113.7/32",
                                            "--key",
                                            "/nonexistent/gpuplan-test.pub",
                                            "--yes"}
                                + option);
        QCOMPARE(run.exitCode, exitCode);
        for (const QString& words : said) {
            QVERIFY2(run.err.contains(words), qPrintable(run.err));
        }
        for (const QString& words : notSaid) {
            QVERIFY2(!run.err.contains(words), qPrintable(run.err));
        }
    }

    // Finding 10: while gpuplan holds a credential (here: waiting for one on stdin) its memory never goes into a
    // core file.
    void noCoreFileWhileASecretIsHeld()
    {
        QTemporaryDir dir;
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GPUPLAN_CREDENTIALS_BACKEND"), QStringLiteral("file"));
        env.insert(QStringLiteral("GPUPLAN_CREDENTIALS_FILE"), dir.filePath(QStringLiteral("credentials.enc")));
        env.insert(QStringLiteral("GPUPLAN_CREDENTIALS_PASSPHRASE"), QStringLiteral("core dump test"));
        process.setProcessEnvironment(env);
        process.start(
            QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan"),
            {QStringLiteral("creds"), QStringLiteral("set"), QStringLiteral("aws"), QStringLiteral("--stdin")});
        QVERIFY(process.waitForStarted());
        QTest::qWait(500); // past main's first lines, reading stdin
        QFile limits(QStringLiteral("/proc/%1/limits").arg(process.processId()));
        QVERIFY(limits.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(limits.readAll());
        process.kill();
        process.waitForFinished();
        const QRegularExpression core(QStringLiteral("Max core file size\\s+0\\s+0\\s"));
        QVERIFY2(core.match(text).hasMatch(), qPrintable(text));
    }

    // Finding 10: text from a file (here a user offer named with escape sequences) reaches a terminal without
    // them; a pipe gets the bytes as they are. `script` gives gpuplan a real terminal.
    void aTerminalNeverGetsEscapeSequences()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("script")).isEmpty()) {
            QFAIL("script (util-linux / bsdutils) is missing");
        }
        QTemporaryDir dir;
        QFile source(QStringLiteral(GPUPLAN_SOURCE_DIR "/tests/data/user-quote.json"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QByteArray text = source.readAll();
        text.replace("\"p3.2xlarge\"", "\"p3.evil\\u001b]0;owned\\u0007\\u001b[2J\"");
        QFile quote(dir.filePath(QStringLiteral("quote.json")));
        QVERIFY(quote.open(QIODevice::WriteOnly) && quote.write(text) == text.size());
        quote.close();
        const QString command = QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan catalog --provider aws --gpu v100 "
                                                                  "--user-catalog ")
                                + dir.path();
        QProcess terminal;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GPUPLAN_USER_CATALOG_DIR"), dir.path());
        terminal.setProcessEnvironment(env);
        terminal.start(QStringLiteral("script"), {QStringLiteral("-qec"), command, QStringLiteral("/dev/null")});
        QVERIFY(terminal.waitForFinished(30000));
        const QByteArray shown = terminal.readAllStandardOutput();
        QVERIFY2(shown.contains("p3.evil?]0;owned??[2J"), shown.constData());
        QVERIFY2(!shown.contains('\x1b') && !shown.contains('\x07'), shown.toHex().constData());
        const Run piped =
            gpuplan({"catalog", "--provider", "aws", "--gpu", "v100", "--json", "--user-catalog", dir.path()});
        QVERIFY2(piped.out.contains("\\u001b]0;owned"), qPrintable(piped.out)); // JSON keeps it, escaped
    }

    void gpusJsonListsSpecsWithSources()
    {
        const Run run = gpuplan({"gpus", "--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray gpus = QJsonDocument::fromJson(run.out.toUtf8())["gpus"].toArray();
        QVERIFY(gpus.size() >= 24);
        bool sawT4 = false;
        for (const QJsonValue& gpu : gpus) {
            QVERIFY(gpu["source"]["url"].toString().startsWith("http"));
            if (gpu["id"] == "t4") {
                sawT4 = true;
                QCOMPARE(gpu["peak_tflops"]["fp16"].toDouble(), 65.0);
                QVERIFY(gpu["peak_tflops"]["bf16"].isNull()); // T4 has no BF16: unknown, not 0
            }
        }
        QVERIFY(sawT4);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "TestCli.moc"
