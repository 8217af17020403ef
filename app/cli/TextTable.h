#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpuplan::cli {

/// A plain-text table for the terminal: a header row, aligned columns, two spaces between them.
class TextTable
{
public:
    enum class Align
    {
        Left,
        Right,
    };

    struct Column
    {
        std::string header;
        Align align = Align::Left;
    };

    explicit TextTable(std::vector<Column> columns);

    void addRow(std::vector<std::string> cells);
    void print(std::ostream& out) const;

private:
    std::vector<Column> m_columns;
    std::vector<std::vector<std::string>> m_rows;
};

/// Width on a terminal of UTF-8 text, counting each code point as one column.
std::size_t displayWidth(const std::string& text);

} // namespace gpuplan::cli
