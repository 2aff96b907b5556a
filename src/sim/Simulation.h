// The simulation of one scene: owns the particle arrays and adds each step's passes to the
// render graph. In the foundation the step is the minimal integrator (gravity, walls); solvers
// (SPH, soft bodies, fracture) plug in here and share ParticleBuffers with the renderer.
#pragma once

#include <array>
#include <memory>
#include <span>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "gpu/Pipeline.h"
#include "shared/particles.h"
#include "sim/ParticleBuffers.h"
#include "sim/prim/Reduce.h"

namespace floe::graph {
class RenderGraph;
}
namespace floe::gpu {
class ShaderLibrary;
}

namespace floe::sim {

struct WorldSettings {
    glm::vec3 gravity{0, -9.81f, 0}; // m/s^2
    glm::vec3 domainMin{-1, 0, -1};  // m
    glm::vec3 domainMax{1, 2, 1};    // m
    float particleRadius = 0.025f;   // m
    float restitution = 0.1f;
    float friction = 0.2f;
    bool sim2D = false;
};

// What one step reports, reduced on the GPU (layout of the read-back vec4).
struct StepMetrics {
    float kineticEnergy = 0; // J
    uint32_t escaped = 0;    // particles outside the domain (non-finite ones included)
    float maxSpeed = 0;      // m/s
    uint32_t nonFinite = 0;  // particles with a NaN or infinite position or velocity
};

class Simulation {
public:
    Simulation(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph, const WorldSettings& world,
               std::span<const glm::vec4> positions, std::span<const glm::vec4> velocities);

    // One time step of `dt` seconds, followed by the per-particle metrics.
    void addStep(graph::RenderGraph& graph, float dt);
    // Reduces the per-particle metrics of the last step into one vec4 at `target` + offset
    // (16 bytes; decode with decodeMetrics).
    void addMetrics(graph::RenderGraph& graph, const gpu::Buffer& target, VkDeviceSize offset);
    static StepMetrics decodeMetrics(const glm::vec4& reduced);

    const ParticleBuffers& particles() const { return particles_; }
    const WorldSettings& world() const { return world_; }
    uint32_t count() const { return particles_.count; }
    shared::ParticleParams params(float dt) const;

private:
    WorldSettings world_;
    ParticleBuffers particles_;
    gpu::Pipeline integrate_;
    Reduce reduce_;
    gpu::Buffer reduced_; // one vec4
};

} // namespace floe::sim
