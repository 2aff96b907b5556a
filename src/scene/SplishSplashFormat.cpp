#include "scene/SplishSplashFormat.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "base/Error.h"
#include "base/Settings.h"

namespace floe {

using nlohmann::json;

namespace {

// The per-method objects of a material (SPlisHSPlasH's non-pressure forces), by method key and
// number: the name of the object holding the method's parameters.
struct MaterialMethod {
    const char* key;
    const char* what;
    std::vector<const char*> names; // index = method number (0: none)
};

const std::vector<MaterialMethod>& materialMethods()
{
    static const std::vector<MaterialMethod> methods = {
        {"viscosityMethod",
         "viscosity",
         {"None", "Standard viscosity", "Bender and Koschier 2017", "Peer et al. 2015", "Peer et al. 2016",
          "Takahashi et al. 2015 (improved)", "Weiler et al. 2018"}},
        {"vorticityMethod", "vorticity", {"None", "Bender et al. 2017", "Vorticity confinement", "Liu et al. 2021"}},
        {"dragMethod", "drag", {"None", "Macklin et al. 2014", "Gissler et al. 2017"}},
        {"surfaceTensionMethod",
         "surface tension",
         {"None", "Becker & Teschner 2007", "Akinci et al. 2013", "He et al. 2014", "Jeske et al. 2023",
          "Zorilla, Ritter, et al. 2020"}},
        {"elasticityMethod", "elasticity", {"None", "Becker et al. 2009", "Peer et al. 2018", "Kugelstadt et al. 2021"}}};
    return methods;
}

} // namespace

// Keys SPlisHSPlasH's scene format defines (doc/file_format.md there, 2.16) that only affect its
// GUI, its caches or features Floe does not have: accepted and listed in one warning, so that
// its scenes load unchanged.
const std::set<std::string>& splishConfigurationKeys()
{
    static const std::set<std::string> keys = {"pause",
                                               "pauseAt",
                                               "numberOfStepsPerRenderUpdate",
                                               "renderWalls",
                                               "renderMaxVelocity",
                                               "colorMapType",
                                               "sceneScale",
                                               "enableRigidBodyExport",
                                               "enableRigidBodyVTKExport",
                                               "enableStateExport",
                                               "stateExportFPS",
                                               "enableAsyncExport",
                                               "enableZSort",
                                               "velocityUpdateMethod",
                                               "enableObjectSplitting",
                                               "enableTemporalSmoothing"};
    return keys;
}

const std::set<std::string>& splishFluidBlockKeys()
{
    static const std::set<std::string> keys = {"visMesh"};
    return keys;
}

const std::set<std::string>& splishFluidModelKeys()
{
    static const std::set<std::string> keys = {"denseMode", "invert", "resolutionSDF", "visMesh"};
    return keys;
}

const std::set<std::string>& splishRigidBodyKeys()
{
    static const std::set<std::string> keys = {"color",
                                               "isDynamic",
                                               "isAnimated",
                                               "mapThickness",
                                               "mapResolution",
                                               "mapFile",
                                               "samplingMode",
                                               "particleFile",
                                               "id",
                                               "density",
                                               "friction",
                                               "restitution",
                                               "velocity",
                                               "angularVelocity",
                                               "collisionObjectType",
                                               "collisionObjectScale",
                                               "invertSDF",
                                               "resolutionSDF",
                                               "testMesh",
                                               "tag",
                                               "boundingBoxMin",
                                               "boundingBoxMax"};
    return keys;
}

// Of those, the keys that cannot change a Floe run (its GUI, caches, performance switches, the
// parameters of volume maps and of dynamic bodies, whose own warnings name them): accepted
// without a warning, so that the warnings that remain say what runs differently.
const std::set<std::string>& quietKeys()
{
    static const std::set<std::string> keys = {// Configuration
                                               "pause", "pauseAt", "numberOfStepsPerRenderUpdate", "renderWalls",
                                               "renderMaxVelocity", "colorMapType", "enableZSort", "enableAsyncExport",
                                               // RigidBodies
                                               "color", "isDynamic", "isAnimated", "mapThickness", "mapResolution", "mapFile",
                                               "invertSDF", "resolutionSDF", "samplingMode", "id", "testMesh", "tag",
                                               "boundingBoxMin", "boundingBoxMax", "density", "friction", "restitution", "velocity",
                                               "angularVelocity", "collisionObjectType", "collisionObjectScale",
                                               // FluidBlocks, FluidModels (SPlisHSPlasH's mesh-skinning tool and its mesh sampling)
                                               "visMesh", "denseMode", "invert"};
    return keys;
}

// Sections of SPlisHSPlasH scenes whose features Floe does not have: named in a warning.
const std::map<std::string, std::string>& splishSections()
{
    static const std::map<std::string, std::string> sections = {
        {"Emitters", "fluid emitters are not in Floe: no particles are emitted"},
        {"AnimationFields", "animation fields are not in Floe: they do not act"},
        {"Simulation", "settings of SPlisHSPlasH's rigid-body solver (PositionBasedDynamics) are not used by Floe"},
        {"TriangleModels", "cloth (triangle models) is not in Floe"},
        {"TetModels", "tetrahedral PBD models are not in Floe (Floe's own are FractureBodies)"},
        {"BallJoints", "joints between rigid bodies are not in Floe"},
        {"BallOnLineJoints", "joints between rigid bodies are not in Floe"},
        {"HingeJoints", "joints between rigid bodies are not in Floe"},
        {"UniversalJoints", "joints between rigid bodies are not in Floe"},
        {"SliderJoints", "joints between rigid bodies are not in Floe"},
        {"RigidBodyParticleBallJoints", "joints between rigid bodies are not in Floe"},
        {"TargetAngleMotorHingeJoints", "motors are not in Floe"},
        {"TargetVelocityMotorHingeJoints", "motors are not in Floe"},
        {"TargetPositionMotorSliderJoints", "motors are not in Floe"},
        {"TargetVelocityMotorSliderJoints", "motors are not in Floe"},
        {"DamperJoints", "joints between rigid bodies are not in Floe"},
        {"RigidBodySprings", "springs between rigid bodies are not in Floe"},
        {"DistanceJoints", "joints between rigid bodies are not in Floe"},
        {"Motors", "motors are not in Floe"},
        {"Fluid", "the old SPlisHSPlasH \"Fluid\" block is not read; give the fluid's parameters in Materials"}};
    return sections;
}

// A number in [lo, hi] at `key` of `object`, or an error naming it.
double numberAt(const json& object, const std::string& key, double lo, double hi, const std::string& where, const std::string& name,
                const char* unit)
{
    const json& v = object.at(key);
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo || v.get<double>() > hi)
        throw Error(fmt::format("{}: {}: expected a number in [{}, {}]{}, got {}", where, name, lo, hi,
                                unit[0] ? std::string(" ") + unit : "", v.dump()));
    return v.get<double>();
}

// Warnings for Configuration values Floe runs differently (boundary handling, scripts, exports).
void noteConfigurationSubstitutions(Scene& scene, const std::string& where)
{
    const SimulationSettings& c = scene.config;
    if (c.boundaryHandlingMethod != 0)
        scene.warnings.push_back(fmt::format(
            "{}: Configuration.boundaryHandlingMethod {} ({}) is not in Floe: the walls are sampled into Akinci boundary "
            "particles instead",
            where, c.boundaryHandlingMethod,
            c.boundaryHandlingMethod == 1 ? "density maps, Koschier and Bender 2017" : "volume maps, Bender et al. 2019"));
    if (!c.scriptFile.empty())
        scene.warnings.push_back(
            fmt::format("{}: Configuration.scriptFile {}: SPlisHSPlasH's Python scripts are not run by Floe", where, c.scriptFile));
    if (c.enablePartioExport)
        scene.warnings.push_back(fmt::format("{}: Configuration.enablePartioExport: Floe writes its PLY particle files in place of "
                                             "Partio's BGEO (Houdini, Blender and ParaView read PLY)",
                                             where));
    std::vector<std::string> missing;
    std::string list = c.particleAttributes;
    for (size_t begin = 0; begin <= list.size();) {
        size_t end = list.find(';', begin);
        if (end == std::string::npos) end = list.size();
        std::string a = list.substr(begin, end - begin);
        a.erase(0, a.find_first_not_of(' '));
        a.erase(a.find_last_not_of(' ') + 1);
        if (!a.empty() && a != "velocity" && a != "density" && a != "pressure" && a != "position" && a != "id")
            missing.push_back(a);
        begin = end + 1;
    }
    if (!missing.empty())
        scene.warnings.push_back(fmt::format("{}: Configuration.particleAttributes: Floe exports position, velocity, density and "
                                             "pressure; not {}",
                                             where, fmt::join(missing, ", ")));
}

// SPlisHSPlasH's Akinci samples are one layer on the surface, the same from either side; Floe's
// extra layers grow away from the fluid, so it must know which side that is. A scene that does not
// say (inverted / mapInvert) gets the side most of its fluid is on.
void orientRigidBodies(Scene& scene)
{
    const std::vector<glm::vec3> fluid = fluidProbePoints(scene, 64);
    if (fluid.empty()) return;
    for (RigidBody& body : scene.rigidBodies) {
        if (body.orientationGiven) continue;
        size_t inside = 0;
        for (const glm::vec3& x : fluid) inside += geometry::contains(body.mesh, x);
        body.inverted = 2 * inside > fluid.size();
    }
}

// Fluid that starts inside a solid (or outside a container) has no place there: left in, the
// pressure solve turned the overlap into speed (distance / dt) in the first step, which floe run
// reported as energy from nowhere (SPlisHSPlasH's Sampling_2D: 12 % of its fluid starts inside
// its dragon, in 2D). SPlisHSPlasH keeps it, trapped inside its one layer of samples; Floe's
// bodies are solid (their layers grow away from the fluid), so sampleFluid leaves it out, as it
// leaves out fluid where a deformable or fracture body stands. Said up front, with the share of
// the fluid it concerns (from a sample: a body that holds less than the sample resolves is not
// flagged, and its few particles are pushed out as before).
void warnFluidInsideSolids(Scene& scene, const std::string& where)
{
    for (size_t i = 0; i < scene.rigidBodies.size(); ++i) {
        RigidBody& body = scene.rigidBodies[i];
        // About 2e7 triangle tests per body (a fraction of a second), at most 2048 probes.
        const size_t probes = std::clamp<size_t>(20'000'000 / std::max<size_t>(body.mesh.triangles.size(), 1), 64, 2048);
        const std::vector<glm::vec3> fluid = fluidProbePoints(scene, probes);
        if (fluid.empty()) return;
        size_t wrong = 0;
        for (const glm::vec3& x : fluid) wrong += geometry::contains(body.mesh, x) != body.inverted;
        if (wrong == 0) continue;
        body.fluidOnSolidSide = true;
        scene.warnings.push_back(fmt::format("{}: about {:.2g} % of the fluid starts {} RigidBodies[{}] ({}); that fluid is left "
                                             "out (SPlisHSPlasH keeps it, trapped {} the body's surface)",
                                             where, 100.0 * double(wrong) / double(fluid.size()),
                                             body.inverted ? "outside the container" : "inside", i, body.geometryFile,
                                             body.inverted ? "outside" : "inside"));
    }
}

// Elastic solids change what the scene is: refused up front, before any other key can fail.
void refuseMissingFeatures(const json& root, const std::string& where)
{
    if (!root.is_object() || !root.contains("Materials") || !root["Materials"].is_array()) return;
    const json& materials = root["Materials"];
    for (size_t i = 0; i < materials.size(); ++i) {
        const json& m = materials[i];
        if (!m.is_object() || !m.contains("elasticityMethod")) continue;
        const json& e = m["elasticityMethod"];
        if (e.is_number_integer() && e.get<int>() != 0) {
            const std::vector<const char*>& names = materialMethods().back().names;
            const int k = e.get<int>();
            throw Error(fmt::format("{}: Materials[{}].elasticityMethod {} ({}): elastic SPH solids are not in Floe, so this "
                                    "scene cannot run as intended (Floe's solids are DeformableBodies and FractureBodies)",
                                    where, i, k, k > 0 && size_t(k) < names.size() ? names[size_t(k)] : "unknown"));
        }
    }
}

// The material of the fluid (SPlisHSPlasH's "Materials"): rest density, viscosity (the flat keys
// Floe has always read, or SPlisHSPlasH's viscosityMethod with its per-method object), XSPH. Every
// entry is checked; the one whose id the fluid uses applies. Methods Floe does not have are named
// in a warning that says what runs instead.
void parseMaterials(const json& value, const std::string& where, Scene& scene)
{
    if (!value.is_array()) throw Error(fmt::format("{}: Materials must be an array of objects", where));
    std::set<std::string> used;
    std::string fluidId;
    for (const FluidBlock& b : scene.fluidBlocks) {
        used.insert(b.id);
        if (fluidId.empty()) fluidId = b.id;
    }
    for (const FluidModel& m : scene.fluidModels) {
        used.insert(m.id);
        if (fluidId.empty()) fluidId = m.id;
    }
    if (fluidId.empty()) fluidId = "Fluid";
    if (used.size() > 1)
        scene.warnings.push_back(fmt::format("{}: fluids of {} materials ({}) in one scene (multiphase) are not in Floe: all "
                                             "fluid takes material \"{}\"'s parameters",
                                             where, used.size(), fmt::join(used, ", "), fluidId));
    static const std::set<std::string> display = {
        "colorField",     "colorMapType",  "renderMinValue", "renderMaxValue", "maxEmitterParticles", "emitterReuseParticles",
        "emitterBoxMin",  "emitterBoxMax", "emitterBoxMin0", "emitterBoxMin1", "emitterBoxMin2",      "emitterBoxMax0",
        "emitterBoxMax1", "emitterBoxMax2"};
    static const std::set<std::string> flatMethodParameters = {
        "vorticity",     "viscosityOmega", "inertiaInverse", "drag",          "surfaceTension", "surfaceTensionBoundary",
        "youngsModulus", "poissonsRatio",  "viscoMaxIter",   "viscoMaxError", "xsphBoundary",   "alpha"};
    std::set<std::string> methodObjects;
    for (const MaterialMethod& method : materialMethods())
        for (const char* n : method.names) methodObjects.insert(n);
    bool applied = false;
    for (size_t i = 0; i < value.size(); ++i) {
        const json& m = value[i];
        const std::string section = fmt::format("Materials[{}]", i);
        if (!m.is_object()) throw Error(fmt::format("{}: {} must be an object", where, section));
        std::string id = "Fluid";
        if (m.contains("id")) {
            if (!m["id"].is_string())
                throw Error(fmt::format("{}: {}.id: expected a string, got {}", where, section, m["id"].dump()));
            id = m["id"].get<std::string>();
        }
        std::vector<std::string> ignored;
        std::vector<std::string> known = {"id", "density0", "viscosity", "viscosityBoundary", "xsph"};
        for (const MaterialMethod& method : materialMethods()) known.push_back(method.key);
        for (const auto& [key, v] : m.items()) {
            if (std::find(known.begin(), known.end(), key) != known.end()) continue;
            if (display.count(key)) {
                continue; // colours and emitter limits: nothing runs differently
            } else if (flatMethodParameters.count(key)) {
                ignored.push_back(key);
            } else if (methodObjects.count(key)) {
                if (!v.is_object())
                    throw Error(fmt::format("{}: {}.{}: expected the method's parameters as an object, got {}", where, section, key,
                                            v.dump()));
            } else {
                std::vector<std::string> all = known;
                all.insert(all.end(), display.begin(), display.end());
                const std::string hint = closestKey(key, all);
                throw Error(fmt::format("{}: unknown key {}.{}{}; known keys: {} and the per-method objects of SPlisHSPlasH's "
                                        "materials (\"Standard viscosity\", ...)",
                                        where, section, key, hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint),
                                        fmt::join(known, ", ")));
            }
        }
        const auto method = [&](const MaterialMethod& mm) -> int {
            if (!m.contains(mm.key)) return -1;
            const json& v = m[mm.key];
            if (!v.is_number_integer() || v.get<int>() < 0 || v.get<size_t>() >= mm.names.size())
                throw Error(fmt::format("{}: {}.{}: expected an integer in [0, {}], got {}", where, section, mm.key,
                                        mm.names.size() - 1, v.dump()));
            return v.get<int>();
        };
        std::vector<int> methods;
        for (const MaterialMethod& mm : materialMethods()) methods.push_back(method(mm));
        if (id != fluidId) {
            if (!used.count(id))
                scene.warnings.push_back(
                    fmt::format("{}: {} (id \"{}\") is used by no fluid block or model and has no effect", where, section, id));
            continue;
        }
        if (applied) {
            scene.warnings.push_back(fmt::format("{}: {} repeats the id \"{}\"; the first entry applies", where, section, id));
            continue;
        }
        applied = true;
        if (m.contains("density0"))
            scene.config.density0 = float(numberAt(m, "density0", 1e-3, 1e6, where, section + ".density0", "kg/m^3"));
        if (m.contains("viscosity"))
            scene.sph.viscosity = float(numberAt(m, "viscosity", 0, 100, where, section + ".viscosity", "m^2/s"));
        if (m.contains("viscosityBoundary"))
            scene.sph.boundaryViscosity =
                float(numberAt(m, "viscosityBoundary", 0, 100, where, section + ".viscosityBoundary", "m^2/s"));
        if (m.contains("xsph")) scene.sph.xsph = float(numberAt(m, "xsph", 0, 1, where, section + ".xsph", ""));
        const int viscosity = methods[0];
        if (viscosity == 0) {
            scene.sph.viscosity = 0.0f;
            scene.sph.boundaryViscosity = 0.0f;
        } else if (viscosity > 0) {
            const char* name = materialMethods()[0].names[size_t(viscosity)];
            const std::string object = section + "." + name;
            // SPlisHSPlasH's defaults: 0.01 m^2/s, no viscosity at walls.
            float nu = 0.01f, nuWall = 0.0f;
            if (m.contains(name)) {
                const json& o = m[name];
                for (const auto& [key, v] : o.items()) {
                    if (key == "viscosity")
                        nu = float(numberAt(o, key, 0, 100, where, object + ".viscosity", "m^2/s"));
                    else if (key == "viscosityBoundary")
                        nuWall = float(numberAt(o, key, 0, 100, where, object + ".viscosityBoundary", "m^2/s"));
                    else if (viscosity == 1)
                        throw Error(
                            fmt::format("{}: unknown key {}.{}; known keys: viscosity, viscosityBoundary", where, object, key));
                }
            }
            scene.sph.viscosity = nu;
            scene.sph.boundaryViscosity = nuWall;
            if (viscosity > 1)
                scene.warnings.push_back(fmt::format(
                    "{}: {}.viscosityMethod {} ({}) is an implicit viscosity solver Floe does not have: Floe's explicit "
                    "viscosity (Koschier et al.) runs instead with the object's viscosity {} m^2/s, {} m^2/s at walls, in "
                    "substeps within its stability bound h^2 / (16 nu) (docs/fluids.md, Time step)",
                    where, section, viscosity, name, nu, nuWall));
        }
        for (size_t k = 1; k + 1 < materialMethods().size(); ++k)
            if (methods[k] > 0)
                scene.warnings.push_back(fmt::format("{}: {}.{} {} ({}): {} is not in Floe and does not act", where, section,
                                                     materialMethods()[k].key, methods[k],
                                                     materialMethods()[k].names[size_t(methods[k])], materialMethods()[k].what));
        if (!ignored.empty())
            scene.warnings.push_back(
                fmt::format("{}: {} keys of methods Floe does not have are ignored: {}", where, section, fmt::join(ignored, ", ")));
    }
    if (!applied && !value.empty())
        scene.warnings.push_back(
            fmt::format("{}: no entry of Materials has the fluid's id \"{}\"; Floe's defaults apply", where, fluidId));
}

} // namespace floe
