#include "TextTable.h"

#include <algorithm>

namespace gpuplan::cli {

std::size_t displayWidth(const std::string& text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

TextTable::TextTable(std::vector<Column> columns)
    : m_columns(std::move(columns))
{ }

void TextTable::addRow(std::vector<std::string> cells)
{
    cells.resize(m_columns.size());
    m_rows.push_back(std::move(cells));
}

void TextTable::print(std::ostream& out) const
{
    std::vector<std::size_t> widths;
    for (const Column& column : m_columns) {
        widths.push_back(displayWidth(column.header));
    }
    for (const auto& row : m_rows) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            widths[i] = std::max(widths[i], displayWidth(row[i]));
        }
    }
    auto printRow = [&](const std::vector<std::string>& cells) {
        std::string line;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::string padding(widths[i] - displayWidth(cells[i]), ' ');
            const bool last = i + 1 == cells.size();
            if (m_columns[i].align == Align::Right) {
                line += padding + cells[i];
            } else {
                line += cells[i] + (last ? "" : padding);
            }
            if (!last) {
                line += "  ";
            }
        }
        out << line << '\n';
    };
    std::vector<std::string> headers;
    for (const Column& column : m_columns) {
        headers.push_back(column.header);
    }
    printRow(headers);
    for (const auto& row : m_rows) {
        printRow(row);
    }
}

} // namespace gpuplan::cli
