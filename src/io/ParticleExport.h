// Particle exports for other tools: binary PLY (ParaView, Blender, Houdini, SPlisHSPlasH's
// partio converters) and legacy binary VTK polydata, with position, velocity, density and
// pressure per particle, in the scene's sampling order.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

namespace floe::io {

struct ParticleFrame {
    std::vector<glm::vec3> positions;  // m
    std::vector<glm::vec3> velocities; // m/s
    std::vector<float> densities;      // kg/m^3 (kg/m^2 in 2D)
    std::vector<float> pressures;      // Pa
    double time = 0;                   // s
    uint64_t step = 0;
};

enum class ExportFormat { Ply, Vtk };

ExportFormat parseExportFormat(const std::string& name);                                                 // throws floe::Error
const char* extensionOf(ExportFormat format);                                                            // ".ply", ".vtk"
void writeParticles(const std::filesystem::path& path, const ParticleFrame& frame, ExportFormat format); // throws floe::Error

// One 4-byte word of a legacy binary VTK file, which is big-endian (also io/MeshExport).
void putBigEndian(std::ostream& out, float value);
void putBigEndian(std::ostream& out, int32_t value);

// Reads back a PLY written by writeParticles (tests, tools).
ParticleFrame readPly(const std::filesystem::path& path);

} // namespace floe::io
