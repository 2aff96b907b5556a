#include "fracture/Elasticity.h"

#include <glm/glm.hpp>

namespace floe::fracture {

std::vector<TetRest> restData(const TetMesh& mesh)
{
    std::vector<TetRest> out(mesh.tets.size());
    for (size_t t = 0; t < mesh.tets.size(); ++t) {
        glm::dmat4 m(1.0); // columns: (u_i, 1)
        for (int i = 0; i < 4; ++i) m[i] = glm::dvec4(glm::dvec3(mesh.nodes[mesh.tets[t][i]]), 1.0);
        const glm::dmat4 beta = glm::inverse(m);
        for (int i = 0; i < 4; ++i) // beta's row i, columns 0..2 (glm: beta[column][row])
            out[t].b[i] = glm::vec3(float(beta[0][i]), float(beta[1][i]), float(beta[2][i]));
        out[t].volume = float(signedVolume(mesh, t));
    }
    return out;
}

std::optional<Material> materialPreset(std::string_view name)
{
    // digest-004 Table 1 (lambda, mu, phi, psi, tau).
    // Restitution against a hard floor (the walls are rigid): a glass marble 0.66, a steel ball
    // bearing 0.6 (The Physics Factbook, "Coefficient of Restitution", drops of spheres). No
    // value for ceramics was found; they take glass's (hard, brittle, no plastic flow). Measured
    // values fall with the impact speed (Johnson, Contact Mechanics, ch. 11: e ~ v^-1/4 once the
    // contact yields), so at a drop's 10 m/s these bound the rebound from above.
    if (name == "glass") return Material{0.419f, 0.578f, 1.04f, 1.44f, 6.01f, 0.0f, 0.0f, 0.66f};
    // Iron yields at 0.6 tau: wrought iron and mild steel yield at 0.5-0.8 of their tensile
    // strength, which tau stands for. It fails at 200 yield strains of plastic strain: they yield
    // at a strain of about 0.1 % (200 MPa at E = 200 GPa) and stretch 20-30 % before they break
    // in a tensile test, 200-300 yield strains. (100, the cautious end, held every drop until the
    // impacts stopped making energy, docs/fracture.md *Energy*; at the tau scale calibrated since,
    // the cube with holes spent 1.3 of it.)
    if (name == "iron") return Material{0.759f, 1.474f, 18.98f, 36.85f, 24.82f, 0.6f, 200.0f, 0.6f};
    if (name == "ceramic") return Material{0.381f, 0.575f, 4.79f, 7.18f, 2.48f, 0.0f, 0.0f, 0.66f};
    return std::nullopt;
}

float youngsModulus(const Material& m)
{
    return m.mu * (3.0f * m.lambda + 2.0f * m.mu) / (m.lambda + m.mu);
}

float dynamicsStiffness(const Material& m)
{
    return 1.0e8f * youngsModulus(m) / youngsModulus(*materialPreset("glass"));
}

} // namespace floe::fracture
