#pragma once

#include <QFont>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QPainter;
class QPaintDevice;

namespace gpuplan::ui {

/// A table for PdfPageWriter::table. With headers: ruled, the header shaded and repeated on every page the table
/// spans. Without: a key-value list, no rules.
struct PdfTable
{
    QStringList headers;
    std::vector<QStringList> rows;
    std::vector<int> boldRows; // indexes into rows
};

/// What a page says around its body: a line of text above a rule at the top, and below one at the bottom.
struct PdfPageFrame
{
    QString headerLeft;
    QString headerRight;
    QString footerLeft;
    QString footerRight;
    double edge = 0; // from the page's edge to each rule, in the device's pixels
};

/// How a block of text sits on the page; lengths in the device's pixels.
struct PdfTextStyle
{
    double pointSize = 10;
    bool bold = false;
    double spaceBefore = 0;
    double spaceAfter = 4;
    double indent = 0;          // of every line from the left edge
    double firstLineIndent = 0; // added to `indent` for the first line (negative: a hanging bullet)
    Qt::Alignment align = Qt::AlignLeft;
    bool keepWithNext = false; // headings: moved to the next page with what follows them
    bool pageBreakBefore = false;
};

/// Lays a document out on pages, then draws them one by one. Text wraps at word boundaries (and between CJK
/// characters); a heading stays on the page of what follows it; a table's columns are sized from their content and a
/// row is never split across pages; a paragraph of four lines or fewer is never split, a longer one leaves at least
/// two lines on each page. Not thread-safe; the device must outlive the writer.
class PdfPageWriter
{
public:
    /// `device`: the PDF writer, whose resolution gives the metrics. `body`: the text area of a page, in its pixels.
    PdfPageWriter(QPaintDevice& device, const QSizeF& body, const QFont& font);

    void text(const QString& text, const PdfTextStyle& style);
    void table(const PdfTable& table);
    /// A figure of `size`, centred, scaled down to fit the body; `paint` draws it into the rectangle it is given.
    void figure(const QSizeF& size, std::function<void(QPainter&, const QRectF&)> paint);

    /// Places a heading left waiting at the very end. Call once, after the last block.
    void finish();

    int pageCount() const;
    /// Draws the content of page `page` (0-based) with the body's top-left corner at `origin`.
    void drawPage(int page, QPainter& painter, const QPointF& origin) const;
    /// Draws the header and footer of a page of `pageRect` whose body starts at `origin`.
    void drawFrame(QPainter& painter, const QRectF& pageRect, const QPointF& origin, const PdfPageFrame& frame) const;

private:
    using Draw = std::function<void(QPainter&, const QPointF&)>;
    struct Chunk
    {
        double spaceBefore = 0;
        double height = 0;
        double spaceAfter = 0;
        Draw draw;
        bool keepWithNext = false;
        bool pageBreakBefore = false;
    };
    struct Placed
    {
        QPointF at;
        Draw draw;
    };

    QFont font(double pointSize, bool bold) const;
    void place(Chunk chunk);
    bool fits(const Chunk& chunk) const;
    /// A chunk's space before, dropped at the top of every page but the first.
    double spaceBefore(const Chunk& chunk) const;
    void newPage();

    QPaintDevice& m_device;
    QSizeF m_body;
    QFont m_font;
    std::vector<std::vector<Placed>> m_pages{1};
    double m_y = 0;            // where the next chunk's space before starts
    bool m_pageEmpty = true;   // nothing placed on the current page yet
    std::vector<Chunk> m_kept; // chunks waiting for the one they must stay with
};

/// Line wrapping for table cells, exposed for the writer's column sizing. A break goes at a space or between CJK
/// characters; a token that cannot fit (an instance type, a URL) is split after '-', '.', '_', '/', '?', '&' or '=';
/// a date or a number never is; only a piece that still cannot fit is cut where the width runs out.
namespace pdfwrap {

/// `text` (hard lines at QChar::LineSeparator or '\n') as lines no wider than `width`.
QStringList wrap(const QString& text, const QFontMetricsF& metrics, double width);
/// The width of the widest piece `text` is never broken within: its widest word or, with `splitTokens`, the widest
/// part of a token split at its identifier separators.
double widestUnbreakable(const QString& text, const QFontMetricsF& metrics, bool splitTokens);
/// The width of `text`'s widest hard line, unwrapped.
double naturalWidth(const QString& text, const QFontMetricsF& metrics);

} // namespace pdfwrap

} // namespace gpuplan::ui
