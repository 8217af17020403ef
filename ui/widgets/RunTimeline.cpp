#include "widgets/RunTimeline.h"

#include "wording/Format.h"

#include <QDateTime>
#include <QEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>

namespace gpuplan::ui {

namespace {

constexpr int kRow = 22;    // one attempt's lane
constexpr int kBar = 14;    // its bar
constexpr int kLeft = 34;   // "#1" before the lanes
constexpr int kRight = 12;  // room for the last marker
constexpr int kAxis = 18;   // the times under the lanes
constexpr int kLegend = 20; // the legend under the times

QColor colourOf(const std::string& how)
{
    if (how == "finished") {
        return {0x2e, 0x7d, 0x32}; // green
    }
    if (how == "interrupted") {
        return {0xef, 0x6c, 0x00}; // orange
    }
    if (how == "failed") {
        return {0xc6, 0x28, 0x28}; // red
    }
    if (how.empty()) {
        return {0x15, 0x65, 0xc0}; // blue: runs
    }
    return {0x75, 0x75, 0x75}; // stopped, lost, never ran
}

QString clock(std::int64_t unix)
{
    return QLocale().toString(QDateTime::fromSecsSinceEpoch(unix).time(), QStringLiteral("HH:mm"));
}

} // namespace

RunTimeline::RunTimeline(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void RunTimeline::setAttempts(const std::vector<core::RunAttempt>& attempts, std::int64_t now)
{
    m_bars.clear();
    m_notices.clear();
    m_syncs.clear();
    m_gaps.clear();
    std::vector<core::RunAttempt> sorted = attempts;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.number < b.number; });
    for (const core::RunAttempt& a : sorted) {
        Bar bar{a.number, a.startedAt, a.endedAt.value_or(std::max(now, a.startedAt)), a.end};
        if (!m_bars.empty() && bar.start > m_bars.back().end) {
            m_gaps.push_back({m_bars.back().end, bar.start});
        }
        m_bars.push_back(bar);
        if (a.noticeAt) {
            m_notices.push_back({a.number, *a.noticeAt, a.deadlineAt, false});
        } else if (a.end == "interrupted") {
            m_notices.push_back({a.number, bar.end, std::nullopt, true});
        }
        if (a.checkpointAt) {
            m_syncs.push_back(*a.checkpointAt);
        }
    }
    updateGeometry();
    update();
}

QSize RunTimeline::sizeHint() const
{
    return {480, minimumSizeHint().height()};
}

QSize RunTimeline::minimumSizeHint() const
{
    const int rows = std::max<int>(1, static_cast<int>(m_bars.size()));
    return {240, rows * kRow + kAxis + kLegend + 8};
}

void RunTimeline::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.base());
    if (m_bars.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No attempts yet"));
        return;
    }
    std::int64_t from = m_bars.front().start;
    std::int64_t to = m_bars.back().end;
    for (const Notice& n : m_notices) {
        to = std::max(to, n.deadline.value_or(n.at));
    }
    to = std::max(to, from + 60);
    const int width = std::max(1, this->width() - kLeft - kRight);
    auto x = [&](std::int64_t t) {
        return kLeft + static_cast<double>(t - from) / static_cast<double>(to - from) * width;
    };
    auto laneTop = [](int index) { return 4 + index * kRow; };
    const int lanes = static_cast<int>(m_bars.size());

    // The restarts: hatched across every lane, the time they took written in the first lane's row.
    for (const Gap& gap : m_gaps) {
        const QRectF area(x(gap.from), 2, std::max(2.0, x(gap.to) - x(gap.from)), lanes * kRow);
        p.fillRect(area, QBrush(pal.color(QPalette::Mid), Qt::BDiagPattern));
    }
    // The bars.
    for (int i = 0; i < lanes; ++i) {
        const Bar& bar = m_bars[static_cast<std::size_t>(i)];
        const int top = laneTop(i);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRect(0, top, kLeft - 4, kRow), Qt::AlignRight | Qt::AlignVCenter, tr("#%1").arg(bar.number));
        const QRectF r(x(bar.start), top + (kRow - kBar) / 2.0, std::max(3.0, x(bar.end) - x(bar.start)), kBar);
        p.setPen(Qt::NoPen);
        p.setBrush(colourOf(bar.how));
        p.drawRoundedRect(r, 3, 3);
    }
    // Checkpoints in the bucket: a white tick with a dark edge on the bar it belongs to.
    for (const std::int64_t at : m_syncs) {
        for (int i = 0; i < lanes; ++i) {
            const Bar& bar = m_bars[static_cast<std::size_t>(i)];
            if (at >= bar.start && at <= bar.end) {
                const int top = laneTop(i) + (kRow - kBar) / 2;
                p.setPen(QPen(Qt::black, 1));
                p.setBrush(Qt::white);
                p.drawRect(QRectF(x(at) - 2, top - 1, 4, kBar + 2));
            }
        }
    }
    // The notices: a red triangle over the bar, a line to the deadline.
    for (const Notice& n : m_notices) {
        const int lane = static_cast<int>(
            std::find_if(m_bars.begin(), m_bars.end(), [&](const Bar& b) { return b.number == n.attempt; })
            - m_bars.begin());
        const int top = laneTop(std::min(lane, lanes - 1));
        const double nx = x(n.at);
        if (n.deadline) {
            p.setPen(QPen(QColor(0xc6, 0x28, 0x28), 2, Qt::DashLine));
            p.drawLine(QPointF(nx, top + kRow / 2.0), QPointF(x(*n.deadline), top + kRow / 2.0));
            p.setPen(QPen(QColor(0xc6, 0x28, 0x28), 2));
            p.drawLine(QPointF(x(*n.deadline), top + 2), QPointF(x(*n.deadline), top + kRow - 2));
        }
        QPainterPath triangle;
        triangle.moveTo(nx - 6, top);
        triangle.lineTo(nx + 6, top);
        triangle.lineTo(nx, top + 9);
        triangle.closeSubpath();
        p.setPen(Qt::NoPen);
        p.fillPath(triangle, QColor(0xc6, 0x28, 0x28));
    }
    // The times: the start, the end, and each restart's.
    p.setPen(pal.color(QPalette::Text));
    const int axisTop = laneTop(lanes) + 2;
    p.drawLine(QPointF(kLeft, axisTop), QPointF(kLeft + width, axisTop));
    const QFontMetrics fm(font());
    double lastRight = -1e9;
    auto label = [&](std::int64_t t, const QString& text) {
        const int w = fm.horizontalAdvance(text);
        double left = std::clamp(x(t) - w / 2.0, 0.0, static_cast<double>(this->width() - w));
        if (left < lastRight + 6) {
            return; // would overlap the one before
        }
        p.drawText(QRectF(left, axisTop + 1, w, kAxis), Qt::AlignCenter, text);
        lastRight = left + w;
    };
    label(from, clock(from));
    for (const Gap& gap : m_gaps) {
        label(gap.from + (gap.to - gap.from) / 2,
              tr("restart %1").arg(formatHours(static_cast<double>(gap.to - gap.from) / 3600.0)));
    }
    label(m_bars.back().end, clock(m_bars.back().end));
    // The legend.
    int lx = kLeft;
    const int ly = axisTop + kAxis + 2;
    auto swatch = [&](const QColor& colour, const QString& text) {
        p.setPen(colour == Qt::white ? QPen(Qt::black, 1) : QPen(Qt::NoPen));
        p.setBrush(colour);
        p.drawRoundedRect(QRectF(lx, ly + 4, 12, 10), 2, 2);
        p.setPen(pal.color(QPalette::Text));
        const int w = fm.horizontalAdvance(text);
        p.drawText(QRectF(lx + 16, ly, w + 2, 18), Qt::AlignVCenter, text);
        lx += 16 + w + 14;
    };
    swatch(colourOf("finished"), tr("finished"));
    swatch(colourOf("interrupted"), tr("reclaimed"));
    swatch(colourOf(""), tr("running"));
    swatch(colourOf("failed"), tr("failed"));
    swatch(QColor(0xc6, 0x28, 0x28), tr("notice → deadline"));
    swatch(Qt::white, tr("checkpoint in the bucket"));
}

QString RunTimeline::tipAt(const QPoint& pos) const
{
    const int lane = (pos.y() - 4) / kRow;
    if (lane < 0 || lane >= static_cast<int>(m_bars.size()) || pos.y() < 4) {
        return {};
    }
    const Bar& bar = m_bars[static_cast<std::size_t>(lane)];
    QString tip = tr("Attempt %1: %2 – %3").arg(bar.number).arg(clock(bar.start), clock(bar.end));
    for (const Notice& n : m_notices) {
        if (n.attempt == bar.number && !n.withoutNotice) {
            tip += QLatin1Char('\n')
                   + (n.deadline ? tr("Notice at %1, the instance went at %2").arg(clock(n.at), clock(*n.deadline))
                                 : tr("Notice at %1").arg(clock(n.at)));
        } else if (n.attempt == bar.number) {
            tip += QLatin1Char('\n') + tr("Reclaimed without a notice");
        }
    }
    return tip;
}

bool RunTimeline::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = tipAt(help->pos());
        if (tip.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), tip, this);
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace gpuplan::ui
