#pragma once

#include <QObject>

#include <initializer_list>

class QWidget;

namespace gpuplan::ui {

/// Keeps a wheel that only meant to scroll the page from changing a field: spin boxes and combo boxes step on
/// every wheel event under the pointer, focused or not, so scrolling over a form turned a dead-man switch to
/// "Off" (issue 20, finding 15). A guarded field takes the wheel only once it has focus (Qt::StrongFocus: a click
/// or Tab gives it); otherwise the event goes on to the scroll area around it.
class WheelGuard final : public QObject
{
    Q_OBJECT

public:
    /// Guards each of `fields`; the guard lives as long as its field.
    static void install(std::initializer_list<QWidget*> fields);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QWidget* field);
};

} // namespace gpuplan::ui
