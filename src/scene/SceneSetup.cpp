#include "scene/SceneSetup.h"

#include <cmath>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "base/Error.h"
#include "body/SurfaceMesh.h"
#include "sim/sph/BoundarySampler.h"

namespace floe {

std::vector<glm::vec4> containerPlanes(const geometry::TriangleMesh& mesh, bool flat)
{
    std::vector<glm::vec4> planes;
    for (size_t t = 0; t < mesh.triangles.size(); ++t) {
        glm::vec3 n = geometry::triangleNormal(mesh, t);
        if (n == glm::vec3(0.0f)) continue;
        float offset = glm::dot(n, mesh.vertices[mesh.triangles[t].x]);
        if (flat) {
            // The plane restricted to z = 0 is a line: (nx, ny).(x, y) = offset.
            const float len = std::sqrt(n.x * n.x + n.y * n.y);
            if (len < 1e-6f) continue;
            n = glm::vec3(n.x / len, n.y / len, 0.0f);
            offset /= len;
        }
        bool duplicate = false; // coplanar triangles of one face
        for (const glm::vec4& p : planes)
            if (glm::dot(glm::vec3(p), n) > 1.0f - 1e-6f && std::abs(p.w - offset) < 1e-6f * (1.0f + std::abs(offset)))
                duplicate = true;
        if (!duplicate) planes.emplace_back(n, offset);
    }
    return planes;
}

sim::WorldSettings makeWorld(const Scene& scene, float stopTime)
{
    sim::WorldSettings w;
    w.gravity = scene.config.gravitation;
    if (scene.config.sim2D) w.gravity.z = 0.0f;
    scene.domain(w.domainMin, w.domainMax);
    w.particleRadius = scene.config.particleRadius;
    w.restDensity = scene.config.density0;
    w.sim2D = scene.config.sim2D;
    w.domainWalls = scene.floe.domainWalls;
    w.restitution = scene.floe.restitution;
    w.friction = scene.floe.friction;
    w.timeStep = scene.config.timeStepSize;
    w.stopTime = stopTime;
    sim::BoundarySampling sampling;
    sampling.spacing = scene.sph.boundarySpacing * 2.0f * scene.config.particleRadius;
    sampling.layers = scene.sph.boundaryLayers;
    sampling.flat = scene.config.sim2D;
    double bound = 0.0; // boundary samples of the bodies so far, at most
    for (size_t i = 0; i < scene.rigidBodies.size(); ++i) {
        const RigidBody& body = scene.rigidBodies[i];
        // Bounded from the mesh before sampling: a body far larger than the particles would take
        // minutes and gigabytes.
        bound += sim::boundarySampleBound(body.mesh, sampling);
        if (bound > sim::kMaxBoundarySamples)
            throw Error(fmt::format("{}: RigidBodies[{}] ({}): sampling the boundaries at {:.3g} m gives up to {:.3g} particles, "
                                    "over Floe's {:.3g}; expected bodies within a few thousand particle spacings "
                                    "(shrink their scale or enlarge Configuration.particleRadius)",
                                    scene.file.string(), i, body.geometryFile, sampling.spacing, bound, sim::kMaxBoundarySamples));
        sampling.fluidInside = body.inverted;
        const std::vector<glm::vec3> samples = sim::sampleBoundary(body.mesh, sampling);
        // A wall without samples holds nothing back: the fluid would fall through it unnoticed.
        if (samples.empty())
            throw Error(fmt::format(
                "{}: RigidBodies[{}] ({}) gives no boundary particles: {}", scene.file.string(), i, body.geometryFile,
                scene.config.sim2D ? "in 2D its mesh must cross the plane z = 0, which it does not" : "its mesh has no triangles"));
        w.boundary.insert(w.boundary.end(), samples.begin(), samples.end());
        // Pictures show obstacles; walls (SPlisHSPlasH's isWall) only in 2D, where they do not
        // hide the fluid.
        if (!body.isWall || scene.config.sim2D) {
            sampling.layers = 1;
            const std::vector<glm::vec3> surface = sim::sampleBoundary(body.mesh, sampling);
            w.drawnBoundary.insert(w.drawnBoundary.end(), surface.begin(), surface.end());
            sampling.layers = scene.sph.boundaryLayers;
        }
    }
    if (scene.container) {
        sim::ContainerGeometry c;
        c.planes = containerPlanes(scene.container->mesh, scene.config.sim2D);
        c.shakeAxis = scene.container->shakeAxis;
        c.shakeAmplitude = scene.container->shakeAmplitude;
        c.shakeFrequency = scene.container->shakeFrequency;
        c.restitution = scene.container->restitution;
        w.container = c;
    }
    return w;
}

geometry::Bounds sceneBounds(const Scene& scene, const sim::WorldSettings& world)
{
    geometry::Bounds b;
    for (const FluidBlock& f : scene.fluidBlocks) {
        b.add(f.start * f.scale + f.translation);
        b.add(f.end * f.scale + f.translation);
    }
    for (const RigidBody& body : scene.rigidBodies)
        for (const glm::vec3& v : body.mesh.vertices) b.add(v);
    if (scene.container)
        for (const glm::vec3& v : scene.container->mesh.vertices) b.add(v);
    if (scene.rigidBodies.empty() && !scene.container) {
        b.add(world.domainMin);
        b.add(world.domainMax);
    }
    if (world.sim2D) {
        b.lo.z = -world.particleRadius;
        b.hi.z = world.particleRadius;
    }
    return b;
}

render::Camera sceneCamera(const Scene& scene, const sim::WorldSettings& world, float aspect)
{
    const geometry::Bounds b = sceneBounds(scene, world);
    render::Camera camera = render::Camera::fit(b.lo, b.hi, scene.floe.fovY, world.sim2D, aspect);
    const bool automatic = scene.config.cameraPosition == glm::vec3(0) && scene.config.cameraLookat == glm::vec3(0);
    if (!automatic) {
        camera.position = scene.config.cameraPosition;
        camera.target = scene.config.cameraLookat;
        const float distance = glm::length(camera.target - camera.position);
        camera.nearPlane = std::max(1e-3f, distance * 1e-3f);
        camera.farPlane = distance * 10.0f + glm::length(world.domainMax - world.domainMin) * 2.0f;
    }
    return camera;
}

double energyBound(const Scene& scene, const sim::WorldSettings& world)
{
    return energyBound(scene, world, sampleFluid(scene));
}

double energyBound(const Scene& scene, const sim::WorldSettings& world, const FluidSampling& fluid)
{
    const double g = glm::length(glm::dvec3(scene.config.gravitation));
    if (g <= 0.0 || (scene.container && scene.container->shakeAmplitude > 0.0f)) return HUGE_VAL;
    const glm::dvec3 down = glm::dvec3(scene.config.gravitation) / g;
    const std::vector<glm::vec4>& positions = fluid.positions;
    const std::vector<glm::vec4>& velocities = fluid.velocities;
    double mass = 0, kinetic = 0;
    glm::dvec3 centre(0);
    for (size_t i = 0; i < positions.size(); ++i) {
        mass += positions[i].w;
        centre += double(positions[i].w) * glm::dvec3(glm::vec3(positions[i]));
        kinetic += 0.5 * positions[i].w * glm::dot(glm::dvec3(glm::vec3(velocities[i])), glm::dvec3(glm::vec3(velocities[i])));
    }
    const bool solids = !scene.deformableBodies.empty() || !scene.fractureBodies.empty();
    if (mass <= 0.0 && !solids) return HUGE_VAL;
    // What else could supply energy: a plate pressing the deformable bodies, or a deformed
    // deformable start (shape matching has no potential whose energy the bound could count).
    if (!scene.deformableBodies.empty() && scene.deformable.plateSpeed > 0.0f) return HUGE_VAL;
    for (const DeformableBody& body : scene.deformableBodies)
        if (!body.initial.empty()) return HUGE_VAL;
    if (mass > 0.0) centre /= mass;
    geometry::Bounds b = sceneBounds(scene, world);
    const auto drop = [&](const glm::dvec3& from) {
        double most = 0;
        for (int corner = 0; corner < 8; ++corner) {
            const glm::dvec3 c(corner & 1 ? b.hi.x : b.lo.x, corner & 2 ? b.hi.y : b.lo.y, corner & 4 ? b.hi.z : b.lo.z);
            most = std::max(most, glm::dot(c - from, down));
        }
        return most;
    };
    double bound = mass > 0.0 ? kinetic + mass * g * drop(centre) : 0.0;
    if (solids) {
        glm::vec3 lo, hi; // bodies fall to the domain's floor at worst (or a fracture run's own, below them)
        scene.domain(lo, hi);
        b.add(lo);
        b.add(hi);
        for (const FractureBody& body : scene.fractureBodies)
            for (const glm::vec3& x : body.mesh.nodes) b.add(x);
        for (const DeformableBody& body : scene.deformableBodies)
            for (const glm::vec3& x : body.mesh.vertices) b.add(x);
    }
    // Deformable bodies: their initial kinetic energy (the mass spread evenly over the
    // vertices, as body::DeformableBodies spreads it) and what gravity can give each of them.
    for (const DeformableBody& body : scene.deformableBodies) {
        const auto& x = body.initial.empty() ? body.mesh.vertices : body.initial;
        if (x.empty()) continue;
        const double bodyMass = double(body.density) * body::enclosedVolume(body.mesh), vertexMass = bodyMass / double(x.size());
        glm::dvec3 c(0.0);
        for (const glm::vec3& p : x) c += glm::dvec3(p) / double(x.size());
        for (const glm::vec3& p : x) {
            const glm::dvec3 v = glm::dvec3(body.velocity) + glm::cross(glm::dvec3(body.angularVelocity), glm::dvec3(p) - c);
            bound += 0.5 * vertexMass * glm::dot(v, v);
        }
        bound += bodyMass * g * drop(c);
    }
    // Fracture bodies: their tets' masses (lumped to the nodes, as fracture::FractureBodies
    // lumps them) with the start velocity and spin about the centroid; the elastic energy of a
    // deformed start (FractureBody::initial) is not counted.
    for (const FractureBody& body : scene.fractureBodies) {
        const fracture::TetMesh& mesh = body.mesh;
        std::vector<double> nodeMass(mesh.nodes.size(), 0.0);
        double bodyMass = 0.0;
        for (size_t t = 0; t < mesh.tets.size(); ++t) {
            const double m = double(body.density) * std::abs(fracture::signedVolume(mesh, t));
            bodyMass += m;
            for (int k = 0; k < 4; ++k) nodeMass[mesh.tets[t][k]] += 0.25 * m;
        }
        if (bodyMass <= 0.0) continue;
        glm::dvec3 c(0.0);
        for (size_t k = 0; k < mesh.nodes.size(); ++k) c += nodeMass[k] * glm::dvec3(mesh.nodes[k]) / bodyMass;
        for (size_t k = 0; k < mesh.nodes.size(); ++k) {
            const glm::dvec3 v =
                glm::dvec3(body.velocity) + glm::cross(glm::dvec3(body.angularVelocity), glm::dvec3(mesh.nodes[k]) - c);
            bound += 0.5 * nodeMass[k] * glm::dot(v, v);
        }
        bound += bodyMass * g * drop(c);
    }
    return bound;
}

std::string fluidDivergence(const sim::StepMetrics& m, double energyLimit, bool compressible)
{
    if (m.nonFinite > 0)
        return fmt::format("{} particles have non-finite positions or velocities at t = {:.4g} s", m.nonFinite, m.time);
    if (m.escaped > 0) return fmt::format("{} particles escaped the closed domain at t = {:.4g} s", m.escaped, m.time);
    if (m.densityErrorMax > 1.0f && !compressible)
        return fmt::format("compression {:.0f} % (above 100 %) at t = {:.4g} s", 100.0 * m.densityErrorMax, m.time);
    if (m.kineticEnergy > energyLimit)
        return fmt::format("kinetic energy {:.4g} J above the {:.4g} J the initial motion and gravity can supply at t = {:.4g} s "
                           "(energy from nowhere)",
                           m.kineticEnergy, energyLimit, m.time);
    return {};
}

} // namespace floe
