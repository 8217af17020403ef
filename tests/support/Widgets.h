#pragma once
// Finding the widgets a GUI test drives, by the object names the pages give them.

#include <QWidget>

namespace gpuplan::testing {

/// The widget of type T named `name` below `window`; a missing one stops the test program, naming it (a test
/// that goes on would only crash on a null pointer).
template <typename T>
T* child(QWidget& window, const char* name)
{
    T* found = window.findChild<T*>(QString::fromLatin1(name));
    if (!found) {
        qFatal("no widget named %s", name);
    }
    return found;
}

} // namespace gpuplan::testing
