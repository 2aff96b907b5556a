#include "io/Csv.h"

#include <stdexcept>

#include <fmt/format.h>

#include "base/Error.h"

namespace floe::io {

std::string formatNumber(double value)
{
    // 12 significant digits: exact for times summed from float steps, without 1e-17 noise.
    return fmt::format("{:.12g}", value);
}

std::string formatNumber(float value)
{
    return fmt::format("{}", value);
}

CsvWriter::CsvWriter(const std::filesystem::path& path, std::vector<std::string> columns) : columns_(std::move(columns))
{
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) throw Error(fmt::format("cannot write {}", path.string()), ExitCode::Failure);
    for (size_t i = 0; i < columns_.size(); ++i) std::fprintf(file_, "%s%s", i ? "," : "", columns_[i].c_str());
    std::fprintf(file_, "\n");
    row_.resize(columns_.size());
}

CsvWriter::~CsvWriter()
{
    if (file_) std::fclose(file_);
}

size_t CsvWriter::column(const std::string& name) const
{
    for (size_t i = 0; i < columns_.size(); ++i)
        if (columns_[i] == name) return i;
    throw std::out_of_range("metrics column " + name);
}

void CsvWriter::set(size_t column, double value)
{
    row_.at(column) = formatNumber(value);
}

void CsvWriter::set(size_t column, float value)
{
    row_.at(column) = formatNumber(value);
}

void CsvWriter::set(size_t column, uint64_t value)
{
    row_.at(column) = fmt::format("{}", value);
}

void CsvWriter::set(size_t column, const std::string& word)
{
    row_.at(column) = word;
}

void CsvWriter::endRow()
{
    std::string line;
    for (size_t i = 0; i < row_.size(); ++i) {
        if (i) line += ',';
        line += row_[i];
        row_[i].clear();
    }
    line += '\n';
    std::fputs(line.c_str(), file_);
}

void CsvWriter::flush()
{
    std::fflush(file_);
}

} // namespace floe::io
