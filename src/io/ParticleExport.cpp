#include "io/ParticleExport.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "base/Error.h"

namespace floe::io {

void putBigEndian(std::ostream& out, float value)
{
    uint32_t bits = std::bit_cast<uint32_t>(value);
    const unsigned char bytes[4] = {static_cast<unsigned char>(bits >> 24), static_cast<unsigned char>(bits >> 16),
                                    static_cast<unsigned char>(bits >> 8), static_cast<unsigned char>(bits)};
    out.write(reinterpret_cast<const char*>(bytes), 4);
}

void putBigEndian(std::ostream& out, int32_t value)
{
    putBigEndian(out, std::bit_cast<float>(value));
}

ExportFormat parseExportFormat(const std::string& name)
{
    if (name == "ply") return ExportFormat::Ply;
    if (name == "vtk") return ExportFormat::Vtk;
    throw Error(fmt::format("--export {}: unknown format; available: ply, vtk", name));
}

const char* extensionOf(ExportFormat format)
{
    return format == ExportFormat::Ply ? ".ply" : ".vtk";
}

void writeParticles(const std::filesystem::path& path, const ParticleFrame& f, ExportFormat format)
{
    std::ofstream out(path, std::ios::binary);
    if (!out) throw Error(fmt::format("cannot write {}", path.string()), ExitCode::Failure);
    const size_t n = f.positions.size();
    if (format == ExportFormat::Ply) {
        out << "ply\nformat binary_little_endian 1.0\n"
            << fmt::format("comment Floe particles, step {}, time {} s\n", f.step, f.time) << "element vertex " << n << "\n";
        for (const char* p : {"x", "y", "z", "vx", "vy", "vz", "density", "pressure"}) out << "property float " << p << "\n";
        out << "end_header\n";
        std::vector<float> record(8 * n);
        for (size_t i = 0; i < n; ++i) {
            const float values[8] = {f.positions[i].x,  f.positions[i].y,  f.positions[i].z, f.velocities[i].x,
                                     f.velocities[i].y, f.velocities[i].z, f.densities[i],   f.pressures[i]};
            std::memcpy(&record[8 * i], values, sizeof(values));
        }
        out.write(reinterpret_cast<const char*>(record.data()), std::streamsize(record.size() * 4)); // x86: little endian
    } else {
        out << "# vtk DataFile Version 3.0\n"
            << fmt::format("Floe particles, step {}, time {} s\n", f.step, f.time) << "BINARY\nDATASET POLYDATA\n";
        out << "POINTS " << n << " float\n";
        for (const glm::vec3& p : f.positions)
            for (int k = 0; k < 3; ++k) putBigEndian(out, p[k]);
        out << "\nVERTICES " << n << " " << 2 * n << "\n";
        for (size_t i = 0; i < n; ++i) {
            putBigEndian(out, int32_t(1));
            putBigEndian(out, int32_t(i));
        }
        out << "\nPOINT_DATA " << n << "\nVECTORS velocity float\n";
        for (const glm::vec3& v : f.velocities)
            for (int k = 0; k < 3; ++k) putBigEndian(out, v[k]);
        out << "\nSCALARS density float 1\nLOOKUP_TABLE default\n";
        for (float d : f.densities) putBigEndian(out, d);
        out << "\nSCALARS pressure float 1\nLOOKUP_TABLE default\n";
        for (float p : f.pressures) putBigEndian(out, p);
        out << "\n";
    }
    if (!out) throw Error(fmt::format("cannot write {}", path.string()), ExitCode::Failure);
}

ParticleFrame readPly(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("{}: cannot open", path.string()));
    std::string line;
    size_t count = 0;
    int properties = 0;
    while (std::getline(in, line) && line != "end_header") {
        std::istringstream s(line);
        std::string word;
        s >> word;
        if (word == "element") {
            std::string kind;
            s >> kind >> count;
        } else if (word == "property") {
            ++properties;
        }
    }
    if (properties != 8) throw Error(fmt::format("{}: not a Floe particle PLY ({} properties)", path.string(), properties));
    std::vector<float> record(8 * count);
    in.read(reinterpret_cast<char*>(record.data()), std::streamsize(record.size() * 4));
    if (!in) throw Error(fmt::format("{}: truncated", path.string()));
    ParticleFrame f;
    for (size_t i = 0; i < count; ++i) {
        const float* r = &record[8 * i];
        f.positions.emplace_back(r[0], r[1], r[2]);
        f.velocities.emplace_back(r[3], r[4], r[5]);
        f.densities.push_back(r[6]);
        f.pressures.push_back(r[7]);
    }
    return f;
}

} // namespace floe::io
