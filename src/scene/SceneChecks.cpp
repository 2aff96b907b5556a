// The checks a scene passes after it is read and after each change (validateScene): fluid
// blocks, solvers and steps the solids can be coupled with, and where the solids start (inside
// the domain, apart from each other and from the static meshes). Split from SceneLoader.cpp,
// which reads and overrides the file.
#include "scene/SceneLoader.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <fmt/format.h>
#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "base/Error.h"
#include "fracture/TetMesh.h"
#include "geometry/Mesh.h"

namespace floe {

namespace {
// Bodies of `section` (their surfaces, outward) start apart from the static meshes: a body one
// cuts, or that lies inside a closed one, is pushed out at any speed in its first step, or stays
// caught.
template <class Body> void checkApartFromStaticMeshes(const Scene& scene, const std::string& where, const char* section,
                                                      const std::vector<Body>& bodies,
                                                      const std::vector<geometry::TriangleMesh>& surfaces)
{
    const std::vector<geometry::TriangleMesh> walls = staticMeshes(scene);
    for (size_t i = 0; i < bodies.size(); ++i)
        for (size_t r = 0; r < walls.size(); ++r)
            if (geometry::meshesIntersect(surfaces[i], walls[r]))
                throw Error(fmt::format("{}: {}[{}] ({}) and RigidBodies[{}] ({}) intersect; expected bodies apart from the "
                                        "static meshes at the start",
                                        where, section, i, bodies[i].shape, r, scene.rigidBodies[r].mesh.name));
}

// Bodies of a section (DeformableBodies, FractureBodies) reaching outside a domain the scene gives
// are refused; `note` adds what the domain means for them.
template <class Body> void checkInsideDomain(const Scene& scene, const std::string& where, const char* section,
                                             const std::vector<Body>& bodies, const std::vector<geometry::Bounds>& bounds,
                                             const char* note)
{
    if (!scene.domainGiven()) return;
    glm::vec3 lo, hi;
    scene.domain(lo, hi);
    for (size_t i = 0; i < bodies.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            const float slack = 1e-5f * (hi[k] - lo[k]);
            if (bounds[i].lo[k] < lo[k] - slack || bounds[i].hi[k] > hi[k] + slack)
                throw Error(fmt::format("{}: {}[{}] ({}) reaches outside the domain on axis {}: it spans [{:.4g}, {:.4g}] m, "
                                        "Floe.domainMin/domainMax [{:.4g}, {:.4g}] m{}; expected a body inside it",
                                        where, section, i, bodies[i].shape, "xyz"[k], bounds[i].lo[k], bounds[i].hi[k], lo[k],
                                        hi[k], note));
        }
}

// Deformable bodies start inside the domain and apart: a body outside used to run to a 100 %
// volume error, and bodies inside each other are pushed apart at any speed in the first step.
void checkBodyPlacement(const Scene& scene, const std::string& where)
{
    const std::vector<DeformableBody>& bodies = scene.deformableBodies;
    std::vector<geometry::Bounds> bounds(bodies.size());
    for (size_t i = 0; i < bodies.size(); ++i) bounds[i] = geometry::boundsOf(bodies[i].mesh);
    checkInsideDomain(scene, where, "DeformableBodies", bodies, bounds, "");
    for (size_t i = 0; i < bodies.size(); ++i)
        for (size_t j = i + 1; j < bodies.size(); ++j) {
            if (!bounds[i].overlaps(bounds[j])) continue;
            const auto inside = [&](size_t a, size_t b) {
                for (const glm::vec3& v : bodies[a].mesh.vertices)
                    if (bounds[b].contains(v) && geometry::contains(bodies[b].mesh, v)) return true;
                return false;
            };
            if (inside(i, j) || inside(j, i))
                throw Error(fmt::format("{}: DeformableBodies[{}] ({}) and [{}] ({}) overlap; expected bodies apart at the start",
                                        where, i, bodies[i].shape, j, bodies[j].shape));
        }
    std::vector<geometry::TriangleMesh> surfaces;
    for (const DeformableBody& b : bodies) surfaces.push_back(b.mesh);
    checkApartFromStaticMeshes(scene, where, "DeformableBodies", bodies, surfaces);
    // The plate presses from above: a body reaching above its start is crushed through it in the
    // first step.
    const DeformableSettings& d = scene.deformable;
    if (d.plateStart > 0.0f)
        for (size_t i = 0; i < bodies.size(); ++i)
            if (bounds[i].hi.y > d.plateStart + 1e-5f * std::max(1.0f, std::abs(d.plateStart)))
                throw Error(fmt::format("{}: DeformableBodies[{}] ({}) reaches y = {:.4g} m, above Deformable.plateStart {:.4g} m; "
                                        "expected bodies below the plate at the start",
                                        where, i, bodies[i].shape, bounds[i].hi.y, d.plateStart));
    // The glass's wall (a cylinder of glassRadius around glassCentre, up to glassHeight above the
    // floor): a body must start wholly inside or wholly outside it below the rim.
    if (d.body.glassRadius > 0.0f) {
        glm::vec3 lo, hi;
        scene.domain(lo, hi);
        const float rim = lo.y + d.body.glassHeight;
        for (size_t i = 0; i < bodies.size(); ++i) {
            bool in = false, out = false;
            for (const glm::vec3& v : bodies[i].mesh.vertices) {
                if (v.y > rim) continue;
                const float r = glm::length(glm::vec2(v.x - d.body.glassCentre.x, v.z - d.body.glassCentre.z));
                (r < d.body.glassRadius ? in : out) = true;
            }
            if (in && out)
                throw Error(
                    fmt::format("{}: DeformableBodies[{}] ({}) crosses the glass's wall (radius {:.4g} m around x = {:.4g}, "
                                "z = {:.4g}, up to y = {:.4g} m); expected a body inside the glass, outside it or above its rim",
                                where, i, bodies[i].shape, d.body.glassRadius, d.body.glassCentre.x, d.body.glassCentre.z, rim));
        }
    }
}

// The radius of a fracture body's node spheres: Fracture.contactRadius times its mean tet edge
// (the mean over tets of their six edges' mean, as fracture::FractureBodies measures it).
float nodeContactRadius(const Scene& scene, const fracture::TetMesh& m)
{
    double edges = 0.0;
    for (const glm::uvec4& t : m.tets)
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b) edges += glm::length(m.nodes[t[b]] - m.nodes[t[a]]) / 6.0;
    return scene.fracture.fracture.contactRadius * float(edges / double(std::max<size_t>(m.tets.size(), 1)));
}

// Fracture bodies start apart and inside the domain (above its floor) when the scene gives one.
// Overlap: a node of one body inside a tet of another, found through a grid of the tets' boxes.
void checkFracturePlacement(const Scene& scene, const std::string& where)
{
    const std::vector<FractureBody>& bodies = scene.fractureBodies;
    std::vector<geometry::Bounds> bounds(bodies.size());
    for (size_t i = 0; i < bodies.size(); ++i)
        for (const glm::vec3& x : bodies[i].mesh.nodes) bounds[i].add(x);
    checkInsideDomain(scene, where, "FractureBodies", bodies, bounds, " (the floor is at domainMin.y)");
    const auto nodeInside = [&](const fracture::TetMesh& a, const fracture::TetMesh& b, const geometry::Bounds& box) {
        // Tets of b in cells of about two mean tet sizes; a node of a tests the tets of its cell.
        const glm::vec3 size = box.hi - box.lo;
        const float cell = std::max(2.0f * std::cbrt(std::max(size.x * size.y * size.z, 1e-30f) / float(b.tets.size())), 1e-6f);
        const glm::ivec3 dims = glm::clamp(glm::ivec3(size / cell) + 1, glm::ivec3(1), glm::ivec3(256));
        const glm::vec3 scale = glm::vec3(dims) / glm::max(size, glm::vec3(1e-30f));
        const auto cellOf = [&](const glm::vec3& x) {
            return glm::clamp(glm::ivec3((x - box.lo) * scale), glm::ivec3(0), dims - 1);
        };
        std::vector<std::vector<uint32_t>> cells(size_t(dims.x) * dims.y * dims.z);
        for (uint32_t t = 0; t < b.tets.size(); ++t) {
            geometry::Bounds tb;
            for (int k = 0; k < 4; ++k) tb.add(b.nodes[b.tets[t][k]]);
            const glm::ivec3 c0 = cellOf(tb.lo), c1 = cellOf(tb.hi);
            for (int z = c0.z; z <= c1.z; ++z)
                for (int y = c0.y; y <= c1.y; ++y)
                    for (int x = c0.x; x <= c1.x; ++x) cells[(size_t(z) * dims.y + y) * dims.x + x].push_back(t);
        }
        for (const glm::vec3& p : a.nodes) {
            if (!box.contains(p)) continue;
            const glm::ivec3 c = cellOf(p);
            for (uint32_t t : cells[(size_t(c.z) * dims.y + c.y) * dims.x + c.x]) {
                const glm::uvec4 tet = b.tets[t];
                const glm::vec3 x[4] = {b.nodes[tet[0]], b.nodes[tet[1]], b.nodes[tet[2]], b.nodes[tet[3]]};
                const double v = fracture::signedVolume(x[0], x[1], x[2], x[3]);
                // Inside: p on the inner side of all four faces, by more than a part in 1e6 of
                // the tet's volume (nodes on a shared face count as touching, not overlapping).
                const double eps = 1e-6 * std::abs(v);
                if (fracture::signedVolume(p, x[1], x[2], x[3]) > eps && fracture::signedVolume(x[0], p, x[2], x[3]) > eps &&
                    fracture::signedVolume(x[0], x[1], p, x[3]) > eps && fracture::signedVolume(x[0], x[1], x[2], p) > eps)
                    return true;
            }
        }
        return false;
    };
    // Contacts between bodies are node spheres of Fracture.contactRadius times each body's mean
    // edge (fracture/contacts): bodies whose nodes start closer than the two radii start in
    // contact, and are thrown apart in the first step (a glass pane laid 2 cm above two iron
    // blocks made 19 kJ of kinetic energy in one step).
    const fracture::FractureSettings& fs = scene.fracture.fracture;
    std::vector<float> reach(bodies.size(), 0.0f);
    for (size_t i = 0; i < bodies.size(); ++i) reach[i] = nodeContactRadius(scene, bodies[i].mesh);
    // The closest pair of nodes of two bodies closer than `limit`, through a hash of b's nodes.
    const auto closest = [](const fracture::TetMesh& a, const fracture::TetMesh& b, float limit) {
        std::unordered_map<uint64_t, std::vector<uint32_t>> cells;
        const auto key = [](const glm::ivec3& c) {
            return (uint64_t(uint32_t(c.x) & 0x1FFFFF) << 42) | (uint64_t(uint32_t(c.y) & 0x1FFFFF) << 21) |
                   uint64_t(uint32_t(c.z) & 0x1FFFFF);
        };
        const auto cellOf = [&](const glm::vec3& x) { return glm::ivec3(glm::floor(x / limit)); };
        for (uint32_t k = 0; k < b.nodes.size(); ++k) cells[key(cellOf(b.nodes[k]))].push_back(k);
        float best = limit;
        for (const glm::vec3& p : a.nodes) {
            const glm::ivec3 c = cellOf(p);
            for (int dz = -1; dz <= 1; ++dz)
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const auto it = cells.find(key(c + glm::ivec3(dx, dy, dz)));
                        if (it == cells.end()) continue;
                        for (uint32_t k : it->second) best = std::min(best, glm::length(p - b.nodes[k]));
                    }
        }
        return best;
    };
    for (size_t i = 0; i < bodies.size(); ++i)
        for (size_t j = i + 1; j < bodies.size(); ++j) {
            const float limit = reach[i] + reach[j];
            geometry::Bounds grown = bounds[j];
            grown.add(bounds[j].lo - glm::vec3(limit));
            grown.add(bounds[j].hi + glm::vec3(limit));
            if (!bounds[i].overlaps(grown)) continue;
            if (nodeInside(bodies[i].mesh, bodies[j].mesh, bounds[j]) || nodeInside(bodies[j].mesh, bodies[i].mesh, bounds[i]))
                throw Error(fmt::format("{}: FractureBodies[{}] ({}) and [{}] ({}) overlap; expected bodies apart at the start",
                                        where, i, bodies[i].shape, j, bodies[j].shape));
            if (!fs.contacts || !(limit > 0.0f)) continue;
            const float gap = closest(bodies[i].mesh, bodies[j].mesh, limit);
            if (gap < limit)
                throw Error(fmt::format("{}: FractureBodies[{}] ({}) and [{}] ({}) have nodes {:.4g} m apart at the start, within "
                                        "their contact spheres' reach of {:.4g} m (Fracture.contactRadius {} x each body's mean "
                                        "tet edge); expected them at least that far apart, so that they do not start in contact",
                                        where, i, bodies[i].shape, j, bodies[j].shape, gap, limit, fs.contactRadius));
        }
    // Static meshes (fracture/obstacles): the tets' boundary faces are the bodies' surfaces.
    std::vector<geometry::TriangleMesh> surfaces;
    if (!scene.rigidBodies.empty())
        for (const FractureBody& b : bodies) surfaces.push_back({b.mesh.nodes, fracture::boundaryFaces(b.mesh), b.shape});
    checkApartFromStaticMeshes(scene, where, "FractureBodies", bodies, surfaces);
}
// The distance from p to triangle abc (Ericson, Real-Time Collision Detection 5.1.5).
float triangleDistance(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c)
{
    const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
    const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return glm::length(p - a);
    const glm::vec3 bp = p - b;
    const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return glm::length(p - b);
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return glm::length(p - (a + d1 / (d1 - d3) * ab));
    const glm::vec3 cp = p - c;
    const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return glm::length(p - c);
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return glm::length(p - (a + d2 / (d2 - d6) * ac));
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return glm::length(p - (b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b)));
    const float denom = 1.0f / (va + vb + vc);
    return glm::length(p - (a + ab * (vb * denom) + ac * (vc * denom)));
}

// Deformable and fracture bodies start apart: no vertex of one inside the other's closed surface
// (a fracture body's: its tets' boundary faces), and farther apart than the contact distance
// between the kinds (coupling/SolidContacts: the smaller of half the finest deformable body's mean
// edge and the finest fracture body's node spheres), which would push them apart in the first step.
void checkKindsApart(const Scene& scene, const std::string& where)
{
    float deformable = HUGE_VALF, fractured = HUGE_VALF;
    for (const DeformableBody& d : scene.deformableBodies) {
        double sum = 0.0;
        for (const glm::uvec3& t : d.mesh.triangles)
            for (int k = 0; k < 3; ++k) sum += glm::length(d.mesh.vertices[t[(k + 1) % 3]] - d.mesh.vertices[t[k]]);
        if (!d.mesh.triangles.empty()) deformable = std::min(deformable, float(0.5 * sum / (3.0 * d.mesh.triangles.size())));
    }
    for (const FractureBody& f : scene.fractureBodies)
        if (!f.mesh.tets.empty()) fractured = std::min(fractured, nodeContactRadius(scene, f.mesh));
    const float reach = std::min(deformable, fractured);
    for (size_t j = 0; j < scene.fractureBodies.size(); ++j) {
        const FractureBody& f = scene.fractureBodies[j];
        const geometry::TriangleMesh surface{f.mesh.nodes, fracture::boundaryFaces(f.mesh), f.shape};
        const geometry::Bounds fb = geometry::boundsOf(surface);
        geometry::Bounds grown = fb;
        grown.add(fb.lo - glm::vec3(reach));
        grown.add(fb.hi + glm::vec3(reach));
        for (size_t i = 0; i < scene.deformableBodies.size(); ++i) {
            const DeformableBody& d = scene.deformableBodies[i];
            const geometry::Bounds db = geometry::boundsOf(d.mesh);
            if (!db.overlaps(grown)) continue;
            bool overlap = false;
            for (const glm::vec3& v : d.mesh.vertices) overlap = overlap || (fb.contains(v) && geometry::contains(surface, v));
            for (const glm::vec3& v : f.mesh.nodes) overlap = overlap || (db.contains(v) && geometry::contains(d.mesh, v));
            if (overlap)
                throw Error(fmt::format("{}: DeformableBodies[{}] ({}) and FractureBodies[{}] ({}) overlap; expected bodies apart "
                                        "at the start",
                                        where, i, d.shape, j, f.shape));
            // The closest vertex to a face, among the vertices near the fracture body.
            float gap = reach;
            for (const glm::vec3& v : d.mesh.vertices) {
                if (!grown.contains(v)) continue;
                for (const glm::uvec3& t : surface.triangles)
                    gap = std::min(gap, triangleDistance(v, surface.vertices[t.x], surface.vertices[t.y], surface.vertices[t.z]));
            }
            if (gap < reach)
                throw Error(
                    fmt::format("{}: DeformableBodies[{}] ({}) comes within {:.4g} m of FractureBodies[{}] ({}) at the start, "
                                "closer than the {:.4g} m the two kinds keep between them (the smaller of half the finest "
                                "deformable body's mean edge and Fracture.contactRadius x the finest fracture body's mean "
                                "tet edge); expected them at least that far apart",
                                where, i, d.shape, gap, j, f.shape, reach));
        }
    }
}
} // namespace

void validateScene(const Scene& scene, const std::string& where)
{
    const bool withFluid = !scene.fluidBlocks.empty() || !scene.fluidModels.empty();
    // Coupled (coupling/FluidSolidCoupling): DFSPH, IISPH and WCSPH. PCISPH and PBF were coupled
    // in trials and exchanged momentum exactly, but floating bodies sat a third too deep
    // (docs/coupling.md). (One step for both: fixed, or chosen by the world under cflMethod,
    // app/RunWorld.)
    const auto checkCoupledSolver = [&](const char* solids) {
        const sim::PressureSolver solver = scene.sph.pressureSolver();
        if (solver == sim::PressureSolver::Pcisph || solver == sim::PressureSolver::Pbf)
            throw Error(fmt::format("{}: Configuration.simulationMethod: {} with {}; expected DFSPH, IISPH or an equation of "
                                    "state (WCSPH), the solvers coupled with solids (with PCISPH and PBF, floating bodies "
                                    "sat about a third too deep: docs/coupling.md)",
                                    where, sim::pressureSolverTitle(solver), solids));
    };
    const bool bothKinds = !scene.fractureBodies.empty() && !scene.deformableBodies.empty();
    if (!scene.fractureBodies.empty()) {
        if (withFluid) {
            checkCoupledSolver("FractureBodies");
            if (scene.config.sim2D)
                throw Error(fmt::format("{}: FractureBodies with a 2D fluid (Configuration.sim2D); expected a 3D scene: the "
                                        "fracture bodies are tetrahedral",
                                        where));
        }
        checkFracturePlacement(scene, where);
        if (!bothKinds) return;
    }
    if (!scene.deformableBodies.empty()) {
        if (withFluid) checkCoupledSolver("DeformableBodies");
        const DeformableSettings& d = scene.deformable;
        if (d.plateSpeed > 0.0f && d.plateEnd >= d.plateStart)
            throw Error(
                fmt::format("{}: Deformable.plateEnd {} m must lie below plateStart {} m", where, d.plateEnd, d.plateStart));
        checkBodyPlacement(scene, where);
        if (bothKinds) checkKindsApart(scene, where);
        return;
    }
    if (scene.fluidBlocks.empty() && scene.fluidModels.empty())
        throw Error(fmt::format("{}: FluidBlocks: expected at least one block of particles (or FluidModels, DeformableBodies or "
                                "FractureBodies){}",
                                where,
                                scene.ignoredFluidSources.empty()
                                    ? ""
                                    : fmt::format("; the scene's fluid comes from {}, which Floe does not have",
                                                  fmt::join(scene.ignoredFluidSources, ", "))));
    const float r = scene.config.particleRadius;
    for (size_t i = 0; i < scene.fluidBlocks.size(); ++i) {
        const FluidBlock& b = scene.fluidBlocks[i];
        const int dims = scene.config.sim2D ? 2 : 3;
        for (int k = 0; k < dims; ++k)
            if (b.end[k] <= b.start[k])
                throw Error(fmt::format("{}: FluidBlocks[{}]: end[{}] = {} must be greater than start[{}] = {}", where, i, k,
                                        b.end[k], k, b.start[k]));
    }
    const uint64_t count = countFluidParticles(scene);
    if (count == 0)
        throw Error(fmt::format("{}: FluidBlocks: the blocks hold no particle of radius {} m (sampled as SPlisHSPlasH: round(side "
                                "/ 2r) - 1 particles per axis, at least 2, so each side must be at least 3 x 2r = {} m)",
                                where, r, 6 * r));
    // Far beyond what any device holds: refuse before anything is allocated. The device's own
    // limits are checked by the simulation when it sizes its buffers.
    if (count > (1ull << 31))
        throw Error(fmt::format("{}: the fluid blocks hold {} particles at particleRadius {} m; Floe handles at most 2^31", where,
                                count, r));
    if (scene.sph.cflMinTimeStepSize > scene.sph.cflMaxTimeStepSize)
        throw Error(fmt::format("{}: Configuration.cflMinTimeStepSize {} s exceeds cflMaxTimeStepSize {} s", where,
                                scene.sph.cflMinTimeStepSize, scene.sph.cflMaxTimeStepSize));
    if (scene.sph.minIterations > scene.sph.maxIterations)
        throw Error(fmt::format("{}: Floe.minIterations {} exceeds Configuration.maxIterations {}", where, scene.sph.minIterations,
                                scene.sph.maxIterations));
    try {
        (void)scene.sph.pressureSolver();
    } catch (const Error& e) {
        throw Error(fmt::format("{}: Floe.solver: {}", where, e.what()));
    }
    if (scene.domainGiven()) {
        for (int k = 0; k < (scene.config.sim2D ? 2 : 3); ++k)
            if (scene.floe.domainMax[k] - scene.floe.domainMin[k] < 2 * r)
                throw Error(
                    fmt::format("{}: Floe.domainMax[{}] must exceed Floe.domainMin[{}] by at least 2r = {} m", where, k, k, 2 * r));
        glm::vec3 lo, hi;
        scene.domain(lo, hi);
        for (size_t i = 0; i < scene.fluidBlocks.size(); ++i) {
            const FluidBlock& b = scene.fluidBlocks[i];
            const glm::vec3 a = glm::min(b.start * b.scale + b.translation, b.end * b.scale + b.translation);
            const glm::vec3 c = glm::max(b.start * b.scale + b.translation, b.end * b.scale + b.translation);
            for (int k = 0; k < (scene.config.sim2D ? 2 : 3); ++k)
                if (a[k] < lo[k] - 1e-5f || c[k] > hi[k] + 1e-5f)
                    throw Error(fmt::format("{}: FluidBlocks[{}] reaches outside the domain Floe.domainMin/domainMax on axis {}",
                                            where, i, "xyz"[k]));
        }
        for (size_t i = 0; i < scene.fluidModels.size(); ++i)
            for (const glm::vec3& x : scene.fluidModels[i].points)
                for (int k = 0; k < (scene.config.sim2D ? 2 : 3); ++k)
                    if (x[k] < lo[k] - 1e-5f || x[k] > hi[k] + 1e-5f)
                        throw Error(fmt::format("{}: FluidModels[{}] has particles outside the domain Floe.domainMin/domainMax on "
                                                "axis {}",
                                                where, i, "xyz"[k]));
    }
}

} // namespace floe
