// metrics.csv: a header row, then one row per step. Columns are fixed when the writer is
// created; a value left unset in a row is written as an empty field.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace floe::io {

class CsvWriter {
public:
    CsvWriter(const std::filesystem::path& path, std::vector<std::string> columns); // throws floe::Error
    ~CsvWriter();
    CsvWriter(const CsvWriter&) = delete;
    CsvWriter& operator=(const CsvWriter&) = delete;

    size_t column(const std::string& name) const; // throws std::out_of_range for unknown names
    void set(size_t column, double value);
    // Floats are written with the shortest representation that reads back as the same float.
    void set(size_t column, float value);
    void set(size_t column, uint64_t value);
    void set(size_t column, const std::string& word); // a plain word (no comma, quote or newline)
    template <class T> void set(const std::string& name, T value) { set(column(name), value); }
    void endRow();
    void flush();

private:
    std::FILE* file_ = nullptr;
    std::vector<std::string> columns_;
    std::vector<std::string> row_;
};

std::string formatNumber(double value); // shortest round-trip representation
std::string formatNumber(float value);

} // namespace floe::io
