#include "FractureReference.h"

#include <cmath>

namespace floe::reference {

void symmetricEigen(glm::dmat3 A, glm::dvec3& w, glm::dmat3& V)
{
    V = glm::dmat3(1.0);
    for (int sweep = 0; sweep < 50; ++sweep) {
        double off = 0, scale = 0;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) (r == c ? scale : off) += A[c][r] * A[c][r];
        if (off <= 1e-30 * (scale + off)) break;
        for (int p = 0; p < 2; ++p)
            for (int q = p + 1; q < 3; ++q) {
                if (A[q][p] == 0.0) continue;
                // Rotate rows/columns p, q by the angle that zeroes A(p, q).
                const double angle = 0.5 * std::atan2(-2.0 * A[q][p], A[q][q] - A[p][p]);
                const double c = std::cos(angle), s = std::sin(angle);
                glm::dmat3 G(1.0);
                G[p][p] = c;
                G[q][q] = c;
                G[q][p] = -s; // column q, row p
                G[p][q] = s;
                A = glm::transpose(G) * A * G;
                V = V * G;
            }
    }
    w = glm::dvec3(A[0][0], A[1][1], A[2][2]);
}

void largestEigen(const glm::dmat3& A, double& w, glm::dvec3& v)
{
    glm::dvec3 values;
    glm::dmat3 vectors;
    symmetricEigen(A, values, vectors);
    int k = 0;
    for (int i = 1; i < 3; ++i)
        if (values[i] > values[k]) k = i;
    w = values[k];
    v = glm::normalize(vectors[k]);
}

glm::dmat3 outerOverLength(const glm::dvec3& a)
{
    const double l = glm::length(a);
    return l > 0.0 ? glm::outerProduct(a, a) / l : glm::dmat3(0.0);
}

double vonMises(const glm::dmat3& stress, double& pressure)
{
    // J2 = s:s / 2 of the deviator s, the equivalent stress sqrt(3 J2).
    pressure = (stress[0][0] + stress[1][1] + stress[2][2]) / 3.0;
    double ss = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const double s = stress[j][i] - (i == j ? pressure : 0.0);
            ss += s * s;
        }
    return std::sqrt(1.5 * ss);
}

TetStressResult tetStress(const glm::dvec3 rest[4], const glm::dvec3 x[4], const glm::dvec3 v[4], const glm::dvec4& lame,
                          double yieldStress)
{
    glm::dmat4 M(1.0);
    for (int i = 0; i < 4; ++i) M[i] = glm::dvec4(rest[i], 1.0);
    const glm::dmat4 beta = glm::inverse(M);
    const double volume = glm::dot(rest[1] - rest[0], glm::cross(rest[2] - rest[0], rest[3] - rest[0])) / 6.0;
    // (6), (8) with dp/du_i = P beta delta_i: the derivative along rest axis i.
    glm::dvec3 g[3], gd[3];
    for (int i = 0; i < 3; ++i) {
        g[i] = gd[i] = glm::dvec3(0.0);
        for (int j = 0; j < 4; ++j) {
            g[i] += x[j] * beta[i][j];
            gd[i] += v[j] * beta[i][j];
        }
    }
    TetStressResult r;
    for (int i = 0; i < 3; ++i) {
        r.F[i] = g[i];
        for (int j = 0; j < 3; ++j) {
            r.strain[j][i] = glm::dot(g[i], g[j]) - (i == j ? 1.0 : 0.0);
            r.strainRate[j][i] = glm::dot(g[i], gd[j]) + glm::dot(gd[i], g[j]);
        }
    }
    const double trE = r.strain[0][0] + r.strain[1][1] + r.strain[2][2];
    const double trN = r.strainRate[0][0] + r.strainRate[1][1] + r.strainRate[2][2];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r.stress[j][i] =
                (i == j ? lame.x * trE + lame.z * trN : 0.0) + 2.0 * lame.y * r.strain[j][i] + 2.0 * lame.w * r.strainRate[j][i];
    if (yieldStress > 0) {
        double p;
        const double equivalent = vonMises(r.stress, p);
        if (equivalent > yieldStress)
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    r.stress[j][i] = (i == j ? p : 0.0) + (r.stress[j][i] - (i == j ? p : 0.0)) * (yieldStress / equivalent);
    }
    glm::dvec3 w;
    glm::dmat3 V;
    symmetricEigen(r.stress, w, V);
    r.tensile = r.compressive = glm::dmat3(0.0);
    r.largestPrincipal = std::max(w.x, std::max(w.y, w.z));
    for (int k = 0; k < 3; ++k) {
        const glm::dvec3 n = glm::normalize(V[k]);
        (w[k] > 0 ? r.tensile : r.compressive) += w[k] * glm::outerProduct(n, n);
    }
    // (10)/(14)/(15): f_i = -vol/2 sum_j p_j sum_kl beta_jl beta_ik sigma_kl.
    auto nodal = [&](const glm::dmat3& s, int i) {
        glm::dvec3 f(0.0);
        for (int j = 0; j < 4; ++j) {
            double c = 0;
            for (int k = 0; k < 3; ++k)
                for (int l = 0; l < 3; ++l) c += beta[l][j] * beta[k][i] * s[l][k];
            f += x[j] * c;
        }
        return -0.5 * volume * f;
    };
    r.element = glm::dmat3(0.0);
    for (int i = 0; i < 4; ++i) {
        r.force[i] = nodal(r.stress, i);
        r.tensileForce[i] = nodal(r.tensile, i);
        r.compressiveForce[i] = nodal(r.compressive, i);
        r.element += 0.5 * (outerOverLength(r.tensileForce[i]) - outerOverLength(r.compressiveForce[i]));
    }
    return r;
}

double ductileDamage(const glm::dmat3& stress, double yieldStress, double ductility)
{
    double p;
    return std::max(0.0, vonMises(stress, p) / yieldStress - 1.0) / ductility;
}

std::vector<NodeTensor> nodeSeparation(const std::vector<glm::dvec3>& restNodes, const std::vector<glm::uvec4>& tets,
                                       const std::vector<glm::dvec3>& x, const std::vector<glm::dvec3>& v, const glm::dvec4& lame,
                                       bool eq16, double yieldStress)
{
    const size_t n = restNodes.size();
    std::vector<glm::dvec3> fp(n, glm::dvec3(0.0)), fm(n, glm::dvec3(0.0));
    std::vector<glm::dmat3> sum(n, glm::dmat3(0.0));
    std::vector<int> count(n, 0);
    for (const glm::uvec4& t : tets) {
        glm::dvec3 r[4], xs[4], vs[4];
        for (int i = 0; i < 4; ++i) {
            r[i] = restNodes[t[i]];
            xs[i] = x[t[i]];
            vs[i] = v[t[i]];
        }
        const TetStressResult s = tetStress(r, xs, vs, lame, yieldStress);
        for (int i = 0; i < 4; ++i) {
            fp[t[i]] += s.tensileForce[i];
            fm[t[i]] += s.compressiveForce[i];
            sum[t[i]] += eq16 ? outerOverLength(s.tensileForce[i]) - outerOverLength(s.compressiveForce[i]) : s.element;
            ++count[t[i]];
        }
    }
    std::vector<NodeTensor> out(n);
    for (size_t k = 0; k < n; ++k) {
        if (count[k] == 0) continue;
        out[k].tensor = eq16 ? 0.5 * (-outerOverLength(fp[k]) + outerOverLength(fm[k]) + sum[k]) : sum[k] / double(count[k]);
        largestEigen(out[k].tensor, out[k].w, out[k].v);
    }
    return out;
}

double tetGoalEnergy(const glm::dvec3 rest[4], const glm::dvec3 x[4], const double mass[4], double stiffness)
{
    double M = 0;
    glm::dvec3 c(0.0), c0(0.0);
    for (int i = 0; i < 4; ++i) {
        M += mass[i];
        c += mass[i] * x[i];
        c0 += mass[i] * rest[i];
    }
    c /= M;
    c0 /= M;
    glm::dmat3 A(0.0);
    for (int i = 0; i < 4; ++i) A += mass[i] * glm::outerProduct(x[i] - c, rest[i] - c0);
    // Polar rotation by Higham's iteration R <- (R + R^-T) / 2, which converges to the orthogonal
    // factor of an invertible A (a proper rotation for det A > 0).
    glm::dmat3 R = A;
    for (int k = 0; k < 100; ++k) {
        const glm::dmat3 next = 0.5 * (R + glm::transpose(glm::inverse(R)));
        double change = 0;
        for (int a = 0; a < 3; ++a) change += glm::length(next[a] - R[a]);
        R = next;
        if (change < 1e-14) break;
    }
    double U = 0;
    for (int i = 0; i < 4; ++i) {
        const glm::dvec3 C = x[i] - (c + R * (rest[i] - c0));
        U += 0.5 * (4.0 * stiffness * mass[i] / M) * glm::dot(C, C);
    }
    return U;
}

} // namespace floe::reference
