// A scene as loaded from JSON. Keys follow SPlisHSPlasH where they overlap ("Configuration",
// "FluidBlocks", "Materials"), Floe's own settings live under "Floe".
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "base/Settings.h"
#include "body/BodySettings.h"
#include "fracture/FractureSettings.h"
#include "fracture/TetMesh.h"
#include "geometry/Mesh.h"
#include "sim/sph/SphSettings.h"

namespace floe {

// "Configuration": general settings of the simulation.
struct SimulationSettings {
    float particleRadius = 0.025f;       // m
    float timeStepSize = 0.001f;         // s
    float stopAt = 1.0f;                 // s of simulated time (run length unless --steps/--seconds)
    glm::vec3 gravitation{0, -9.81f, 0}; // m/s^2
    bool sim2D = false;
    float density0 = 1000.0f;          // kg/m^3 (SPlisHSPlasH also reads it from Materials)
    glm::vec3 cameraPosition{0, 0, 0}; // m; all zero: placed automatically
    glm::vec3 cameraLookat{0, 0, 0};   // m
    int boundaryHandlingMethod = 0;    // SPlisHSPlasH: 0 Akinci particles (Floe's), 1 density maps, 2 volume maps
    // Exports as SPlisHSPlasH's scenes ask for them (floe run's --export overrides).
    bool enableVTKExport = false;
    bool enablePartioExport = false; // Partio's BGEO is written as PLY (Houdini and Blender read both)
    float dataExportFPS = 25.0f;     // exports per simulated second
    std::string particleAttributes = "velocity";
    std::string scriptFile; // SPlisHSPlasH's Python scripts: not run by Floe
    static const SettingsTable& table();
};

// One entry of "FluidBlocks": an axis-aligned box filled with particles as SPlisHSPlasH does.
struct FluidBlock {
    glm::vec3 start{0, 0, 0};       // m
    glm::vec3 end{1, 1, 1};         // m
    glm::vec3 translation{0, 0, 0}; // m
    glm::vec3 scale{1, 1, 1};
    glm::vec3 initialVelocity{0, 0, 0};        // m/s
    glm::vec3 initialAngularVelocity{0, 0, 0}; // rad/s about the block's centre of mass
    int denseMode = 0;                         // 0 cubic lattice, 1 staggered rows, 2 dense stacking (SPlisHSPlasH)
    std::string id = "Fluid";
    static const SettingsTable& table();
};

// One entry of "FluidModels": particles read from a file (PLY, or Partio's BGEO as SPlisHSPlasH
// writes it), then scaled, rotated and translated.
struct FluidModel {
    std::string particleFile;       // relative to the scene file
    glm::vec3 translation{0, 0, 0}; // m
    glm::vec3 scale{1, 1, 1};
    glm::vec3 rotationAxis{0, 0, 1};
    float rotationAngle = 0.0f;                // radians
    glm::vec3 initialVelocity{0, 0, 0};        // m/s
    glm::vec3 initialAngularVelocity{0, 0, 0}; // rad/s about the model's centre of mass
    std::string id = "Fluid";
    std::vector<glm::vec3> points; // m, placed; filled by the scene loader
    geometry::Transform transform() const { return {translation, scale, rotationAxis, rotationAngle}; }
    static const SettingsTable& table();
};

// One entry of "RigidBodies": static geometry sampled into boundary particles.
struct RigidBody {
    std::string geometryFile;       // OBJ, relative to the scene file
    glm::vec3 translation{0, 0, 0}; // m
    glm::vec3 scale{1, 1, 1};
    glm::vec3 rotationAxis{0, 0, 1};
    float rotationAngle = 0.0f;    // radians
    bool isWall = false;           // SPlisHSPlasH: only affects drawing
    bool inverted = false;         // the fluid is inside the mesh (SPlisHSPlasH's mapInvert)
    bool orientationGiven = false; // inverted or mapInvert in the file; else found from where the fluid is
    // Part of the fluid starts on the body's solid side (inside an obstacle, outside a container):
    // sampleFluid leaves that fluid out (set by the scene loader, which warns).
    bool fluidOnSolidSide = false;
    // A dynamic body (SPlisHSPlasH's isDynamic): the scene loader turns it into an unbreakable
    // fracture body, its closed mesh filled with stiff tets (a solid's inertia), so it moves, is
    // coupled with a fluid and collides with the domain's walls and other fracture bodies.
    bool isDynamic = false;
    float density = 1000.0f;                         // kg/m^3, of a dynamic body
    glm::vec3 velocity{0.0f}, angularVelocity{0.0f}; // m/s, rad/s about the centroid, of a dynamic body
    float restitution = -1.0f;                       // against the domain's walls (negative: glass's, 0.66)
    int resolution = 8;                              // lattice cells along a dynamic body's longest side
    geometry::TriangleMesh mesh;                     // transformed, filled by the scene loader
    geometry::Transform transform() const { return {translation, scale, rotationAxis, rotationAngle}; }
    static const SettingsTable& table();
};

// "Floe.container": the ray-cast container of digest-003, a closed convex mesh the fluid can
// never leave, optionally shaken along an axis.
struct ContainerSettings {
    std::string geometryFile;
    glm::vec3 translation{0, 0, 0}; // m
    glm::vec3 scale{1, 1, 1};
    glm::vec3 rotationAxis{0, 0, 1};
    float rotationAngle = 0.0f; // radians
    glm::vec3 shakeAxis{1, 0, 0};
    float shakeAmplitude = 0.0f; // m
    float shakeFrequency = 0.0f; // Hz
    float restitution = 1.0f;    // normal velocity kept at the walls (1: the thesis's mirror)
    geometry::TriangleMesh mesh; // transformed, filled by the scene loader
    geometry::Transform transform() const { return {translation, scale, rotationAxis, rotationAngle}; }
    static const SettingsTable& table();
};

// "Floe": settings SPlisHSPlasH does not have.
struct FloeSettings {
    glm::vec3 domainMin{0, 0, 0}; // m; the closed box particles live in
    glm::vec3 domainMax{0, 0, 0}; // m; equal to domainMin: derived from the fluid
    bool domainWalls = true;      // the domain box is a wall (a safety net whose contacts are counted)
    float restitution = 0.1f;     // normal velocity kept on domain wall contact
    float friction = 0.2f;        // tangential velocity lost on domain wall contact
    float fovY = 40.0f;           // degrees, vertical field of view
    int frames = 4;               // pictures per run unless --frames
    // Fluid particle mass: "rest" (Floe: rho0 (2r)^d over the lattice's kernel sum, so a block
    // starts at rest density), "splishsplash" (SPlisHSPlasH's 0.8 rho0 (2r)^d: a block starts at
    // 80 % density and settles), "auto": splishsplash for a scene without a "Floe" section.
    std::string particleMass = "auto";
    bool floeSection = false; // the scene has a "Floe" section (set by the loader)
    bool splishsplashMass() const { return particleMass == "splishsplash" || (particleMass == "auto" && !floeSection); }
    static const SettingsTable& table();
};

// One entry of "DeformableBodies": a closed surface simulated by shape matching with volume
// conservation (digest-002 §2.7), one particle per vertex.
struct DeformableBody {
    std::string shape = "sphere";     // sphere, box, torus, capsule or mesh (geometryFile)
    std::string geometryFile;         // OBJ for shape "mesh", relative to the scene file
    float radius = 0.25f;             // m: sphere, capsule
    glm::vec3 size{0.5f, 0.5f, 0.5f}; // m: box
    float majorRadius = 0.3f;         // m: torus
    float minorRadius = 0.1f;         // m: torus
    float length = 0.5f;              // m: capsule's cylinder
    int resolution = 3;               // sphere subdivisions; box segments = 4 * resolution; torus/capsule rings
    glm::vec3 translation{0, 0, 0};   // m
    glm::vec3 scale{1, 1, 1};
    glm::vec3 rotationAxis{0, 0, 1};
    float rotationAngle = 0.0f;         // radians
    glm::vec3 velocity{0, 0, 0};        // m/s
    glm::vec3 angularVelocity{0, 0, 0}; // rad/s about the body's centroid
    float twist = 0.0f;                 // rad/m: starts twisted about its (rotated) x axis, rest shape untwisted
    float density = 1000.0f;            // kg/m^3
    std::string volume;                 // this body's volume mode (global, local, none); empty: Deformable.volume
    float alpha = -1.0f, beta = -1.0f;  // this body's local-volume alpha, beta; negative: Deformable's
    geometry::TriangleMesh mesh;        // built, transformed, by the scene loader
    std::vector<glm::vec3> initial;     // start positions when twisted (mesh's vertex order), else empty
    geometry::Transform transform() const { return {translation, scale, rotationAxis, rotationAngle}; }
    static const SettingsTable& table();
};

// "Deformable": the bodies' own settings (body::BodySettings, its table nested here) and what
// the scene adds: the volume mode by name and the plate.
struct DeformableSettings {
    body::BodySettings body;       // omega, stiffness, damping, volume weights, contacts, the glass
    std::string volume = "global"; // global, local or none (body.volumeMode)
    float plateStart = 0.0f;       // m: height of a horizontal plate pressing down from above (0: none)
    float plateEnd = 0.0f;         // m: where the plate stops
    float plateSpeed = 0.0f;       // m/s
    static const SettingsTable& table();
};

// One entry of "FractureBodies": a tetrahedral body that can break (digest-004).
struct FractureBody {
    std::string shape = "cube";       // sphere, cone, cube, cuboid, fichera, cube_with_holes or mesh (geometryFile)
    std::string geometryFile;         // TetGen .node/.ele, Gmsh .msh or a closed OBJ for shape "mesh", relative to the scene file
    glm::vec3 size{1.0f, 1.0f, 1.0f}; // m, the shape's bounding box (TetShapeDesc)
    int resolution = 6;               // lattice cells along the longest side
    float tipRefinement = 1.3f;       // cone: grading towards the tip
    std::string material = "glass";   // glass, iron, ceramic (digest-004 Table 1) or custom
    float lambda = -1, mu = -1, phi = -1, psi = -1, tau = -1; // overrides of the material's values (negative: keep)
    float yield = -1;               // von Mises yield stress in units of tau (0: brittle; negative: the material's)
    float ductility = -1;           // failure strain of a ductile material in yield strains (negative: the material's)
    float restitution = -1;         // against the domain's walls, 0..1 (negative: the material's)
    glm::vec3 translation{0, 0, 0}; // m
    glm::vec3 scale{1, 1, 1};
    glm::vec3 rotationAxis{0, 0, 1};
    float rotationAngle = 0.0f;         // radians
    int orientationSeed = -1;           // >= 0: a random orientation from this seed (after the rotation)
    glm::vec3 velocity{0, 0, 0};        // m/s
    glm::vec3 angularVelocity{0, 0, 0}; // rad/s about the centroid
    float density = 1000.0f;            // kg/m^3 (0: the body is fixed)
    float youngsModulus = 0.0f;         // Pa, stiffness of the dynamics (0: 1e8 x the material's E / glass's)
    bool breakable = true;
    fracture::TetMesh mesh; // built and placed by the scene loader
    static const SettingsTable& table();
};

// "Fracture": the fracture bodies' own settings (fracture::FractureSettings, its table nested
// here) and what the scene adds: the method, separation, colours and wave band by name, and the
// time scale of Table 1's damping.
struct FractureSceneSettings {
    fracture::FractureSettings fracture;     // cuts, substeps, iterations, friction, wave, constraint, contacts
    std::string method = "secondary_splits"; // none, radius, radius_connected, secondary_splits, wave, constraint
    std::string separation = "eq16";         // eq16 (digest-004 (16)) or averaged (the thesis' code)
    float dampingTime = 1.0e-6f;             // s: phi and psi of Table 1 are taken times this
    std::string view = "fragments";          // colours: fragments or stress
    std::string waveBand = "detach";         // wave: detach the crossed band (the thesis) or split it by side (Glondu)
    static const SettingsTable& table();
};

struct Scene {
    std::filesystem::path file;
    std::string name; // file stem
    SimulationSettings config;
    std::vector<FluidBlock> fluidBlocks;
    std::vector<FluidModel> fluidModels;
    FloeSettings floe;
    sim::SphSettings sph;
    std::vector<RigidBody> rigidBodies;
    std::optional<ContainerSettings> container;
    std::vector<DeformableBody> deformableBodies;
    DeformableSettings deformable;
    std::vector<FractureBody> fractureBodies;
    FractureSceneSettings fracture;
    std::vector<std::string> warnings;            // shown once by the loader's caller
    std::vector<std::string> ignoredFluidSources; // SPlisHSPlasH sections that would add fluid (Emitters)

    bool domainGiven() const { return floe.domainMax != floe.domainMin; }
    // The closed domain: Floe.domain*, else the bounds of the fluid, the rigid bodies and the
    // container grown by a margin (without any geometry, with a floor below the fluid). In 2D
    // the z range is [-r, r].
    void domain(glm::vec3& lo, glm::vec3& hi) const;
};

// The fluid's particles: the blocks sampled as SPlisHSPlasH samples them (Scene.cpp), then the
// models' points. Positions xyz in m, w = mass in kg, chosen so that the block's lattice is at
// rest density; velocities xyz in m/s.
struct FluidSampling {
    std::vector<glm::vec4> positions, velocities;
    uint64_t leftOut = 0; // particles of the blocks and models left out where solids stand (or outside a container)
};
FluidSampling sampleFluid(const Scene& scene);
uint64_t
countFluidParticles(const Scene& scene); // without sampling; with bodies, at most (sampleFluid leaves out what lies inside them)
uint64_t blockParticleCount(const Scene& scene, const FluidBlock& block);
// About maxPoints of the particles' positions, spread evenly, without sampling all of them.
std::vector<glm::vec3> fluidProbePoints(const Scene& scene, size_t maxPoints);
std::vector<glm::vec4> sampleFluidParticles(const Scene& scene);
std::vector<glm::vec4> initialVelocities(const Scene& scene);
float particleMass(const Scene& scene); // kg of a cubic lattice particle: density0 (2r)^d / its kernel sum
// The static RigidBodies' meshes as the moving solids see them (outward normals): an inverted one
// (a container's walls, the fluid inside) turned, so that its inside is outside.
std::vector<geometry::TriangleMesh> staticMeshes(const Scene& scene);

} // namespace floe
