#include "ReportPdf.h"

#include "PdfPageWriter.h"
#include "ReportSections.h"
#include "charts/PlanCharts.h"
#include "gpuplan/report/Report.h"
#include "wording/ErrorText.h"
#include "wording/PlanText.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QChart>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QPainter>
#include <QPdfWriter>

#include <memory>

namespace gpuplan::ui {

namespace {

// The writer's resolution is 96 dpi so that the charts and the text use the same pixel metrics as on screen; the
// output is vector whatever the resolution.
constexpr int kDpi = 96;
constexpr double kMarginMm = 18;
constexpr double kHeaderMm = 10; // from the page edge to the header line, and to the footer line

double mm(double millimetres)
{
    return millimetres * kDpi / 25.4;
}

/// The Costs view's charts, each laid out in a scene of its own so that QChart draws onto the PDF's painter: the
/// PDF gets paths and text, not pixels. A chart without data is only its title: the report says that sentence
/// once instead of drawing an empty frame around it (the two spot charts share one).
class ChartFigures
{
public:
    /// Takes the charts; each is `size` or taller where a vertical category axis needs room for one readable label
    /// per category (a label taller than its slot is elided).
    ChartFigures(std::vector<QChart*> charts, const QSizeF& size)
    {
        for (QChart* chart : charts) {
            if (chart->series().isEmpty()) {
                QString title = chart->title();
                title.replace(QStringLiteral("<br>"), QStringLiteral(" "));
                delete chart;
                m_items.push_back({title, nullptr});
                continue;
            }
            QSizeF chartSize = size;
            for (QAbstractAxis* axis : chart->axes(Qt::Vertical)) {
                if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis)) {
                    chartSize.setHeight(std::max(size.height(), categories->count() * 20.0 + 140));
                }
            }
            auto scene = std::make_unique<QGraphicsScene>();
            scene->addItem(chart); // the scene owns it
            chart->setGeometry(QRectF(QPointF(0, 0), chartSize));
            scene->setSceneRect(chart->geometry());
            m_items.push_back({QString(), std::move(scene)});
        }
        // The charts lay themselves out on posted LayoutRequests, the axes once their labels are measured.
        for (int round = 0; round < 3; ++round) {
            QCoreApplication::sendPostedEvents();
        }
    }

    /// The figures in the charts' order, each placeholder sentence once. They draw from the scenes kept here.
    std::vector<ReportFigure> figures() const
    {
        std::vector<ReportFigure> out;
        QStringList said;
        for (const Item& item : m_items) {
            if (!item.scene) {
                if (!said.contains(item.placeholder)) {
                    said << item.placeholder;
                    out.push_back({item.placeholder, {}, {}});
                }
                continue;
            }
            QGraphicsScene* scene = item.scene.get();
            out.push_back({QString(), scene->sceneRect().size(), [scene](QPainter& painter, const QRectF& rect) {
                               scene->render(&painter, rect, scene->sceneRect());
                           }});
        }
        return out;
    }

private:
    struct Item
    {
        QString placeholder;
        std::unique_ptr<QGraphicsScene> scene;
    };
    std::vector<Item> m_items;
};

QFont reportFont()
{
    // Latin letters and digits from DejaVu Sans, Chinese from Noto Sans CJK SC (named, so that fontconfig does not
    // fall back to the Japanese forms). Qt's PDF writer maps Noto CJK's Latin glyphs back to text unreliably
    // (pdftotext loses digits), which a PI's copy and search would too.
    QFont font;
    font.setFamilies({QStringLiteral("DejaVu Sans"), QStringLiteral("Noto Sans CJK SC")});
    font.setPointSizeF(10);
    return font;
}

} // namespace

std::optional<QPageSize::PageSizeId> parsePaper(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("a4")) {
        return QPageSize::A4;
    }
    if (n == QLatin1String("letter")) {
        return QPageSize::Letter;
    }
    return std::nullopt;
}

QString reportOutputProblem(const QString& pdfFile)
{
    if (pdfFile.trimmed().isEmpty()) {
        return Report::tr("no file was named for the PDF");
    }
    const QFileInfo file(pdfFile);
    const QString shown = QDir::toNativeSeparators(pdfFile);
    const QFileInfo folder(file.absolutePath());
    const QString folderShown = QDir::toNativeSeparators(folder.filePath());
    if (!folder.exists()) {
        return Report::tr("cannot write %1: the folder %2 does not exist").arg(shown, folderShown);
    }
    if (!folder.isDir()) {
        return Report::tr("cannot write %1: %2 is not a folder").arg(shown, folderShown);
    }
    if (file.isDir()) {
        return Report::tr("cannot write %1: it is a folder").arg(shown);
    }
    // Permissions alone do not tell (root, ACLs, read-only mounts): create or open the file, then leave things as
    // they were.
    const bool existed = file.exists();
    QFile probe(pdfFile);
    if (!probe.open(QIODevice::WriteOnly | QIODevice::Append)) {
        if (existed) {
            return Report::tr("cannot write %1: the file cannot be changed (%2)").arg(shown, probe.errorString());
        }
        return Report::tr("cannot write %1: no file can be created in the folder %2 (%3)")
            .arg(shown, folderShown, probe.errorString());
    }
    probe.close();
    if (!existed) {
        QFile::remove(pdfFile);
    }
    return {};
}

core::Status writeReportPdf(const core::PlanDocument& plan,
                            const QString& where,
                            const QString& pdfFile,
                            const ReportSettings& settings,
                            const ReportProgress& progress)
{
    core::Result<core::Report> built = core::buildReport(plan, where.toStdString());
    if (!built) {
        return built.error();
    }
    const core::Report& report = *built;
    // Checked before Qt opens the file: QPainter would only warn on stderr and give no reason.
    if (const QString problem = reportOutputProblem(pdfFile); !problem.isEmpty()) {
        return frontEndError(core::ErrorCode::InvalidArgument, problem);
    }

    QPdfWriter writer(pdfFile);
    writer.setResolution(kDpi);
    writer.setPageLayout(QPageLayout(QPageSize(settings.paper), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    const QString title = workloadNameText(report.workload);
    writer.setTitle(Report::tr("GPU plan: %1").arg(title));
    writer.setCreator(QStringLiteral("GPU Planner"));
    writer.setPdfVersion(QPagedPaintDevice::PdfVersion_1_6);

    const QRectF page(0, 0, writer.width(), writer.height());
    const QRectF body = page.adjusted(mm(kMarginMm), mm(kMarginMm + 4), -mm(kMarginMm), -mm(kMarginMm + 2));

    // The charts take the application's font: the report's while they are made and drawn (Noto Sans CJK SC, not
    // whichever CJK face fontconfig would fall back to).
    struct AppFontGuard
    {
        QFont saved = QApplication::font();
        ~AppFontGuard() { QApplication::setFont(saved); }
    } fontGuard;
    QFont chartFont = reportFont();
    chartFont.setPointSizeF(8);
    QApplication::setFont(chartFont);
    ChartStyle style;
    style.print = true;
    ChartFigures charts(allPlanCharts(plan, style), QSizeF(body.width(), body.width() * 0.52));

    PdfPageWriter out(writer, body.size(), reportFont());
    ReportSections(out, report, settings, title, charts.figures()).build();

    const int pages = out.pageCount();
    PdfPageFrame frame;
    frame.headerLeft = title;
    frame.headerRight = Report::tr("GPU Planner report");
    frame.footerLeft = settings.date.toString(Qt::ISODate);
    frame.edge = mm(kHeaderMm);
    QPainter painter;
    if (!painter.begin(&writer)) {
        return frontEndError(
            core::ErrorCode::FileUnreadable, Report::tr("cannot write the PDF"), pdfFile.toStdString());
    }
    for (int p = 0; p < pages; ++p) {
        if (progress && !progress(p, pages)) {
            painter.end();
            QFile::remove(pdfFile);
            return frontEndError(
                core::ErrorCode::Cancelled, Report::tr("the export was cancelled"), pdfFile.toStdString());
        }
        if (p > 0) {
            writer.newPage();
        }
        out.drawPage(p, painter, body.topLeft());
        if (p > 0) { // the cover has no header or footer
            frame.footerRight = Report::tr("Page %1 of %2").arg(p + 1).arg(pages);
            out.drawFrame(painter, page, body.topLeft(), frame);
        }
    }
    if (progress) {
        progress(pages, pages);
    }
    if (!painter.end()) {
        return frontEndError(
            core::ErrorCode::FileUnreadable, Report::tr("cannot finish the PDF"), pdfFile.toStdString());
    }
    return core::Ok{};
}

} // namespace gpuplan::ui
