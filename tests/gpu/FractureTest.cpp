// Tetrahedral bodies with fracture on the GPU (src/fracture/FractureBodies): dynamics, the
// fracture methods, node duplication and fragments, against CPU checks (digest-004 §8).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>

#include <fmt/format.h>
#include <glm/gtc/matrix_transform.hpp>

#include "FractureReference.h"
#include "GpuTest.h"
#include "Triangle.h"
#include "fracture/FractureBodies.h"
#include "fracture/Pieces.h"
#include "fracture/TetShapes.h"
#include "shared/fracture.h"

using namespace floe;
using namespace floe::fracture;

namespace {

FractureBodyInstance body(TetShape shape, int resolution, const char* material, glm::vec3 at, float angle = 0.0f,
                          glm::vec3 size = glm::vec3(1.0f))
{
    TetShapeDesc d;
    d.shape = shape;
    d.resolution = resolution;
    d.size = size;
    FractureBodyInstance b;
    b.mesh = makeTetShape(d);
    const glm::mat3 R = glm::mat3(glm::rotate(glm::mat4(1.0f), angle, glm::normalize(glm::vec3(1.0f, 0.3f, 0.6f))));
    for (glm::vec3& x : b.mesh.nodes) x = R * x + at;
    b.material = *materialPreset(material);
    b.material.phi *= 1e-6f; // Floe's default damping time (docs/fracture.md)
    b.material.psi *= 1e-6f;
    b.youngsModulus = dynamicsStiffness(b.material); // as scenes do
    return b;
}

// A body stretched by `strain` along `axis` about its centre (the start of a free flight).
void stretch(FractureBodyInstance& b, glm::vec3 axis, float strain)
{
    glm::vec3 c(0.0f);
    for (const glm::vec3& x : b.mesh.nodes) c += x / float(b.mesh.nodes.size());
    for (const glm::vec3& x : b.mesh.nodes) b.initial.push_back(x + strain * glm::dot(x - c, axis) * axis);
}

// An axis-aligned box as a closed triangle mesh, outward normals (two triangles per face).
geometry::TriangleMesh boxMesh(glm::vec3 lo, glm::vec3 hi)
{
    geometry::TriangleMesh m;
    for (int k = 0; k < 8; ++k) m.vertices.emplace_back(k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z);
    // Faces as corner quads, counter-clockwise seen from outside.
    const glm::uvec4 faces[6] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (const glm::uvec4& f : faces) {
        m.triangles.push_back({f.x, f.y, f.z});
        m.triangles.push_back({f.x, f.z, f.w});
    }
    m.name = "box";
    return m;
}

// A world without walls nearby: free flight. The tau scale makes a 5 % stretch of glass (a load
// of about 0.02 tau at scale 1) break; the calibrated default is for impacts.
FractureSettings freeFlight()
{
    FractureSettings s;
    s.domainMin = glm::vec3(-100.0f);
    s.domainMax = glm::vec3(100.0f);
    s.tauScale = 100.0f;
    return s;
}

struct Snapshot {
    std::vector<glm::uvec4> tets;
    std::vector<glm::vec4> positions, nodeData;
    std::vector<uint32_t> labels;
};

class FractureTest : public test::GpuTest {
protected:
    FractureReport run(FractureBodies& bodies, int steps)
    {
        FractureReport r = bodies.report();
        for (int i = 0; i < steps; ++i) {
            bodies.addStep(graph());
            submit();
            r = bodies.afterStep(graph());
        }
        return r;
    }
    // The metrics of the state as it is (FractureBodies::addMetrics), or of a step recorded with it.
    FractureMetrics measure(FractureBodies& bodies, bool step = false)
    {
        gpu::Buffer readback(context(), {"test fracture metrics", sizeof(FractureMetrics), gpu::MemoryKind::Readback});
        if (step) bodies.addStep(graph());
        bodies.addMetrics(graph(), glm::vec3(-1e3f), glm::vec3(1e3f), readback);
        graph().addHostRead(readback);
        submit();
        if (step) bodies.afterStep(graph());
        return readback.readVector<FractureMetrics>(1)[0];
    }
    // World positions: each node's position relative to its fragment's origin, plus the origin.
    std::vector<glm::vec4> worldPositions(FractureBodies& bodies)
    {
        std::vector<glm::vec4> x = download<glm::vec4>(bodies.positions(), bodies.nodeCount());
        const std::vector<glm::vec4> o = download<glm::vec4>(bodies.origins(), bodies.nodeCount());
        for (size_t n = 0; n < x.size(); ++n) x[n] += glm::vec4(glm::vec3(o[n]), 0.0f);
        return x;
    }
    // What fracture/wall_approach and obstacle_approach read after a step: the nodes' world
    // positions and velocities, the step T, the largest mean edge (the margin), the tolerance per
    // substep as a speed and |g|; reach(n) = |v_n| T + |g| T^2 / 2 + the edge.
    struct Approach {
        std::vector<glm::vec4> x, v;
        double step = 0.0, edge = 0.0, speed = 0.0, g = 0.0;
        double reach(size_t n) const { return glm::length(glm::dvec3(v[n])) * step + 0.5 * g * step * step + edge; }
    };
    Approach approach(FractureBodies& bodies, const FractureSettings& s)
    {
        Approach a;
        a.x = worldPositions(bodies);
        a.v = download<glm::vec4>(bodies.velocities(), bodies.nodeCount());
        a.edge = download<glm::vec4>(bodies.bodyInfo(), 1)[0].w;
        a.step = s.timeStep;
        a.speed = s.wallTolerance * a.edge / (a.step / s.substeps);
        a.g = glm::length(s.gravity);
        return a;
    }
    Snapshot snapshot(FractureBodies& bodies)
    {
        Snapshot s;
        s.tets = download<glm::uvec4>(bodies.tets(), bodies.tetCount());
        s.positions = worldPositions(bodies);
        s.nodeData = download<glm::vec4>(bodies.nodeData(), bodies.nodeCount());
        s.labels = download<uint32_t>(bodies.labels(), bodies.nodeCount());
        return s;
    }
    // Checks the topology after cuts against the CPU: every tet's nodes carry one label, the
    // GPU's fragment count is the number of connected components, mass is conserved.
    void checkFragments(const Snapshot& s, uint32_t fragments, double mass)
    {
        TetMesh m;
        for (const glm::vec4& x : s.positions) m.nodes.emplace_back(x);
        m.tets = s.tets;
        EXPECT_EQ(componentCount(m), fragments);
        for (const glm::uvec4& t : s.tets)
            for (int i = 1; i < 4; ++i) ASSERT_EQ(s.labels[t[i]], s.labels[t[0]]) << "a tet spans two fragments";
        double total = 0;
        for (const glm::vec4& d : s.nodeData) total += d.y;
        EXPECT_NEAR(total, mass, 1e-5 * mass) << "cuts must conserve mass";
        std::vector<int> used(s.positions.size(), 0);
        for (const glm::uvec4& t : s.tets)
            for (int i = 0; i < 4; ++i) used[t[i]] = 1;
        EXPECT_EQ(std::accumulate(used.begin(), used.end(), 0), int(s.positions.size())) << "every node belongs to a tet";
    }
};

// Two runs of one seeded setup: the same fragments and cuts, and bit-identical meshes.
void expectIdentical(const std::vector<FractureReport>& reports, const std::vector<Snapshot>& runs)
{
    EXPECT_EQ(reports[0].fragments, reports[1].fragments);
    EXPECT_EQ(reports[0].cuts, reports[1].cuts);
    ASSERT_EQ(runs[0].positions.size(), runs[1].positions.size());
    EXPECT_EQ(runs[0].tets, runs[1].tets);
    EXPECT_EQ(runs[0].labels, runs[1].labels);
    for (size_t n = 0; n < runs[0].positions.size(); ++n) ASSERT_EQ(runs[0].positions[n], runs[1].positions[n]) << "node " << n;
}

double bodyMass(const FractureBodyInstance& b)
{
    double v = 0;
    for (size_t t = 0; t < b.mesh.tets.size(); ++t) v += signedVolume(b.mesh, t);
    return v * b.density;
}

} // namespace

TEST_F(FractureTest, FreeFallNeverFracturesAndFollowsGravity)
{
    FractureSettings s = freeFlight();
    s.evaluateEveryStep = true; // even evaluated every step, a free body carries no load
    FractureBodyInstance b = body(TetShape::Sphere, 6, "ceramic", glm::vec3(0.0f, 5.0f, 0.0f), 0.4f);
    b.angularVelocity = glm::vec3(0.0f, 0.0f, 1.0f);
    FractureBodies bodies(context(), shaders(), graph(), {b}, s);
    auto centreY = [&] {
        const Snapshot snap = snapshot(bodies);
        double y = 0, m = 0;
        for (size_t n = 0; n < snap.positions.size(); ++n) {
            y += snap.nodeData[n].y * snap.positions[n].y;
            m += snap.nodeData[n].y;
        }
        return y / m;
    };
    // The mass centre of the lattice sphere is 13 mm from its translation; the fall is measured
    // from where it starts.
    const double y0 = centreY();
    const int steps = 30;
    const FractureReport r = run(bodies, steps);
    EXPECT_EQ(r.events, 0u);
    EXPECT_EQ(r.fragments, 1u);
    EXPECT_LT(r.maxLoad, 1e-3f);
    // Symplectic Euler over substeps: y = y0 - g t^2 / 2 - g dt t / 2 (2 mm here), to 3.5 um. The
    // 4 mm this test allowed came from the start, not from rounding: the spin was about the nodes'
    // mean, 13 mm from the centre of mass, which gave the sphere 1.3 cm/s of momentum.
    const double t = steps * s.timeStep, dt = s.timeStep / s.substeps;
    EXPECT_NEAR(centreY(), y0 - 0.5 * 10.0 * t * t - 0.5 * 10.0 * dt * t, 1e-4);
}

// A free body spinning about a tilted axis (no gravity, no walls): the tet constraints are
// internal forces, so its momentum, angular momentum and kinetic energy stay. The first version
// of tet_goals (plain centroids, the deformation gradient's rotation, one compliance for nodes
// of unequal mass) changed this body's momentum by 10 % and its angular momentum by 20 % in 14
// steps and spun a faster one (21 rad/s) into an explosion. Positions in world coordinates then
// lost the spin's corrections to float rounding far from the origin (5 m: 3 % of the momentum
// and angular momentum and 1.4 % of the energy in 30 steps; 50 m: the energy swung by a third
// within 2 s); relative to the fragment's origin (fracture/recentre) the body behaves alike at
// 5, 50 and 500 m. The tet sweep's float rounding then still drifted its momentum by 1-3 % and
// gave it up to 2.9 % of its energy in 30 steps; with the sweep's net momentum and torque taken
// back and the substep's displacements kept apart from the positions (fracture/tet_goals,
// fracture/finish) it behaves identically at 0, 5, 50 and 500 m: momentum kept to float
// precision, angular momentum within 0.16 %, 0.18 % of the energy lost (the implicit solve's
// damping) and none gained. The energy is kinetic plus elastic (the spin stretches the body).
TEST_F(FractureTest, FreeSpinningBodyKeepsMomentumAngularMomentumAndEnergy)
{
    for (const float far : {0.0f, 5.0f, 50.0f, 500.0f}) {
        SCOPED_TRACE(fmt::format("{} m from the origin", far));
        FractureSettings s = freeFlight();
        s.domainMin = glm::vec3(-1000.0f);
        s.domainMax = glm::vec3(1000.0f);
        s.gravity = glm::vec3(0.0f);
        s.method = FractureMethod::None;
        FractureBodyInstance b = body(TetShape::Cuboid, 6, "iron", glm::vec3(far, 5.0f, 0.0f), 0.7f, glm::vec3(2.0f, 0.6f, 1.0f));
        b.velocity = glm::vec3(1.0f, 0.0f, -0.5f);
        b.angularVelocity = glm::vec3(0.3f, 2.0f, 0.5f);
        FractureBodies bodies(context(), shaders(), graph(), {b}, s);
        struct Totals {
            glm::dvec3 momentum{0.0}, angular{0.0};
            double energy = 0;
        };
        // One fragment, one origin: the angular momentum from the positions relative to it.
        auto totals = [&] {
            const std::vector<glm::vec4> x = download<glm::vec4>(bodies.positions(), bodies.nodeCount());
            const std::vector<glm::vec4> v = download<glm::vec4>(bodies.velocities(), bodies.nodeCount());
            const std::vector<glm::vec4> data = download<glm::vec4>(bodies.nodeData(), bodies.nodeCount());
            Totals t;
            glm::dvec3 centre(0.0);
            double mass = 0;
            for (size_t n = 0; n < x.size(); ++n) {
                centre += double(data[n].y) * glm::dvec3(x[n]);
                mass += data[n].y;
            }
            centre /= mass;
            for (size_t n = 0; n < x.size(); ++n) {
                const glm::dvec3 p = double(data[n].y) * glm::dvec3(v[n]);
                t.momentum += p;
                t.angular += glm::cross(glm::dvec3(x[n]) - centre, p);
            }
            // Kinetic plus elastic: the spin stretches the body, and the stretch rings.
            const FractureMetrics m = measure(bodies);
            t.energy = double(m.kinetic) + double(m.elastic);
            return t;
        };
        const Totals start = totals();
        double momentum = 0, angular = 0, energy = 0, gained = 0;
        for (int step = 1; step <= 30; ++step) {
            run(bodies, 1);
            const Totals now = totals();
            momentum = std::max(momentum, glm::length(now.momentum - start.momentum) / glm::length(start.momentum));
            angular = std::max(angular, glm::length(now.angular - start.angular) / glm::length(start.angular));
            energy = std::max(energy, (start.energy - now.energy) / start.energy);
            gained = std::max(gained, (now.energy - start.energy) / start.energy);
        }
        std::printf("spinning body %g m out, 30 steps: momentum %.3f %%, angular momentum %.3f %%, energy lost %.3f %%, "
                    "gained %.3f %%\n",
                    far, 100.0 * momentum, 100.0 * angular, 100.0 * energy, 100.0 * gained);
        EXPECT_LT(momentum, 1e-5);
        EXPECT_LT(angular, 0.005);
        EXPECT_LT(energy, 0.005); // issue 17 item 4: within 0.5 % at 50 and 500 m
        EXPECT_LT(gained, 1e-4);
    }
}

// The tet sweep is internal forces: a free stretched bar ringing and a free spinning cuboid keep
// their momentum. The float rounding of the goal offsets (differences of 0.1 m) used to leave a
// net of about 1e-8 m per corner of one sign for a given pose, and the bar gained 2.5 kg m/s per
// step (a 1200 kg body, 20 substeps), the spinning one 2.3; fracture/tet_goals now takes back the
// net momentum and torque each tet's correction has in float (zero in exact arithmetic).
TEST_F(FractureTest, FreeFlightKeepsItsMomentum)
{
    for (const bool spinning : {false, true}) {
        FractureSettings s = freeFlight();
        s.domainMin = glm::vec3(-1000.0f);
        s.domainMax = glm::vec3(1000.0f);
        s.gravity = glm::vec3(0.0f);
        s.method = FractureMethod::None;
        FractureBodyInstance b =
            body(TetShape::Cuboid, 6, "iron", glm::vec3(0.0f), spinning ? 0.7f : 0.0f, glm::vec3(2.0f, 0.6f, 1.0f));
        if (spinning)
            b.angularVelocity = glm::vec3(0.3f, 2.0f, 0.5f);
        else
            stretch(b, glm::vec3(1.0f, 0.0f, 0.0f), 0.05f);
        FractureBodies bodies(context(), shaders(), graph(), {b}, s);
        const auto momentum = [&] {
            const std::vector<glm::vec4> v = download<glm::vec4>(bodies.velocities(), bodies.nodeCount());
            const std::vector<glm::vec4> d = download<glm::vec4>(bodies.nodeData(), bodies.nodeCount());
            glm::dvec3 p(0.0);
            for (size_t n = 0; n < v.size(); ++n) p += double(d[n].y) * glm::dvec3(v[n]);
            return p;
        };
        const glm::dvec3 start = momentum();
        double worst = 0;
        for (int step = 0; step < 3; ++step) {
            run(bodies, 1);
            worst = std::max(worst, glm::length(momentum() - start));
        }
        SCOPED_TRACE(spinning ? "spinning cuboid" : "stretched bar");
        EXPECT_LT(worst, 0.01) << "kg m/s, a body of " << bodyMass(b) << " kg";
    }
}

TEST_F(FractureTest, StretchedBodyBreaksOrthogonalToTheStretchIntoTwoFragments)
{
    // A planar cut of a convex mesh (secondary splits without secondary cuts: one global cut).
    FractureSettings s = freeFlight();
    s.evaluateEveryStep = true;
    s.maxIterations = 0;
    // A bar along x, stretched along x: the crack runs across it.
    const glm::vec3 axis(1.0f, 0.0f, 0.0f);
    FractureBodyInstance b = body(TetShape::Cuboid, 12, "glass", glm::vec3(0.0f, 5.0f, 0.0f), 0.0f, glm::vec3(3.0f, 1.0f, 1.0f));
    stretch(b, axis, 0.05f);
    FractureBodies bodies(context(), shaders(), graph(), {b}, s);
    const FractureReport r = run(bodies, 1);
    ASSERT_EQ(r.events, 1u) << "largest load " << r.maxLoad << " tau";
    EXPECT_EQ(r.cuts, 1u);
    EXPECT_EQ(r.fragments, 2u);
    const Snapshot snap = snapshot(bodies);
    checkFragments(snap, r.fragments, bodyMass(b));
    // The pieces separate along the stretch: the line between their centroids follows the axis.
    std::map<uint32_t, glm::dvec4> sum; // per fragment: mass-weighted position, mass
    for (size_t n = 0; n < snap.positions.size(); ++n)
        sum[snap.labels[n]] += glm::dvec4(glm::dvec3(snap.positions[n]) * double(snap.nodeData[n].y), snap.nodeData[n].y);
    ASSERT_EQ(sum.size(), 2u);
    const glm::dvec4 a = sum.begin()->second, c = std::next(sum.begin())->second;
    const glm::dvec3 d = glm::normalize(glm::dvec3(a) / a.w - glm::dvec3(c) / c.w);
    EXPECT_GT(std::abs(glm::dot(d, glm::dvec3(axis))), 0.9) << "the crack is not orthogonal to the stretch";
}

TEST_F(FractureTest, SecondarySplitsMakeOneMoreCutThanTheIterationLimit)
{
    for (uint32_t limit : {1u, 3u}) {
        FractureSettings s = freeFlight();
        s.evaluateEveryStep = true;
        s.maxIterations = limit;
        s.tauScale = 1e3f; // every crack node qualifies for a secondary cut
        FractureBodyInstance b = body(TetShape::Cube, 6, "glass", glm::vec3(0.0f, 5.0f, 0.0f));
        stretch(b, glm::vec3(0.0f, 1.0f, 0.0f), 0.05f);
        FractureBodies bodies(context(), shaders(), graph(), {b}, s);
        const FractureReport r = run(bodies, 1);
        EXPECT_EQ(r.events, 1u);
        EXPECT_EQ(r.cuts, limit + 1) << "limit " << limit;
        EXPECT_GE(r.fragments, limit + 2);
        checkFragments(snapshot(bodies), r.fragments, bodyMass(b));
    }
}

TEST_F(FractureTest, RadiusCutsStayWithinTheRadiusAndFragmentsMatchComponents)
{
    FractureSettings s = freeFlight();
    s.method = FractureMethod::Radius;
    s.evaluateEveryStep = true;
    s.maxIterations = 3;
    s.radiusFactor = 1.0f;
    FractureBodyInstance b = body(TetShape::Cuboid, 10, "glass", glm::vec3(0.0f, 5.0f, 0.0f));
    stretch(b, glm::vec3(1.0f, 0.0f, 0.0f), 0.05f);
    FractureBodies bodies(context(), shaders(), graph(), {b}, s);
    const FractureReport r = run(bodies, 1);
    ASSERT_EQ(r.events, 1u);
    EXPECT_GE(r.cuts, 1u);
    const Snapshot snap = snapshot(bodies);
    checkFragments(snap, r.fragments, bodyMass(b));
    // A radius crack does not sever the whole bar at once (the secondary-split cut would).
    EXPECT_GT(snap.positions.size(), b.mesh.nodes.size());
}

TEST_F(FractureTest, ConnectedRadiusCutsOnlyWhatItReachesWithinTheRadius)
{
    // The same stretched bar and cut budget: radius_connected classifies a subset of the tets
    // Radius classifies (those reached from the node within the radius), so it duplicates at
    // most as many nodes; both leave a valid topology.
    uint32_t added[2] = {0, 0};
    for (int connected = 0; connected < 2; ++connected) {
        FractureSettings s = freeFlight();
        s.method = connected ? FractureMethod::RadiusConnected : FractureMethod::Radius;
        s.evaluateEveryStep = true;
        s.maxIterations = 3;
        s.radiusFactor = 2.0f;
        FractureBodyInstance b =
            body(TetShape::Cuboid, 10, "glass", glm::vec3(0.0f, 5.0f, 0.0f), 0.0f, glm::vec3(2.0f, 1.0f, 1.0f));
        stretch(b, glm::vec3(1.0f, 0.0f, 0.0f), 0.05f);
        FractureBodies bodies(context(), shaders(), graph(), {b}, s);
        const FractureReport r = run(bodies, 1);
        EXPECT_GE(r.cuts, 1u) << (connected ? "radius_connected" : "radius");
        checkFragments(snapshot(bodies), r.fragments, bodyMass(b));
        added[connected] = bodies.nodeCount() - uint32_t(b.mesh.nodes.size());
    }
    EXPECT_GT(added[1], 0u);
    EXPECT_LE(added[1], added[0]);
}

TEST_F(FractureTest, DroppedIronCubeDeformsWithoutBreakingWhileGlassBreaks)
{
    // digest-004 §8: the iron cube (tau 24.82, secondary splits) survives the drop from
    // height 5 under gravity 10; glass (tau 6.01) breaks. Default settings, seeded orientation.
    std::map<std::string, FractureReport> result;
    for (const char* material : {"iron", "glass"}) {
        FractureSettings s;
        s.domainMin = glm::vec3(-10.0f, 0.0f, -10.0f);
        s.domainMax = glm::vec3(10.0f, 20.0f, 10.0f);
        FractureBodies bodies(context(), shaders(), graph(), {body(TetShape::Cube, 6, material, glm::vec3(0.0f, 5.0f, 0.0f), 0.7f)},
                              s);
        result[material] = run(bodies, 84);
        if (std::string(material) == "glass") checkFragments(snapshot(bodies), result[material].fragments, 1000.0);
    }
    EXPECT_EQ(result["iron"].events, 0u) << "largest load " << result["iron"].maxLoad;
    EXPECT_EQ(result["iron"].fragments, 1u);
    EXPECT_GE(result["glass"].events, 1u);
    EXPECT_GE(result["glass"].fragments, 2u);
}

// A ductile body's nodes crack only once a tet at them has spent its ductility: the same iron
// drop with a tau scale that loads it far beyond tau holds with iron's ductility (200 yield
// strains; with the rounds that go on at impacts, the drop's largest damage is 0.68 of it) and
// breaks with a ductility of 0.05. Every node's criterion is min(peak load,
// largest damage of its tets x tau), checked against the CPU from the downloaded buffers.
TEST_F(FractureTest, DuctileNodesCrackOnlyOnceTheirDuctilityIsSpent)
{
    std::map<float, FractureReport> result;
    for (float ductility : {200.0f, 0.05f}) {
        FractureSettings s;
        s.domainMin = glm::vec3(-10.0f, 0.0f, -10.0f);
        s.domainMax = glm::vec3(10.0f, 20.0f, 10.0f);
        s.tauScale = 1200.0f;
        FractureBodyInstance iron = body(TetShape::Cube, 6, "iron", glm::vec3(0.0f, 5.0f, 0.0f), 0.7f);
        ASSERT_GT(iron.material.yield, 0.0f);
        iron.material.ductility = ductility;
        FractureBodies bodies(context(), shaders(), graph(), {iron}, s);
        FractureReport r = bodies.report();
        float largestLoad = 0.0f;
        for (int i = 0; i < 84 && r.events == 0; ++i) {
            bodies.addStep(graph());
            submit();
            r = bodies.afterStep(graph());
            largestLoad = std::max(largestLoad, r.maxLoad);
        }
        result[ductility] = r;
        if (ductility < 1.0f) continue;
        EXPECT_GT(largestLoad, 1.5f) << "the drop must load iron beyond tau, or the test shows nothing";
        EXPECT_EQ(r.events, 0u);
        const Snapshot snap = snapshot(bodies);
        const std::vector<glm::vec4> peak = download<glm::vec4>(bodies.peakLoads(), bodies.nodeCount());
        const std::vector<glm::vec4> damage = download<glm::vec4>(bodies.tetDamage(), bodies.tetCount());
        std::vector<float> nodeDamage(snap.positions.size(), 0.0f);
        float largestDamage = 0.0f;
        for (size_t t = 0; t < snap.tets.size(); ++t) {
            EXPECT_EQ(damage[t].y, 1.0f / ductility);
            largestDamage = std::max(largestDamage, damage[t].x);
            for (int i = 0; i < 4; ++i) nodeDamage[snap.tets[t][i]] = std::max(nodeDamage[snap.tets[t][i]], damage[t].x);
        }
        EXPECT_GT(largestDamage, 0.0f) << "iron yielded somewhere";
        EXPECT_LT(largestDamage, 1.0f);
        EXPECT_EQ(r.maxDamage, largestDamage) << "the report's largest damage";
        std::printf("iron drop at tau scale %g: largest load %.2f tau, largest damage %.3f\n", s.tauScale, largestLoad,
                    largestDamage);
        for (size_t n = 0; n < snap.positions.size(); ++n)
            ASSERT_EQ(snap.nodeData[n].w, std::min(peak[n].w, nodeDamage[n] * iron.material.tau)) << "node " << n;
    }
    EXPECT_EQ(result[200.0f].events, 0u);
    EXPECT_EQ(result[200.0f].fragments, 1u);
    EXPECT_GE(result[0.05f].events, 1u) << "spent ductility must let iron break";
    EXPECT_GE(result[0.05f].fragments, 2u);
}

TEST_F(FractureTest, SeededRunsGiveIdenticalFragments)
{
    std::vector<Snapshot> runs;
    std::vector<FractureReport> reports;
    for (int k = 0; k < 2; ++k) {
        FractureSettings s = freeFlight();
        s.evaluateEveryStep = true;
        s.maxIterations = 3;
        s.tauScale = 1e3f;
        FractureBodyInstance b =
            body(TetShape::Cuboid, 10, "ceramic", glm::vec3(0.0f, 5.0f, 0.0f), 0.3f, glm::vec3(2.0f, 1.0f, 1.0f));
        stretch(b, glm::normalize(glm::vec3(1.0f, 1.0f, 0.0f)), 0.05f);
        FractureBodies bodies(context(), shaders(), graph(), {b}, s);
        reports.push_back(run(bodies, 3));
        runs.push_back(snapshot(bodies));
    }
    EXPECT_GE(reports[0].fragments, 2u) << "largest load " << reports[0].maxLoad << ", events " << reports[0].events;
    expectIdentical(reports, runs);
}

TEST_F(FractureTest, SeededDropsWithContactsGiveIdenticalFragments)
{
    // A glass cube dropped on the floor and breaking, with contacts between its fragments, run
    // twice in one process: the second run's buffers reuse the first's memory, so a pass that
    // reads an entry nobody wrote (the contact grid's cell-start table once did, on lavapipe)
    // shows as a difference.
    std::vector<Snapshot> runs;
    std::vector<FractureReport> reports;
    for (int k = 0; k < 2; ++k) {
        FractureSettings s;
        s.domainMin = glm::vec3(-10.0f, 0.0f, -10.0f);
        s.domainMax = glm::vec3(10.0f, 20.0f, 10.0f);
        FractureBodies bodies(context(), shaders(), graph(), {body(TetShape::Cube, 6, "glass", glm::vec3(0.0f, 5.0f, 0.0f), 0.7f)},
                              s);
        reports.push_back(run(bodies, 84));
        runs.push_back(snapshot(bodies));
    }
    EXPECT_GE(reports[0].fragments, 2u) << "largest load " << reports[0].maxLoad;
    expectIdentical(reports, runs);
}

// tet_goals' launches: colours that fit in one workgroup share a single-workgroup dispatch
// (colourRuns); the large ones keep their own.
TEST(FractureColours, SmallConsecutiveColoursShareOneRun)
{
    // Colours of 300, 128, 5, 60, 129, 1 and 2 tets, with workgroups of 128.
    const std::vector<uint32_t> start = {0, 300, 428, 433, 493, 622, 623, 625};
    const std::vector<ColourRun> runs = colourRuns(start, 128, true);
    ASSERT_EQ(runs.size(), 4u);
    auto expectRun = [&](const ColourRun& r, uint32_t firstTet, uint32_t tets, uint32_t firstColour, uint32_t colours) {
        EXPECT_EQ(r.firstTet, firstTet);
        EXPECT_EQ(r.tets, tets);
        EXPECT_EQ(r.firstColour, firstColour);
        EXPECT_EQ(r.colours, colours);
    };
    expectRun(runs[0], 0, 300, 0, 0);
    expectRun(runs[1], 300, 193, 1, 3);
    expectRun(runs[2], 493, 129, 4, 0);
    expectRun(runs[3], 622, 3, 5, 2);
    const std::vector<ColourRun> plain = colourRuns(start, 128, false);
    ASSERT_EQ(plain.size(), 7u);
    for (uint32_t c = 0; c < 7; ++c) expectRun(plain[c], start[c], start[c + 1] - start[c], c, 0);
}

// The fused colour runs against one dispatch per colour: the same Gauss-Seidel sweep, so a
// breaking body ends bit-identical, with fewer launches. At resolution 8 every colour is fused
// into one run, with colours of more tets than lavapipe's SIMD width, so a run without barriers
// between its colours fails (lavapipe also waits at a memory barrier alone); at 12 the large
// colours keep dispatches of their own.
TEST_F(FractureTest, FusedColourRunsMatchOneDispatchPerColour)
{
    bool sawSingle = false, sawFused = false;
    for (int resolution : {8, 12}) {
        SCOPED_TRACE(fmt::format("resolution {}", resolution));
        std::vector<Snapshot> runs;
        std::vector<FractureReport> reports;
        std::vector<uint64_t> dispatches;
        for (bool fuse : {false, true}) {
            FractureSettings s = freeFlight();
            s.evaluateEveryStep = true;
            s.maxIterations = 3;
            s.tauScale = 1e3f;
            s.fuseColours = fuse;
            s.iterationLimit = s.iterations; // the sweeps recorded: no rounds past the iterations
            FractureBodyInstance b =
                body(TetShape::Cuboid, resolution, "ceramic", glm::vec3(0.0f, 5.0f, 0.0f), 0.3f, glm::vec3(2.0f, 1.0f, 1.0f));
            stretch(b, glm::normalize(glm::vec3(1.0f, 1.0f, 0.0f)), 0.05f);
            FractureBodies bodies(context(), shaders(), graph(), {b}, s);
            const std::vector<ColourRun>& list = bodies.colourRunList();
            for (const ColourRun& r : list) {
                sawSingle = sawSingle || (fuse && r.colours == 0);
                sawFused = sawFused || r.colours > 1;
            }
            graph().resetStats();
            reports.push_back(run(bodies, 3));
            dispatches.push_back(graph().stats().dispatches);
            runs.push_back(snapshot(bodies));
            if (fuse) {
                const uint64_t saved = 3ull * s.substeps * s.iterations * (bodies.colourCount() - list.size());
                EXPECT_EQ(dispatches[0] - dispatches[1], saved) << bodies.colourCount() << " colours in " << list.size() << " runs";
            }
        }
        EXPECT_GE(reports[0].fragments, 2u) << "largest load " << reports[0].maxLoad << ", events " << reports[0].events;
        expectIdentical(reports, runs);
    }
    EXPECT_TRUE(sawSingle && sawFused) << "both kinds of dispatch";
}

// The step's metrics reduced on the GPU (fracture/metrics + the vec4 reduction) against the
// CPU's sums over the downloaded nodes: the kinetic energy, the nodes outside a box that cuts
// the body, and a node made non-finite, which counts as such and not in the energy.
TEST_F(FractureTest, ReducedMetricsMatchTheNodes)
{
    FractureSettings s = freeFlight();
    FractureBodyInstance b = body(TetShape::Cube, 5, "glass", glm::vec3(0.0f, 5.0f, 0.0f), 0.4f);
    b.velocity = glm::vec3(1.0f, -2.0f, 0.5f);
    b.angularVelocity = glm::vec3(0.5f, 3.0f, -1.0f);
    FractureBodies bodies(context(), shaders(), graph(), {b}, s);
    run(bodies, 3);
    const uint32_t n = bodies.nodeCount();
    std::vector<glm::vec4> local = download<glm::vec4>(bodies.positions(), n);
    local[7].x = std::numeric_limits<float>::quiet_NaN();
    upload(bodies.positions(), local);
    const std::vector<glm::vec4> x = worldPositions(bodies);
    const std::vector<glm::vec4> v = download<glm::vec4>(bodies.velocities(), n);
    const std::vector<glm::vec4> data = download<glm::vec4>(bodies.nodeData(), n);
    const glm::vec3 lo(-10.0f, 0.0f, -10.0f), hi(0.1f, 5.2f, 10.0f);
    double kinetic = 0;
    int outside = 0;
    for (uint32_t k = 0; k < n; ++k) {
        if (k == 7) continue;
        kinetic += 0.5 * double(data[k].y) * glm::dot(glm::dvec3(v[k]), glm::dvec3(v[k]));
        const glm::vec3 p(x[k]);
        outside += glm::any(glm::lessThan(p, lo)) || glm::any(glm::greaterThan(p, hi)) ? 1 : 0;
    }
    ASSERT_GT(outside, 10);
    ASSERT_LT(outside, int(n) - 10);
    gpu::Buffer readback(context(), {"test fracture metrics", sizeof(FractureMetrics), gpu::MemoryKind::Readback});
    bodies.addMetrics(graph(), lo, hi, readback);
    graph().addHostRead(readback);
    submit();
    const FractureMetrics m = readback.readVector<FractureMetrics>(1)[0];
    EXPECT_NEAR(m.kinetic, kinetic, 1e-5 * kinetic);
    EXPECT_EQ(m.escaped, float(outside));
    EXPECT_EQ(m.notFinite, 1.0f);
}

// The energy terms of the account (issue 17 item 3) against the CPU: the potential energy
// -m g . x and the elastic energy of the tets' goal springs (tests/reference, double precision,
// its own polar decomposition) of a stretched bar; the cut that breaks it splits nodes where they
// are, so the elastic energy before and after the cuts is the same; and the velocity damping
// takes exactly the kinetic energy a free, undeformed flight loses.
TEST_F(FractureTest, EnergyTermsMatchTheCpu)
{
    FractureSettings s = freeFlight();
    s.evaluateEveryStep = true;
    s.maxIterations = 0;
    FractureBodyInstance b = body(TetShape::Cuboid, 8, "glass", glm::vec3(0.5f, 5.0f, -0.3f), 0.0f, glm::vec3(3.0f, 1.0f, 1.0f));
    stretch(b, glm::vec3(1.0f, 0.0f, 0.0f), 0.05f);
    FractureBodies bodies(context(), shaders(), graph(), {b}, s);
    const FractureMetrics start = measure(bodies);
    {
        const uint32_t n = bodies.nodeCount();
        const std::vector<glm::vec4> x = worldPositions(bodies);
        const std::vector<glm::vec4> rest = download<glm::vec4>(bodies.restNodes(), n);
        const std::vector<glm::vec4> data = download<glm::vec4>(bodies.nodeData(), n);
        const std::vector<glm::uvec4> tets = download<glm::uvec4>(bodies.tets(), bodies.tetCount());
        const std::vector<glm::vec4> info = download<glm::vec4>(bodies.tetInfo(), bodies.tetCount());
        double potential = 0, elastic = 0;
        for (uint32_t k = 0; k < n; ++k) potential -= double(data[k].y) * glm::dot(glm::dvec3(s.gravity), glm::dvec3(x[k]));
        for (size_t t = 0; t < tets.size(); ++t) {
            glm::dvec3 r[4], p[4];
            double m[4];
            for (int i = 0; i < 4; ++i) {
                r[i] = glm::dvec3(rest[tets[t][i]]);
                p[i] = glm::dvec3(x[tets[t][i]]);
                m[i] = 1.0 / double(x[tets[t][i]].w);
            }
            elastic += reference::tetGoalEnergy(r, p, m, info[t].z);
        }
        ASSERT_GT(elastic, 1e3);
        EXPECT_NEAR(start.potential, potential, 1e-5 * std::abs(potential));
        EXPECT_NEAR(start.elastic, elastic, 2e-3 * elastic);
        EXPECT_EQ(start.kinetic, 0.0f);
        EXPECT_EQ(start.dampingLoss, 0.0f);
    }
    const FractureMetrics step = measure(bodies, true);
    ASSERT_GE(bodies.report().cuts, 1u);
    EXPECT_EQ(step.elasticBeforeCuts, step.elastic) << "a cut splits nodes where they are";

    // Damping: a rigid translation without gravity loses (1 - d dt)^2 of its kinetic energy per
    // substep, all of it booked to the damping.
    FractureSettings d = freeFlight();
    d.gravity = glm::vec3(0.0f);
    d.damping = 3.0f;
    d.method = FractureMethod::None;
    FractureBodyInstance moving = body(TetShape::Cube, 4, "iron", glm::vec3(0.0f, 5.0f, 0.0f));
    moving.velocity = glm::vec3(2.0f, -1.0f, 0.5f);
    FractureBodies flying(context(), shaders(), graph(), {moving}, d);
    const FractureMetrics before = measure(flying);
    const FractureMetrics after = measure(flying, true);
    const double factor = std::pow(1.0 - double(d.damping) * d.timeStep / d.substeps, 2.0 * d.substeps);
    EXPECT_NEAR(after.kinetic, before.kinetic * factor, 1e-4 * before.kinetic);
    EXPECT_NEAR(after.dampingLoss, before.kinetic * (1.0 - factor), 1e-3 * before.kinetic * (1.0 - factor));
    EXPECT_NEAR(after.elastic, 0.0, 1e-6 * before.kinetic);
}

// A glass and an iron cube dropped from 5 m onto an edge (the scenes' case): the mechanical
// energy plus what the damping took never exceeds the initial energy, and the impact takes
// energy. With one iteration of walls and tets per substep the glass drop held 1.23 and the iron
// drop 1.64 times its initial energy in the step it landed: the check catches energy made from
// nothing (docs/fracture.md, *Energy*).
TEST_F(FractureTest, DropsGainNoEnergyAndLoseItAtTheImpact)
{
    for (const uint32_t iterations : {3u, 1u}) {
        for (const char* material : {"glass", "iron"}) {
            FractureSettings s;
            s.domainMin = glm::vec3(-10.0f, 0.0f, -10.0f);
            s.domainMax = glm::vec3(10.0f, 20.0f, 10.0f);
            s.method = FractureMethod::None;
            s.iterations = iterations;
            if (iterations == 1) s.iterationLimit = 1; // one round and no more, as before the rounds went on
            FractureBodies bodies(context(), shaders(), graph(),
                                  {body(TetShape::Cube, 6, material, glm::vec3(0.0f, 5.0f, 0.0f), 0.7f)}, s);
            const FractureMetrics start = measure(bodies);
            const double initial = double(start.kinetic) + start.potential + start.elastic;
            double damping = 0, gained = 0, last = initial;
            for (int k = 0; k < 84; ++k) {
                const FractureMetrics m = measure(bodies, true);
                damping += m.dampingLoss;
                last = double(m.kinetic) + m.potential + m.elastic;
                gained = std::max(gained, (last + damping - initial) / initial);
            }
            SCOPED_TRACE(fmt::format("{}, {} iterations", material, iterations));
            if (iterations == 1) {
                EXPECT_GT(gained, 0.1);
                continue;
            }
            EXPECT_LT(gained, 0.01);
            EXPECT_LT(last, 0.9 * initial) << "the impact takes energy";
        }
    }
}

// fracture/wall_approach against the CPU: after a step of a cube falling fast just above the
// floor, the nodes nearer to a wall than |v| T + |g| T^2 / 2 + the largest mean edge and moving
// towards it faster than the tolerance per substep. Nodes within float rounding of either bound
// may count either way.
TEST_F(FractureTest, WallApproachCountsTheNodesAsTheCpuDoes)
{
    FractureSettings s;
    s.domainMin = glm::vec3(-10.0f, 0.0f, -10.0f);
    s.domainMax = glm::vec3(10.0f, 20.0f, 10.0f);
    s.method = FractureMethod::None;
    FractureBodyInstance b = body(TetShape::Cube, 6, "glass", glm::vec3(0.0f, 1.0f, 0.0f), 0.4f);
    b.velocity = glm::vec3(0.5f, -3.0f, 0.0f);
    FractureBodies bodies(context(), shaders(), graph(), {b}, s);
    bodies.addStep(graph());
    submit();
    const FractureReport r = bodies.afterStep(graph());
    const Approach ap = approach(bodies, s);
    const std::vector<glm::vec4>&x = ap.x, &v = ap.v;
    const double speed = ap.speed, edge = ap.edge;
    uint32_t surely = 0, maybe = 0;
    for (size_t n = 0; n < x.size(); ++n) {
        const double reach = ap.reach(n);
        bool in = false, near = false;
        for (int a = 0; a < 3; ++a) {
            const double toLow = double(x[n][a]) - s.domainMin[a], toHigh = s.domainMax[a] - double(x[n][a]);
            const double low = -double(v[n][a]), high = double(v[n][a]);
            const auto test = [&](double gap, double towards) {
                const double e = 1e-5 * (1.0 + reach), f = 1e-5 * (1.0 + speed);
                in = in || (gap < reach - e && towards > speed + f);
                near = near || (gap < reach + e && towards > speed - f);
            };
            test(toLow, low);
            test(toHigh, high);
        }
        surely += in ? 1u : 0u;
        maybe += near ? 1u : 0u;
    }
    float lowest = 1e30f;
    for (const glm::vec4& p : x) lowest = std::min(lowest, p.y);
    EXPECT_GT(surely, 0u) << "the lower nodes approach the floor: lowest " << lowest << ", edge " << edge << ", speed " << speed;
    EXPECT_LT(maybe, uint32_t(x.size())) << "the upper nodes are beyond reach";
    EXPECT_GE(r.approaching, surely);
    EXPECT_LE(r.approaching, maybe);
}

// fracture/obstacle_approach against the CPU, which tests every face of the mesh (no grid): a
// cube falling fast just above a table (a static box mesh), far from the domain's walls. A node
// counts when a face lies nearer than |v| T + |g| T^2 / 2 + the largest mean edge and the node
// moves against that face's front normal faster than the tolerance per substep: the cube's lower
// nodes, not its upper ones. The same cube high above the table, and one moving away from it,
// count none; but moving away in a step in which something outside pushed the bodies (a coupled
// fluid: EXTERNAL_CONTACT), its lower nodes count, within the reach however they move. Nodes
// within float rounding of a bound may count either way. Until 2026-11-30 a scene with static
// meshes recorded the rounds past the iterations for every step.
TEST_F(FractureTest, ObstacleApproachCountsTheNodesAsTheCpuDoes)
{
    const geometry::TriangleMesh table = boxMesh({-1.0f, 0.4f, -1.0f}, {1.0f, 0.6f, 1.0f});
    struct Case {
        float height;  // of the cube's centre (m)
        float falling; // downward speed (m/s)
        bool pushed;   // from outside the bodies this step
        bool some;     // nodes must count
    };
    for (const Case c : {Case{0.95f, 3.0f, false, true}, Case{3.0f, 3.0f, false, false}, Case{0.95f, -3.0f, false, false},
                         Case{0.95f, -3.0f, true, true}, Case{3.0f, 3.0f, true, false}}) {
        SCOPED_TRACE(fmt::format("cube at {} m, falling at {} m/s{}", c.height, c.falling, c.pushed ? ", pushed" : ""));
        FractureSettings s;
        s.domainMin = glm::vec3(-10.0f);
        s.domainMax = glm::vec3(10.0f, 20.0f, 10.0f);
        s.method = FractureMethod::None;
        FractureBodyInstance b = body(TetShape::Cube, 6, "glass", glm::vec3(0.05f, c.height, 0.0f), 0.4f, glm::vec3(0.4f));
        b.velocity = glm::vec3(0.5f, -c.falling, 0.0f);
        FractureBodies bodies(context(), shaders(), graph(), {b}, s, {table});
        upload(bodies.externalContact(), std::vector<uint32_t>{c.pushed ? 1u : 0u});
        bodies.addStep(graph());
        submit();
        const FractureReport r = bodies.afterStep(graph());
        const Approach ap = approach(bodies, s);
        const std::vector<glm::vec4>& x = ap.x;
        const double speed = ap.speed;
        uint32_t surely = 0, maybe = 0;
        for (size_t n = 0; n < x.size(); ++n) {
            const glm::dvec3 p(x[n]), u(ap.v[n]);
            const double reach = ap.reach(n);
            const double e = 1e-5 * (1.0 + reach), f = 1e-5 * (1.0 + speed);
            bool in = false, near = false;
            for (const glm::uvec3& t : table.triangles) {
                const glm::dvec3 a(table.vertices[t.x]), bb(table.vertices[t.y]), cc(table.vertices[t.z]);
                const double towards = -glm::dot(u, glm::normalize(glm::cross(bb - a, cc - a)));
                glm::dvec3 w;
                const double gap = glm::length(p - test::closestOnTriangle(p, a, bb, cc, w));
                in = in || (gap < reach - e && (c.pushed || towards > speed + f));
                near = near || (gap < reach + e && (c.pushed || towards > speed - f));
            }
            surely += in ? 1u : 0u;
            maybe += near ? 1u : 0u;
        }
        EXPECT_GE(r.approaching, surely);
        EXPECT_LE(r.approaching, maybe);
        if (c.some) {
            EXPECT_GT(surely, 0u) << "the lower nodes are within reach of the table's top";
            EXPECT_LT(maybe, uint32_t(x.size())) << "the upper nodes are beyond reach";
        } else {
            EXPECT_EQ(maybe, 0u);
        }
    }
}

// Rounds past Fracture.iterations run only while a contact finds a node deeper than the
// tolerance (fracture/round_check): a step in flight runs exactly the iterations, the landing
// runs more. The cube with holes of fracture_cube_with_holes.json (glass, its orientation,
// method none) landed with three rounds gains about a third of its energy in the steps it
// lands: its fine tets are the stiffest for their mass, and the walls' depenetration of what the
// last sweep left in the floor compressed them with nothing paying for it (docs/fracture.md,
// *Energy*). With the rounds going on it gains nothing.
TEST_F(FractureTest, RoundsGoOnWhileContactsAreDeepSoLandingsGainNoEnergy)
{
    for (const uint32_t limit : {8u, 3u}) {
        FractureSettings s;
        s.domainMin = glm::vec3(-10.0f, 0.0f, -10.0f);
        s.domainMax = glm::vec3(10.0f, 20.0f, 10.0f);
        s.method = FractureMethod::None;
        s.iterationLimit = limit;
        FractureBodyInstance b = body(TetShape::CubeWithHoles, 8, "glass", glm::vec3(0.0f));
        const glm::mat3 R = seededRotation(3);
        for (glm::vec3& x : b.mesh.nodes) x = R * x + glm::vec3(0.0f, 5.0f, 0.0f);
        FractureBodies bodies(context(), shaders(), graph(), {b}, s);
        const FractureMetrics start = measure(bodies);
        const double initial = double(start.kinetic) + start.potential + start.elastic;
        double gained = 0;
        float mostRounds = 0.0f;
        int inFlight = 0;
        for (int k = 0; k < 75; ++k) {
            const FractureMetrics m = measure(bodies, true);
            const FractureReport& r = bodies.report();
            if (!r.contact) {
                EXPECT_EQ(r.rounds, 3.0f) << "step " << k << ": no contact, no rounds past the iterations";
                EXPECT_EQ(r.roundsAtLimit, 0u);
                ++inFlight;
            }
            mostRounds = std::max(mostRounds, r.rounds);
            gained = std::max(gained, (double(m.kinetic) + m.potential + m.elastic + m.dampingLoss - initial) / initial);
        }
        SCOPED_TRACE(fmt::format("limit {}: gained {:.4f}, most rounds {}", limit, gained, mostRounds));
        EXPECT_GT(inFlight, 40);
        EXPECT_LT(inFlight, 75) << "it lands";
        if (limit == 3) {
            EXPECT_EQ(mostRounds, 3.0f);
            EXPECT_GT(gained, 0.05) << "three rounds leave the landing to make energy";
        } else {
            EXPECT_GT(mostRounds, 3.0f);
            EXPECT_LE(mostRounds, 8.0f);
            EXPECT_LT(gained, 0.01);
        }
    }
}

// fracture/bounce against the CPU (and its rows of bodies.csv): four bodies (four fragments) with random node velocities at
// the step's start and end, walls planted in their nodes' flags and a kept approach, each with
// its own restitution. Per fragment: the centre of mass's velocity along a touched wall's normal
// is cut to e times the largest approach (kept, or the start's), equally at every node; an axis
// with both walls or none is left alone, and the approach is kept per node.
TEST_F(FractureTest, BounceLimitsEachFragmentsReboundAsTheCpuDoes)
{
    FractureSettings s = freeFlight();
    s.domainMin = glm::vec3(-100.0f);
    s.domainMax = glm::vec3(100.0f);
    const float restitution[4] = {0.66f, 0.3f, 1.0f, 0.0f};
    std::vector<FractureBodyInstance> list;
    for (int k = 0; k < 4; ++k) {
        list.push_back(body(TetShape::Cube, 2, "glass", glm::vec3(3.0f * float(k), 5.0f, 0.0f)));
        list.back().material.restitution = restitution[k];
    }
    FractureBodies bodies(context(), shaders(), graph(), list, s);
    const uint32_t n = bodies.nodeCount();
    const std::vector<uint32_t> labels = download<uint32_t>(bodies.labels(), n);
    const std::vector<glm::vec4> data = download<glm::vec4>(bodies.nodeData(), n);
    const std::vector<glm::vec4> rest = download<glm::vec4>(bodies.restNodes(), n);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> jitter(-1.0f, 1.0f);
    // Per body: the mean velocity at the start and end, the walls touched, the kept approach.
    const glm::vec3 start[4] = {{0.5f, -9.0f, 0.2f}, {6.0f, 1.0f, 0.0f}, {0.0f, -4.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    const glm::vec3 end[4] = {{0.4f, 7.0f, 0.1f}, {-5.0f, 0.5f, -3.0f}, {0.0f, 3.0f, 2.0f}, {2.0f, 2.0f, 2.0f}};
    const uint32_t walls[4] = {FRACTURE_NODE_WALL_LOW << 2,                                    // floor (low y)
                               (FRACTURE_NODE_WALL_HIGH << 0) | (FRACTURE_NODE_WALL_LOW << 4), // high x, low z
                               (FRACTURE_NODE_WALL_LOW << 2) | (FRACTURE_NODE_WALL_HIGH << 2), // both y walls
                               0u};
    const glm::vec3 kept[4] = {{0.0f, 2.0f, 0.0f}, {-11.0f, 0.0f, 0.0f}, {0.0f, 4.0f, 0.0f}, {0.0f, 0.0f, 0.0f}};
    std::vector<glm::vec4> v(n), v0(n), approach(n);
    std::vector<uint32_t> flags(n, 0u);
    for (uint32_t k = 0; k < n; ++k) {
        const int b = int(rest[k].w);
        v[k] = glm::vec4(end[b] + 0.5f * glm::vec3(jitter(rng), jitter(rng), jitter(rng)), 0.0f);
        v0[k] = glm::vec4(start[b] + 0.5f * glm::vec3(jitter(rng), jitter(rng), jitter(rng)), 0.0f);
        approach[k] = glm::vec4(kept[b], 0.0f);
        // Only some nodes touch: the fragment's mask is the union.
        if (k % 3 == 0) flags[k] = walls[b];
    }
    upload(bodies.velocities(), v);
    upload(bodies.stepVelocities(), v0);
    upload(bodies.wallApproach(), approach);
    upload(bodies.nodeFlags(), flags);
    bodies.addBounce(graph());
    submit();
    const std::vector<glm::vec4> after = download<glm::vec4>(bodies.velocities(), n);
    const std::vector<glm::vec4> approachAfter = download<glm::vec4>(bodies.wallApproach(), n);

    struct Sum {
        glm::dvec3 p1{0.0}, p0{0.0};
        double m = 0;
        uint32_t walls = 0;
        int body = 0;
    };
    std::map<uint32_t, Sum> fragments;
    for (uint32_t k = 0; k < n; ++k) {
        Sum& f = fragments[labels[k]];
        f.p1 += double(data[k].y) * glm::dvec3(v[k]);
        f.p0 += double(data[k].y) * glm::dvec3(v0[k]);
        f.m += data[k].y;
        f.walls |= flags[k];
        f.body = int(rest[k].w);
    }
    ASSERT_EQ(fragments.size(), 4u);
    int changed = 0;
    for (uint32_t k = 0; k < n; ++k) {
        const Sum& f = fragments[labels[k]];
        const double e = restitution[f.body];
        const glm::dvec3 v1 = f.p1 / f.m, vs = f.p0 / f.m;
        glm::dvec3 change(0.0), next(0.0);
        for (int a = 0; a < 3; ++a) {
            const bool low = (f.walls & (FRACTURE_NODE_WALL_LOW << (2 * a))) != 0u;
            const bool high = (f.walls & (FRACTURE_NODE_WALL_HIGH << (2 * a))) != 0u;
            if (low == high) continue;
            const double normal = low ? 1.0 : -1.0;
            const double was = kept[f.body][a] * normal > 0.0 ? std::abs(kept[f.body][a]) : 0.0;
            const double A = std::max(was, std::max(-normal * vs[a], 0.0));
            next[a] = normal * A;
            const double u = normal * v1[a];
            if (u > e * A) change[a] = normal * (e * A - u);
        }
        changed += glm::length(change) > 0.1 ? 1 : 0;
        for (int a = 0; a < 3; ++a) {
            EXPECT_NEAR(after[k][a], v[k][a] + change[a], 1e-4) << "node " << k << " axis " << a;
            EXPECT_NEAR(approachAfter[k][a], next[a], 1e-4) << "node " << k << " axis " << a;
        }
    }
    // Bodies 0 (floor: 7 > 0.66 x 9) and 1 (x: 5 > 0.3 x 11; z: 3 > 0) bounce back slower; 2 and
    // 3 keep their velocities.
    EXPECT_GT(changed, int(n) / 3);
    // bodies.csv's rows: each fragment's centre of mass, mass and velocity after the pass.
    gpu::Buffer rows(context(), {"test fragment rows", 4 * sizeof(FragmentMotion), gpu::MemoryKind::Readback});
    ASSERT_EQ(bodies.fragmentMotionRows(), 4u);
    bodies.addFragmentMotionReadback(graph(), rows);
    graph().addHostRead(rows);
    submit();
    const std::vector<glm::vec4> world = worldPositions(bodies);
    for (const FragmentMotion& row : rows.readVector<FragmentMotion>(4)) {
        ASSERT_TRUE(fragments.count(row.label)) << row.label;
        glm::dvec3 centre(0.0), momentum(0.0);
        double mass = 0;
        for (uint32_t k = 0; k < n; ++k)
            if (labels[k] == row.label) {
                mass += data[k].y;
                centre += double(data[k].y) * glm::dvec3(world[k]);
                momentum += double(data[k].y) * glm::dvec3(after[k]);
            }
        EXPECT_EQ(row.body, float(fragments[row.label].body));
        EXPECT_NEAR(row.mass, mass, 1e-5 * mass);
        for (int a = 0; a < 3; ++a) {
            EXPECT_NEAR(row.centre[a], centre[a] / mass, 1e-5);
            EXPECT_NEAR(row.velocity[a], momentum[a] / mass, 1e-4);
        }
    }
}

// A glass cube dropped onto an edge from 5 m (the scene fracture_cube, without fracture): its
// centre of mass rises after the impact no higher than its restitution allows, e^2 times the
// height it fell before it touched (the rebound is measured from where the contact ended: a cube
// that lands on an edge tips over it while it touches). Without the restitution it bounced back
// with e = 0.51 (0.27 of the fall): the limit of 0.3 would fail; glass's 0.66 is not reached.
TEST_F(FractureTest, DroppedCubeReboundsNoHigherThanItsRestitutionAllows)
{
    for (const float e : {0.3f, 0.66f}) {
        FractureSettings s;
        s.domainMin = glm::vec3(-10.0f, 0.0f, -10.0f);
        s.domainMax = glm::vec3(10.0f, 20.0f, 10.0f);
        s.method = FractureMethod::None;
        FractureBodyInstance cube = body(TetShape::Cube, 6, "glass", glm::vec3(0.0f, 5.0f, 0.0f), 0.7f);
        cube.material.restitution = e;
        FractureBodies bodies(context(), shaders(), graph(), {cube}, s);
        const double weight = bodyMass(cube) * 10.0; // N
        const double h0 = measure(bodies).potential / weight;
        double touch = -1, liftOff = -1, highest = -1, last = h0;
        for (int k = 0; k < 90; ++k) {
            const double h = measure(bodies, true).potential / weight;
            const bool contact = bodies.report().contact;
            if (contact && touch < 0) touch = last; // the height at the start of the contact's first step
            if (touch >= 0 && liftOff < 0 && !contact) liftOff = last;
            if (liftOff >= 0) {
                if (contact) break; // the next impact
                highest = std::max(highest, h);
            }
            last = h;
        }
        SCOPED_TRACE(fmt::format("restitution {}", e));
        ASSERT_GT(touch, 0.0);
        ASSERT_GT(liftOff, 0.0);
        const double allowed = double(e) * e * (h0 - touch);
        const double rebound = highest - liftOff;
        std::printf("restitution %.2f: fell %.3f m, rebounded %.3f m (allowed %.3f)\n", e, h0 - touch, rebound, allowed);
        EXPECT_LE(rebound, 1.01 * allowed);
        EXPECT_GT(rebound, 0.2 * allowed) << "it bounces";
    }
}

TEST_F(FractureTest, WaveDetachesTheCrossedBandOrSplitsIt)
{
    // digest-004 §3.2: one wave with an unlimited budget (G_c = 0) crosses the whole section of
    // a stretched bar; the thesis' compareAndSplit detaches the band (3 fragments: both sides and
    // the band), Glondu's labels split it (2). A large G_c ends the crack at its start tet.
    std::map<std::string, FractureReport> result;
    std::map<std::string, uint32_t> added;
    for (const char* mode : {"detach", "split", "tough"}) {
        FractureSettings s = freeFlight();
        s.method = FractureMethod::Wave;
        s.evaluateEveryStep = true;
        s.maxIterations = 1;
        s.waveToughness = std::string(mode) == "tough" ? 1e3f : 0.0f;
        s.waveSplitBand = std::string(mode) == "split";
        FractureBodyInstance b =
            body(TetShape::Cuboid, 12, "glass", glm::vec3(0.0f, 5.0f, 0.0f), 0.0f, glm::vec3(3.0f, 1.0f, 1.0f));
        stretch(b, glm::vec3(1.0f, 0.0f, 0.0f), 0.05f);
        FractureBodies bodies(context(), shaders(), graph(), {b}, s);
        result[mode] = run(bodies, 1);
        added[mode] = bodies.nodeCount() - uint32_t(b.mesh.nodes.size());
        checkFragments(snapshot(bodies), result[mode].fragments, bodyMass(b));
    }
    EXPECT_EQ(result["detach"].cuts, 1u);
    EXPECT_EQ(result["detach"].fragments, 3u);
    EXPECT_EQ(result["split"].fragments, 2u);
    EXPECT_EQ(result["tough"].fragments, 2u) << "the start tet alone detaches";
    EXPECT_LT(added["tough"], added["split"]);
    EXPECT_LT(added["split"], added["detach"]);
}

namespace {

// Fragments of pieces joined by enabled links: connected components over tets and links.
uint32_t componentsWithLinks(const Snapshot& s, const std::vector<glm::uvec4>& links, const std::vector<glm::vec4>& state)
{
    std::vector<uint32_t> parent(s.positions.size());
    std::iota(parent.begin(), parent.end(), 0u);
    auto find = [&](uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    auto join = [&](uint32_t a, uint32_t b) { parent[find(a)] = find(b); };
    for (const glm::uvec4& t : s.tets)
        for (int i = 1; i < 4; ++i) join(t[0], t[i]);
    for (const glm::uvec4& l : links)
        if (state[l.z].w != 0.0f) join(l.x, l.y);
    uint32_t roots = 0;
    for (uint32_t n = 0; n < parent.size(); ++n) roots += find(n) == n ? 1 : 0;
    return roots;
}

} // namespace

TEST_F(FractureTest, ConstraintLinksBreakAndWeakenTheirNeighboursBy0975)
{
    // digest-004 §3.4 (Listing 5): a constraint whose step impulse J reaches its threshold S
    // breaks; one that holds loses wear x J (1: the thesis' cumulative weakening; 0 the
    // default); every enabled constraint of a piece that lost k constraints this step is
    // weakened by 0.975^k (not below the floor). The GPU's update is compared with this
    // reference on the impulses the GPU measured in a stretched cube.
    FractureBodyInstance b = body(TetShape::Cube, 6, "glass", glm::vec3(0.0f, 5.0f, 0.0f));
    stretch(b, glm::vec3(0.0f, 1.0f, 0.0f), 0.03f);
    auto settings = [](float linkScale, float floor, float wear) {
        FractureSettings s = freeFlight();
        s.method = FractureMethod::Constraint;
        s.pieces = 12;
        s.linkScale = linkScale;
        s.weakeningFloor = floor;
        s.wear = wear;
        return s;
    };
    // The first step's impulses do not depend on the thresholds (breaks act at the step's end).
    std::vector<float> ratio;
    {
        FractureBodies probe(context(), shaders(), graph(), {b}, settings(1e9f, 0.0f, 1.0f));
        ASSERT_GT(probe.constraintCount(), 10u);
        run(probe, 1);
        for (const glm::vec4& c : download<glm::vec4>(probe.constraintState(), probe.constraintCount())) ratio.push_back(c.z / c.y);
    }
    std::vector<float> sorted = ratio;
    std::sort(sorted.begin(), sorted.end());
    const float scale = sorted[sorted.size() / 2]; // about half the constraints break
    ASSERT_GT(scale, 0.0f);
    for (float floor : {0.0f, 0.9f}) {
        const float wear = floor == 0.0f ? 1.0f : 0.3f;
        FractureBodies bodies(context(), shaders(), graph(), {b}, settings(scale, floor, wear));
        const auto info = download<glm::uvec4>(bodies.constraintInfo(), bodies.constraintCount());
        const auto before = download<glm::vec4>(bodies.constraintState(), bodies.constraintCount());
        const FractureReport r = run(bodies, 1);
        const auto after = download<glm::vec4>(bodies.constraintState(), bodies.constraintCount());
        std::vector<uint32_t> breaks(bodies.constraintCount() + 1, 0);
        std::vector<glm::vec4> expected = before;
        uint32_t broken = 0;
        for (size_t c = 0; c < info.size(); ++c) {
            const float j = after[c].z;
            EXPECT_NEAR(j / after[c].y, ratio[c], 1e-4f * ratio[c]) << "constraint " << c << ": impulses differ between runs";
            expected[c].z = j;
            const float x = j / (before[c].y * scale);
            if (x >= before[c].x) {
                expected[c].w = 0.0f;
                ++breaks[info[c].x];
                ++breaks[info[c].y];
                ++broken;
            } else {
                expected[c].x -= wear * x;
            }
        }
        ASSERT_GT(broken, 0u);
        ASSERT_LT(broken, info.size());
        EXPECT_EQ(r.cuts, broken);
        uint32_t weakened = 0;
        for (size_t c = 0; c < info.size(); ++c) {
            const uint32_t k = breaks[info[c].x] + breaks[info[c].y];
            if (expected[c].w == 0.0f || k == 0) continue;
            const float s = expected[c].x;
            expected[c].x = std::max(s * std::pow(0.975f, float(k)), std::min(s, floor));
            weakened += expected[c].x < s ? 1 : 0;
        }
        if (floor == 0.0f) {
            EXPECT_GT(weakened, 0u);
        }
        for (size_t c = 0; c < info.size(); ++c) {
            EXPECT_EQ(after[c].w, expected[c].w) << "constraint " << c;
            EXPECT_NEAR(after[c].x, expected[c].x, 1e-5f) << "constraint " << c << " floor " << floor;
        }
        // Fragments: pieces joined by the intact constraints.
        const Snapshot snap = snapshot(bodies);
        const auto links = download<glm::uvec4>(bodies.links(), bodies.linkCount());
        EXPECT_EQ(componentsWithLinks(snap, links, after), r.fragments);
        for (const glm::uvec4& l : links)
            if (after[l.z].w != 0.0f) {
                EXPECT_EQ(snap.labels[l.x], snap.labels[l.y]);
            }
    }
}

TEST_F(FractureTest, ConstraintPiecesMoveAsRigidBodies)
{
    // digest-004 §3.4: the Constraint method's pieces are rigid (issue 6 item 4). A cube
    // stretched by 3 % and let go, pieces held by unbreakable links: after a step every piece
    // keeps the distances between its nodes from rest (the CPU's pre-fracture of the same mesh
    // gives the rest positions). The same body as elastic tets (method none) still rings with
    // the stretch: the check can fail.
    FractureBodyInstance b = body(TetShape::Cube, 5, "glass", glm::vec3(0.0f, 5.0f, 0.0f));
    stretch(b, glm::vec3(0.0f, 1.0f, 0.0f), 0.03f);
    const PiecedMesh pieced = preFracture(b.mesh, 12, 1);
    std::map<FractureMethod, float> worst;
    for (FractureMethod method : {FractureMethod::Constraint, FractureMethod::None}) {
        FractureSettings s = freeFlight();
        s.method = method;
        s.iterations = 1; // elastic tets ring most with one (three relax the stretch within the step)
        s.pieces = 12;
        s.pieceSeed = 1;
        s.linkScale = 1e9f;
        FractureBodies bodies(context(), shaders(), graph(), {b}, s);
        run(bodies, 1);
        const Snapshot snap = snapshot(bodies);
        // Rest positions per GPU node: the pieced mesh's own for Constraint, the input's otherwise.
        const TetMesh& rest = method == FractureMethod::Constraint ? pieced.mesh : b.mesh;
        ASSERT_EQ(rest.nodes.size(), snap.positions.size());
        std::vector<std::vector<uint32_t>> nodesOf(pieced.pieces);
        std::vector<char> seen(rest.nodes.size(), 0);
        for (size_t t = 0; t < b.mesh.tets.size(); ++t)
            for (int i = 0; i < 4; ++i) {
                const uint32_t n = method == FractureMethod::Constraint ? pieced.mesh.tets[t][i] : b.mesh.tets[t][i];
                if (!seen[n]) nodesOf[pieced.tetPiece[t]].push_back(n);
                seen[n] = 1;
            }
        float& w = worst[method];
        for (const auto& nodes : nodesOf)
            for (size_t i = 0; i < nodes.size(); ++i)
                for (size_t j = i + 1; j < nodes.size(); ++j) {
                    const float now = glm::distance(glm::vec3(snap.positions[nodes[i]]), glm::vec3(snap.positions[nodes[j]]));
                    w = std::max(w, std::abs(now - glm::distance(rest.nodes[nodes[i]], rest.nodes[nodes[j]])));
                }
    }
    // Measured: 5e-7 (float rounding) and 4e-4.
    EXPECT_LT(worst[FractureMethod::Constraint], 1e-5f) << "pieces must be rigid (cube of size 1)";
    EXPECT_GT(worst[FractureMethod::None], 1e-4f) << "elastic tets still ring with the stretch";
}

TEST_F(FractureTest, ContactsMatchTheCpuAndLaterRoundsTestTheKeptCandidates)
{
    // Four glass cubes overlapping in a cluster, each node displaced at random within the
    // substep: the first round of fracture/contacts against a CPU replica over all node pairs
    // (float sums in another order: 1e-6 m), its kept candidates against the CPU's criterion,
    // a second round on the same state bit-identical to the first (kept lists, and the grid
    // walked again where a node had more candidates than it keeps), and a round after the nodes
    // moved against the CPU over the kept candidates.
    FractureSettings s = freeFlight();
    s.method = FractureMethod::None;
    s.contacts = true;
    std::vector<FractureBodyInstance> list;
    for (const glm::vec3 at :
         {glm::vec3(0.0f), glm::vec3(0.8f, 0.1f, 0.0f), glm::vec3(0.1f, 0.8f, 0.1f), glm::vec3(0.4f, 0.4f, 0.9f)})
        list.push_back(body(TetShape::Cube, 3, "glass", at));
    FractureBodies bodies(context(), shaders(), graph(), list, s);
    ASSERT_GE(bodies.report().fragments, 2u);
    const uint32_t n = bodies.nodeCount();
    const std::vector<glm::vec4> x = download<glm::vec4>(bodies.positions(), n);
    const std::vector<glm::vec4> origin = download<glm::vec4>(bodies.origins(), n);
    const std::vector<glm::vec4> rest = download<glm::vec4>(bodies.restNodes(), n);
    const std::vector<glm::vec4> info = download<glm::vec4>(bodies.bodyInfo(), bodies.bodyCount());
    const std::vector<uint32_t> labels = download<uint32_t>(bodies.labels(), n);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> jitter(-0.04f, 0.04f);
    std::vector<glm::vec4> d(n);
    for (uint32_t i = 0; i < n; ++i) d[i] = glm::vec4(jitter(rng), jitter(rng), jitter(rng), x[i].w);
    float maxEdge = 0.0f;
    for (const glm::vec4& b : info) maxEdge = std::max(maxEdge, b.w);
    const float cell = std::max(2.0f * s.contactRadius * maxEdge, 1e-6f);
    const float factor = std::min(s.contactRadius, 0.5f * cell / std::max(maxEdge, 1e-30f));

    // The CPU replica of one node's round (the shader's touch()): its new displacement and start,
    // over the nodes `others` (all, or its kept candidates).
    struct Result {
        glm::vec3 d, x;
        int hits = 0;
    };
    const auto cpuNode = [&](uint32_t i, const std::vector<glm::vec4>& xs, const std::vector<glm::vec4>& ds,
                             const std::vector<uint32_t>& others) {
        glm::vec3 move(0.0f), startMove(0.0f);
        int hits = 0;
        const float radiusI = factor * info[uint32_t(rest[i].w)].w;
        for (uint32_t j : others) {
            if (j == i || labels[j] == labels[i]) continue;
            const float reach = radiusI + factor * info[uint32_t(rest[j].w)].w;
            if (rest[j].w == rest[i].w && glm::distance(glm::vec3(rest[j]), glm::vec3(rest[i])) < 2.0f * reach) continue;
            const glm::vec3 apart = glm::vec3(origin[i]) - glm::vec3(origin[j]);
            const glm::vec3 dd = ((glm::vec3(xs[i]) - glm::vec3(xs[j])) + (glm::vec3(ds[i]) - glm::vec3(ds[j]))) + apart;
            const float dist = glm::length(dd);
            if (dist >= reach || dist * dist < 1e-18f) continue;
            const glm::vec3 nrm = dd / dist;
            const float share = ds[i].w / (ds[i].w + ds[j].w);
            const float depth = reach - dist;
            const glm::vec3 relative = glm::vec3(ds[i]) - glm::vec3(ds[j]);
            const float before = std::clamp(reach - glm::length((glm::vec3(xs[i]) - glm::vec3(xs[j])) + apart), 0.0f, depth);
            startMove += share * before * nrm;
            const glm::vec3 tangential = relative - glm::dot(relative, nrm) * nrm;
            const float slide = glm::length(tangential), stop = s.friction * depth;
            move += share * (depth * nrm - (slide <= stop ? tangential : tangential * (stop / slide)));
            ++hits;
        }
        const float average = hits > 0 ? 1.0f / float(hits) : 0.0f;
        return Result{glm::vec3(ds[i]) + average * (move - startMove), glm::vec3(xs[i]) + average * startMove, hits};
    };
    std::vector<uint32_t> all(n);
    std::iota(all.begin(), all.end(), 0u);
    const auto runRound = [&](const std::vector<glm::vec4>& xs, const std::vector<glm::vec4>& ds, bool detect) {
        upload(bodies.positions(), xs);
        upload(bodies.displacements(), ds);
        bodies.addContacts(graph(), detect);
        submit();
        return std::make_pair(download<glm::vec4>(bodies.positions(), n), download<glm::vec4>(bodies.displacements(), n));
    };

    // Round one: detection.
    const auto [x1, d1] = runRound(x, d, true);
    const uint32_t stride = bodies.contactCandidateStride(), room = stride - 1;
    ASSERT_EQ(stride, FRACTURE_CONTACT_CANDIDATES + 1) << "a small body gets the whole table";
    const std::vector<uint32_t> kept = download<uint32_t>(bodies.contactCandidates(), size_t(n) * stride);
    int touching = 0, overflowing = 0;
    std::vector<std::vector<uint32_t>> keptOf(n);
    for (uint32_t i = 0; i < n; ++i) {
        const Result r = cpuNode(i, x, d, all);
        touching += r.hits > 0;
        for (int k = 0; k < 3; ++k) {
            ASSERT_NEAR(d1[i][k], r.d[k], 1e-6f) << "node " << i;
            ASSERT_NEAR(x1[i][k], r.x[k], 1e-6f) << "node " << i;
        }
        const uint32_t count = kept[i * stride];
        overflowing += count > room;
        for (uint32_t k = 0; k < std::min(count, room); ++k) keptOf[i].push_back(kept[i * stride + 1 + k]);
        // Each kept node is another fragment's, not a neighbour at rest, within 1.5 reaches.
        const float radiusI = factor * info[uint32_t(rest[i].w)].w;
        for (uint32_t j : keptOf[i]) {
            ASSERT_LT(j, n);
            ASSERT_NE(labels[j], labels[i]);
            const float reach = radiusI + factor * info[uint32_t(rest[j].w)].w;
            const glm::vec3 dd = glm::vec3(x[i] + d[i] + origin[i]) - glm::vec3(x[j] + d[j] + origin[j]);
            EXPECT_LT(glm::length(dd), (1.0f + FRACTURE_CONTACT_MARGIN) * reach * 1.0001f) << i << " keeps " << j;
        }
        // A node whose list is whole keeps every pair in contact.
        if (count <= room) {
            EXPECT_EQ(cpuNode(i, x, d, keptOf[i]).hits, r.hits) << "node " << i;
        }
    }
    EXPECT_GT(touching, int(n) / 10) << "the cubes should overlap";
    EXPECT_GT(overflowing, 0) << "some node should have more candidates than it keeps";
    EXPECT_LT(overflowing, int(n)) << "and some fewer";

    // Round two on the same state: the kept lists (and the walks where they overflowed) give
    // the first round's result: the same pairs in the same order. Bit for bit on lavapipe; an
    // NVIDIA H200 differed in the last bits at 138 of the 256 nodes, its compiler contracting the
    // two loops' copies of the pair test differently, so the bound is float rounding (1e-6 m).
    const auto [x2, d2] = runRound(x, d, false);
    float differ = 0.0f;
    for (uint32_t i = 0; i < n; ++i)
        differ = std::max({differ, glm::length(glm::vec3(x2[i] - x1[i])), glm::length(glm::vec3(d2[i] - d1[i]))});
    EXPECT_LE(differ, 1e-6f) << "m: the second round differs from the first";

    // A round after the nodes moved a little: the CPU over the kept candidates.
    std::uniform_real_distribution<float> nudge(-0.01f, 0.01f);
    std::vector<glm::vec4> dm = d1;
    for (glm::vec4& v : dm) v += glm::vec4(nudge(rng), nudge(rng), nudge(rng), 0.0f);
    const auto [x3, d3] = runRound(x1, dm, false);
    int compared = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (kept[i * stride] > room) continue; // walked the grid of round one
        const Result r = cpuNode(i, x1, dm, keptOf[i]);
        for (int k = 0; k < 3; ++k) {
            ASSERT_NEAR(d3[i][k], r.d[k], 1e-6f) << "node " << i;
            ASSERT_NEAR(x3[i][k], r.x[k], 1e-6f) << "node " << i;
        }
        ++compared;
    }
    EXPECT_GT(compared, int(n) / 2);
}

TEST_F(FractureTest, BodiesCollideInsteadOfPassingThroughEachOther)
{
    // A ball dropped onto a fixed plate stays above it (up to the nodes' contact spheres) with
    // contacts between bodies; without them it falls through to the floor.
    std::map<bool, float> lowest;
    for (bool contacts : {true, false}) {
        FractureSettings s;
        s.method = FractureMethod::None;
        s.contacts = contacts;
        s.domainMin = glm::vec3(-5.0f, 0.0f, -5.0f);
        s.domainMax = glm::vec3(5.0f, 10.0f, 5.0f);
        FractureBodyInstance base =
            body(TetShape::Cuboid, 12, "iron", glm::vec3(0.0f, 1.0f, 0.0f), 0.0f, glm::vec3(3.0f, 0.5f, 3.0f));
        base.density = 0.0f; // fixed
        FractureBodyInstance ball = body(TetShape::Sphere, 5, "iron", glm::vec3(0.0f, 2.6f, 0.0f), 0.0f, glm::vec3(0.6f));
        FractureBodies bodies(context(), shaders(), graph(), {base, ball}, s);
        float low = 1e9f;
        for (int k = 0; k < 12; ++k) {
            run(bodies, 5);
            const auto x = worldPositions(bodies);
            for (size_t n = base.mesh.nodes.size(); n < x.size(); ++n) low = std::min(low, x[n].y);
        }
        lowest[contacts] = low;
    }
    EXPECT_GT(lowest[true], 1.2f) << "the ball sank into the plate (top at 1.25)";
    EXPECT_LT(lowest[false], 0.5f) << "without contacts the ball should fall through";
}

// Static meshes (fracture/obstacles; issue 16: dynamic rigid bodies collide with the scene's
// static RigidBodies): an iron cube dropped onto a table (a box mesh, top at 0.6 m) rests on its
// top, where without the table it falls to the floor; a cube thrown sideways at 6 m/s inside a
// closed tank (an inverted box mesh: its inside is the front) stays in it, bouncing off its walls.
TEST_F(FractureTest, BodiesRestOnStaticMeshesAndStayInsideATank)
{
    // The table: 2 m square, 0.2 m thick, top at 0.6 m; the cube dropped from 0.3 m above it.
    std::map<bool, float> lowest;
    for (const bool table : {true, false}) {
        FractureSettings s;
        s.method = FractureMethod::None;
        s.domainMin = glm::vec3(-5.0f, 0.0f, -5.0f);
        s.domainMax = glm::vec3(5.0f, 10.0f, 5.0f);
        const geometry::TriangleMesh box = boxMesh({-1.0f, 0.4f, -1.0f}, {1.0f, 0.6f, 1.0f});
        FractureBodyInstance cube = body(TetShape::Cube, 4, "iron", glm::vec3(0.05f, 1.05f, 0.0f), 0.3f, glm::vec3(0.3f));
        FractureBodies bodies(context(), shaders(), graph(), {cube}, s,
                              table ? std::vector<geometry::TriangleMesh>{box} : std::vector<geometry::TriangleMesh>{});
        float deepest = 0.0f; // into the table's box
        for (int k = 0; k < 12; ++k) {
            run(bodies, 5);
            for (const glm::vec4& x : worldPositions(bodies))
                if (std::abs(x.x) < 1.0f && std::abs(x.z) < 1.0f && x.y > 0.4f) deepest = std::max(deepest, 0.6f - x.y);
        }
        float rest = 1e9f;
        for (const glm::vec4& x : worldPositions(bodies)) rest = std::min(rest, x.y);
        if (table) {
            EXPECT_LT(deepest, 0.01f) << "a node went more than 1 cm into the table (top at 0.6 m)";
            EXPECT_NEAR(rest, 0.6f, 0.01f) << "the cube must end resting on the table's top";
        }
        lowest[table] = rest;
    }
    EXPECT_LT(lowest[false], 0.05f) << "without the table the cube reaches the floor";

    // The tank: an inverted box 1 m wide from y 0.1 to 1.1, inside a domain far larger.
    FractureSettings s;
    s.method = FractureMethod::None;
    s.domainMin = glm::vec3(-5.0f, -5.0f, -5.0f);
    s.domainMax = glm::vec3(5.0f, 10.0f, 5.0f);
    geometry::TriangleMesh tank = boxMesh({-0.5f, 0.1f, -0.5f}, {0.5f, 1.1f, 0.5f});
    for (glm::uvec3& t : tank.triangles) std::swap(t.y, t.z); // normals inwards: the inside is the front
    FractureBodyInstance cube = body(TetShape::Cube, 4, "iron", glm::vec3(0.0f, 0.5f, 0.0f), 0.2f, glm::vec3(0.2f));
    cube.velocity = glm::vec3(6.0f, 2.0f, -3.0f);
    FractureBodies bodies(context(), shaders(), graph(), {cube}, s, {tank});
    glm::vec3 lo(1e9f), hi(-1e9f);
    for (int k = 0; k < 40; ++k) {
        run(bodies, 3);
        for (const glm::vec4& x : worldPositions(bodies)) {
            lo = glm::min(lo, glm::vec3(x));
            hi = glm::max(hi, glm::vec3(x));
        }
    }
    EXPECT_GT(lo.x, -0.51f);
    EXPECT_LT(hi.x, 0.51f) << "thrown at 6 m/s along x, the cube must bounce off the tank's wall";
    EXPECT_GT(lo.y, 0.09f) << "the cube must stay on the tank's floor";
    EXPECT_GT(lo.z, -0.51f);
    EXPECT_LT(hi.z, 0.51f);
    EXPECT_GT(hi.x, 0.3f) << "the cube must have reached the wall it was thrown at";
}

// A glass cube dropped from 2.5 m onto the edge of a table (a box mesh) breaks there, and its
// shards fall past the edge to the floor: the impacts with the mesh's faces and edges make no
// more energy than one with the floor does (docs/fracture.md, *Energy*: up to about a quarter of
// the initial energy for a step), the run ends below its initial energy, and every fragment's
// rebound off the mesh is limited by the restitution. Before the pseudo-normal test a shard beside
// the table's side face, below its top, was taken for inside and thrown onto the edge: the run
// gained 6 times its initial energy; before the mesh's restitution the shards bounced elastically.
TEST_F(FractureTest, DropsOntoAStaticMeshsEdgeGainNoEnergy)
{
    FractureSettings s;
    s.method = FractureMethod::SecondarySplits;
    s.maxIterations = 3;
    s.domainMin = glm::vec3(-5.0f, 0.0f, -5.0f);
    s.domainMax = glm::vec3(5.0f, 10.0f, 5.0f);
    const geometry::TriangleMesh table = boxMesh({-0.5f, 0.0f, -1.0f}, {0.5f, 1.0f, 1.0f});
    FractureBodyInstance cube = body(TetShape::Cube, 6, "glass", glm::vec3(0.45f, 3.5f, 0.0f), 0.4f, glm::vec3(0.5f));
    FractureBodies bodies(context(), shaders(), graph(), {cube}, s, {table});
    const auto total = [](const FractureMetrics& m) { return double(m.kinetic) + m.potential + m.elastic; };
    const double initial = total(measure(bodies));
    double most = initial, last = initial;
    for (int k = 0; k < 72; ++k) {
        last = total(measure(bodies, true));
        most = std::max(most, last);
    }
    const FractureReport r = bodies.report();
    RecordProperty("fragments", int(r.fragments));
    EXPECT_GT(r.fragments, 5u) << "the glass must break on the edge";
    EXPECT_LT(most, 1.35 * initial) << "energy from nowhere at an impact";
    EXPECT_LT(last, initial) << "the run ended with more energy than it started with";
}

// Issue 17 item 5, fracture: a fine ball (0.12 m) falling at 12 m/s onto the centroid of a top
// face of a fixed plate of coarse tets, whose faces are far wider than the node spheres cover.
// Without face contacts (Fracture.faceContacts) it slips between the plate's node spheres to the
// floor; with them no node goes more than 2 cm into the plate (top face at 1.25 m), sampled
// every step.
TEST_F(FractureTest, ANodeCannotSlipThroughACoarseFace)
{
    std::map<bool, float> lowest;
    for (const bool faces : {true, false}) {
        FractureSettings s;
        s.method = FractureMethod::None;
        s.domainMin = glm::vec3(-5.0f, 0.0f, -5.0f);
        s.domainMax = glm::vec3(5.0f, 10.0f, 5.0f);
        FractureBodyInstance base =
            body(TetShape::Cuboid, 2, "iron", glm::vec3(0.0f, 1.0f, 0.0f), 0.0f, glm::vec3(3.0f, 0.5f, 3.0f));
        base.density = 0.0f; // fixed
        // The centroid of a top face: the farthest point from the plate's nodes.
        glm::vec3 centre(0.0f);
        for (const glm::uvec4& t : base.mesh.tets)
            for (int c = 0; c < 4 && centre == glm::vec3(0.0f); ++c) {
                glm::vec3 sum(0.0f);
                int top = 0;
                for (int k = 0; k < 4; ++k)
                    if (k != c && base.mesh.nodes[t[k]].y > 1.24f) sum += base.mesh.nodes[t[k]], ++top;
                if (top == 3) centre = sum / 3.0f;
            }
        ASSERT_NE(centre, glm::vec3(0.0f));
        FractureBodyInstance ball = body(TetShape::Sphere, 3, "iron", centre + glm::vec3(0.0f, 0.6f, 0.0f), 0.0f, glm::vec3(0.12f));
        ball.velocity = glm::vec3(0.0f, -12.0f, 0.0f);
        s.faceContacts = faces;
        FractureBodies bodies(context(), shaders(), graph(), {base, ball}, s);
        float low = 1e9f;
        for (int k = 0; k < 24; ++k) {
            run(bodies, 1);
            const auto x = worldPositions(bodies);
            for (size_t n = base.mesh.nodes.size(); n < x.size(); ++n) low = std::min(low, x[n].y);
        }
        lowest[faces] = low;
    }
    fmt::print("lowest node of the ball: {:.3f} m with face contacts, {:.3f} m without (the plate's top at 1.25 m)\n", lowest[true],
               lowest[false]);
    EXPECT_GT(lowest[true], 1.23f) << "a node went more than 2 cm into the plate between its nodes";
    EXPECT_LT(lowest[false], 1.2f) << "without face contacts the ball should slip between the plate's node spheres";
}

TEST_F(FractureTest, ConnectedRadiusNeverCrossesTheGapOfAFork)
{
    // digest-004 §3.1's correction: a fork (two prongs over a common base, a 0.4 m slot between
    // them) with a crack forced across prong A (its upper part lifted by 2 cm). The crack's
    // radius reaches over the slot into prong B, but the way round through the base is longer:
    // Radius cuts prong B too (a crack through air), radius_connected must not.
    TetShapeDesc d;
    d.shape = TetShape::Cuboid;
    d.size = glm::vec3(1.2f, 2.0f, 0.4f);
    d.resolution = 12;
    TetMesh fork = makeTetShape(d);
    std::vector<glm::uvec4> kept;
    for (const glm::uvec4& t : fork.tets) {
        glm::vec3 c(0.0f);
        for (int i = 0; i < 4; ++i) c += 0.25f * fork.nodes[t[i]];
        if (std::abs(c.x) >= 0.2f || c.y <= -0.5f) kept.push_back(t);
    }
    fork.tets = kept;
    fork = validated(fork);
    ASSERT_EQ(componentCount(fork), 1u);
    auto forkBody = [&] {
        FractureBodyInstance b = body(TetShape::Cube, 2, "glass", glm::vec3(0.0f));
        b.mesh = fork;
        for (const glm::vec3& x : fork.nodes)
            b.initial.push_back(x + (x.x < -0.2f && x.y > 0.3f ? glm::vec3(0, 0.02f, 0) : glm::vec3(0.0f)));
        return b;
    };
    auto settings = [](FractureMethod method, float radiusFactor) {
        FractureSettings s = freeFlight();
        s.method = method;
        s.evaluateEveryStep = true;
        s.maxIterations = 1;
        s.radiusFactor = radiusFactor;
        s.tauScale = 300.0f;
        s.iterations = 1; // the load this geometry was laid out for (a test of the cut's reach, not the dynamics)
        return s;
    };
    // The radius is radiusFactor x mean edge x load / tau: aim at 0.8 m from the probe's load.
    float load = 0.0f;
    {
        FractureBodies probe(context(), shaders(), graph(), {forkBody()}, settings(FractureMethod::None, 1.0f));
        load = run(probe, 1).maxLoad;
    }
    ASSERT_GT(load, 1.0f) << "the lifted prong must break";
    double edges = 0;
    for (const glm::uvec4& t : fork.tets)
        for (int i = 0; i < 4; ++i)
            for (int j = i + 1; j < 4; ++j) edges += glm::length(fork.nodes[t[j]] - fork.nodes[t[i]]) / 6.0;
    const float meanEdge = float(edges / double(fork.tets.size()));
    const float factor = 0.8f / (meanEdge * load);
    std::map<FractureMethod, int> inB; // duplicated nodes in prong B (x > 0)
    for (FractureMethod method : {FractureMethod::Radius, FractureMethod::RadiusConnected}) {
        FractureBodies bodies(context(), shaders(), graph(), {forkBody()}, settings(method, factor));
        const FractureReport r = run(bodies, 1);
        EXPECT_EQ(r.cuts, 1u) << fractureMethodName(method);
        const Snapshot snap = snapshot(bodies);
        checkFragments(snap, r.fragments, bodyMass(forkBody()));
        int count = 0, inA = 0;
        for (size_t n = fork.nodes.size(); n < snap.positions.size(); ++n) {
            count += snap.positions[n].x > 0.0f ? 1 : 0;
            inA += snap.positions[n].x < -0.2f ? 1 : 0;
        }
        EXPECT_GT(inA, 0) << fractureMethodName(method) << ": the crack runs across prong A";
        inB[method] = count;
    }
    EXPECT_GT(inB[FractureMethod::Radius], 0) << "Radius should jump the slot here (else the test shows nothing)";
    EXPECT_EQ(inB[FractureMethod::RadiusConnected], 0) << "radius_connected cut prong B through the air";
}

TEST_F(FractureTest, ConstraintMethodIronConeHoldsWhileGlassBreaks)
{
    // The Constraint method's calibration (docs/fracture.md: link scale 0.9, wear 0): the cone of
    // fracture_cone.json (landing on its side near the tip) dropped from height 5 keeps every
    // piece together as iron (tau 24.82) and breaks as glass (tau 6.01); fragments equal the
    // components over tets and intact links.
    std::map<std::string, FractureReport> result;
    for (const char* material : {"iron", "glass"}) {
        FractureSettings s;
        s.method = FractureMethod::Constraint;
        s.domainMin = glm::vec3(-10.0f, 0.0f, -10.0f);
        s.domainMax = glm::vec3(10.0f, 20.0f, 10.0f);
        FractureBodyInstance b = body(TetShape::Cone, 7, material, glm::vec3(0.0f), 0.0f, glm::vec3(1.0f, 1.2f, 1.0f));
        const glm::mat3 R = seededRotation(3);
        for (glm::vec3& x : b.mesh.nodes) x = R * x + glm::vec3(0.0f, 5.0f, 0.0f);
        FractureBodies bodies(context(), shaders(), graph(), {b}, s);
        result[material] = run(bodies, 84);
        const auto state = download<glm::vec4>(bodies.constraintState(), bodies.constraintCount());
        const auto links = download<glm::uvec4>(bodies.links(), bodies.linkCount());
        EXPECT_EQ(componentsWithLinks(snapshot(bodies), links, state), result[material].fragments) << material;
    }
    EXPECT_EQ(result["iron"].fragments, 1u) << result["iron"].cuts << " constraints broke";
    EXPECT_GE(result["glass"].fragments, 2u);
}
