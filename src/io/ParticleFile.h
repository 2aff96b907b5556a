// Particle positions from files other tools write, for a scene's FluidModels: PLY (ASCII or
// binary, either byte order; a "vertex" element with x, y, z as float or double; what Floe's
// exports, Blender, Houdini and SPlisHSPlasH's converters write) and Partio's BGEO (Houdini's
// classic binary geometry, gzip-compressed, as SPlisHSPlasH's data/models hold and writes). Errors
// name the file and what was expected.
#pragma once

#include <filesystem>
#include <vector>

#include <glm/vec3.hpp>

namespace floe::io {

std::vector<glm::vec3> readParticlePositions(const std::filesystem::path& path); // throws floe::Error

} // namespace floe::io
