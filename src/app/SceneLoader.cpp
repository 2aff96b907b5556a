#include "app/SceneLoader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <nlohmann/json.hpp>

#include "app/SplishSplashFormat.h"
#include "base/Error.h"
#include "body/SurfaceMesh.h"
#include "fracture/Elasticity.h"
#include "fracture/TetShapes.h"
#include "io/ParticleFile.h"

namespace floe {
namespace {

using nlohmann::json;

std::vector<std::string> keysOf(const SettingsTable& table)
{
    std::vector<std::string> keys;
    for (const SettingRow& r : table.rows()) keys.push_back(r.key);
    return keys;
}

struct Binding {
    const SettingsTable* table;
    void* settings;
};

// Applies every key of `object` through the table that has it; unknown keys are errors unless
// SPlisHSPlasH defines them (then a warning). `skip` keys are handled by the caller.
void applyObject(const std::vector<Binding>& bindings, const json& object, const std::string& where, const std::string& section,
                 const std::set<std::string>& splishKeys, std::vector<std::string>& warnings,
                 const std::set<std::string>& skip = {})
{
    if (!object.is_object()) throw Error(fmt::format("{}: {} must be an object, got {}", where, section, object.dump()));
    std::vector<std::string> ignored;
    for (const auto& [key, value] : object.items()) {
        if (skip.count(key)) continue;
        const Binding* binding = nullptr;
        for (const Binding& b : bindings)
            if (b.table->find(key)) binding = &b;
        if (binding) {
            try {
                binding->table->apply(binding->settings, key, value, where);
            } catch (const Error& e) {
                // Name the section with its index (FluidBlocks[2]) rather than the table's.
                std::string msg = e.what();
                const std::string generic = binding->table->section() + "." + key;
                if (auto pos = msg.find(generic); pos != std::string::npos) msg.replace(pos, generic.size(), section + "." + key);
                throw Error(msg);
            }
        } else if (splishKeys.count(key)) {
            // Switched off (false) or inert: nothing runs differently.
            if (!quietKeys().count(key) && !(value.is_boolean() && !value.get<bool>())) ignored.push_back(key);
        } else {
            std::vector<std::string> all;
            for (const Binding& b : bindings)
                for (const std::string& k : keysOf(*b.table)) all.push_back(k);
            for (const std::string& k : skip) all.push_back(k);
            const std::string hint = closestKey(key, all);
            throw Error(fmt::format("{}: unknown key {}.{}{}; known keys: {}", where, section, key,
                                    hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint), fmt::join(all, ", ")));
        }
    }
    if (!ignored.empty())
        warnings.push_back(
            fmt::format("{}: {} keys not used by Floe yet (SPlisHSPlasH settings): {}", where, section, fmt::join(ignored, ", ")));
}

void applyObject(const SettingsTable& table, void* settings, const json& object, const std::string& where,
                 const std::string& section, const std::set<std::string>& splishKeys, std::vector<std::string>& warnings)
{
    applyObject({{&table, settings}}, object, where, section, splishKeys, warnings);
}

// Loads and transforms a mesh named by `key`, relative to the scene file's folder.
geometry::TriangleMesh loadMesh(const std::string& file, const geometry::Transform& transform,
                                const std::filesystem::path& sceneDir, const std::string& where, const std::string& key)
{
    if (file.empty()) throw Error(fmt::format("{}: {}: expected the path of an OBJ file", where, key));
    std::filesystem::path path = file;
    if (path.is_relative()) path = sceneDir / path;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw Error(fmt::format("{}: {}: no such mesh file {}", where, key, path.string()));
    geometry::TriangleMesh mesh = geometry::loadObj(path);
    return geometry::transformed(mesh, transform);
}

// A mirroring scale would turn a body inside out.
void requirePositiveScale(const glm::vec3& scale, const std::string& where, const std::string& section)
{
    if (scale.x * scale.y * scale.z <= 0.0f)
        throw Error(fmt::format("{}: {}.scale must be positive on every axis, got [{}, {}, {}]", where, section, scale.x, scale.y,
                                scale.z));
}

// The closed surface of a deformable body: procedural, or an OBJ checked to be closed and
// 2-manifold; then transformed (a mirroring scale is refused: it would turn the surface inside out).
geometry::TriangleMesh deformableMesh(const DeformableBody& body, const std::filesystem::path& sceneDir, const std::string& where,
                                      const std::string& section)
{
    requirePositiveScale(body.scale, where, section);
    geometry::TriangleMesh mesh;
    const int k = body.resolution;
    if (body.shape == "sphere") {
        mesh = body::makeSphere(body.radius, k);
    } else if (body.shape == "box") {
        mesh = body::makeBox(body.size, 4 * k);
    } else if (body.shape == "torus") {
        if (body.minorRadius >= body.majorRadius)
            throw Error(fmt::format("{}: {}.minorRadius {} m must be smaller than majorRadius {} m", where, section,
                                    body.minorRadius, body.majorRadius));
        mesh = body::makeTorus(body.majorRadius, body.minorRadius, 12 * k, 6 * k);
    } else if (body.shape == "capsule") {
        mesh = body::makeCapsule(body.radius, body.length, 12 * k, 3 * k);
    } else {
        mesh = loadMesh(body.geometryFile, geometry::Transform{}, sceneDir, where, section + ".geometryFile");
    }
    mesh = geometry::transformed(mesh, body.transform());
    try {
        return body::closedSurface(mesh);
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}: {}", where, section, e.what()));
    }
}

// The tetrahedral mesh of a fracture body: generated or imported, then scaled, rotated (axis and
// angle, then a seeded random orientation) and translated.
fracture::TetMesh fractureMesh(const FractureBody& body, const std::filesystem::path& sceneDir, const std::string& where,
                               const std::string& section)
{
    requirePositiveScale(body.scale, where, section);
    fracture::TetMesh mesh;
    try {
        if (body.shape == "mesh") {
            if (body.geometryFile.empty())
                throw Error(
                    fmt::format("{}.geometryFile: shape mesh needs a TetGen .node/.ele, a Gmsh .msh or an OBJ file", section));
            const std::filesystem::path path = sceneDir / body.geometryFile;
            if (!std::filesystem::exists(path))
                throw Error(fmt::format("{}.geometryFile: {} does not exist", section, path.string()));
            if (path.extension() == ".obj") {
                // A closed surface, filled with the generator's lattice of tets at `resolution`.
                geometry::TriangleMesh surface = geometry::loadObj(path);
                surface.name = path.filename().string();
                mesh = fracture::makeTetSurface(surface, body.resolution);
            } else {
                mesh = fracture::loadTetMesh(path);
            }
        } else {
            fracture::TetShapeDesc d;
            d.shape = *fracture::tetShapeFromName(body.shape);
            d.size = body.size;
            d.resolution = body.resolution;
            d.tipRefinement = body.tipRefinement;
            mesh = fracture::makeTetShape(d);
        }
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {}: {}", where, section, e.what()));
    }
    glm::mat3 rotation(1.0f);
    if (body.rotationAngle != 0.0f && glm::length(body.rotationAxis) > 0.0f) {
        const geometry::Transform turn{{0, 0, 0}, {1, 1, 1}, body.rotationAxis, body.rotationAngle};
        rotation = glm::mat3(turn.applyToDirection({1, 0, 0}), turn.applyToDirection({0, 1, 0}), turn.applyToDirection({0, 0, 1}));
    }
    if (body.orientationSeed >= 0) {
        rotation = fracture::seededRotation(uint32_t(body.orientationSeed)) * rotation;
    }
    for (glm::vec3& x : mesh.nodes) x = rotation * (x * body.scale) + body.translation;
    mesh.name = section;
    return mesh;
}

// A dynamic rigid body as an unbreakable fracture body: its closed mesh, where the scene placed
// it, filled with the generator's lattice of tets, stiff (glass's dynamics stiffness, 1e8 Pa) so
// it moves as a rigid body with a solid's inertia. Fracture bodies collide with the domain's
// walls and each other, and are coupled with a fluid.
FractureBody dynamicRigidBody(const RigidBody& rigid, const std::string& where, const std::string& section)
{
    if (rigid.inverted)
        throw Error(fmt::format("{}: {}: a dynamic body cannot be inverted (mapInvert): it would be a container that moves", where,
                                section));
    FractureBody f;
    f.shape = "mesh";
    f.geometryFile = rigid.geometryFile;
    f.resolution = rigid.resolution;
    f.material = "glass";
    f.breakable = false;
    f.density = rigid.density;
    f.velocity = rigid.velocity;
    f.angularVelocity = rigid.angularVelocity;
    f.restitution = rigid.restitution;
    geometry::TriangleMesh surface = rigid.mesh;
    surface.name = rigid.geometryFile;
    try {
        f.mesh = fracture::makeTetSurface(surface, rigid.resolution);
    } catch (const Error& e) {
        throw Error(fmt::format("{}: {} (isDynamic): {}", where, section, e.what()));
    }
    f.mesh.name = section;
    return f;
}

} // namespace

Scene parseScene(const json& root, const std::string& where, const std::filesystem::path& sceneDir)
{
    if (!root.is_object()) throw Error(fmt::format("{}: a scene must be a JSON object with a \"Configuration\" section", where));
    refuseMissingFeatures(root, where);
    Scene scene;
    const json* materials = nullptr;
    bool wcsphObject = false, eosGiven = false;
    std::vector<std::pair<RigidBody, std::string>> dynamicBodies; // isDynamic RigidBodies and their sections
    for (const auto& [key, value] : root.items()) {
        if (key == "Configuration") {
            // SPlisHSPlasH keeps each pressure solver's settings in an object named after it.
            std::set<std::string> nested = {"ICSPH", "Projective Fluids"};
            for (const SettingsTable* t : sim::SphSettings::methodTables()) nested.insert(t->section());
            applyObject({{&SimulationSettings::table(), &scene.config}, {&sim::SphSettings::configurationTable(), &scene.sph}},
                        value, where, "Configuration", splishConfigurationKeys(), scene.warnings, nested);
            for (const std::string& method : nested) {
                if (!value.is_object() || !value.contains(method)) continue;
                if (const SettingsTable* t = sim::SphSettings::methodTable(method)) {
                    applyObject(*t, &scene.sph, value[method], where, "Configuration." + method, {}, scene.warnings);
                    if (method == "WCSPH") wcsphObject = true;
                } else {
                    scene.warnings.push_back(
                        fmt::format("{}: Configuration.{}: settings of a method Floe does not have are ignored", where, method));
                }
            }
        } else if (key == "FluidBlocks") {
            if (!value.is_array()) throw Error(fmt::format("{}: FluidBlocks must be an array of objects", where));
            for (size_t i = 0; i < value.size(); ++i) {
                FluidBlock block;
                applyObject(FluidBlock::table(), &block, value[i], where, fmt::format("FluidBlocks[{}]", i), splishFluidBlockKeys(),
                            scene.warnings);
                scene.fluidBlocks.push_back(block);
            }
        } else if (key == "Materials") {
            materials = &value; // after the fluid blocks and models, whose ids choose the fluid's entry
        } else if (key == "RigidBodies") {
            if (!value.is_array()) throw Error(fmt::format("{}: RigidBodies must be an array of objects", where));
            for (size_t i = 0; i < value.size(); ++i) {
                RigidBody body;
                const std::string section = fmt::format("RigidBodies[{}]", i);
                applyObject(RigidBody::table(), &body, value[i], where, section, splishRigidBodyKeys(), scene.warnings);
                if (value[i].contains("isAnimated") && value[i]["isAnimated"] == true)
                    scene.warnings.push_back(
                        fmt::format("{}: {} is animated (by a script) in SPlisHSPlasH; Floe keeps it static", where, section));
                body.mesh = loadMesh(body.geometryFile, body.transform(), sceneDir, where, section + ".geometryFile");
                body.orientationGiven = value[i].contains("inverted") || value[i].contains("mapInvert");
                if (body.isDynamic) {
                    dynamicBodies.emplace_back(std::move(body), section); // after the whole file: below
                    continue;
                }
                scene.rigidBodies.push_back(std::move(body));
            }
        } else if (key == "Floe") {
            scene.floe.floeSection = true;
            applyObject({{&FloeSettings::table(), &scene.floe}, {&sim::SphSettings::floeTable(), &scene.sph}}, value, where, "Floe",
                        {}, scene.warnings, {"container"});
            eosGiven = value.is_object() && value.contains("eos");
            if (value.contains("container")) {
                ContainerSettings container;
                applyObject(ContainerSettings::table(), &container, value["container"], where, "Floe.container", {},
                            scene.warnings);
                container.mesh =
                    loadMesh(container.geometryFile, container.transform(), sceneDir, where, "Floe.container.geometryFile");
                if (!geometry::isClosed(container.mesh))
                    throw Error(
                        fmt::format("{}: Floe.container.geometryFile: {} is not a closed mesh (every edge must join two faces)",
                                    where, container.geometryFile));
                const geometry::Bounds b = geometry::boundsOf(container.mesh);
                if (!geometry::isConvex(container.mesh, 1e-5f * glm::length(b.hi - b.lo)))
                    throw Error(
                        fmt::format("{}: Floe.container.geometryFile: {} is not convex (with outward normals); the ray-cast "
                                    "container needs a convex mesh",
                                    where, container.geometryFile));
                if (glm::length(container.shakeAxis) > 0.0f) container.shakeAxis = glm::normalize(container.shakeAxis);
                scene.container = std::move(container);
            }
        } else if (key == "DeformableBodies") {
            if (!value.is_array()) throw Error(fmt::format("{}: DeformableBodies must be an array of objects", where));
            for (size_t i = 0; i < value.size(); ++i) {
                DeformableBody body;
                const std::string section = fmt::format("DeformableBodies[{}]", i);
                applyObject(DeformableBody::table(), &body, value[i], where, section, {}, scene.warnings);
                body.mesh = deformableMesh(body, sceneDir, where, section);
                if (body.twist != 0.0f) {
                    // Twisted about the body's x axis (after its rotation) through its centroid.
                    glm::vec3 centre(0.0f);
                    for (const glm::vec3& v : body.mesh.vertices) centre += v;
                    centre /= float(body.mesh.vertices.size());
                    const glm::vec3 axis = glm::normalize(body.transform().applyToDirection({1, 0, 0}));
                    for (const glm::vec3& v : body.mesh.vertices) {
                        const glm::vec3 d = v - centre;
                        const float along = glm::dot(d, axis);
                        const float angle = body.twist * along;
                        const glm::vec3 radial = d - along * axis;
                        const glm::vec3 turned = radial * std::cos(angle) + glm::cross(axis, radial) * std::sin(angle);
                        body.initial.push_back(centre + along * axis + turned);
                    }
                }
                scene.deformableBodies.push_back(std::move(body));
            }
        } else if (key == "Deformable") {
            applyObject(DeformableSettings::table(), &scene.deformable, value, where, "Deformable", {}, scene.warnings);
        } else if (key == "FractureBodies") {
            if (!value.is_array()) throw Error(fmt::format("{}: FractureBodies must be an array of objects", where));
            for (size_t i = 0; i < value.size(); ++i) {
                FractureBody body;
                const std::string section = fmt::format("FractureBodies[{}]", i);
                applyObject(FractureBody::table(), &body, value[i], where, section, {}, scene.warnings);
                if (body.material == "custom" && (body.lambda < 0 || body.mu < 0 || body.phi < 0 || body.psi < 0 || body.tau <= 0))
                    throw Error(
                        fmt::format("{}: {}: material custom needs lambda, mu, phi, psi (>= 0) and tau (> 0)", where, section));
                const fracture::Material preset = fracture::materialPreset(body.material).value_or(fracture::Material{});
                const float yield = body.yield >= 0 ? body.yield : preset.yield;
                const float ductility = body.ductility >= 0 ? body.ductility : preset.ductility;
                if (yield > 0 && ductility <= 0)
                    throw Error(fmt::format("{}: {}.ductility: a ductile material (yield {} > 0) needs a failure strain > 0 "
                                            "yield strains",
                                            where, section, yield));
                if (body.youngsModulus > 0 && body.youngsModulus < 1e3f)
                    throw Error(fmt::format("{}: {}.youngsModulus: {} Pa is too soft for the dynamics; expected 0 (from the "
                                            "material) or 1e3 .. 1e12",
                                            where, section, body.youngsModulus));
                body.mesh = fractureMesh(body, sceneDir, where, section);
                scene.fractureBodies.push_back(std::move(body));
            }
        } else if (key == "Fracture") {
            applyObject(FractureSceneSettings::table(), &scene.fracture, value, where, "Fracture", {}, scene.warnings);
        } else if (key == "FluidModels") {
            if (!value.is_array()) throw Error(fmt::format("{}: FluidModels must be an array of objects", where));
            for (size_t i = 0; i < value.size(); ++i) {
                FluidModel model;
                const std::string section = fmt::format("FluidModels[{}]", i);
                applyObject(FluidModel::table(), &model, value[i], where, section, splishFluidModelKeys(), scene.warnings);
                if (model.particleFile.empty())
                    throw Error(fmt::format("{}: {}.particleFile: expected a particle file (.ply or .bgeo)", where, section));
                requirePositiveScale(model.scale, where, section);
                std::filesystem::path path = model.particleFile;
                if (path.is_relative()) path = sceneDir / path;
                const std::string ext = path.extension().string();
                if (ext == ".obj")
                    throw Error(fmt::format("{}: {}.particleFile {}: sampling a mesh's volume into particles is not in Floe; give "
                                            "the particles as PLY or BGEO (or the volume as FluidBlocks)",
                                            where, section, model.particleFile));
                try {
                    model.points = io::readParticlePositions(path);
                } catch (const Error& e) {
                    throw Error(fmt::format("{}: {}.particleFile: {}", where, section, e.what()));
                }
                const geometry::Transform t = model.transform();
                for (glm::vec3& x : model.points) x = t.apply(x);
                scene.fluidModels.push_back(std::move(model));
            }
        } else if (splishSections().count(key)) {
            if (key == "Emitters") scene.ignoredFluidSources.push_back("Emitters");
            scene.warnings.push_back(fmt::format("{}: {}: {}", where, key, splishSections().at(key)));
        } else {
            std::vector<std::string> sections{"Configuration",    "FluidBlocks", "Materials",      "RigidBodies", "Floe",
                                              "DeformableBodies", "Deformable",  "FractureBodies", "Fracture"};
            const std::string hint = closestKey(key, sections);
            throw Error(fmt::format("{}: unknown section \"{}\"{}; Floe reads Configuration, FluidBlocks, Materials, RigidBodies, "
                                    "Floe, DeformableBodies, Deformable, FractureBodies and Fracture",
                                    where, key, hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint)));
        }
    }
    if (!root.contains("Configuration")) throw Error(fmt::format("{}: missing section \"Configuration\"", where));
    if (materials) parseMaterials(*materials, where, scene);
    // SPlisHSPlasH's WCSPH is k ((rho/rho0)^gamma - 1): its object selects that equation of state.
    if (wcsphObject && !eosGiven) scene.sph.eos = "tait";
    noteConfigurationSubstitutions(scene, where);
    for (const std::string& s : scene.sph.substitutions()) scene.warnings.push_back(where + ": " + s);
    // Dynamic rigid bodies move as unbreakable fracture bodies where Floe can step those: with
    // one fixed time step, the domain's walls given (they collide with those, not with the
    // RigidBodies meshes that bound a fluid), in 3D, without deformable bodies (no contacts
    // between the kinds). Elsewhere (the reference's own scenes step with CFL) they stay static,
    // and a warning says why.
    const bool withFluid = !scene.fluidBlocks.empty() || !scene.fluidModels.empty();
    for (auto& [body, section] : dynamicBodies) {
        std::string why;
        if (!scene.deformableBodies.empty())
            why = "the scene has DeformableBodies, and moving solids of the two kinds do not collide with each other";
        else if (scene.config.sim2D)
            why = "the scene is 2D (Configuration.sim2D)";
        else if (withFluid && scene.sph.cflMethod != 0)
            why = fmt::format("Configuration.cflMethod is {}, and a fluid steps with moving solids at one fixed timeStepSize "
                              "(cflMethod 0)",
                              scene.sph.cflMethod);
        else if (withFluid && !scene.domainGiven())
            why = "the scene gives no Floe.domainMin and domainMax: moving solids collide with the domain's walls, not with the "
                  "RigidBodies meshes that hold the fluid";
        else if (withFluid && scene.fracture.method == "constraint")
            why = "Fracture.method is constraint, whose pieces cannot be coupled with a fluid";
        if (why.empty()) {
            scene.fractureBodies.push_back(dynamicRigidBody(body, where, section));
        } else {
            scene.warnings.push_back(fmt::format("{}: {} is dynamic; Floe keeps it static here: {}", where, section, why));
            scene.rigidBodies.push_back(std::move(body));
        }
    }
    validateScene(scene, where);
    orientRigidBodies(scene);
    warnFluidInsideSolids(scene, where);
    for (size_t i = 0; i < scene.fluidBlocks.size(); ++i)
        if (blockParticleCount(scene, scene.fluidBlocks[i]) == 0)
            scene.warnings.push_back(
                fmt::format("{}: FluidBlocks[{}] holds no particle at radius {} m (as in SPlisHSPlasH, a block "
                            "needs at least 2 particles along each axis)",
                            where, i, scene.config.particleRadius));
    return scene;
}

namespace {
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
    // Static meshes (RigidBodies): a body cut by one, or inside a closed one, is pushed out at any
    // speed in the first step, or stays inside. An inverted one (a container's walls) holds the
    // bodies inside: turned, as the bodies see it, its inside is outside.
    std::vector<geometry::TriangleMesh> walls;
    for (const RigidBody& r : scene.rigidBodies) {
        walls.push_back(r.mesh);
        if (r.inverted)
            for (glm::uvec3& t : walls.back().triangles) std::swap(t.y, t.z);
    }
    for (size_t i = 0; i < bodies.size(); ++i)
        for (size_t r = 0; r < scene.rigidBodies.size(); ++r)
            if (geometry::meshesIntersect(bodies[i].mesh, walls[r]))
                throw Error(fmt::format("{}: DeformableBodies[{}] ({}) and RigidBodies[{}] ({}) intersect; expected bodies apart "
                                        "from the static meshes at the start",
                                        where, i, bodies[i].shape, r, scene.rigidBodies[r].mesh.name));
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
    for (size_t i = 0; i < bodies.size(); ++i)
        for (size_t j = i + 1; j < bodies.size(); ++j) {
            if (!bounds[i].overlaps(bounds[j])) continue;
            if (nodeInside(bodies[i].mesh, bodies[j].mesh, bounds[j]) || nodeInside(bodies[j].mesh, bodies[i].mesh, bounds[i]))
                throw Error(fmt::format("{}: FractureBodies[{}] ({}) and [{}] ({}) overlap; expected bodies apart at the start",
                                        where, i, bodies[i].shape, j, bodies[j].shape));
        }
}
} // namespace

void validateScene(const Scene& scene, const std::string& where)
{
    const bool withFluid = !scene.fluidBlocks.empty() || !scene.fluidModels.empty();
    // Coupled (coupling/FluidSolidCoupling): one fixed step for both, a solver whose iterations
    // read the boundary only through G_b.
    const auto checkCoupledSolver = [&](const char* solids) {
        const sim::PressureSolver solver = scene.sph.pressureSolver();
        if (solver == sim::PressureSolver::Pcisph || solver == sim::PressureSolver::Pbf)
            throw Error(fmt::format("{}: Configuration.simulationMethod: {} with {}; expected DFSPH, IISPH or an equation of "
                                    "state (WCSPH), the solvers coupled with solids",
                                    where, sim::pressureSolverTitle(solver), solids));
        if (scene.sph.cflMethod != 0)
            throw Error(fmt::format("{}: Configuration.cflMethod {} with {}; expected 0: the fluid and the solids step together "
                                    "with one fixed timeStepSize",
                                    where, scene.sph.cflMethod, solids));
    };
    if (!scene.fractureBodies.empty()) {
        if (!scene.deformableBodies.empty())
            throw Error(fmt::format("{}: FractureBodies with DeformableBodies in one scene: contacts between the two kinds are not "
                                    "implemented yet; run them as separate scenes",
                                    where));
        if (withFluid) {
            checkCoupledSolver("FractureBodies");
            if (scene.config.sim2D)
                throw Error(fmt::format("{}: FractureBodies with a 2D fluid (Configuration.sim2D); expected a 3D scene: the "
                                        "fracture bodies are tetrahedral",
                                        where));
            if (scene.fracture.method == "constraint")
                throw Error(fmt::format("{}: Fracture.method constraint with FluidBlocks; expected another method: the "
                                        "constraint method's pieces copy their nodes, so the fluid would see the faces between "
                                        "them as surfaces",
                                        where));
            // The fracture bodies collide with the domain's walls, not with the RigidBodies'
            // meshes that bound the fluid: the scene says where those walls are.
            if (!scene.domainGiven())
                throw Error(
                    fmt::format("{}: FractureBodies with FluidBlocks: expected Floe.domainMin and Floe.domainMax (the inside "
                                "of the fluid's tank): the fracture bodies collide with the domain's walls",
                                where));
        }
        checkFracturePlacement(scene, where);
        return;
    }
    if (!scene.deformableBodies.empty()) {
        if (withFluid) checkCoupledSolver("DeformableBodies");
        const DeformableSettings& d = scene.deformable;
        if (d.plateSpeed > 0.0f && d.plateEnd >= d.plateStart)
            throw Error(
                fmt::format("{}: Deformable.plateEnd {} m must lie below plateStart {} m", where, d.plateEnd, d.plateStart));
        checkBodyPlacement(scene, where);
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

namespace {
// nlohmann's message without its "[json.exception.out_of_range.406] " prefix.
std::string jsonMessage(const json::exception& e)
{
    std::string msg = e.what();
    if (auto pos = msg.find("] "); pos != std::string::npos) msg = msg.substr(pos + 2);
    return msg;
}
} // namespace

Scene loadScene(const std::filesystem::path& file)
{
    const std::string where = file.string();
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) throw Error(fmt::format("{}: no such scene file", where));
    if (std::filesystem::is_directory(file, ec)) throw Error(fmt::format("{}: is a directory, expected a scene .json file", where));
    std::ifstream in(file);
    if (!in) throw Error(fmt::format("{}: cannot open the scene file", where));
    std::stringstream text;
    text << in.rdbuf();
    json root;
    // The key being read, so that a number that overflows a double (1e999) is reported where it is.
    std::string key;
    const json::parser_callback_t track = [&key](int, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::key && parsed.is_string()) key = parsed.get<std::string>();
        return true;
    };
    try {
        root = json::parse(text.str(), track);
    } catch (const json::out_of_range& e) {
        throw Error(fmt::format("{}: \"{}\": {}; expected a finite number", where, key, jsonMessage(e)));
    } catch (const json::parse_error& e) {
        // nlohmann's message holds "line L, column C".
        std::string msg = e.what();
        if (auto pos = msg.find("parse error at "); pos != std::string::npos) msg = msg.substr(pos + 15);
        throw Error(fmt::format("{}: malformed JSON at {}", where, msg));
    }
    Scene scene = parseScene(root, where, file.parent_path());
    scene.file = file;
    scene.name = file.stem().string();
    return scene;
}

namespace {

// One --set: the setting applied; with `validate`, the scene checked.
void applySetting(Scene& scene, const std::string& assignment, bool validate)
{
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw Error(fmt::format("--set {}: expected key=value, e.g. --set Configuration.timeStepSize=0.0005", assignment));
    std::string key = assignment.substr(0, eq);
    const std::string text = assignment.substr(eq + 1);
    json value;
    try {
        value = json::parse(text);
    } catch (const json::out_of_range& e) {
        throw Error(fmt::format("--set {}: {}; expected a finite number", assignment, jsonMessage(e)));
    } catch (const json::parse_error&) {
        value = text; // a bare string
    }
    std::string section;
    if (auto dot = key.rfind('.'); dot != std::string::npos) {
        section = key.substr(0, dot);
        key = key.substr(dot + 1);
        // Configuration.DFSPH.maxError names the same setting as DFSPH.maxError.
        if (section.rfind("Configuration.", 0) == 0 && sim::SphSettings::methodTable(section.substr(14)))
            section = section.substr(14);
    }
    const std::string where = "--set " + assignment;
    std::vector<std::string> unused;
    const std::vector<Binding> configuration{{&SimulationSettings::table(), &scene.config},
                                             {&sim::SphSettings::configurationTable(), &scene.sph}};
    const std::vector<Binding> floe{{&FloeSettings::table(), &scene.floe}, {&sim::SphSettings::floeTable(), &scene.sph}};
    const auto has = [&](const std::vector<Binding>& bindings) {
        for (const Binding& b : bindings)
            if (b.table->find(key)) return true;
        return false;
    };
    if (section.empty()) {
        if (has(configuration))
            section = "Configuration";
        else if (has(floe))
            section = "Floe";
    }
    if (const SettingsTable* method = sim::SphSettings::methodTable(section)) {
        applyObject(*method, &scene.sph, json{{key, value}}, where, "Configuration." + section, {}, unused);
    } else if (section == "Configuration") {
        applyObject(configuration, json{{key, value}}, where, section, {}, unused);
    } else if (section == "Deformable") {
        applyObject(DeformableSettings::table(), &scene.deformable, json{{key, value}}, where, section, {}, unused);
    } else if (section == "Fracture") {
        applyObject(FractureSceneSettings::table(), &scene.fracture, json{{key, value}}, where, section, {}, unused);
    } else if (section == "Floe") {
        applyObject(floe, json{{key, value}}, where, section, {}, unused);
    } else {
        std::vector<std::string> all;
        for (const auto* bindings : {&configuration, &floe})
            for (const Binding& b : *bindings)
                for (const std::string& k : keysOf(*b.table)) all.push_back(k);
        const std::string hint = closestKey(key, all);
        throw Error(fmt::format("{}: unknown setting '{}'{}", where, section.empty() ? key : section + "." + key,
                                hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint)));
    }
    if (validate) validateScene(scene, where);
}

} // namespace

void applyOverrides(Scene& scene, const std::vector<std::string>& assignments)
{
    for (const std::string& a : assignments) applySetting(scene, a, false);
    if (!assignments.empty()) validateScene(scene, fmt::format("--set {}", fmt::join(assignments, " --set ")));
}

void applyOverride(Scene& scene, const std::string& assignment)
{
    applySetting(scene, assignment, true);
}

} // namespace floe
