// Particle state shared by every solver (src/sim/ParticleBuffers.h) and the minimal
// integrator of the foundation (shaders/sim/integrate.comp).
#ifndef FLOE_SHARED_PARTICLES_H
#define FLOE_SHARED_PARTICLES_H
#include "shared/types.h"

#define SIM_GROUP_SIZE 256

#define SIM_BIND_POSITIONS 0  // vec4: xyz position (m), w mass (kg)
#define SIM_BIND_VELOCITIES 1 // vec4: xyz velocity (m/s), w unused
#define SIM_BIND_METRICS 2    // vec4 per particle: x kinetic energy (J), y escaped (0/1), z speed (m/s), w non-finite (0/1)

FLOE_SHARED_BEGIN

struct ParticleParams {
    vec4 gravity;       // xyz m/s^2, w time step (s)
    vec4 domainMin;     // xyz m, w particle radius (m)
    vec4 domainMax;     // xyz m, w restitution (share of the normal velocity kept at a wall)
    uint count;         // particles
    uint dimensions;    // 2 or 3
    float friction;     // share of the tangential velocity lost at a wall contact
    float escapeMargin; // m beyond the domain before a particle counts as escaped
};
SHARED_SIZE(ParticleParams, 64);

FLOE_SHARED_END
#endif
