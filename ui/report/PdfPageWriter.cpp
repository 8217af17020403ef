#include "PdfPageWriter.h"

#include <QPaintDevice>
#include <QPainter>
#include <QRegularExpression>
#include <QTextBoundaryFinder>
#include <QTextLayout>

#include <algorithm>
#include <memory>
#include <numeric>

namespace gpuplan::ui {

namespace {

constexpr double kCellPadding = 3;
constexpr double kCellPointSize = 8.5;
constexpr double kSmallestCellPointSize = 7;
constexpr double kTextLineHeight = 1.25;
constexpr double kCellLineHeight = 1.15;

/// Han, kana, Hangul and full-width punctuation: a line may break between any two of them.
bool isWide(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 0x2E80 && u <= 0x9FFF) || (u >= 0xAC00 && u <= 0xD7AF) || (u >= 0xF900 && u <= 0xFAFF)
           || (u >= 0xFE30 && u <= 0xFE4F) || (u >= 0xFF00 && u <= 0xFFEF);
}

/// Whether `p` falls between two CJK characters of a run of three or fewer: a word such as 小时 or 个月 stays whole,
/// a sentence breaks anywhere.
bool insideShortWideRun(const QString& line, qsizetype p)
{
    if (!isWide(line[p - 1]) || !isWide(line[p])) {
        return false;
    }
    qsizetype first = p - 1;
    while (first > 0 && isWide(line[first - 1])) {
        --first;
    }
    qsizetype end = p;
    while (end < line.size() && isWide(line[end])) {
        ++end;
    }
    return end - first <= 3;
}

QString trimmedRight(const QString& s)
{
    qsizetype end = s.size();
    while (end > 0 && s[end - 1].isSpace()) {
        --end;
    }
    return s.left(end);
}

QStringList hardLines(const QString& text)
{
    QString unified = text;
    unified.replace(QChar::LineSeparator, QLatin1Char('\n'));
    return unified.split(QLatin1Char('\n'));
}

/// The line split where a break reads as a break: after a space, or next to a CJK character. The breaks Unicode
/// also allows inside a token (after the '-' of "ecs.gn7i-c8g1", the '/' of a URL) are left for `pieces`.
QStringList segments(const QString& line)
{
    QStringList out;
    QTextBoundaryFinder finder(QTextBoundaryFinder::Line, line);
    qsizetype start = 0;
    for (qsizetype p = finder.toNextBoundary(); p != -1; p = finder.toNextBoundary()) {
        if (p <= start || p >= line.size()) {
            continue;
        }
        if (line[p - 1].isSpace() || ((isWide(line[p - 1]) || isWide(line[p])) && !insideShortWideRun(line, p))) {
            out << line.mid(start, p - start);
            start = p;
        }
    }
    if (start < line.size() || out.isEmpty()) {
        out << line.mid(start);
    }
    return out;
}

/// A date, a time, a number or an amount: never split ("2026-12-02", "2026-12-03T09:15:00Z", "¥1,234.50", "80 %").
bool isDateOrNumber(const QString& token)
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(^[(\[]?\p{Sc}?[-+]?\d[\d.,:/\-]*(T[\d:.]+Z?)?%?[)\],;:.]*$)"));
    return pattern.match(token.trimmed()).hasMatch();
}

/// A token split after each identifier separator, the last piece keeping any trailing space.
QStringList pieces(const QString& token)
{
    if (isDateOrNumber(token)) {
        return {token};
    }
    static const QString separators = QStringLiteral("-._/?&=");
    QStringList out;
    qsizetype start = 0;
    const qsizetype end = trimmedRight(token).size();
    for (qsizetype i = 0; i + 1 < end; ++i) {
        if (separators.contains(token[i])) {
            out << token.mid(start, i + 1 - start);
            start = i + 1;
        }
    }
    out << token.mid(start);
    return out;
}

/// Shares `available` among columns: every column its natural width when all fit, the spare width by natural
/// width. Otherwise a column narrower than an equal share of what is left gets its natural width (the "#" and
/// date columns stay on one line), and the others a width in proportion to their natural one, at least their
/// minimum (mins must fit in `available`).
std::vector<double> columnWidths(const std::vector<double>& mins, const std::vector<double>& naturals, double available)
{
    const std::size_t n = mins.size();
    std::vector<double> widths(n);
    const double sumNatural = std::accumulate(naturals.begin(), naturals.end(), 0.0);
    if (sumNatural <= available) {
        for (std::size_t i = 0; i < n; ++i) {
            widths[i] = naturals[i] + (available - sumNatural) * (sumNatural > 0 ? naturals[i] / sumNatural : 0);
        }
        return widths;
    }
    std::vector<bool> settled(n, false);
    double remaining = available;
    std::size_t open = n;
    for (bool changed = true; changed && open > 0;) {
        changed = false;
        const double fair = remaining / static_cast<double>(open);
        for (std::size_t i = 0; i < n; ++i) {
            if (!settled[i] && naturals[i] <= fair) {
                widths[i] = naturals[i];
                settled[i] = true;
                remaining -= naturals[i];
                --open;
                changed = true;
            }
        }
    }
    // The others in proportion to their natural width, none below its minimum.
    for (bool changed = true; changed && open > 0;) {
        changed = false;
        double openNatural = 0;
        for (std::size_t i = 0; i < n; ++i) {
            openNatural += settled[i] ? 0 : naturals[i];
        }
        const double scale = openNatural > 0 ? remaining / openNatural : 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (!settled[i] && naturals[i] * scale < mins[i]) {
                widths[i] = mins[i];
                settled[i] = true;
                remaining -= mins[i];
                --open;
                changed = true;
            }
        }
        if (!changed) {
            for (std::size_t i = 0; i < n; ++i) {
                if (!settled[i]) {
                    widths[i] = naturals[i] * scale;
                }
            }
        }
    }
    return widths;
}

} // namespace

namespace pdfwrap {

QStringList wrap(const QString& text, const QFontMetricsF& metrics, double width)
{
    auto fits = [&](const QString& s) { return metrics.horizontalAdvance(trimmedRight(s)) <= width + 0.01; };
    QStringList lines;
    for (const QString& hard : hardLines(text)) {
        QString current;
        auto flush = [&] {
            lines << trimmedRight(current);
            current.clear();
        };
        for (const QString& segment : segments(hard)) {
            if (fits(current + segment)) {
                current += segment;
                continue;
            }
            if (!trimmedRight(current).isEmpty()) {
                flush();
            }
            current.clear();
            if (fits(segment)) {
                current = segment;
                continue;
            }
            for (const QString& piece : pieces(segment)) {
                if (fits(current + piece)) {
                    current += piece;
                    continue;
                }
                if (!current.isEmpty()) {
                    flush();
                }
                // Last resort, a piece wider than the column at its smallest font: cut where the width runs out.
                QString rest = piece;
                while (!fits(rest)) {
                    qsizetype n = 1;
                    while (n < rest.size() && fits(rest.left(n + 1))) {
                        ++n;
                    }
                    if (rest[n - 1].isHighSurrogate() && n < rest.size()) {
                        ++n;
                    }
                    lines << rest.left(n);
                    rest = rest.mid(n);
                }
                current = rest;
            }
        }
        flush();
    }
    return lines;
}

double widestUnbreakable(const QString& text, const QFontMetricsF& metrics, bool splitTokens)
{
    double widest = 0;
    for (const QString& hard : hardLines(text)) {
        for (const QString& segment : segments(hard)) {
            // An address is read in pieces anyway: it breaks after a '/' rather than squeeze the other columns.
            const bool split = splitTokens || segment.contains(QLatin1String("://"));
            for (const QString& piece : split ? pieces(segment) : QStringList{segment}) {
                widest = std::max(widest, metrics.horizontalAdvance(trimmedRight(piece)));
            }
        }
    }
    return widest;
}

double naturalWidth(const QString& text, const QFontMetricsF& metrics)
{
    double widest = 0;
    for (const QString& hard : hardLines(text)) {
        widest = std::max(widest, metrics.horizontalAdvance(trimmedRight(hard)));
    }
    return widest;
}

} // namespace pdfwrap

PdfPageWriter::PdfPageWriter(QPaintDevice& device, const QSizeF& body, const QFont& font)
    : m_device(device)
    , m_body(body)
    , m_font(font)
{ }

QFont PdfPageWriter::font(double pointSize, bool bold) const
{
    QFont f = m_font;
    f.setPointSizeF(pointSize);
    f.setWeight(bold ? QFont::Bold : QFont::Normal);
    return f;
}

void PdfPageWriter::text(const QString& text, const PdfTextStyle& style)
{
    auto layout = std::make_shared<QTextLayout>(text, font(style.pointSize, style.bold), &m_device);
    QTextOption option(style.align);
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout->setTextOption(option);
    std::vector<QTextLine> lines;
    layout->beginLayout();
    for (QTextLine line = layout->createLine(); line.isValid(); line = layout->createLine()) {
        const double x = style.indent + (lines.empty() ? style.firstLineIndent : 0);
        line.setLineWidth(m_body.width() - x);
        line.setPosition(QPointF(x, 0));
        lines.push_back(line);
    }
    layout->endLayout();
    const double lineHeight = QFontMetricsF(layout->font(), &m_device).height() * kTextLineHeight;

    // Orphans and widows: up to four lines stay together, a longer paragraph keeps two on each page.
    std::vector<std::pair<std::size_t, std::size_t>> groups; // [first, last)
    const std::size_t n = std::max<std::size_t>(lines.size(), 1);
    if (n <= 4) {
        groups.push_back({0, lines.size()});
    } else {
        groups.push_back({0, 2});
        for (std::size_t i = 2; i + 2 < n; ++i) {
            groups.push_back({i, i + 1});
        }
        groups.push_back({n - 2, n});
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto [first, last] = groups[g];
        Chunk chunk;
        chunk.spaceBefore = g == 0 ? style.spaceBefore : 0;
        chunk.spaceAfter = g + 1 == groups.size() ? style.spaceAfter : 0;
        chunk.height = std::max<double>(1, static_cast<double>(last - first)) * lineHeight;
        chunk.pageBreakBefore = g == 0 && style.pageBreakBefore;
        chunk.keepWithNext = g + 1 == groups.size() && style.keepWithNext;
        std::vector<QTextLine> mine(lines.begin() + static_cast<std::ptrdiff_t>(first),
                                    lines.begin() + static_cast<std::ptrdiff_t>(last));
        chunk.draw = [layout, mine, lineHeight](QPainter& painter, const QPointF& at) {
            painter.setPen(Qt::black);
            for (std::size_t i = 0; i < mine.size(); ++i) {
                mine[i].draw(&painter, at + QPointF(0, static_cast<double>(i) * lineHeight));
            }
        };
        place(std::move(chunk));
    }
}

void PdfPageWriter::table(const PdfTable& table)
{
    const bool ruled = !table.headers.isEmpty();
    int columns = static_cast<int>(table.headers.size());
    for (const QStringList& row : table.rows) {
        columns = std::max(columns, static_cast<int>(row.size()));
    }
    if (columns == 0) {
        return;
    }
    auto isBold = [&](std::size_t row) {
        return std::find(table.boldRows.begin(), table.boldRows.end(), static_cast<int>(row)) != table.boldRows.end();
    };
    auto cell = [](const QStringList& row, int column) { return column < row.size() ? row[column] : QString(); };

    // Column widths from the content: each at least its widest word (a smaller font first where they do not all
    // fit), the rest of the width shared by how much more each needs to stand unwrapped.
    std::vector<double> pointSize(static_cast<std::size_t>(columns), kCellPointSize);
    auto metrics = [&](int column, bool bold) {
        return QFontMetricsF(font(pointSize[static_cast<std::size_t>(column)], bold), &m_device);
    };
    auto widest = [&](int column, const std::function<double(const QString&, const QFontMetricsF&)>& measure) {
        double w = ruled ? measure(cell(table.headers, column), metrics(column, true)) : 0;
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            w = std::max(w, measure(cell(table.rows[r], column), metrics(column, isBold(r))));
        }
        return w;
    };
    auto minimum = [&](int column, bool split) {
        return widest(column, [split](const QString& text, const QFontMetricsF& m) {
            return pdfwrap::widestUnbreakable(text, m, split);
        });
    };
    const double available = m_body.width() - columns * 2 * kCellPadding;
    std::vector<double> mins(static_cast<std::size_t>(columns));
    for (int c = 0; c < columns; ++c) {
        mins[static_cast<std::size_t>(c)] = minimum(c, false);
    }
    auto total = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); };
    while (total(mins) > available) {
        int shrink = -1;
        for (int c = 0; c < columns; ++c) {
            const auto i = static_cast<std::size_t>(c);
            if (pointSize[i] > kSmallestCellPointSize
                && (shrink < 0 || mins[i] > mins[static_cast<std::size_t>(shrink)])) {
                shrink = c;
            }
        }
        if (shrink < 0) {
            break;
        }
        pointSize[static_cast<std::size_t>(shrink)] -= 0.5;
        mins[static_cast<std::size_t>(shrink)] = minimum(shrink, false);
    }
    if (total(mins) > available) {
        for (int c = 0; c < columns; ++c) {
            mins[static_cast<std::size_t>(c)] = minimum(c, true);
        }
    }
    if (total(mins) > available) {
        const double scale = available / total(mins);
        for (double& m : mins) {
            m *= scale;
        }
    }
    std::vector<double> naturals(static_cast<std::size_t>(columns));
    for (int c = 0; c < columns; ++c) {
        const auto i = static_cast<std::size_t>(c);
        naturals[i] = std::max(mins[i], widest(c, pdfwrap::naturalWidth));
    }
    std::vector<double> widths = columnWidths(mins, naturals, available);

    struct Cell
    {
        QStringList lines;
        QFont font;
        double lineHeight = 0;
        double ascent = 0;
    };
    auto rowChunk = [&](const QStringList& cells, bool bold, bool header) {
        std::vector<Cell> row;
        double height = 0;
        for (int c = 0; c < columns; ++c) {
            const QFontMetricsF m = metrics(c, bold);
            Cell out{pdfwrap::wrap(cell(cells, c), m, widths[static_cast<std::size_t>(c)]),
                     font(pointSize[static_cast<std::size_t>(c)], bold),
                     m.height() * kCellLineHeight,
                     m.ascent()};
            height = std::max(height, out.lines.size() * out.lineHeight);
            row.push_back(std::move(out));
        }
        Chunk chunk;
        chunk.height = height + 2 * kCellPadding;
        chunk.draw = [row, widths, boxHeight = chunk.height, ruled, header](QPainter& painter, const QPointF& at) {
            double x = at.x();
            for (std::size_t c = 0; c < row.size(); ++c) {
                const QRectF box(x, at.y(), widths[c] + 2 * kCellPadding, boxHeight);
                if (header) {
                    painter.fillRect(box, QColor(225, 225, 225));
                }
                painter.setFont(row[c].font);
                painter.setPen(Qt::black);
                for (int i = 0; i < row[c].lines.size(); ++i) {
                    const QPointF baseline(x + kCellPadding,
                                           at.y() + kCellPadding + i * row[c].lineHeight + row[c].ascent);
                    painter.drawText(baseline, row[c].lines[i]);
                }
                if (ruled) {
                    painter.setPen(QPen(QColor(90, 90, 90), 0.5));
                    painter.setBrush(Qt::NoBrush);
                    painter.drawRect(box);
                }
                x += box.width();
            }
        };
        return chunk;
    };

    Chunk header;
    if (ruled) {
        header = rowChunk(table.headers, true, true);
        header.keepWithNext = true;
    }
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        Chunk row = rowChunk(table.rows[r], isBold(r), false);
        if (r + 1 == table.rows.size()) {
            row.spaceAfter = 4;
        }
        if (r == 0) {
            if (ruled) {
                Chunk first = header;
                first.spaceBefore = 2;
                place(std::move(first));
            } else {
                row.spaceBefore = 2;
            }
        } else if (!fits(row)) {
            newPage(); // the row moves whole; the header comes with it
            if (ruled) {
                place(header);
            }
        }
        place(std::move(row));
    }
    if (table.rows.empty() && ruled) {
        header.keepWithNext = false;
        header.spaceBefore = 2;
        place(std::move(header));
    }
}

void PdfPageWriter::figure(const QSizeF& size, std::function<void(QPainter&, const QRectF&)> paint)
{
    if (size.isEmpty()) {
        return;
    }
    Chunk chunk;
    chunk.spaceBefore = 6;
    chunk.spaceAfter = 8;
    const double scale = std::min({1.0, m_body.width() / size.width(), (m_body.height() - 14) / size.height()});
    const QSizeF drawn = size * scale;
    chunk.height = drawn.height();
    const double left = (m_body.width() - drawn.width()) / 2;
    chunk.draw = [paint = std::move(paint), drawn, left](QPainter& painter, const QPointF& at) {
        paint(painter, QRectF(at + QPointF(left, 0), drawn));
    };
    place(std::move(chunk));
}

void PdfPageWriter::finish()
{
    if (m_kept.empty()) {
        return;
    }
    Chunk last = std::move(m_kept.back());
    m_kept.pop_back();
    last.keepWithNext = false;
    place(std::move(last));
}

int PdfPageWriter::pageCount() const
{
    return static_cast<int>(m_pages.size());
}

void PdfPageWriter::drawPage(int page, QPainter& painter, const QPointF& origin) const
{
    if (page < 0 || page >= pageCount()) {
        return;
    }
    painter.save();
    painter.translate(origin);
    painter.setClipRect(QRectF(QPointF(0, 0), m_body).adjusted(-2, -2, 2, 2));
    for (const Placed& placed : m_pages[static_cast<std::size_t>(page)]) {
        placed.draw(painter, placed.at);
    }
    painter.restore();
}

void PdfPageWriter::drawFrame(QPainter& painter,
                              const QRectF& pageRect,
                              const QPointF& origin,
                              const PdfPageFrame& frame) const
{
    painter.save();
    painter.setFont(font(8, false));
    painter.setPen(QPen(QColor(60, 60, 60), 0.6));
    const double left = origin.x();
    const double right = origin.x() + m_body.width();
    const double top = frame.edge;
    const double bottom = pageRect.height() - frame.edge;
    const double textHeight = frame.edge / 2;
    const QRectF header(left, top - textHeight, m_body.width(), textHeight);
    painter.drawText(header, Qt::AlignLeft | Qt::AlignBottom, frame.headerLeft);
    painter.drawText(header, Qt::AlignRight | Qt::AlignBottom, frame.headerRight);
    painter.drawLine(QPointF(left, top + 2), QPointF(right, top + 2));
    painter.drawLine(QPointF(left, bottom - 2), QPointF(right, bottom - 2));
    const QRectF footer(left, bottom, m_body.width(), textHeight);
    painter.drawText(footer, Qt::AlignLeft | Qt::AlignTop, frame.footerLeft);
    painter.drawText(footer, Qt::AlignRight | Qt::AlignTop, frame.footerRight);
    painter.restore();
}

bool PdfPageWriter::fits(const Chunk& chunk) const
{
    return m_pageEmpty || m_y + chunk.spaceBefore + chunk.height <= m_body.height();
}

double PdfPageWriter::spaceBefore(const Chunk& chunk) const
{
    return m_pageEmpty && m_pages.size() > 1 ? 0 : chunk.spaceBefore;
}

void PdfPageWriter::newPage()
{
    m_pages.emplace_back();
    m_y = 0;
    m_pageEmpty = true;
}

void PdfPageWriter::place(Chunk chunk)
{
    if (chunk.keepWithNext) {
        m_kept.push_back(std::move(chunk));
        return;
    }
    std::vector<Chunk> group = std::move(m_kept);
    m_kept.clear();
    group.push_back(std::move(chunk));
    double need = 0;
    for (std::size_t i = 0; i < group.size(); ++i) {
        need += (i == 0 ? spaceBefore(group[i]) : group[i].spaceBefore) + group[i].height
                + (i + 1 < group.size() ? group[i].spaceAfter : 0);
    }
    if (!m_pageEmpty && (group.front().pageBreakBefore || m_y + need > m_body.height())) {
        newPage();
    }
    for (Chunk& c : group) {
        const double y = m_y + spaceBefore(c);
        m_pages.back().push_back({QPointF(0, y), std::move(c.draw)});
        m_y = y + c.height + c.spaceAfter;
        m_pageEmpty = false;
    }
}

} // namespace gpuplan::ui
