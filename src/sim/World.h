// The physical world of a simulation and the per-step results, as plain data (no GPU types):
// built from a scene by the app, consumed by sim::Simulation, written by the io writers.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace floe::sim {

struct ContainerGeometry {
    std::vector<glm::vec4> planes; // xyz outward unit normal, w offset: inside iff n.x <= w
    glm::vec3 shakeAxis{1, 0, 0};
    float shakeAmplitude = 0.0f; // m
    float shakeFrequency = 0.0f; // Hz
    float restitution = 1.0f;
};

struct WorldSettings {
    glm::vec3 gravity{0, -9.81f, 0}; // m/s^2
    glm::vec3 domainMin{-1, 0, -1};  // m
    glm::vec3 domainMax{1, 2, 1};    // m
    float particleRadius = 0.025f;   // m; spacing h = 2r, kernel support 4r
    float restDensity = 1000.0f;     // kg/m^3 (kg/m^2 in 2D)
    bool sim2D = false;
    bool domainWalls = true;
    float restitution = 0.1f;             // at the domain walls
    float friction = 0.2f;                // at the domain walls
    float timeStep = 0.001f;              // s: the fixed step, or the largest with CFL
    float stopTime = 0.0f;                // s; steps end exactly there (0: no stop)
    std::vector<glm::vec3> boundary;      // static boundary particle positions (m)
    std::vector<glm::vec3> drawnBoundary; // the samples pictures show (walls are hidden in 3D)
    std::optional<ContainerGeometry> container;
};

// What one step reports (reduced on the GPU and read back asynchronously).
struct StepMetrics {
    float dt = 0;              // s
    float time = 0;            // s, at the end of the step
    float kineticEnergy = 0;   // J
    float densityErrorAvg = 0; // mean of max(0, rho/rho0 - 1)
    float densityErrorMax = 0;
    uint32_t escaped = 0; // outside the domain, or not finite
    float maxSpeed = 0;   // m/s
    uint32_t nonFinite = 0;
    uint32_t wallContacts = 0;         // domain-wall clamps and container fallbacks
    uint32_t iterations = 0;           // pressure solver iterations (0 for the equation of state)
    float solverError = 0;             // the pressure solver's error of its last iteration
    uint32_t divergenceIterations = 0; // DFSPH's divergence-free solver
    float divergenceError = 0;         // its error of the last iteration (density change per step / rho0)
    uint32_t neighbourOverflows = 0;   // particles with more fluid neighbours than their list holds
    uint32_t solidCorrections = 0;     // fluid particles moved out of coupled solids since the start (sph/solid_guard)
};

// Layout of the 112 bytes addReadback copies.
struct StepReadback {
    glm::vec4 reducedA;
    glm::vec4 reducedB;
    glm::vec4 time;
    glm::vec4 control;
    glm::uvec4 solver;
    glm::vec4 error;
    glm::uvec4 counters;
};
static_assert(sizeof(StepReadback) == 112);

// Everything that determines the future of a run (saved and restored bit for bit).
struct SimulationState {
    std::vector<glm::vec4> positions, velocities;
    std::vector<uint32_t> ids;
    std::vector<glm::vec4> solverState; // the solvers' warm starts (ParticleBuffers::solverState)
    std::array<glm::vec4, 5> state{};   // SphState
    glm::vec4 lastStep{0};              // reduced metrics B of the last step (CFL input)
    double reportedTime = 0.0;          // the run's time column at this state (the steps' sum as printed)
};

} // namespace floe::sim
