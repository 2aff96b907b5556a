// The particle step without pressure (gravity and the domain walls) against the foundation's
// CPU integrator, the step metrics against sums on the CPU, and determinism: the same run
// twice gives bit-identical particle buffers.
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "GpuTest.h"
#include "Reference.h"
#include "gpu/Commands.h"
#include "sim/Simulation.h"

#include <glm/geometric.hpp>

namespace floe::test {
namespace {

struct SceneSetup {
    sim::WorldSettings world;
    std::vector<glm::vec4> positions, velocities;
};

SceneSetup randomSetup(uint32_t n, bool sim2D, uint32_t seed)
{
    SceneSetup s;
    s.world.gravity = {0.3f, -9.81f, sim2D ? 0.0f : -0.2f};
    s.world.domainMin = {-1, 0, sim2D ? -0.02f : -1};
    s.world.domainMax = {1, 2, sim2D ? 0.02f : 1};
    s.world.particleRadius = 0.02f;
    s.world.restitution = 0.4f;
    s.world.friction = 0.25f;
    s.world.sim2D = sim2D;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (uint32_t i = 0; i < n; ++i) {
        // Some particles start close to walls with velocities into them.
        glm::vec3 p(0.98f * u(rng), 1.0f + 0.98f * u(rng), sim2D ? 0.0f : 0.98f * u(rng));
        glm::vec3 v(5 * u(rng), 5 * u(rng), sim2D ? 0.0f : 5 * u(rng));
        s.positions.emplace_back(p, 0.01f + 0.001f * float(i % 7));
        s.velocities.emplace_back(v, 0.0f);
    }
    return s;
}

reference::IntegratorParams referenceParams(const sim::WorldSettings& w, float dt)
{
    return {w.gravity, dt, w.domainMin, w.domainMax, w.particleRadius, w.restitution, w.friction, w.sim2D ? 2 : 3};
}

// No pressure, no viscosity: the step is gravity and the domain walls only.
sim::SphSettings ballistic()
{
    sim::SphSettings s;
    s.solver = "none";
    s.viscosity = 0.0f;
    s.boundaryViscosity = 0.0f;
    return s;
}

// GPU arrays are in cell order after a step; put them back into sampling order.
std::vector<glm::vec4> bySamplingOrder(const std::vector<glm::vec4>& sorted, const std::vector<uint32_t>& ids)
{
    std::vector<glm::vec4> out(sorted.size());
    for (size_t k = 0; k < ids.size(); ++k) out.at(ids[k]) = sorted[k];
    return out;
}

class SimulationTest : public GpuTest, public ::testing::WithParamInterface<bool> {};

TEST_P(SimulationTest, IntegratorMatchesCpuReference)
{
    const bool sim2D = GetParam();
    SceneSetup s = randomSetup(5003, sim2D, 11);
    const float dt = 0.004f;
    s.world.timeStep = dt;
    sim::Simulation simulation(context(), shaders(), graph(), s.world, ballistic(), s.positions, s.velocities);
    for (int step = 0; step < 40; ++step) {
        simulation.addStep(graph());
        reference::integrate(s.positions, s.velocities, referenceParams(s.world, dt));
    }
    const sim::SimulationState state = simulation.download(graph());
    const auto gpuPositions = bySamplingOrder(state.positions, state.ids);
    const auto gpuVelocities = bySamplingOrder(state.velocities, state.ids);
    for (size_t i = 0; i < s.positions.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            // The same float operations; only contraction into FMA may differ: 1e-5 m and m/s.
            ASSERT_NEAR(gpuPositions[i][k], s.positions[i][k], 1e-5f) << "particle " << i << " position " << k;
            ASSERT_NEAR(gpuVelocities[i][k], s.velocities[i][k], 1e-4f) << "particle " << i << " velocity " << k;
        }
}

TEST_P(SimulationTest, StepMetricsMatchCpuSums)
{
    SceneSetup s = randomSetup(4099, GetParam(), 12);
    // One particle outside the domain (escaped) and one with a NaN velocity.
    s.positions[17] = glm::vec4(5.0f, 1.0f, 0.0f, 0.01f);
    s.velocities[17] = glm::vec4(0.0f);
    s.velocities[99].x = std::nanf("");
    const float dt = 0.001f;
    s.world.timeStep = dt;
    sim::Simulation simulation(context(), shaders(), graph(), s.world, ballistic(), s.positions, s.velocities);
    gpu::Buffer readback(context(), {"test metrics", sizeof(sim::StepReadback), gpu::MemoryKind::Readback});
    simulation.addStep(graph());
    simulation.addReadback(graph(), readback, 0);
    graph().addHostRead(readback);
    submit();
    sim::StepReadback reduced;
    readback.read(&reduced, sizeof(reduced));
    const sim::StepMetrics m = simulation.decode(reduced);
    EXPECT_FLOAT_EQ(m.dt, dt);
    EXPECT_FLOAT_EQ(m.time, dt);

    // The escaped particle is put back on the wall by the step: it counts as escaped only if it
    // is still outside, so compute the expectation from the stepped CPU state.
    reference::integrate(s.positions, s.velocities, referenceParams(s.world, dt));
    double kinetic = 0, maxSpeed = 0;
    uint32_t escaped = 0, nonFinite = 0;
    for (size_t i = 0; i < s.positions.size(); ++i) {
        const glm::vec3 x(s.positions[i]), v(s.velocities[i]);
        const bool finite = std::isfinite(x.x + x.y + x.z + v.x + v.y + v.z);
        const glm::vec3 lo = s.world.domainMin - s.world.particleRadius, hi = s.world.domainMax + s.world.particleRadius;
        const bool inside = finite && x.x >= lo.x && x.y >= lo.y && x.z >= lo.z && x.x <= hi.x && x.y <= hi.y && x.z <= hi.z;
        if (finite) {
            kinetic += 0.5 * s.positions[i].w * glm::dot(v, v);
            maxSpeed = std::max(maxSpeed, double(glm::length(v)));
        }
        escaped += inside ? 0 : 1;
        nonFinite += finite ? 0 : 1;
    }
    EXPECT_NEAR(m.kineticEnergy, kinetic, 1e-5 * kinetic);
    EXPECT_NEAR(m.maxSpeed, maxSpeed, 1e-4 * maxSpeed);
    EXPECT_EQ(m.escaped, escaped);
    EXPECT_EQ(m.nonFinite, nonFinite);
    EXPECT_EQ(m.nonFinite, 1u);
}

INSTANTIATE_TEST_SUITE_P(Dimensions, SimulationTest, ::testing::Values(false, true),
                         [](const auto& param) { return param.param ? "2D" : "3D"; });

// The same scene run twice, each with its own simulation, gives bit-identical buffers.
TEST_F(GpuTest, SameRunTwiceIsBitIdentical)
{
    const SceneSetup s = randomSetup(20000, false, 13);
    std::vector<glm::vec4> runs[2][2];
    for (int run = 0; run < 2; ++run) {
        sim::SphSettings settings;
        settings.solver = "iisph";
        sim::WorldSettings world = s.world;
        world.timeStep = 0.003f;
        sim::Simulation simulation(context(), shaders(), graph(), world, settings, s.positions, s.velocities);
        gpu::Buffer readback(context(), {"test metrics", sizeof(sim::StepReadback), gpu::MemoryKind::Readback});
        for (int step = 0; step < 25; ++step) {
            simulation.addStep(graph());
            simulation.addReadback(graph(), readback, 0);
        }
        runs[run][0] = download<glm::vec4>(simulation.particles().positions, s.positions.size());
        runs[run][1] = download<glm::vec4>(simulation.particles().velocities, s.positions.size());
    }
    for (int b = 0; b < 2; ++b)
        EXPECT_EQ(std::memcmp(runs[0][b].data(), runs[1][b].data(), runs[0][b].size() * sizeof(glm::vec4)), 0) << "buffer " << b;
}

// FLOE_POISON=1 (tools/test.sh): a new buffer reads as 0xFFFFFFFF until something writes it, in
// device-local and host-visible memory alike, so that a pass reading memory nothing wrote gets
// NaNs and fails its test instead of reading a driver's zeros.
TEST_F(GpuTest, PoisonFillsNewBuffersWhenAskedFor)
{
    if (const char* p = std::getenv("FLOE_POISON"); !p || std::string(p) != "1") GTEST_SKIP() << "FLOE_POISON is not 1";
    ASSERT_TRUE(context().caps().poison);
    const gpu::Buffer device = deviceBuffer("poison test", 1000);
    for (const uint32_t v : download<uint32_t>(device, 250)) ASSERT_EQ(v, 0xFFFFFFFFu);
    const gpu::Buffer readback(context(), {"poison read-back", 64, gpu::MemoryKind::Readback});
    for (const uint32_t v : readback.readVector<uint32_t>(16)) ASSERT_EQ(v, 0xFFFFFFFFu);
    const float f = std::bit_cast<float>(0xFFFFFFFFu);
    EXPECT_TRUE(std::isnan(f));
}

} // namespace
} // namespace floe::test
