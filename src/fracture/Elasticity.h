// Rest data and materials of the tetrahedral elements (digest-004 §2.2-§2.6, Table 1).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "fracture/TetMesh.h"

namespace floe::fracture {

// beta = [u0 u1 u2 u3; 1 1 1 1]^-1 (digest-004 u/n after (8)): row i of its first three columns
// is b_i, the gradient of node i's barycentric coordinate (1/m), so F = sum_i x_i b_i^T.
struct TetRest {
    glm::vec3 b[4];
    float volume; // m^3
};
std::vector<TetRest> restData(const TetMesh& mesh); // computed in double precision

// Lame constants (Pa), damping constants (Pa s) and the durability threshold tau of digest-004
// Table 1 (O'Brien 2000's library as the thesis prints it; units as printed, see docs/fracture.md), and
// Floe's ductility: the von Mises yield stress in units of tau (0: brittle) and the failure
// strain in yield strains. The thesis calls iron ductile (§2.3) but models no yield; Floe caps
// a ductile tet's deviatoric stress at the yield surface and lets its nodes crack only once its
// plastic strain reaches the failure strain (fracture/stress, fracture/load; docs/fracture.md, "Ductile
// materials").
struct Material {
    float lambda = 0.419f, mu = 0.578f, phi = 1.04f, psi = 1.44f, tau = 6.01f;
    float yield = 0.0f;
    float ductility = 0.0f; // failure strain / yield strain (> 0 where yield > 0)
    // Newton's coefficient of restitution against the domain's walls (fracture/bounce): a
    // fragment leaves a wall at most this times as fast as it came, along the wall's normal.
    float restitution = 0.66f;
};
// 1 / ductility for a ductile material, 0 for a brittle one (TET_DAMAGE.y).
inline float inverseDuctility(const Material& m)
{
    return m.yield > 0.0f && m.ductility > 0.0f ? 1.0f / m.ductility : 0.0f;
}
std::optional<Material> materialPreset(std::string_view name); // glass, iron, ceramic
// Young's modulus implied by the Lame constants, mu (3 lambda + 2 mu) / (lambda + mu), in Table
// 1's units (glass 1.40, iron 3.45, ceramic 1.38; digest-004 §5.1's note).
float youngsModulus(const Material& m);
// Floe's default stiffness of a body's dynamics (Pa): 1e8 Pa for glass, scaled by the
// material's Young's modulus relative to glass's, so that an impact strains iron less than
// glass as it physically does (impact stress ~ v sqrt(rho E)).
float dynamicsStiffness(const Material& m);
inline constexpr const char* kMaterialNames = "glass, iron, ceramic";

} // namespace floe::fracture
