// Solid exports for other tools (issue 16 item 3): the surfaces of deformable bodies and of
// fracture fragments as binary PLY triangle meshes (ParaView, Blender, Houdini, MeshLab), and
// fracture bodies' tetrahedra as a legacy binary VTK unstructured grid (ParaView, Houdini), one
// file per exported step, in world coordinates.
//
// PLY: vertices with x y z vx vy vz, faces with their vertex_indices and `group` (the body, or
// the fragment's label: its smallest node index). VTK: POINTS, CELLS (VTK_TETRA, or
// VTK_TRIANGLE for a surface), POINT_DATA velocity and group, CELL_DATA group plus the named
// cell scalars given. The surfaces are closed and wound counter-clockwise seen from outside.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "io/ParticleExport.h"

namespace floe::io {

struct MeshFrame {
    std::vector<glm::vec3> positions;  // m, world
    std::vector<glm::vec3> velocities; // m/s
    std::vector<uint32_t> pointGroup;  // per point: body or fragment
    std::vector<glm::uvec3> triangles; // the surface (PLY; VTK without tets), indices into the points
    std::vector<uint32_t> triangleGroup;
    std::vector<glm::uvec4> tets; // fracture bodies' tetrahedra (VTK), indices into the points
    std::vector<uint32_t> tetGroup;
    std::vector<std::pair<std::string, std::vector<float>>> cellScalars; // extra per-cell values (VTK only)
    std::string what = "solids";                                         // for the files' comment line
    double time = 0;                                                     // s
    uint64_t step = 0;
};

// PLY: the triangles with the points they use, renumbered; VTK: every point, and the tets as
// cells, or the triangles where there are none. Throws floe::Error naming the file when it
// cannot be written or an index is out of range.
void writeMesh(const std::filesystem::path& path, const MeshFrame& frame, ExportFormat format);

// Reads back a PLY written by writeMesh (tests, tools): points, velocities, triangles, face groups.
MeshFrame readMeshPly(const std::filesystem::path& path);

} // namespace floe::io
