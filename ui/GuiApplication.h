#pragma once

#include <QString>
#include <QStringList>

#include <filesystem>
#include <optional>

namespace gpuplan::ui {

/// What the GUI's command line asks for.
struct GuiOptions
{
    QString language;                 // "en" or "zh_CN"
    std::filesystem::path catalogDir; // the catalog folder to load
    QString screenshotDir;            // when set: write a PNG of each page there, then quit
    QString helpText;                 // when set: --help was asked for; print it and quit
    int verbosity = 0;                // how many times -v / --verbose was given (core/Log.h)
};

/// Parses the GUI's arguments (arguments[0] is the program). `--lang` wins over the system locale;
/// `--catalog` over the bundled catalog. Returns nullopt and sets `error` on a bad argument.
std::optional<GuiOptions> parseGuiOptions(const QStringList& arguments, QString* error);

/// The whole GUI program: options, language, main window, event loop. Returns the exit code.
int runGui(int argc, char** argv);

} // namespace gpuplan::ui
