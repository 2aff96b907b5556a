// The deformable bodies' settings (digest-002 §2.7), owned by the bodies as sim::SphSettings is
// by the fluid: one struct with the defaults and one settings table with the user-facing keys.
#pragma once

#include <glm/vec3.hpp>

#include "base/Settings.h"

namespace floe::body {

struct BodySettings {
    int omega = 2;                // region size: omega-ring (fixed when the bodies are built)
    float stiffness = 1.0f;       // s in [0, 1]: 1 rigid per region, lower is softer
    float damping = 0.0f;         // k in [0, 1]: per-region velocity damping (§2.7.10), 1 rigid per region
    int volumeMode = 1;           // BODY_VOLUME_NONE / GLOBAL / LOCAL
    float alpha = 0.5f;           // local volume: 1 global, small local (7.14)
    int weightSmoothing = 2;      // umbrella passes over the local volume weights (§2.7.9)
    float beta = 0.0f;            // influence of the interior joints on the local weights (§2.7.9)
    int jacobiSweeps = 5;         // polar decomposition sweeps per step (warm started)
    int volumeIterations = 4;     // rounds of volume correction and static contacts per step
    int contactIterations = 4;    // Jacobi iterations of the contacts between bodies per step
    float friction = 0.4f;        // Coulomb coefficient at the walls
    float restitution = 0.0f;     // normal velocity kept (reversed) at impacts
    float contactDistance = 0.0f; // m, particles stay this far inside the walls
    float timeStep = 0.005f;      // s (digest-002: 5 ms)
    glm::vec3 gravity{0.0f, -9.81f, 0.0f};
    glm::vec3 domainMin{-1e3f}, domainMax{1e3f}; // walls; the floor is domainMin.y
    glm::vec3 glassCentre{0.0f};                 // m: a vertical cylindrical glass standing on the floor (radius 0: none)
    float glassRadius = 0.0f;                    // m, inner radius
    float glassHeight = 0.0f;                    // m, rim height above the floor; above it the wall does not act
    bool naiveSummation = false;                 // regions sum their members directly (benchmarks and tests; fixed at construction)
    bool bodyContacts = true;                    // contacts between bodies (with more than one body; fixed at construction)
    // The user-facing rows, omega to glassHeight (the scene's "Deformable" section nests them;
    // the defaults above are the only ones). volumeMode is that section's "volume" choice; the
    // time step, gravity, walls and contact distance come from the scene.
    static const SettingsTable& table();
};

} // namespace floe::body
