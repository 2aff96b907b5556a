#include "app/Scene.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>

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
            .vector("cameraLookat", &S::cameraLookat, "m", -1e6, 1e6, "point the camera looks at");
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
            .integer("denseMode", &S::denseMode, 0, 0, "sampling: 0 regular grid (the only mode Floe implements)")
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
            .integer("frames", &S::frames, 0, 100000, "pictures per run (overridden by --frames)");
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
            .number("majorRadius", &S::majorRadius, "m", 1e-4, 1e3, "torus: radius of the ring")
            .number("minorRadius", &S::minorRadius, "m", 1e-4, 1e3, "torus: radius of the tube")
            .number("length", &S::length, "m", 0, 1e3, "capsule: length of the cylinder between the caps")
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
        s.integer("omega", &S::omega, 1, 8, "region size: each vertex's omega-ring (larger is stiffer)")
            .number("stiffness", &S::stiffness, "", 0, 1, "shape-matching stiffness s (1: rigid regions)")
            .number("damping", &S::damping, "", 0, 1, "per-region velocity damping k (1: rigid motion of each region)")
            .choice("volume", &S::volume, {"global", "local", "none"}, "volume conservation")
            .number("alpha", &S::alpha, "", 0, 1, "local volume: share of the uniform weight (1 is global)")
            .integer("weightSmoothing", &S::weightSmoothing, 0, 64, "local volume: umbrella smoothing passes over the weights")
            .number("beta", &S::beta, "", 0, 1, "local volume: influence of the interior measurement joints (thesis: 0.1)")
            .integer("jacobiSweeps", &S::jacobiSweeps, 1, 32, "polar decomposition sweeps per step")
            .number("friction", &S::friction, "", 0, 10, "Coulomb friction coefficient at walls and the plate")
            .number("restitution", &S::restitution, "", 0, 1, "normal velocity kept at impacts")
            .number("plateStart", &S::plateStart, "m", -1e6, 1e6, "height of a plate pressing down from above (0: none)")
            .number("plateEnd", &S::plateEnd, "m", -1e6, 1e6, "height where the plate stops")
            .number("plateSpeed", &S::plateSpeed, "m/s", 0, 1e3, "speed of the plate")
            .vector("glassCentre", &S::glassCentre, "m", -1e6, 1e6, "centre of a cylindrical glass on the floor (x, z)")
            .number("glassRadius", &S::glassRadius, "m", 0, 1e3, "inner radius of the glass (0: none)")
            .number("glassHeight", &S::glassHeight, "m", 0, 1e3, "rim height of the glass above the floor");
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
                 "a generated object of digest-004 §5.3 or an imported tetrahedral mesh")
            .choice("geometryFile", &S::geometryFile, {}, "TetGen .node/.ele or Gmsh .msh (ASCII 2.2/4.1) for shape mesh")
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
                    "only as far as that damage reaches (negative: the material's: iron 100)")
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
            .integer("maxIterations", &S::maxIterations, 0, 150, "cuts per fracture event (secondary splits: 1 + this many)")
            .number("fragility", &S::fragility, "", 1, 100, "secondary splits: crack nodes cut at tau / fragility (20)")
            .number("radiusFactor", &S::radiusFactor, "", 0, 1e3, "radius: crack radius in mean edge lengths per load / tau")
            .number("tauScale", &S::tauScale, "", 1e-9, 1e9, "load (Pa) to tau units (README: Fracture)")
            .number("dampingTime", &S::dampingTime, "s", 0, 1e3, "phi and psi of Table 1 are used times this")
            .flag("evaluateEveryStep", &S::evaluateEveryStep, "evaluate fracture every step, not only on contact")
            .integer("substeps", &S::substeps, 1, 1000, "substeps of the tet dynamics per time step")
            .integer("iterations", &S::iterations, 1, 100, "constraint iterations per substep")
            .number("friction", &S::friction, "", 0, 10, "Coulomb friction coefficient at the floor and walls")
            .number("damping", &S::damping, "1/s", 0, 1e3, "velocity damping per second")
            .choice("view", &S::view, {"fragments", "stress"}, "colours: one per fragment, or load / tau (green 0, red tau)")
            .number("waveToughness", &S::waveToughness, "", 0, 1e3, "wave: G_c / gamma in tau units (energy stop, (18)/(19))")
            .choice("waveBand", &S::waveBand, {"detach", "split"},
                    "wave: the crossed band detaches (the thesis' code) or splits by side (Glondu)")
            .integer("weakEvery", &S::weakEvery, 1, 1000000, "wave: about one tet in this many is weak")
            .integer("pieces", &S::pieces, 0, 1000000, "constraint: Voronoi pieces per body (0: every tet a piece)")
            .integer("pieceSeed", &S::pieceSeed, 0, 1000000, "constraint: seed of the Voronoi sites")
            .number("linkScale", &S::linkScale, "", 1e-9, 1e9, "constraint: link threshold = this x tau x (m_A + m_B) (N s)")
            .number("weakening", &S::weakening, "", 0, 1, "constraint: threshold factor per broken neighbour (0.975)")
            .number("weakeningFloor", &S::weakeningFloor, "", 0, 1, "constraint: neighbour weakening stops at this fraction")
            .number("wear", &S::wear, "", 0, 1,
                    "constraint: share of a non-breaking impulse taken off the threshold (1: the thesis)")
            .flag("contacts", &S::contacts, "contacts between bodies and fragments (node spheres on the grid)")
            .number("contactRadius", &S::contactRadius, "", 0.01, 1, "node sphere radius in mean edge lengths of its body");
        return s;
    }();
    return t;
}

namespace {

struct BlockGrid {
    glm::vec3 lo;
    glm::uvec3 n;
};

BlockGrid blockGrid(const FluidBlock& b, float r, bool sim2D)
{
    const glm::vec3 a = b.start * b.scale + b.translation;
    const glm::vec3 c = b.end * b.scale + b.translation;
    BlockGrid g;
    g.lo = glm::min(a, c);
    const glm::vec3 size = glm::abs(c - a);
    const float d = 2.0f * r;
    for (int k = 0; k < 3; ++k) {
        const double count = std::floor(static_cast<double>(size[k]) / d + 1e-4);
        g.n[k] = static_cast<unsigned>(std::clamp(count, 0.0, 4.0e9));
    }
    if (sim2D) g.n.z = 1;
    return g;
}

} // namespace

float particleMass(const Scene& scene)
{
    const float d = 2.0f * scene.config.particleRadius;
    const uint32_t dims = scene.config.sim2D ? 2 : 3;
    const uint32_t kernelSet = scene.sph.muellerKernels() ? SPH_KERNEL_MUELLER : SPH_KERNEL_CUBIC;
    return scene.config.density0 * (dims == 2 ? d * d : d * d * d) / sim::latticeDensity(kernelSet, dims);
}

uint64_t countFluidParticles(const Scene& scene)
{
    double total = 0;
    for (const FluidBlock& b : scene.fluidBlocks) {
        const BlockGrid g = blockGrid(b, scene.config.particleRadius, scene.config.sim2D);
        total += double(g.n.x) * double(g.n.y) * double(g.n.z);
    }
    return total > 1e18 ? uint64_t(1e18) : static_cast<uint64_t>(total);
}

std::vector<glm::vec4> sampleFluidParticles(const Scene& scene)
{
    std::vector<glm::vec4> out;
    out.reserve(countFluidParticles(scene));
    const float r = scene.config.particleRadius;
    const float mass = particleMass(scene);
    for (const FluidBlock& b : scene.fluidBlocks) {
        const BlockGrid g = blockGrid(b, r, scene.config.sim2D);
        for (unsigned z = 0; z < g.n.z; ++z)
            for (unsigned y = 0; y < g.n.y; ++y)
                for (unsigned x = 0; x < g.n.x; ++x) {
                    glm::vec3 p = g.lo + glm::vec3(r) + 2.0f * r * glm::vec3(x, y, z);
                    if (scene.config.sim2D) p.z = 0.0f;
                    out.emplace_back(p, mass);
                }
    }
    return out;
}

std::vector<glm::vec4> initialVelocities(const Scene& scene)
{
    std::vector<glm::vec4> out;
    for (const FluidBlock& b : scene.fluidBlocks) {
        const BlockGrid g = blockGrid(b, scene.config.particleRadius, scene.config.sim2D);
        glm::vec3 v = b.initialVelocity;
        if (scene.config.sim2D) v.z = 0.0f;
        out.insert(out.end(), size_t(g.n.x) * g.n.y * g.n.z, glm::vec4(v, 0.0f));
    }
    return out;
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
