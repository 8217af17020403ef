#pragma once

#include <string>

namespace gpuplan::cli {

struct ReportOptions
{
    std::string plan;         // PLAN.gpuplan
    std::string output;       // -o REPORT.pdf
    std::string language;     // en, zh_CN; empty: the system's
    std::string paper = "a4"; // a4, letter
    std::string lab;          // for the cover
    std::string author;       // for the cover
};

/// `gpuplan report PLAN.gpuplan -o OUT.pdf [--lang en|zh_CN] [--paper a4|letter] [--lab L] [--author A]`: the PI's
/// PDF, drawn headless (the offscreen platform unless QT_QPA_PLATFORM says otherwise). Exit 2 naming the file and
/// what is wrong for a plan that does not read, 1 when the PDF cannot be written. Prints the pages and the time.
int runReport(int& argc, char** argv, const ReportOptions& options);

} // namespace gpuplan::cli
