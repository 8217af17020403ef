#include "StatusLabel.h"

namespace gpuplan::ui {

StatusLabel::StatusLabel(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setProperty("error", false);
}

void StatusLabel::setStatus(const QString& text, bool error)
{
    setText(text);
    setProperty("error", error);
    setStyleSheet(error ? QStringLiteral("color: palette(bright-text); background: #b3261e; padding: 4px;")
                        : QString());
}

} // namespace gpuplan::ui
