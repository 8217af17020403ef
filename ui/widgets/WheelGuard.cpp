#include "WheelGuard.h"

#include <QEvent>
#include <QWidget>

namespace gpuplan::ui {

WheelGuard::WheelGuard(QWidget* field)
    : QObject(field)
{
    setObjectName(QStringLiteral("wheelGuard"));
}

void WheelGuard::install(std::initializer_list<QWidget*> fields)
{
    for (QWidget* field : fields) {
        field->setFocusPolicy(Qt::StrongFocus);
        field->installEventFilter(new WheelGuard(field));
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Wheel && !static_cast<QWidget*>(watched)->hasFocus()) {
        // Ignored and filtered: the field never sees it, and QApplication offers it to the parents (the scroll
        // area) as it does any wheel event a widget ignores.
        event->ignore();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace gpuplan::ui
