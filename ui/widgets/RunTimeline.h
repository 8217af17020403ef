#pragma once

#include "gpuplan/ledger/Ledger.h"

#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

namespace gpuplan::ui {

/// A run's attempts over time (issue 27): each attempt a bar from its start to its end (or now), coloured by how it
/// ended; a spot notice a marker with a line to its deadline; the last checkpoint that reached the bucket a tick on
/// its attempt; the restart between two attempts a hatched gap with its length. What it draws is kept as values
/// (bars(), notices(), syncs(), gaps()) so that a test reads them, not pixels.
class RunTimeline final : public QWidget
{
    Q_OBJECT

public:
    struct Bar
    {
        int number = 1;
        std::int64_t start = 0;
        std::int64_t end = 0; // endedAt, or `now` while it runs
        std::string how;      // RunAttempt::end ("" while it runs)
    };
    struct Notice
    {
        int attempt = 1;
        std::int64_t at = 0;
        std::optional<std::int64_t> deadline;
        bool withoutNotice = false; // reclaimed, and no notice was seen: the marker is at the attempt's end
    };
    struct Gap
    {
        std::int64_t from = 0;
        std::int64_t to = 0;
    };

    explicit RunTimeline(QWidget* parent = nullptr);

    /// The attempts of one run (by number), drawn up to `now` for the one still open.
    void setAttempts(const std::vector<core::RunAttempt>& attempts, std::int64_t now);

    const std::vector<Bar>& bars() const { return m_bars; }
    /// One per interruption: the notice the watcher saw, or the end of an attempt reclaimed without one.
    const std::vector<Notice>& notices() const { return m_notices; }
    /// When a checkpoint reached the bucket (the last of each attempt that had one).
    const std::vector<std::int64_t>& syncs() const { return m_syncs; }
    const std::vector<Gap>& gaps() const { return m_gaps; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QString tipAt(const QPoint& pos) const;

    std::vector<Bar> m_bars;
    std::vector<Notice> m_notices;
    std::vector<std::int64_t> m_syncs;
    std::vector<Gap> m_gaps;
};

} // namespace gpuplan::ui
