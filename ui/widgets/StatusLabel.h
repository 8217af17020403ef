#pragma once

#include <QLabel>

namespace gpuplan::ui {

/// A page's one-line (or few-line) status: word-wrapped, selectable so it can be copied into a bug report, and
/// shown on a red band when it reports an error. Tests read the error state from the "error" property.
class StatusLabel final : public QLabel
{
    Q_OBJECT

public:
    explicit StatusLabel(QWidget* parent = nullptr);

    void setStatus(const QString& text, bool error = false);
    bool isError() const { return property("error").toBool(); }
};

} // namespace gpuplan::ui
