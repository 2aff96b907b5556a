#include "scene/SceneLoader.h"

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

#include "base/Error.h"
#include "body/SurfaceMesh.h"
#include "fracture/Elasticity.h"
#include "fracture/TetShapes.h"
#include "io/ParticleFile.h"
#include "scene/SplishSplashFormat.h"

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
                // Name the section with its index (FluidBlocks[2]) rather than the table's. The
                // search starts after `where`, which may spell the key too (--set DFSPH.maxError=...).
                std::string msg = e.what();
                const std::string generic = binding->table->section() + "." + key;
                const size_t after = msg.rfind(where, 0) == 0 ? where.size() : 0;
                if (auto pos = msg.find(generic, after); pos != std::string::npos)
                    msg.replace(pos, generic.size(), section + "." + key);
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
    // Dynamic rigid bodies move as unbreakable fracture bodies where Floe can step those: in 3D,
    // with a fluid at its fixed step or its CFL steps (the world chooses one step for fluid and
    // solids). They collide with the domain's walls, the static RigidBodies' meshes (a fluid's
    // tank) and deformable bodies (coupling/SolidContacts). Elsewhere they stay static, and a
    // warning says why.
    for (auto& [body, section] : dynamicBodies) {
        if (!scene.config.sim2D) {
            scene.fractureBodies.push_back(dynamicRigidBody(body, where, section));
        } else {
            scene.warnings.push_back(fmt::format("{}: {} is dynamic; Floe keeps it static here: the scene is 2D "
                                                 "(Configuration.sim2D)",
                                                 where, section));
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
