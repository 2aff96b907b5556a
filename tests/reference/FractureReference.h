// CPU reference of the fracture stress evaluation (digest-004 (6)-(16)) in double precision,
// written from the equations independently of shaders/fracture/*. Tests only.
#pragma once

#include <vector>

#include <glm/glm.hpp>

namespace floe::reference {

struct TetStressResult {
    glm::dmat3 F, strain, strainRate, stress, tensile, compressive, element;
    glm::dvec3 force[4], tensileForce[4], compressiveForce[4];
    double largestPrincipal = 0;
};

// Cyclic Jacobi to convergence: A = V diag(w) V^T.
void symmetricEigen(glm::dmat3 A, glm::dvec3& w, glm::dmat3& V);
// Largest eigenvalue and its unit eigenvector.
void largestEigen(const glm::dmat3& A, double& w, glm::dvec3& v);
glm::dmat3 outerOverLength(const glm::dvec3& a); // m(a)

// rest: the four rest positions; x, v: current positions and velocities; lame: lambda, mu, phi, psi;
// yieldStress > 0: the stress's deviatoric part is scaled onto the von Mises surface of that
// yield stress (a ductile material; 0: brittle, the stress of (9) as it is).
TetStressResult tetStress(const glm::dvec3 rest[4], const glm::dvec3 x[4], const glm::dvec3 v[4], const glm::dvec4& lame,
                          double yieldStress = 0.0);

// The von Mises equivalent stress sqrt(3/2 s:s) of the deviator s; `pressure` gets tr / 3.
double vonMises(const glm::dmat3& stress, double& pressure);

// A ductile tet's damage from its stress of (9) (before the cap): the equivalent plastic strain
// in yield strains, q / yieldStress - 1 (q the von Mises stress; 0 below yield), over the
// ductility (the failure strain in yield strains).
double ductileDamage(const glm::dmat3& stress, double yieldStress, double ductility);

// Separation tensor per node: eq16 (true) or the mean of the incident element tensors.
struct NodeTensor {
    glm::dmat3 tensor{0.0};
    double w = 0;
    glm::dvec3 v{0.0};
};
std::vector<NodeTensor> nodeSeparation(const std::vector<glm::dvec3>& restNodes, const std::vector<glm::uvec4>& tets,
                                       const std::vector<glm::dvec3>& x, const std::vector<glm::dvec3>& v, const glm::dvec4& lame,
                                       bool eq16, double yieldStress = 0.0);

// The elastic energy of a tet's goal springs (shaders/fracture/tet_goals): with the corners'
// masses m_i, c and c0 the mass-weighted centroids and R the rotation of the polar decomposition
// of A = sum m_i (x_i - c)(rest_i - c0)^T (A with a positive determinant: not inverted), the
// goals g_i = c + R (rest_i - c0) and U = sum_i (4 k m_i / M) |x_i - g_i|^2 / 2.
double tetGoalEnergy(const glm::dvec3 rest[4], const glm::dvec3 x[4], const double mass[4], double stiffness);

} // namespace floe::reference
