#include "scene/Scene.h"

#include <algorithm>
#include <cmath>
#include <span>

#include <fmt/format.h>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vector_relational.hpp>

#include "base/Error.h"
#include "fracture/TetShapes.h"
#include "shared/sph.h"
#include "sim/sph/BoundarySampler.h"

namespace floe {

const SettingsTable& SimulationSettings::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("Configuration");
        using S = SimulationSettings;
        s.number("particleRadius", &S::particleRadius, "m", 1e-5, 10, "radius of every particle; spacing of the initial grid is 2r")
            .number("timeStepSize", &S::timeStepSize, "s", 1e-7, 1, "time step")
            .number("stopAt", &S::stopAt, "s", -1, 1e6, "simulated time to run; <= 0: use --steps or --seconds")
            .vector("gravitation", &S::gravitation, "m/s^2", -1e4, 1e4, "gravitational acceleration")
            .flag("sim2D", &S::sim2D, "2D simulation in the xy plane")
            .number("density0", &S::density0, "kg/m^3", 1e-3, 1e6, "rest density")
            .vector("cameraPosition", &S::cameraPosition, "m", -1e6, 1e6, "camera position (all zero: automatic)")
            .vector("cameraLookat", &S::cameraLookat, "m", -1e6, 1e6, "point the camera looks at")
            .integer("boundaryHandlingMethod", &S::boundaryHandlingMethod, 0, 2,
                     "walls: 0 Akinci boundary particles; 1 (density maps) and 2 (volume maps) run as 0 with a warning")
            .flag("enableVTKExport", &S::enableVTKExport, "export particles as VTK at dataExportFPS (as --export vtk)")
            .flag("enablePartioExport", &S::enablePartioExport,
                  "export particles at dataExportFPS; Floe writes PLY in place of Partio's BGEO (as --export ply)")
            .number("dataExportFPS", &S::dataExportFPS, "1/s", 1e-3, 1e6, "particle exports per simulated second")
            .number("partioExportFPS", &S::dataExportFPS, "1/s", 1e-3, 1e6, "older name of dataExportFPS")
            .choice("particleAttributes", &S::particleAttributes, {},
                    "exported attributes, ';'-separated; Floe writes position, velocity, density and pressure")
            .choice("scriptFile", &S::scriptFile, {}, "SPlisHSPlasH's Python script (not run by Floe: a warning)");
        return s;
    }();
    return t;
}

const SettingsTable& FluidBlock::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("FluidBlocks[]");
        using S = FluidBlock;
        s.vector("start", &S::start, "m", -1e6, 1e6, "minimum corner of the block")
            .vector("end", &S::end, "m", -1e6, 1e6, "maximum corner of the block")
            .vector("translation", &S::translation, "m", -1e6, 1e6, "translation applied after scaling")
            .vector("scale", &S::scale, "", 1e-6, 1e6, "scale of the block")
            .vector("initialVelocity", &S::initialVelocity, "m/s", -1e4, 1e4, "initial velocity of its particles")
            .vector("initialAngularVelocity", &S::initialAngularVelocity, "rad/s", -1e4, 1e4,
                    "initial angular velocity about the block's centre of mass")
            .integer("denseMode", &S::denseMode, 0, 2,
                     "sampling as SPlisHSPlasH: 0 cubic lattice, 1 staggered rows, 2 dense stacking; the first particle 2r "
                     "inside the block's corner, round(extent / spacing) - 1 per axis")
            .choice("id", &S::id, {}, "material id");
        return s;
    }();
    return t;
}

const SettingsTable& FluidModel::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("FluidModels[]");
        using S = FluidModel;
        s.choice("particleFile", &S::particleFile, {}, "particles (.ply or Partio .bgeo), relative to the scene file")
            .vector("translation", &S::translation, "m", -1e6, 1e6, "translation")
            .vector("scale", &S::scale, "", 1e-6, 1e6, "scale (before rotation)")
            .vector("rotationAxis", &S::rotationAxis, "", -1e6, 1e6, "rotation axis")
            .number("rotationAngle", &S::rotationAngle, "rad", -1e3, 1e3, "rotation angle")
            .vector("initialVelocity", &S::initialVelocity, "m/s", -1e4, 1e4, "initial velocity of its particles")
            .vector("initialAngularVelocity", &S::initialAngularVelocity, "rad/s", -1e4, 1e4,
                    "initial angular velocity about the model's centre of mass")
            .choice("id", &S::id, {}, "material id");
        return s;
    }();
    return t;
}

const SettingsTable& RigidBody::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("RigidBodies[]");
        using S = RigidBody;
        s.choice("geometryFile", &S::geometryFile, {}, "OBJ mesh, relative to the scene file")
            .vector("translation", &S::translation, "m", -1e6, 1e6, "translation")
            .vector("scale", &S::scale, "", -1e6, 1e6, "scale (before rotation)")
            .vector("rotationAxis", &S::rotationAxis, "", -1e6, 1e6, "rotation axis")
            .number("rotationAngle", &S::rotationAngle, "rad", -1e3, 1e3, "rotation angle")
            .flag("isWall", &S::isWall, "a wall (drawing only)")
            .flag("isDynamic", &S::isDynamic,
                  "a moving body: simulated as an unbreakable fracture body (stiff tets filling the closed mesh)")
            .number("density", &S::density, "kg/m^3", 1e-3, 1e6, "density of a dynamic body")
            .vector("velocity", &S::velocity, "m/s", -1e4, 1e4, "initial velocity of a dynamic body")
            .vector("angularVelocity", &S::angularVelocity, "rad/s", -1e4, 1e4, "initial spin of a dynamic body about its centroid")
            .number("restitution", &S::restitution, "", -1, 1,
                    "a dynamic body's restitution at the domain's walls (negative: the glass material's)")
            .integer("resolution", &S::resolution, 2, 64, "lattice cells along a dynamic body's longest side (its tets)")
            .flag("inverted", &S::inverted, "the fluid is inside the mesh")
            .flag("mapInvert", &S::inverted, "the fluid is inside the mesh (SPlisHSPlasH)");
        return s;
    }();
    return t;
}

const SettingsTable& ContainerSettings::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("Floe.container");
        using S = ContainerSettings;
        s.choice("geometryFile", &S::geometryFile, {}, "closed convex OBJ mesh, relative to the scene file")
            .vector("translation", &S::translation, "m", -1e6, 1e6, "translation")
            .vector("scale", &S::scale, "", -1e6, 1e6, "scale (before rotation)")
            .vector("rotationAxis", &S::rotationAxis, "", -1e6, 1e6, "rotation axis")
            .number("rotationAngle", &S::rotationAngle, "rad", -1e3, 1e3, "rotation angle")
            .vector("shakeAxis", &S::shakeAxis, "", -1, 1, "direction of the shaking")
            .number("shakeAmplitude", &S::shakeAmplitude, "m", 0, 1e3, "amplitude of the shaking")
            .number("shakeFrequency", &S::shakeFrequency, "Hz", 0, 1e3, "frequency of the shaking")
            .number("restitution", &S::restitution, "", 0, 1, "normal velocity kept at the walls");
        return s;
    }();
    return t;
}

const SettingsTable& FloeSettings::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("Floe");
        using S = FloeSettings;
        s.flag("domainWalls", &S::domainWalls, "the domain box is a wall (else leaving it counts as escaping)")
            .vector("domainMin", &S::domainMin, "m", -1e6, 1e6, "minimum corner of the closed domain")
            .vector("domainMax", &S::domainMax, "m", -1e6, 1e6, "maximum corner of the closed domain")
            .number("restitution", &S::restitution, "", 0, 1, "share of the normal velocity kept at a wall")
            .number("friction", &S::friction, "", 0, 1, "share of the tangential velocity lost at a wall")
            .number("fovY", &S::fovY, "deg", 1, 170, "vertical field of view of the camera")
            .integer("frames", &S::frames, 0, 100000, "pictures per run (overridden by --frames)")
            .choice("particleMass", &S::particleMass, {"auto", "rest", "splishsplash"},
                    "fluid particle mass: rest (a block starts at rest density), splishsplash (SPlisHSPlasH's 0.8 rho0 (2r)^d: "
                    "a block starts at 80 % density and settles) or auto (splishsplash for a scene without a Floe section)");
        return s;
    }();
    return t;
}

const SettingsTable& DeformableBody::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("DeformableBodies[]");
        using S = DeformableBody;
        s.choice("shape", &S::shape, {"sphere", "box", "torus", "capsule", "mesh"}, "surface: a procedural shape or an OBJ mesh")
            .choice("geometryFile", &S::geometryFile, {}, "closed OBJ mesh for shape mesh, relative to the scene file")
            .number("radius", &S::radius, "m", 1e-4, 1e3, "sphere and capsule radius")
            .vector("size", &S::size, "m", 1e-4, 1e3, "box size")
            .number("majorRadius", &S::majorRadius, "m", 1e-4, 1e3,
                    "torus: radius of the ring, which lies in the xz plane around the y axis before "
                    "rotationAxis/rotationAngle turn it")
            .number("minorRadius", &S::minorRadius, "m", 1e-4, 1e3, "torus: radius of the tube")
            .number("length", &S::length, "m", 0, 1e3,
                    "capsule: length of the cylinder between the caps, along the y axis before rotationAxis/rotationAngle turn it")
            .integer("resolution", &S::resolution, 1, 6, "sphere subdivisions (3: 642 vertices); box 4x segments per side")
            .vector("translation", &S::translation, "m", -1e6, 1e6, "translation")
            .vector("scale", &S::scale, "", 1e-6, 1e6, "scale (before rotation)")
            .vector("rotationAxis", &S::rotationAxis, "", -1e6, 1e6, "rotation axis")
            .number("rotationAngle", &S::rotationAngle, "rad", -1e3, 1e3, "rotation angle")
            .vector("velocity", &S::velocity, "m/s", -1e4, 1e4, "initial velocity")
            .vector("angularVelocity", &S::angularVelocity, "rad/s", -1e4, 1e4, "initial spin about the centroid")
            .number("twist", &S::twist, "rad/m", -100, 100,
                    "starts twisted about its x axis by this angle per metre, then released")
            .number("density", &S::density, "kg/m^3", 1e-3, 1e6, "density (the mass is spread evenly over the vertices)")
            .choice("volume", &S::volume, {"global", "local", "none"},
                    "this body's volume conservation (default: Deformable.volume)")
            .number("alpha", &S::alpha, "", -1, 1, "this body's local-volume alpha (negative: Deformable.alpha)")
            .number("beta", &S::beta, "", -1, 1, "this body's interior-joint influence (negative: Deformable.beta)");
        return s;
    }();
    return t;
}

const SettingsTable& DeformableSettings::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("Deformable");
        using S = DeformableSettings;
        s.nested(&S::body, body::BodySettings::table())
            .choice("volume", &S::volume, {"global", "local", "none"}, "volume conservation")
            .number("plateStart", &S::plateStart, "m", -1e6, 1e6, "height of a plate pressing down from above (0: none)")
            .number("plateEnd", &S::plateEnd, "m", -1e6, 1e6, "height where the plate stops")
            .number("plateSpeed", &S::plateSpeed, "m/s", 0, 1e3, "speed of the plate");
        return s;
    }();
    return t;
}

const SettingsTable& FractureBody::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("FractureBodies[]");
        using S = FractureBody;
        s.choice("shape", &S::shape, {"sphere", "cone", "cube", "cuboid", "fichera", "cube_with_holes", "mesh"},
                 "a generated object of digest-004 §5.3 or an imported tetrahedral mesh, centred on its translation; "
                 "before rotationAxis/rotationAngle turn it, the cone's tip points up y, the fichera cube lacks its "
                 "+x +y +z octant and cube_with_holes has two holes along z and one along x above them")
            .choice("geometryFile", &S::geometryFile, {},
                    "for shape mesh: TetGen .node/.ele or Gmsh .msh (ASCII 2.2/4.1), or a closed OBJ surface filled with the "
                    "lattice's tets "
                    "(resolution)")
            .vector("size", &S::size, "m", 1e-3, 1e3, "bounding box (sphere, cube: x; cone: x base diameter, y height)")
            .integer("resolution", &S::resolution, 2, 64, "lattice cells along the longest side")
            .number("tipRefinement", &S::tipRefinement, "", 1, 3, "cone: lattice grading towards the tip (1: uniform)")
            .choice("material", &S::material, {"glass", "iron", "ceramic", "custom"},
                    "Table 1 material (custom: give lambda, mu, phi, psi, tau)")
            .number("lambda", &S::lambda, "", -1, 1e6, "first Lame constant (negative: the material's)")
            .number("mu", &S::mu, "", -1, 1e6, "second Lame constant (negative: the material's)")
            .number("phi", &S::phi, "", -1, 1e6, "first damping constant (negative: the material's)")
            .number("psi", &S::psi, "", -1, 1e6, "second damping constant (negative: the material's)")
            .number("tau", &S::tau, "", -1, 1e6, "durability threshold (negative: the material's)")
            .number("yield", &S::yield, "tau", -1, 1e3,
                    "von Mises yield stress in units of tau; the stress that loads the fracture criterion is capped "
                    "there (0: brittle; negative: the material's: iron 0.6, glass and ceramic 0)")
            .number("ductility", &S::ductility, "yield strains", -1, 1e6,
                    "plastic strain at which a ductile material (yield > 0) fails, in yield strains; its nodes crack "
                    "only as far as that damage reaches (negative: the material's: iron 200)")
            .number("restitution", &S::restitution, "", -1, 1,
                    "Newton's coefficient of restitution against the domain's walls: a fragment's centre of mass "
                    "leaves a wall at most this times as fast as it came (negative: the material's: glass and "
                    "ceramic 0.66, iron 0.6)")
            .vector("translation", &S::translation, "m", -1e6, 1e6, "translation")
            .vector("scale", &S::scale, "", 1e-6, 1e6, "scale (before rotation)")
            .vector("rotationAxis", &S::rotationAxis, "", -1e6, 1e6, "rotation axis")
            .number("rotationAngle", &S::rotationAngle, "rad", -1e3, 1e3, "rotation angle")
            .integer("orientationSeed", &S::orientationSeed, -1, 2147483647, "random orientation from this seed (-1: none)")
            .vector("velocity", &S::velocity, "m/s", -1e4, 1e4, "initial velocity")
            .vector("angularVelocity", &S::angularVelocity, "rad/s", -1e4, 1e4, "initial spin about the centroid")
            .number("density", &S::density, "kg/m^3", 0, 1e6, "density (0: a fixed body)")
            .number("youngsModulus", &S::youngsModulus, "Pa", 0, 1e12,
                    "stiffness of the dynamics (tet constraints); 0: 1e8 Pa x the material's E / glass's E")
            .flag("breakable", &S::breakable, "false: the body never fractures (projectiles, supports)");
        return s;
    }();
    return t;
}

const SettingsTable& FractureSceneSettings::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("Fracture");
        using S = FractureSceneSettings;
        s.choice("method", &S::method, {"none", "radius", "radius_connected", "secondary_splits", "wave", "constraint"},
                 "fracture method (digest-004 §3; radius_connected: Radius without cracks across air)")
            .choice("separation", &S::separation, {"eq16", "averaged"},
                    "node separation tensor: equation (16) or the mean of the elements' (the thesis' code)")
            .number("dampingTime", &S::dampingTime, "s", 0, 1e3, "phi and psi of Table 1 are used times this")
            .choice("view", &S::view, {"fragments", "stress"}, "colours: one per fragment, or load / tau (green 0, red tau)")
            .choice("waveBand", &S::waveBand, {"detach", "split"},
                    "wave: the crossed band detaches (the thesis' code) or splits by side (Glondu)")
            .nested(&S::fracture, fracture::FractureSettings::table());
        return s;
    }();
    return t;
}

namespace {

// Triangle tests sampleFluid may spend finding the fluid on a static body's solid side (about
// 20-50 s on this machine's core); beyond, the scene is refused.
constexpr double kMaxLeaveOutTests = 1e9;

// SPlisHSPlasH's FluidBlocks sampling (SimulatorBase::createFluidBlocks, 2.16): a lattice that
// starts 2r inside the block's minimum corner with round(extent / shift) - 1 particles per axis,
// so that a block touching a wall puts its first layer one spacing 2r from it (where a wall's
// boundary samples hold fluid at rest density, BoundarySampler) and two touching blocks leave one
// spacing between their layers. denseMode 0 is the cubic lattice, 1 staggers rows (shift sqrt(3) r
// in y, rows offset by r), 2 a denser stacking (shift sqrt(6)/3 2r in x). A block with at most
// one particle along an axis is empty, as in SPlisHSPlasH (with a warning, validateScene).
struct BlockLattice {
    glm::vec3 start{0};
    glm::ivec3 steps{0};
    float xshift = 0, yshift = 0, diameter = 0, r = 0;
    int mode = 0;
    bool sim2D = false;
    bool empty() const { return steps.x <= 1 || steps.y <= 1 || (!sim2D && steps.z <= 1); }
    uint64_t count() const { return empty() ? 0 : uint64_t(steps.x) * uint64_t(steps.y) * uint64_t(sim2D ? 1 : steps.z); }
    glm::vec3 point(int j, int k, int l) const
    {
        glm::vec3 p = start + glm::vec3(float(j) * xshift, float(k) * yshift, float(l) * diameter);
        if (mode == 1) {
            p += k % 2 == 0 ? glm::vec3(0, 0, r) : glm::vec3(r, 0, 0);
        } else if (mode == 2) {
            p.z += r;
            if (j % 2 != 0 && !sim2D) p.z += diameter / (2.0f * (k % 2 != 0 ? -1.0f : 1.0f));
            if (k % 2 == 0) p.x += xshift / 2.0f;
        }
        if (sim2D) p.z = 0.0f;
        return p;
    }
};

int roundSteps(float x)
{
    const double v = std::round(static_cast<double>(x)) - 1.0; // C's round: halves away from zero
    return static_cast<int>(std::clamp(v, -1.0, 2.0e9));
}

BlockLattice blockLattice(const FluidBlock& b, float r, bool sim2D)
{
    BlockLattice g;
    g.r = r;
    g.diameter = 2.0f * r;
    g.mode = b.denseMode;
    g.sim2D = sim2D;
    g.xshift = g.diameter;
    g.yshift = g.diameter;
    const float eps = 1e-9f;
    if (b.denseMode == 1) g.yshift = std::sqrt(3.0f) * r + eps;
    if (b.denseMode == 2) {
        g.xshift = std::sqrt(6.0f) * g.diameter / 3.0f + eps;
        g.yshift = std::sqrt(3.0f) * r + eps;
    }
    const glm::vec3 lo = b.scale * b.start + b.translation;
    glm::vec3 diff = b.scale * b.end + b.translation - lo;
    if (b.denseMode == 1) {
        diff.x -= g.diameter;
        diff.z -= g.diameter;
    } else if (b.denseMode == 2) {
        diff.x -= g.xshift;
        diff.z -= g.diameter;
    }
    g.steps = glm::ivec3(roundSteps(diff.x / g.xshift), roundSteps(diff.y / g.yshift), roundSteps(diff.z / g.diameter));
    g.start = lo + glm::vec3(g.diameter);
    if (sim2D) {
        g.steps.z = 1;
        g.start.z = 0.0f;
    }
    return g;
}

// sum_j W(x_i - x_j) (1/m^d) at an interior particle of a block's lattice: the density of the
// sampling in units of its particles' mass.
double latticeKernelSum(uint32_t kernelSet, int mode, float r, bool sim2D)
{
    FluidBlock probe;
    probe.denseMode = mode;
    probe.start = glm::vec3(0.0f);
    probe.end = glm::vec3(24.0f * r);
    const BlockLattice g = blockLattice(probe, r, sim2D);
    const glm::vec3 centre(12.0f * r, 12.0f * r, sim2D ? 0.0f : 12.0f * r);
    std::vector<glm::vec3> points;
    for (int j = 0; j < g.steps.x; ++j)
        for (int k = 0; k < g.steps.y; ++k)
            for (int l = 0; l < (sim2D ? 1 : g.steps.z); ++l) points.push_back(g.point(j, k, l));
    glm::vec3 self = points.front();
    for (const glm::vec3& p : points)
        if (glm::length(p - centre) < glm::length(self - centre)) self = p;
    double sum = 0;
    const uint32_t dims = sim2D ? 2 : 3;
    for (const glm::vec3& p : points) sum += shared::kernelW(kernelSet, glm::length(p - self), 2.0f * r, dims);
    return sum;
}

float blockMass(const Scene& scene, int mode)
{
    const uint32_t kernelSet = scene.sph.muellerKernels() ? SPH_KERNEL_MUELLER : SPH_KERNEL_CUBIC;
    if (mode == 0 || scene.floe.splishsplashMass()) return particleMass(scene);
    return static_cast<float>(scene.config.density0 /
                              latticeKernelSum(kernelSet, mode, scene.config.particleRadius, scene.config.sim2D));
}

// Initial velocities of a set of particles: v + omega x (x - centre of mass), as SPlisHSPlasH.
void addVelocities(std::vector<glm::vec4>& out, std::span<const glm::vec4> positions, glm::vec3 v, glm::vec3 omega, bool sim2D)
{
    glm::dvec3 centre(0);
    for (const glm::vec4& p : positions) centre += glm::dvec3(glm::vec3(p));
    if (!positions.empty()) centre /= double(positions.size());
    for (const glm::vec4& p : positions) {
        glm::vec3 u = v + glm::cross(omega, glm::vec3(p) - glm::vec3(centre));
        if (sim2D) u.z = 0.0f;
        out.emplace_back(u, 0.0f);
    }
}

} // namespace

std::vector<geometry::TriangleMesh> staticMeshes(const Scene& scene)
{
    std::vector<geometry::TriangleMesh> out;
    for (const RigidBody& r : scene.rigidBodies) {
        geometry::TriangleMesh mesh = r.mesh;
        if (r.inverted)
            for (glm::uvec3& t : mesh.triangles) std::swap(t.y, t.z);
        out.push_back(std::move(mesh));
    }
    return out;
}

float particleMass(const Scene& scene)
{
    const float d = 2.0f * scene.config.particleRadius;
    const uint32_t dims = scene.config.sim2D ? 2 : 3;
    const uint32_t kernelSet = scene.sph.muellerKernels() ? SPH_KERNEL_MUELLER : SPH_KERNEL_CUBIC;
    // SPlisHSPlasH gives every fluid particle the volume 0.8 (2r)^d (FluidModel), whatever the
    // sampling: its blocks start at 80 % density, fall and settle about 7 % closer (2D: 11 %),
    // with about a quarter more neighbours at rest than Floe's lattice. Its scenes are written for
    // that (ViscousBunny's bunny.bgeo starts 10.6 % compressed at Floe's rest mass, 11 % expanded
    // at SPlisHSPlasH's), and its 3D dam break runs 299 steps per simulated second with it
    // against 329 with Floe's rest mass (the reference: 293): the corner jets are slower.
    if (scene.floe.splishsplashMass()) return 0.8f * scene.config.density0 * (dims == 2 ? d * d : d * d * d);
    return scene.config.density0 * (dims == 2 ? d * d : d * d * d) / sim::latticeDensity(kernelSet, dims);
}

uint64_t blockParticleCount(const Scene& scene, const FluidBlock& block)
{
    return blockLattice(block, scene.config.particleRadius, scene.config.sim2D).count();
}

uint64_t countFluidParticles(const Scene& scene)
{
    double total = 0;
    for (const FluidBlock& b : scene.fluidBlocks) total += double(blockParticleCount(scene, b));
    for (const FluidModel& m : scene.fluidModels) total += double(m.points.size());
    return total > 1e18 ? uint64_t(1e18) : static_cast<uint64_t>(total);
}

FluidSampling sampleFluid(const Scene& scene)
{
    FluidSampling out;
    const uint64_t n = countFluidParticles(scene);
    out.positions.reserve(n);
    out.velocities.reserve(n);
    const float r = scene.config.particleRadius;
    const bool flat = scene.config.sim2D;
    for (const FluidBlock& b : scene.fluidBlocks) {
        const BlockLattice g = blockLattice(b, r, flat);
        if (g.empty()) continue;
        const float mass = blockMass(scene, b.denseMode);
        const size_t first = out.positions.size();
        for (int j = 0; j < g.steps.x; ++j)
            for (int k = 0; k < g.steps.y; ++k)
                for (int l = 0; l < (flat ? 1 : g.steps.z); ++l) out.positions.emplace_back(g.point(j, k, l), mass);
        addVelocities(out.velocities, std::span(out.positions).subspan(first), b.initialVelocity, b.initialAngularVelocity, flat);
    }
    for (const FluidModel& m : scene.fluidModels) {
        const float mass = particleMass(scene);
        const size_t first = out.positions.size();
        for (glm::vec3 p : m.points) {
            if (flat) p.z = 0.0f;
            out.positions.emplace_back(p, mass);
        }
        addVelocities(out.velocities, std::span(out.positions).subspan(first), m.initialVelocity, m.initialAngularVelocity, flat);
    }
    // The particles `drop` names are left out (counted), the others kept in order.
    const auto removeWhere = [&](const auto& drop) {
        size_t kept = 0;
        for (size_t i = 0; i < out.positions.size(); ++i) {
            if (drop(glm::vec3(out.positions[i]))) continue;
            out.positions[kept] = out.positions[i];
            out.velocities[kept] = out.velocities[i];
            ++kept;
        }
        out.leftOut += out.positions.size() - kept;
        out.positions.resize(kept);
        out.velocities.resize(kept);
    };
    // A mesh's box grown by r: only particles in it can lie inside or within r of the mesh.
    const auto nearBox = [&](const geometry::TriangleMesh& mesh) {
        geometry::Bounds box;
        for (const glm::vec3& v : mesh.vertices) box.add(v);
        box.lo -= glm::vec3(r);
        box.hi += glm::vec3(r);
        return [box](const glm::vec3& p) {
            return glm::all(glm::greaterThanEqual(p, box.lo)) && glm::all(glm::lessThanEqual(p, box.hi));
        };
    };
    // Fluid sampled where a solid stands is left out: the solid takes that room (its coupling
    // would otherwise throw those particles out in the first steps). So is fluid closer than the
    // particle radius r to the solid's surface: a particle's volume reaches r around it, and one
    // on the surface (a block's lattice meets a box's faces) lies 0.75 h from the layer of the
    // solid's samples, where it rests about h from them: a tet cube placed in a pool started
    // with particles at 79 % compression and was thrown up at 1.5 m/s in the first step.
    const auto leaveOut = [&](const geometry::TriangleMesh& mesh) {
        const auto near = nearBox(mesh);
        removeWhere([&](const glm::vec3& p) { return near(p) && fracture::surfaceDistance(mesh, p) < r; });
    };
    // Fluid on a static body's solid side (RigidBody::fluidOnSolidSide: inside an obstacle, outside
    // a container; the scene loader warned) is left out too, and so is fluid within r of its
    // surface on the fluid side, as beside the solids below (a particle there lies on the body's
    // samples: a box in a block, with only the particles inside it left out, threw the fluid
    // about in the first step, 670 J against the 247 J the scene can supply). The signed distance
    // costs two passes over the mesh per particle, so only the particles in the body's box grown
    // by r are tested, and a test that would take minutes is refused instead.
    for (size_t i = 0; i < scene.rigidBodies.size(); ++i) {
        const RigidBody& body = scene.rigidBodies[i];
        if (!body.fluidOnSolidSide) continue;
        const auto near = nearBox(body.mesh);
        uint64_t tested = 0;
        for (const glm::vec4& p : out.positions) tested += near(glm::vec3(p));
        const double work = 2.0 * double(tested) * double(body.mesh.triangles.size());
        if (work > kMaxLeaveOutTests)
            throw Error(fmt::format("{}: RigidBodies[{}] ({}): part of the fluid starts {} it, and finding which of {} particles "
                                    "against {} triangles would take {:.2g} triangle tests (at most {:.2g}); expected the fluid "
                                    "on the body's fluid side (move the fluid or the body)",
                                    scene.file.string(), i, body.geometryFile, body.inverted ? "outside" : "inside", tested,
                                    body.mesh.triangles.size(), work, kMaxLeaveOutTests));
        removeWhere([&](const glm::vec3& p) {
            if (!near(p)) return body.inverted;                      // outside the container's box
            const float d = fracture::surfaceDistance(body.mesh, p); // negative inside
            return (d < 0.0f) != body.inverted || std::fabs(d) < r;
        });
        if (out.positions.empty())
            throw Error(fmt::format("{}: RigidBodies[{}] ({}): all of the fluid starts {} it; expected the fluid on the body's "
                                    "fluid side{}",
                                    scene.file.string(), i, body.geometryFile, body.inverted ? "outside" : "inside",
                                    body.orientationGiven ? " (the scene's inverted or mapInvert says which side that is)" : ""));
    }
    for (const DeformableBody& body : scene.deformableBodies) leaveOut(body.mesh);
    for (const FractureBody& body : scene.fractureBodies) {
        geometry::TriangleMesh surface;
        surface.vertices = body.mesh.nodes;
        surface.triangles = fracture::boundaryFaces(body.mesh);
        leaveOut(surface);
    }
    return out;
}

std::vector<glm::vec3> fluidProbePoints(const Scene& scene, size_t maxPoints)
{
    const uint64_t total = countFluidParticles(scene);
    std::vector<glm::vec3> out;
    if (total == 0 || maxPoints == 0) return out;
    const uint64_t stride = std::max<uint64_t>(1, total / maxPoints);
    uint64_t index = 0; // of the next probe, over all particles
    const bool flat = scene.config.sim2D;
    for (const FluidBlock& b : scene.fluidBlocks) {
        const BlockLattice g = blockLattice(b, scene.config.particleRadius, flat);
        const uint64_t n = g.count();
        for (uint64_t local = index % stride == 0 ? 0 : stride - index % stride; local < n; local += stride) {
            // sampleFluid's order: x slowest, then y, then z.
            const uint64_t depth = flat ? 1 : uint64_t(g.steps.z);
            const int l = int(local % depth), k = int((local / depth) % uint64_t(g.steps.y)), j = int(local / (depth * g.steps.y));
            out.push_back(g.point(j, k, l));
        }
        index += n;
    }
    for (const FluidModel& m : scene.fluidModels) {
        for (uint64_t local = index % stride == 0 ? 0 : stride - index % stride; local < m.points.size(); local += stride)
            out.push_back(m.points[local]);
        index += m.points.size();
    }
    return out;
}

std::vector<glm::vec4> sampleFluidParticles(const Scene& scene)
{
    return sampleFluid(scene).positions;
}

std::vector<glm::vec4> initialVelocities(const Scene& scene)
{
    return sampleFluid(scene).velocities;
}

void Scene::domain(glm::vec3& lo, glm::vec3& hi) const
{
    const float r = config.particleRadius;
    if (domainGiven()) {
        lo = glm::min(floe.domainMin, floe.domainMax);
        hi = glm::max(floe.domainMin, floe.domainMax);
    } else {
        geometry::Bounds fluid;
        for (const FluidBlock& b : fluidBlocks) {
            fluid.add(b.start * b.scale + b.translation);
            fluid.add(b.end * b.scale + b.translation);
        }
        for (const FluidModel& m : fluidModels)
            for (const glm::vec3& p : m.points) fluid.add(p);
        for (const DeformableBody& body : deformableBodies)
            for (const glm::vec3& v : body.mesh.vertices) fluid.add(v);
        geometry::Bounds all = fluid;
        for (const RigidBody& body : rigidBodies)
            for (const glm::vec3& v : body.mesh.vertices) all.add(v);
        if (container) {
            const glm::vec3 shake = glm::abs(container->shakeAxis) * container->shakeAmplitude;
            for (const glm::vec3& v : container->mesh.vertices) {
                all.add(v + shake);
                all.add(v - shake);
            }
        }
        if (fluid.empty()) fluid.add(glm::vec3(0));
        if (rigidBodies.empty() && !container) {
            // Free fluid: room around it, a floor half its height below.
            const glm::vec3 size = glm::max(fluid.hi - fluid.lo, glm::vec3(20 * r));
            lo = fluid.lo - glm::vec3(size.x, 0.5f * size.y, size.z);
            hi = fluid.hi + glm::vec3(size.x, 0.5f * size.y, size.z);
        } else {
            // Two kernel supports (8r) around all geometry.
            lo = all.lo - glm::vec3(8 * r);
            hi = all.hi + glm::vec3(8 * r);
        }
    }
    if (config.sim2D) {
        lo.z = -r;
        hi.z = r;
    }
}

} // namespace floe
