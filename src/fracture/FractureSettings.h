// Brittle fracture's settings (digest-004), owned by the fracture bodies as sim::SphSettings is by
// the fluid: the methods, one struct with the defaults and one settings table with the
// user-facing keys.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <glm/vec3.hpp>

#include "base/Settings.h"

namespace floe::fracture {

enum class FractureMethod : uint32_t { None = 0, Radius = 1, RadiusConnected = 2, SecondarySplits = 3, Wave = 4, Constraint = 5 };
std::optional<FractureMethod> fractureMethodFromName(const std::string& name); // "none", "radius", ...
const char* fractureMethodName(FractureMethod method);
inline constexpr const char* kFractureMethodNames = "none, radius, radius_connected, secondary_splits, wave, constraint";

enum class SeparationMode : uint32_t {
    Eq16 = 0,     // digest-004 (16) per node (the recommended reading, §3.0)
    Averaged = 1, // mean of the incident elements' tensors (what the thesis' code does)
};

struct FractureSettings {
    FractureMethod method = FractureMethod::SecondarySplits;
    SeparationMode separation = SeparationMode::Eq16;
    uint32_t maxIterations = 3;  // cuts per fracture event (the thesis' "max. fracture iterations")
    float fragility = 2.0f;      // secondary splits: crack nodes cut at tau / fragility (20)
    float radiusFactor = 3.0f;   // Radius: crack radius in mean edge lengths per unit of load / tau
    float tauScale = 900.0f;     // load -> tau units (docs/fracture.md, the calibration)
    float waveToughness = 0.2f;  // Wave: G_c / gamma in tau units (the thesis gives neither)
    bool waveSplitBand = false;  // Wave: split the crossed band by side (Glondu) instead of detaching it (the thesis)
    uint32_t weakEvery = 10;     // Wave: about one tet in this many is weak
    uint32_t pieces = 64;        // Constraint: Voronoi pieces per body (0: every tet a piece)
    uint32_t pieceSeed = 1;      // Constraint: seed of the Voronoi sites (body b uses seed + b)
    float linkScale = 0.9f;      // Constraint: threshold = link scale x tau x (m_A + m_B), N s
    float weakening = 0.975f;    // Constraint: threshold factor per broken neighbour (Listing 5)
    float weakeningFloor = 0.5f; // Constraint: neighbour weakening stops at this fraction of the threshold
    float wear = 0.0f;           // Constraint: share of a non-breaking impulse taken off the threshold (1: the thesis)
    bool contacts = true;        // contacts between bodies and fragments (node spheres on the grid)
    bool faceContacts = false;   // with contacts: no node passes through another fragment's boundary face (off: its cost)
    float contactRadius = 0.4f;  // node sphere radius in mean edge lengths of its body
    bool evaluateEveryStep = false;
    uint32_t substeps = 20, iterations = 3; // iterations: walls and tets in turn (docs/fracture.md, *Energy*)
    // Rounds past `iterations` while the walls or static meshes still find a node deeper than
    // wallTolerance (in the smallest mean edge of the bodies), up to iterationLimit rounds per
    // substep (fracture/round_check; docs/fracture.md, *Energy*).
    uint32_t iterationLimit = 64;
    float wallTolerance = 1e-2f;
    float friction = 0.5f, damping = 0.0f; // Coulomb coefficient; velocity damping per second
    float timeStep = 1.0f / 60.0f;
    glm::vec3 gravity{0.0f, -10.0f, 0.0f};
    glm::vec3 domainMin{-5.0f, 0.0f, -5.0f}, domainMax{5.0f, 10.0f, 5.0f};
    uint32_t colourMode = 0; // 0 fragments, 1 stress
    bool fuseColours = true; // tet_goals: runs of colours that fit in one workgroup share a dispatch (tests turn it off)
    // The user-facing rows, maxIterations to contactRadius (the scene's "Fracture" section nests
    // them; the defaults above are the only ones). The method, the separation mode, the colours
    // and the wave's band are that section's choices by name; the time step, gravity and walls
    // come from the scene.
    static const SettingsTable& table();
};

} // namespace floe::fracture
