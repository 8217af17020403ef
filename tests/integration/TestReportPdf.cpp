// `gpuplan report` as a PI's script would run it, read back with poppler's tools (pdftotext, pdffonts, pdfimages,
// pdfinfo): the PDF says what the plan says, embeds its fonts and draws its charts as vectors.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QString& program, const QStringList& arguments)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("GPUPLAN_CATALOG_DIR"));
    env.insert(QStringLiteral("GPUPLAN_USER_CATALOG_DIR"), QStringLiteral(GPUPLAN_BINARY_DIR "/tests/no-user-catalog"));
    env.insert(QStringLiteral("GPUPLAN_PRICES_DIR"), QStringLiteral(GPUPLAN_BINARY_DIR "/tests/no-refreshed-prices"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM")); // the report must go headless by itself
    process.setProcessEnvironment(env);
    process.start(program, arguments);
    if (!process.waitForFinished(60000)) {
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

Run gpuplan(const QStringList& arguments)
{
    return run(QStringLiteral(GPUPLAN_BINARY_DIR "/bin/gpuplan"), arguments);
}

/// The PDF's text with every run of white space as one space (table cells and wrapped lines), the "fi"-style
/// ligatures spelt out, in Unicode NFKC (the CJK radicals that share a glyph with an ideograph, U+2F49 for 月,
/// read as the ideograph).
/// `lastPage` > 0: only the pages up to it.
QString pdfText(const QString& pdf, int lastPage = 0)
{
    QStringList arguments{QStringLiteral("-enc"), QStringLiteral("UTF-8")};
    if (lastPage > 0) {
        arguments << QStringLiteral("-l") << QString::number(lastPage);
    }
    Run text = run(QStringLiteral("pdftotext"), arguments + QStringList{pdf, QStringLiteral("-")});
    QString out = text.out.normalized(QString::NormalizationForm_KC);
    for (const auto& [ligature, letters] : {std::pair{u'\uFB00', "ff"},
                                            std::pair{u'\uFB01', "fi"},
                                            std::pair{u'\uFB02', "fl"},
                                            std::pair{u'\uFB03', "ffi"},
                                            std::pair{u'\uFB04', "ffl"}}) {
        out.replace(QChar(ligature), QLatin1String(letters));
    }
    return out.simplified();
}

/// The PDF's text as pdftotext reads it, lines and page breaks ('\f') kept: a table cell's wrapped lines follow one
/// another.
QString rawPdfText(const QString& pdf)
{
    return run(QStringLiteral("pdftotext"), {QStringLiteral("-enc"), QStringLiteral("UTF-8"), pdf, QStringLiteral("-")})
        .out.normalized(QString::NormalizationForm_KC);
}

/// Money as the report prints it, written here independently of the UI's formatter: the currency symbol, two
/// decimals below 1 000, none above, thousands grouped by commas (en_US and zh_CN agree).
QString money(double amount, const QString& currency)
{
    const QString symbol = currency == QLatin1String("CNY") ? QStringLiteral("¥") : QStringLiteral("$");
    const int decimals = std::abs(amount) < 1000 ? 2 : 0;
    QString digits = QString::number(amount, 'f', decimals);
    const qsizetype point = digits.indexOf(QLatin1Char('.'));
    qsizetype end = point < 0 ? digits.size() : point;
    for (qsizetype i = end - 3; i > 0; i -= 3) {
        digits.insert(i, QLatin1Char(','));
    }
    return symbol + digits;
}

QJsonObject readJson(const QString& file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QJsonDocument::fromJson(f.readAll()).object();
}

/// What must appear in the report of `plan`: the recommended offer, its cost range, every price date it used.
void checkReportSaysWhatThePlanSays(const QString& text, const QJsonObject& plan)
{
    const QJsonObject best = plan[QStringLiteral("results")][QStringLiteral("options")][0].toObject();
    QVERIFY(!best.isEmpty());
    const QString currency = best[QStringLiteral("currency")].toString();
    QVERIFY2(text.contains(best[QStringLiteral("instance_type")].toString()),
             qPrintable(best[QStringLiteral("instance_type")].toString()));
    const QJsonObject cost = best[QStringLiteral("cost")].toObject();
    for (const char* key : {"value", "low", "high"}) {
        const QString amount = money(cost[QLatin1String(key)].toDouble(), currency);
        QVERIFY2(text.contains(amount), qPrintable(QStringLiteral("cost %1 %2 is not in the PDF").arg(key, amount)));
    }
    const QJsonObject catalog = plan[QStringLiteral("catalog")].toObject();
    const QString priceDate = catalog[QStringLiteral("price_date")].toString();
    QVERIFY2(text.contains(priceDate), qPrintable(priceDate));
    const QString rateDate = catalog[QStringLiteral("exchange_rate")][QStringLiteral("date")].toString();
    QVERIFY2(text.contains(rateDate), qPrintable(rateDate));
    for (const QJsonValue& mode : best[QStringLiteral("modes")].toArray()) {
        const QString date = mode[QStringLiteral("price")][QStringLiteral("date")].toString();
        QVERIFY2(text.contains(date), qPrintable(QStringLiteral("price date %1").arg(date)));
    }
    // The runner-up is named too.
    const QJsonObject second = plan[QStringLiteral("results")][QStringLiteral("options")][1].toObject();
    if (!second.isEmpty()) {
        QVERIFY2(text.contains(second[QStringLiteral("instance_type")].toString()),
                 qPrintable(second[QStringLiteral("instance_type")].toString()));
    }
}

QStringList examplePlans()
{
    QDir dir(QStringLiteral(GPUPLAN_SOURCE_DIR "/resources/examples"));
    QStringList plans;
    for (const QString& name : dir.entryList({QStringLiteral("*.gpuplan")}, QDir::Files, QDir::Name)) {
        plans << dir.filePath(name);
    }
    return plans;
}

} // namespace

class TestReportPdf : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(m_dir.isValid(), "no temporary folder");
        QVERIFY2(examplePlans().size() >= 2, "the example plans are missing");
    }

    void everyExampleInBothLanguagesSaysWhatItsPlanSays_data()
    {
        QTest::addColumn<QString>("plan");
        QTest::addColumn<QString>("language");
        for (const QString& plan : examplePlans()) {
            for (const char* language : {"en", "zh_CN"}) {
                const QString name = QFileInfo(plan).baseName() + QLatin1Char('-') + QLatin1String(language);
                QTest::newRow(qPrintable(name)) << plan << QString::fromLatin1(language);
            }
        }
    }

    void everyExampleInBothLanguagesSaysWhatItsPlanSays()
    {
        QFETCH(QString, plan);
        QFETCH(QString, language);
        const QString pdf =
            m_dir.filePath(QFileInfo(plan).baseName() + QLatin1Char('-') + language + QStringLiteral(".pdf"));
        Run report =
            gpuplan({QStringLiteral("report"), plan, QStringLiteral("-o"), pdf, QStringLiteral("--lang"), language});
        QVERIFY2(report.exitCode == 0, qPrintable(report.err));
        QVERIFY(report.out.contains(QStringLiteral("pages")));
        const QString text = pdfText(pdf);
        QVERIFY2(text.size() > 2000, "the PDF has hardly any text");
        checkReportSaysWhatThePlanSays(text, readJson(plan));
        // The words are the language's: a heading and the page footer.
        if (language == QLatin1String("zh_CN")) {
            QVERIFY2(text.contains(QStringLiteral("摘要")), "no Chinese summary heading");
            QVERIFY(!text.contains(QStringLiteral("Summary")));
        } else {
            QVERIFY(text.contains(QStringLiteral("Summary")));
            QVERIFY(text.contains(QStringLiteral("Page 2 of")));
        }

        // Every font is embedded; Chinese comes from Noto Sans CJK SC.
        Run fonts = run(QStringLiteral("pdffonts"), {pdf});
        QCOMPARE(fonts.exitCode, 0);
        const QStringList rows = fonts.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).mid(2);
        QVERIFY2(!rows.isEmpty(), qPrintable(fonts.out));
        for (const QString& row : rows) {
            // name type... encoding emb sub uni object ID: "emb" is the fourth column from the right but two.
            const QStringList cells = row.simplified().split(QLatin1Char(' '));
            QVERIFY2(cells.size() >= 6 && cells[cells.size() - 5] == QLatin1String("yes"),
                     qPrintable(QStringLiteral("not embedded: ") + row));
        }
        if (language == QLatin1String("zh_CN")) {
            QVERIFY2(fonts.out.contains(QStringLiteral("NotoSansCJKsc")), qPrintable(fonts.out));
            QVERIFY2(!fonts.out.contains(QStringLiteral("NotoSansCJKjp")), "Japanese glyph forms in a Chinese report");
        }

        // The charts are vectors: the PDF holds no raster image at all.
        Run images = run(QStringLiteral("pdfimages"), {QStringLiteral("-list"), pdf});
        QCOMPARE(images.exitCode, 0);
        QCOMPARE(images.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 2); // the two header lines
        // ...and they are there: the chart titles are text in the PDF.
        if (language == QLatin1String("en")) {
            QVERIFY(text.contains(QStringLiteral("Total cost by option")));
            QVERIFY(text.contains(QStringLiteral("Pareto front")));
        }
    }

    void aFreshPlanReportsTheTotalsOfPlanJson()
    {
        // The same plan twice: printed with --json and saved with -o; the report of the file must carry the totals,
        // the recommended instance and the price dates of what --json printed.
        const QString file = m_dir.filePath(QStringLiteral("fresh.gpuplan"));
        Run plan = gpuplan({QStringLiteral("plan"),
                            QStringLiteral("--preset"),
                            QStringLiteral("llama2-7b-lora"),
                            QStringLiteral("--budget"),
                            QStringLiteral("3000"),
                            QStringLiteral("--deadline"),
                            QStringLiteral("14d"),
                            QStringLiteral("--json"),
                            QStringLiteral("-o"),
                            file});
        QVERIFY2(plan.exitCode == 0, qPrintable(plan.err));
        const QJsonObject printed = QJsonDocument::fromJson(plan.out.toUtf8()).object();
        QVERIFY2(!printed.isEmpty(), "plan --json printed no JSON document");
        const QString pdf = m_dir.filePath(QStringLiteral("fresh.pdf"));
        Run report = gpuplan({QStringLiteral("report"),
                              file,
                              QStringLiteral("-o"),
                              pdf,
                              QStringLiteral("--lang"),
                              QStringLiteral("en"),
                              QStringLiteral("--lab"),
                              QStringLiteral("Vision Lab"),
                              QStringLiteral("--author"),
                              QStringLiteral("Li Wei")});
        QVERIFY2(report.exitCode == 0, qPrintable(report.err));
        const QString text = pdfText(pdf);
        checkReportSaysWhatThePlanSays(text, printed);
        QVERIFY(text.contains(QStringLiteral("Vision Lab")));
        QVERIFY(text.contains(QStringLiteral("Li Wei")));
        // The budget verdict follows the plan: 3000 CNY against the recommended high estimate.
        const double high = printed[QStringLiteral("results")][QStringLiteral("options")][0][QStringLiteral("cost")]
                                   [QStringLiteral("high")]
                                       .toDouble();
        QVERIFY(high <= 3000);
        QVERIFY(text.contains(QStringLiteral("Within the budget of ¥3,000, even at the high estimate")));
    }

    // Issue 20, finding 14: a recommendation paid under a term says on the cover and in the summary what the term
    // commits the lab to, not only in the risks section pages later.
    void aCommittedRecommendationShowsItsTermUpFront()
    {
        const QString file = m_dir.filePath(QStringLiteral("reserved.gpuplan"));
        Run plan = gpuplan({QStringLiteral("plan"),
                            QStringLiteral("--preset"),
                            QStringLiteral("llama2-7b-lora"),
                            QStringLiteral("--deadline"),
                            QStringLiteral("400d"),
                            QStringLiteral("--project-months"),
                            QStringLiteral("12"),
                            QStringLiteral("--json"),
                            QStringLiteral("-o"),
                            file});
        QVERIFY2(plan.exitCode == 0, qPrintable(plan.err));
        const QJsonObject best =
            QJsonDocument::fromJson(plan.out.toUtf8())[QStringLiteral("results")][QStringLiteral("options")][0]
                .toObject();
        QJsonObject commitment;
        for (const QJsonValue& mode : best[QStringLiteral("modes")].toArray()) {
            if (mode[QStringLiteral("mode")] == best[QStringLiteral("mode")]) {
                commitment = mode[QStringLiteral("commitment")].toObject();
            }
        }
        QVERIFY2(!commitment.isEmpty(), "with a 12-month project a reservation wins (the catalog's AWS g6e)");
        const QString pdf = m_dir.filePath(QStringLiteral("reserved.pdf"));
        Run report = gpuplan({QStringLiteral("report"),
                              file,
                              QStringLiteral("-o"),
                              pdf,
                              QStringLiteral("--lang"),
                              QStringLiteral("en")});
        QVERIFY2(report.exitCode == 0, qPrintable(report.err));
        const QString amount =
            money(commitment[QStringLiteral("amount")].toDouble(), best[QStringLiteral("currency")].toString());
        const QString cover = pdfText(pdf, 1);
        QVERIFY2(cover.contains(amount), qPrintable(amount + QStringLiteral(" not on the cover: ") + cover));
        const QString upFront = pdfText(pdf, 2);
        QVERIFY2(upFront.count(amount) >= 3, qPrintable(amount + QStringLiteral(" not in the summary: ") + upFront));
    }

    void probeResultsAndSpendAreReportedWhenThePlanHasThem()
    {
        QJsonObject plan = readJson(examplePlans().first());
        QJsonObject line{{QStringLiteral("check"), QStringLiteral("gemm_bf16")},
                         {QStringLiteral("gpu"), 0},
                         {QStringLiteral("level"), QStringLiteral("warn")},
                         {QStringLiteral("measured"), QStringLiteral("201 TFLOPS")},
                         {QStringLiteral("expected"), QStringLiteral("312 TFLOPS")},
                         {QStringLiteral("reason"),
                          QJsonObject{{QStringLiteral("key"), QStringLiteral("probe.ecc.ok")},
                                      {QStringLiteral("params"), QJsonObject()}}}};
        plan[QStringLiteral("verifications")] =
            QJsonArray{QJsonObject{{QStringLiteral("when"), QStringLiteral("2026-12-03T09:15:00Z")},
                                   {QStringLiteral("host"), QStringLiteral("ubuntu@203.0.113.7")},
                                   {QStringLiteral("verdict"), QStringLiteral("warn")},
                                   {QStringLiteral("expected_gpu"), QStringLiteral("a100-sxm4-80gb")},
                                   {QStringLiteral("expected_count"), 1},
                                   {QStringLiteral("gpu_name"), QStringLiteral("NVIDIA A100-SXM4-80GB")},
                                   {QStringLiteral("gpu_count"), 1},
                                   {QStringLiteral("driver"), QStringLiteral("570.86.15")},
                                   {QStringLiteral("lines"), QJsonArray{line}}}};
        auto spend = [](const char* id, double cost, const char* ended) {
            return QJsonObject{{QStringLiteral("provider"), QStringLiteral("aws")},
                               {QStringLiteral("instance_id"), QLatin1String(id)},
                               {QStringLiteral("instance_type"), QStringLiteral("p4d.24xlarge")},
                               {QStringLiteral("region"), QStringLiteral("us-east-1")},
                               {QStringLiteral("started"), QStringLiteral("2026-12-03T09:00:00Z")},
                               {QStringLiteral("ended"), QLatin1String(ended)},
                               {QStringLiteral("hours"), 2.5},
                               {QStringLiteral("cost"), cost},
                               {QStringLiteral("currency"), QStringLiteral("CNY")}};
        };
        plan[QStringLiteral("ledger")] =
            QJsonArray{spend("i-0abc123", 812.25, "2026-12-03T11:30:00Z"), spend("i-0def456", 100.5, "")};
        const QString file = m_dir.filePath(QStringLiteral("verified.gpuplan"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(plan).toJson());
        f.close();
        const QString pdf = m_dir.filePath(QStringLiteral("verified.pdf"));
        Run report = gpuplan({QStringLiteral("report"),
                              file,
                              QStringLiteral("-o"),
                              pdf,
                              QStringLiteral("--lang"),
                              QStringLiteral("en")});
        QVERIFY2(report.exitCode == 0, qPrintable(report.err));
        const QString text = pdfText(pdf);
        QVERIFY(text.contains(QStringLiteral("GPU verification")));
        QVERIFY(text.contains(QStringLiteral("ubuntu@203.0.113.7: warning")));
        QVERIFY(text.contains(QStringLiteral("NVIDIA A100-SXM4-80GB with driver 570.86.15")));
        QVERIFY(text.contains(QStringLiteral("201 TFLOPS")));
        QVERIFY(text.contains(QStringLiteral("No uncorrectable ECC errors."))); // the reason, worded from its key
        QVERIFY(text.contains(QStringLiteral("Spend")));
        QVERIFY(text.contains(QStringLiteral("i-0abc123")));
        QVERIFY(text.contains(QStringLiteral("running"))); // the second has not ended
        QVERIFY2(text.contains(money(812.25 + 100.5, QStringLiteral("CNY"))), "the spend total is missing");
    }

    void runsAreReportedPlanAgainstActual()
    {
        QJsonObject plan = readJson(examplePlans().first());
        auto run = [](const char* host, const char* state, double hours, double cost) {
            return QJsonObject{{QStringLiteral("host"), QLatin1String(host)},
                               {QStringLiteral("provider"), QStringLiteral("aws")},
                               {QStringLiteral("instance_type"), QStringLiteral("p4d.24xlarge")},
                               {QStringLiteral("state"), QLatin1String(state)},
                               {QStringLiteral("exit_code"), QLatin1String(state) == QLatin1String("failed") ? 2 : 0},
                               {QStringLiteral("started"), QStringLiteral("2026-12-03T09:10:00Z")},
                               {QStringLiteral("planned_hours"), 5},
                               {QStringLiteral("hours"), hours},
                               {QStringLiteral("planned_throughput"), 2000},
                               {QStringLiteral("throughput"), 1234},
                               {QStringLiteral("throughput_unit"), QStringLiteral("samples")},
                               {QStringLiteral("planned_cost"), 300},
                               {QStringLiteral("planned_currency"), QStringLiteral("CNY")},
                               {QStringLiteral("cost"), cost},
                               {QStringLiteral("cost_currency"), QStringLiteral("CNY")},
                               {QStringLiteral("gpu_utilization"), 87}};
        };
        plan[QStringLiteral("runs")] = QJsonArray{run("ubuntu@203.0.113.21", "finished", 5.5, 456.75),
                                                  run("ubuntu@203.0.113.22", "failed", 0.5, 41.5)};
        const QString file = m_dir.filePath(QStringLiteral("runs.gpuplan"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(plan).toJson());
        f.close();
        const QString pdf = m_dir.filePath(QStringLiteral("runs.pdf"));
        Run report = gpuplan({QStringLiteral("report"),
                              file,
                              QStringLiteral("-o"),
                              pdf,
                              QStringLiteral("--lang"),
                              QStringLiteral("en")});
        QVERIFY2(report.exitCode == 0, qPrintable(report.err));
        const QString text = pdfText(pdf);
        QVERIFY(text.contains(QStringLiteral("Runs: plan against actual")));
        QVERIFY(text.contains(QStringLiteral("203.0.113.21")));
        QVERIFY(text.contains(QStringLiteral("203.0.113.22")));
        QVERIFY2(text.contains(money(456.75, QStringLiteral("CNY"))), "the first run's cost is missing");
        QVERIFY2(text.contains(money(41.5, QStringLiteral("CNY"))), "the second run's cost is missing");
        QVERIFY(text.contains(QStringLiteral("1,234")));
        QVERIFY(text.contains(QStringLiteral("87 %")));
    }

    void paperSizesAreA4AndLetter()
    {
        const QString plan = examplePlans().first();
        for (const auto& [paper, size] : {std::pair{"a4", "595 x 842"}, std::pair{"letter", "612 x 792"}}) {
            const QString pdf = m_dir.filePath(QStringLiteral("paper-%1.pdf").arg(QLatin1String(paper)));
            Run report = gpuplan({QStringLiteral("report"),
                                  plan,
                                  QStringLiteral("-o"),
                                  pdf,
                                  QStringLiteral("--paper"),
                                  QString::fromLatin1(paper),
                                  QStringLiteral("--lang"),
                                  QStringLiteral("en")});
            QVERIFY2(report.exitCode == 0, qPrintable(report.err));
            Run info = run(QStringLiteral("pdfinfo"), {pdf});
            QVERIFY2(info.out.contains(QLatin1String(size)), qPrintable(info.out));
            // Numbered pages: "Page N of N" on the last page matches the page count.
            const QRegularExpression pages(QStringLiteral("Pages:\\s+(\\d+)"));
            const QString count = pages.match(info.out).captured(1);
            QVERIFY(!count.isEmpty());
            QVERIFY(pdfText(pdf).contains(QStringLiteral("Page %1 of %1").arg(count)));
        }
    }

    void aBadPlanExitsTwoNamingTheFile()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("bad.pdf"));
        auto write = [&](const QString& name, const QByteArray& content) {
            const QString path = m_dir.filePath(name);
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly)) {
                return QString();
            }
            f.write(content);
            return path;
        };
        // Missing, not JSON, not a plan, a plan whose every offer was excluded, a paper that does not exist.
        const QString missing = m_dir.filePath(QStringLiteral("missing.gpuplan"));
        const QString garbage = write(QStringLiteral("garbage.gpuplan"), "{ not json");
        const QString notPlan = write(QStringLiteral("catalog.gpuplan"), "{\"schema\": \"gpuplan-gpus/1\"}");
        QJsonObject empty = readJson(examplePlans().first());
        QJsonObject results = empty[QStringLiteral("results")].toObject();
        results[QStringLiteral("options")] = QJsonArray();
        empty[QStringLiteral("results")] = results;
        const QString noOptions = write(QStringLiteral("no-options.gpuplan"), QJsonDocument(empty).toJson());
        QJsonObject badCost = readJson(examplePlans().first());
        QJsonObject badResults = badCost[QStringLiteral("results")].toObject();
        QJsonArray options = badResults[QStringLiteral("options")].toArray();
        QJsonObject first = options[0].toObject();
        first[QStringLiteral("cost")] = QStringLiteral("cheap");
        options[0] = first;
        badResults[QStringLiteral("options")] = options;
        badCost[QStringLiteral("results")] = badResults;
        const QString wrongKind = write(QStringLiteral("bad-cost.gpuplan"), QJsonDocument(badCost).toJson());

        const std::vector<std::pair<QString, QString>> cases{
            {missing, QStringLiteral("missing.gpuplan")},
            {garbage, QStringLiteral("garbage.gpuplan")},
            {notPlan, QStringLiteral("catalog.gpuplan")},
            {noOptions, QStringLiteral("$.results.options")},
            {wrongKind, QStringLiteral("$.results.options[0].cost")},
        };
        for (const auto& [plan, named] : cases) {
            Run report = gpuplan({QStringLiteral("report"), plan, QStringLiteral("-o"), pdf});
            QVERIFY2(report.exitCode == 2, qPrintable(plan + QStringLiteral(": ") + report.err));
            QVERIFY2(report.err.contains(named), qPrintable(report.err));
            QVERIFY2(!QFile::exists(pdf), "a PDF was written for a bad plan");
        }
        Run paper = gpuplan({QStringLiteral("report"),
                             examplePlans().first(),
                             QStringLiteral("-o"),
                             pdf,
                             QStringLiteral("--paper"),
                             QStringLiteral("a3")});
        QCOMPARE(paper.exitCode, 2);
        QVERIFY(paper.err.contains(QStringLiteral("--paper")));
    }

    // Issue 23, item 5: an output that cannot be written is a bad argument (2), checked before Qt opens the file: the
    // message names the file and why, and no painter warning reaches stderr.
    void anUnwritableOutputSaysWhyAndExitsTwo_data()
    {
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("reason");
        QTest::newRow("missing folder") << QStringLiteral("/nonexistent-dir/r.pdf")
                                        << QStringLiteral("the folder /nonexistent-dir does not exist");
        QTest::newRow("a file as the folder")
            << m_dir.filePath(QStringLiteral("plain-file/r.pdf"))
            << QStringLiteral("%1 is not a folder").arg(m_dir.filePath(QStringLiteral("plain-file")));
        QTest::newRow("a folder as the file")
            << m_dir.path() << QStringLiteral("cannot write %1: it is a folder").arg(m_dir.path());
    }

    void anUnwritableOutputSaysWhyAndExitsTwo()
    {
        QFETCH(QString, output);
        QFETCH(QString, reason);
        QFile plain(m_dir.filePath(QStringLiteral("plain-file")));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();
        Run report = gpuplan({QStringLiteral("report"),
                              examplePlans().first(),
                              QStringLiteral("-o"),
                              output,
                              QStringLiteral("--lang"),
                              QStringLiteral("en")});
        QCOMPARE(report.exitCode, 2);
        QVERIFY2(report.err.contains(QStringLiteral("cannot write %1").arg(output)), qPrintable(report.err));
        QVERIFY2(report.err.contains(reason), qPrintable(report.err));
        QVERIFY2(!report.err.contains(QStringLiteral("QPainter")), qPrintable(report.err));
        QVERIFY2(!QFileInfo(output).isFile(), "a file was left behind");
    }

    // Issue 23, items 1 to 4, on both example plans in both languages: the PDF as a reader sees it.
    void tablesWordsAndPagesReadProperly_data() { everyExampleInBothLanguagesSaysWhatItsPlanSays_data(); }

    void tablesWordsAndPagesReadProperly()
    {
        QFETCH(QString, plan);
        QFETCH(QString, language);
        const QString pdf =
            m_dir.filePath(QFileInfo(plan).baseName() + QStringLiteral("-read-") + language + QStringLiteral(".pdf"));
        Run report =
            gpuplan({QStringLiteral("report"), plan, QStringLiteral("-o"), pdf, QStringLiteral("--lang"), language});
        QVERIFY2(report.exitCode == 0, qPrintable(report.err));
        const QString raw = rawPdfText(pdf);
        QVERIFY(!raw.isEmpty());

        // 1. No instance type or price date of the comparison table is split across lines.
        const QJsonObject document = readJson(plan);
        QStringList tokens;
        const QJsonArray options = document[QStringLiteral("results")][QStringLiteral("options")].toArray();
        for (qsizetype i = 0; i < std::min<qsizetype>(options.size(), 10); ++i) {
            tokens << options[i][QStringLiteral("instance_type")].toString();
            for (const QJsonValue& mode : options[i][QStringLiteral("modes")].toArray()) {
                tokens << mode[QStringLiteral("price")][QStringLiteral("date")].toString();
            }
        }
        tokens.removeAll(QString());
        tokens.removeDuplicates();
        QVERIFY(tokens.size() > 5);
        for (const QString& token : tokens) {
            QVERIFY2(raw.contains(token), qPrintable(token + QStringLiteral(" is not in the PDF whole")));
            for (qsizetype k = 1; k < token.size(); ++k) {
                const QRegularExpression split(QRegularExpression::escape(token.left(k))
                                               + QStringLiteral("[ \\t]*\\n\\s*")
                                               + QRegularExpression::escape(token.mid(k)));
                QVERIFY2(!split.match(raw).hasMatch(),
                         qPrintable(QStringLiteral("%1 is split after \"%2\"").arg(token, token.left(k))));
            }
        }

        // 2. Durations read as a person says them: a 14-day project is not "0 months", one month is not "1 months".
        const QString text = pdfText(pdf);
        const QRegularExpression wrongPlural(QStringLiteral("(?<![\\d.,])(0 months|1 months|0 个月)"));
        QVERIFY2(!text.contains(wrongPlural), qPrintable(wrongPlural.match(text).captured()));
        const double projectMonths =
            document[QStringLiteral("constraints")][QStringLiteral("project_months")].toDouble();
        if (projectMonths > 0 && projectMonths < 1) {
            const QString days =
                language == QLatin1String("en") ? QStringLiteral("the project is 14 days") : QStringLiteral("14 天");
            QVERIFY2(text.contains(days), qPrintable(days));
        }

        // 3. Each placeholder sentence of a chart without data is said once.
        const QString noSpot = language == QLatin1String("en")
                                   ? QStringLiteral("Spot: no option in this plan has a spot price with a published "
                                                    "interruption rate")
                                   : QString();
        if (!noSpot.isEmpty()) {
            QVERIFY2(text.count(noSpot) <= 1, "the spot placeholder is printed twice");
        }

        // 4. Addresses are decoded, and no page holds only the tail of one: every page says something besides its
        //    header and footer.
        QVERIFY2(!text.contains(QRegularExpression(QStringLiteral("%[0-9A-Fa-f]{2}"))),
                 qPrintable(QRegularExpression(QStringLiteral("\\S*%[0-9A-Fa-f]{2}\\S*")).match(text).captured()));
        const QStringList pages = raw.split(QLatin1Char('\f'), Qt::SkipEmptyParts);
        QVERIFY(pages.size() > 3);
        for (qsizetype p = 1; p < pages.size(); ++p) {
            QString body = pages[p];
            body.remove(QRegularExpression(QStringLiteral("\\S*[/%]\\S*"))); // addresses and their pieces
            body.remove(QRegularExpression(QStringLiteral("(Page|第) ?\\d+ ?(of|页，共) ?\\d+ ?页?")));
            body.remove(QRegularExpression(QStringLiteral("\\s")));
            QVERIFY2(body.size() >= 60, qPrintable(QStringLiteral("page %1 says only: %2").arg(p + 1).arg(pages[p])));
        }
    }

    // Issue 23, item 3: a plan without spot prices says so once, in a sentence, not in two empty charts.
    void aPlanWithoutSpotSaysSoOnce()
    {
        QJsonObject plan = readJson(examplePlans().first());
        QJsonObject results = plan[QStringLiteral("results")].toObject();
        QJsonArray options = results[QStringLiteral("options")].toArray();
        for (qsizetype i = 0; i < options.size(); ++i) {
            QJsonObject option = options[i].toObject();
            QJsonArray modes;
            for (const QJsonValue& mode : option[QStringLiteral("modes")].toArray()) {
                if (mode[QStringLiteral("mode")].toString() != QLatin1String("spot")) {
                    modes.append(mode);
                }
            }
            option[QStringLiteral("modes")] = modes;
            options[i] = option;
        }
        results[QStringLiteral("options")] = options;
        plan[QStringLiteral("results")] = results;
        const QString file = m_dir.filePath(QStringLiteral("no-spot.gpuplan"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(plan).toJson());
        f.close();
        const QString pdf = m_dir.filePath(QStringLiteral("no-spot.pdf"));
        Run report = gpuplan({QStringLiteral("report"),
                              file,
                              QStringLiteral("-o"),
                              pdf,
                              QStringLiteral("--lang"),
                              QStringLiteral("en")});
        QVERIFY2(report.exitCode == 0, qPrintable(report.err));
        const QString text = pdfText(pdf);
        // Said once, with why (no spot price at all) rather than the sentence for prices without a rate.
        QCOMPARE(text.count(QStringLiteral("Spot: no option in this plan has a spot price")), 1);
        QVERIFY2(!text.contains(QStringLiteral("published interruption rate")), qPrintable(text.left(2000)));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestReportPdf)
#include "TestReportPdf.moc"
