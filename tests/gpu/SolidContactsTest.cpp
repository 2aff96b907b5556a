// Contacts between deformable bodies and fracture bodies (coupling/SolidContacts): each pass
// against a CPU reference (the face grid exactly, the vertex contacts within float rounding),
// and the exchange as a whole: momentum equal and opposite, no vertex left inside the block.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "GpuTest.h"
#include "Triangle.h"
#include "app/DeformablePart.h"
#include "app/FracturePart.h"
#include "body/DeformableBodies.h"
#include "coupling/SolidContacts.h"
#include "fracture/FractureBodies.h"
#include "fracture/TetMesh.h"
#include "geometry/Mesh.h"
#include "scene/Scene.h"
#include "scene/SceneLoader.h"
#include "scene/SceneSetup.h"
#include "shared/solid_contacts.h"

namespace floe::test {
namespace {

const std::string kScenes = std::string(FLOE_SOURCE_DIR) + "/assets/scenes/";
constexpr uint32_t kFaceCorners[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
constexpr double kFixedPointScale = 1048576.0; // common/fixed_point.glsl

struct Solids {
    Scene scene;
    std::unique_ptr<body::DeformableBodies> bodies;
    std::unique_ptr<fracture::FractureBodies> fracture;
    std::unique_ptr<coupling::SolidContacts> contacts;
};

class SolidContactsTest : public GpuTest {
protected:
    Solids build(const nlohmann::json& root)
    {
        Solids s;
        s.scene = parseScene(root, "solid contacts test scene", kScenes);
        s.bodies = std::make_unique<body::DeformableBodies>(context(), shaders(), graph(), bodyInstances(s.scene),
                                                            bodySettings(s.scene), staticMeshes(s.scene));
        s.fracture = std::make_unique<fracture::FractureBodies>(context(), shaders(), graph(), fractureInstances(s.scene),
                                                                fractureSettings(s.scene));
        s.contacts = std::make_unique<coupling::SolidContacts>(context(), shaders(), graph(), *s.bodies, *s.fracture, true);
        return s;
    }
    // The fracture nodes where the step's velocities carry them (world, m), as the passes place the faces.
    std::vector<glm::dvec3> nodesAhead(Solids& s, float dt)
    {
        const uint32_t n = s.fracture->nodeCount();
        const auto x = s.fracture->download(graph(), s.fracture->positions(), n);
        const auto o = s.fracture->download(graph(), s.fracture->origins(), n);
        const auto v = s.fracture->download(graph(), s.fracture->velocities(), n);
        std::vector<glm::dvec3> out(n);
        for (uint32_t k = 0; k < n; ++k) {
            const glm::vec3 f = glm::vec3(x[k]) + glm::vec3(o[k]) + dt * glm::vec3(v[k]); // float, as the shader
            out[k] = glm::dvec3(f);
        }
        return out;
    }
    std::vector<glm::uvec4> tets(Solids& s) { return download<glm::uvec4>(s.fracture->tets(), s.fracture->tetCount()); }
    // The faces that bound a fragment at rest (nothing was cut): no tet across them.
    std::vector<uint32_t> boundaryFaces(Solids& s)
    {
        const auto across = download<glm::uvec4>(s.fracture->faceNeighbours(), s.fracture->tetCount());
        std::vector<uint32_t> faces;
        for (uint32_t t = 0; t < s.fracture->tetCount(); ++t)
            for (uint32_t c = 0; c < 4; ++c)
                if (across[t][c] == SOLID_CONTACT_NONE) faces.push_back(4 * t + c);
        return faces;
    }
    glm::dvec3 bodiesMomentum(Solids& s)
    {
        const auto x = s.bodies->download(graph(), s.bodies->positions());
        const auto v = s.bodies->download(graph(), s.bodies->velocities());
        glm::dvec3 p(0.0);
        for (size_t k = 0; k < x.size(); ++k) p += double(x[k].w) * glm::dvec3(glm::vec3(v[k]));
        return p;
    }
    void checkFaceBins(const std::string& fracture);
    glm::dvec3 fractureMomentum(Solids& s)
    {
        const uint32_t n = s.fracture->nodeCount();
        const auto x = s.fracture->download(graph(), s.fracture->positions(), n);
        const auto v = s.fracture->download(graph(), s.fracture->velocities(), n);
        glm::dvec3 p(0.0);
        for (uint32_t k = 0; k < n; ++k)
            if (x[k].w > 0.0f) p += glm::dvec3(glm::vec3(v[k])) / double(x[k].w);
        return p;
    }
};

// A deformable ball above an iron slab of tets (`sink` m into it: negative above), the tests move
// it down into contact, moving down and sideways, the slab's nodes moving too. `fracture`: the
// scene's Fracture section.
nlohmann::json restingBall(float sink, const std::string& fracture = "{}")
{
    return nlohmann::json::parse(fmt::format(R"({{
      "Configuration": {{"timeStepSize": 0.005, "gravitation": [0, -9.81, 0]}},
      "Fracture": {},
      "Floe": {{"domainMin": [-1, 0, -1], "domainMax": [1, 2, 1]}},
      "Deformable": {{"omega": 2, "stiffness": 0.8, "friction": 0.3, "restitution": 0.2}},
      "DeformableBodies": [{{"shape": "sphere", "radius": 0.15, "resolution": 3, "translation": [0.07, {}, 0.03]}}],
      "FractureBodies": [{{"shape": "cuboid", "size": [0.8, 0.2, 0.6], "resolution": 6, "material": "iron",
                           "translation": [0, 0.1, 0]}}]
    }})",
                                             fracture, 0.2f + 0.15f - sink));
}

// Also for the Constraint method, whose pieces copy the nodes they share: the faces between
// pieces are inside while the pieces hold together.
TEST_F(SolidContactsTest, FaceBinsHoldEveryBoundaryFaceInTheCellsItsBoxTouches)
{
    for (const std::string fracture : {"{}", R"({"method": "constraint", "pieces": 12})"}) {
        SCOPED_TRACE(fracture);
        checkFaceBins(fracture);
        if (HasFatalFailure()) return;
    }
}

void SolidContactsTest::checkFaceBins(const std::string& fracture)
{
    Solids s = build(restingBall(-0.02f, fracture)); // 2 cm above the slab
    ASSERT_EQ(s.fracture->pieced(), fracture != "{}");
    // Moving nodes: the faces are binned where the step's velocities carry them.
    const uint32_t n = s.fracture->nodeCount();
    std::vector<glm::vec4> v(n);
    for (uint32_t k = 0; k < n; ++k) v[k] = glm::vec4(1.2f * std::sin(float(k)), -4.0f + 0.04f * float(k % 7), 0.8f, 0.0f);
    upload(s.fracture->velocities(), v);
    s.contacts->addFaceBins(graph());
    submit();
    const shared::SolidContactParams p = s.contacts->params();
    const auto start = download<uint32_t>(s.contacts->faceStart(), s.contacts->cells() + 1);
    const auto entries = download<uint32_t>(s.contacts->faceEntries(), s.contacts->capacity());
    // The CPU's grid.
    const std::vector<glm::dvec3> x = nodesAhead(s, p.contact.w);
    const auto tet = tets(s);
    std::map<uint32_t, std::multiset<uint32_t>> expected;
    const glm::ivec3 dims(p.gridDims);
    const glm::vec3 origin(p.gridOrigin);
    const float size = p.gridOrigin.w, r = p.contact.z;
    uint64_t total = 0;
    const std::vector<uint32_t> faces = boundaryFaces(s);
    for (uint32_t f : faces) {
        glm::vec3 corner[3];
        for (int k = 0; k < 3; ++k) corner[k] = glm::vec3(x[tet[f / 4][kFaceCorners[f % 4][k]]]);
        const glm::vec3 lo = glm::min(glm::min(corner[0], corner[1]), corner[2]) - r;
        const glm::vec3 hi = glm::max(glm::max(corner[0], corner[1]), corner[2]) + r;
        const glm::ivec3 c0 = glm::max(glm::ivec3(glm::floor((lo - origin) / size)), glm::ivec3(0));
        const glm::ivec3 c1 = glm::min(glm::ivec3(glm::floor((hi - origin) / size)), dims - 1);
        for (int z = c0.z; z <= c1.z; ++z)
            for (int y = c0.y; y <= c1.y; ++y)
                for (int xx = c0.x; xx <= c1.x; ++xx) {
                    expected[uint32_t(xx + dims.x * (y + dims.y * z))].insert(f);
                    ++total;
                }
    }
    ASSERT_GT(faces.size(), 0u);
    ASSERT_LT(faces.size(), 4u * s.fracture->tetCount()) << "interior faces must not count";
    EXPECT_EQ(start[s.contacts->cells()], total);
    ASSERT_LE(total, s.contacts->capacity());
    for (uint32_t cell = 0; cell < s.contacts->cells(); ++cell) {
        const std::multiset<uint32_t> got(entries.begin() + start[cell], entries.begin() + start[cell + 1]);
        const auto it = expected.find(cell);
        ASSERT_EQ(got, it == expected.end() ? std::multiset<uint32_t>{} : it->second) << "cell " << cell;
    }
    EXPECT_EQ(s.contacts->state(graph()).x, 0u);
}

// The lowest vertices end inside the slab, moved there from above it (their positions at the
// step's start): the continuous test takes them r in front of where they crossed the top face;
// those that end within r in front of a face, from the end point.
TEST_F(SolidContactsTest, VertexContactsMatchTheCpu)
{
    Solids s = build(restingBall(-0.02f)); // 2 cm above the slab
    const float r = s.contacts->params().contact.z;
    // The ball's lowest vertices 0.4 r inside the slab's top, the ball moved there down and
    // sideways (so that where a move crosses the top is not where the end point's nearest point
    // is) and moving so (a sliding contact: friction), the slab's nodes moving up a little.
    {
        std::vector<glm::vec4> x = download<glm::vec4>(s.bodies->relativePositions(), s.bodies->particleCount());
        for (glm::vec4& p : x) p += glm::vec4(0.02f, -0.02f - 0.4f * r, 0.01f, 0.0f);
        upload(s.bodies->relativePositions(), x);
        std::vector<glm::vec4> v(s.bodies->particleCount(), glm::vec4(0.8f, -1.5f, 0.1f, 0.0f));
        upload(s.bodies->velocities(), v);
        std::vector<glm::vec4> w(s.fracture->nodeCount(), glm::vec4(0.0f, 0.05f, 0.0f, 0.0f));
        upload(s.fracture->velocities(), w);
    }
    const auto x0 = download<glm::vec4>(s.bodies->relativePositions(), s.bodies->particleCount());
    const auto start = download<glm::vec4>(s.bodies->previousPositions(), s.bodies->particleCount());
    const auto v0 = download<glm::vec4>(s.bodies->velocities(), s.bodies->particleCount());
    const auto rest = download<glm::vec4>(s.bodies->restData(), s.bodies->particleCount());
    const auto origins = download<glm::vec4>(s.bodies->bodyOrigins(), s.bodies->bodyCount());
    const uint32_t nodes = s.fracture->nodeCount();
    const auto nodeX = s.fracture->download(graph(), s.fracture->positions(), nodes);
    const auto nodeV = s.fracture->download(graph(), s.fracture->velocities(), nodes);
    s.contacts->addFaceBins(graph());
    s.contacts->addVertexFaces(graph());
    submit();
    const auto x1 = download<glm::vec4>(s.bodies->relativePositions(), s.bodies->particleCount());
    const auto v1 = download<glm::vec4>(s.bodies->velocities(), s.bodies->particleCount());
    const auto flags = download<uint32_t>(s.bodies->flags(), s.bodies->particleCount());
    const auto sums = download<glm::ivec4>(s.contacts->nodeSums(), nodes);
    const shared::SolidContactParams p = s.contacts->params();

    // The CPU: every boundary face (no grid). First the earliest face (where the step carries it)
    // that the move crosses from the front, then the nearest within r.
    const std::vector<glm::dvec3> ahead = nodesAhead(s, p.contact.w);
    const auto tet = tets(s);
    const std::vector<uint32_t> faces = boundaryFaces(s); // ascending: the lower face wins a tie
    const auto corners = [&](uint32_t f) {
        return std::array<uint32_t, 3>{tet[f / 4][kFaceCorners[f % 4][0]], tet[f / 4][kFaceCorners[f % 4][1]],
                                       tet[f / 4][kFaceCorners[f % 4][2]]};
    };
    std::vector<glm::dvec3> sumsCpu(nodes, glm::dvec3(0.0));
    int touched = 0, crossed = 0;
    for (uint32_t i = 0; i < s.bodies->particleCount(); ++i) {
        const glm::dvec3 origin(glm::vec3(origins[uint32_t(rest[i].w)]));
        const glm::dvec3 xi = glm::dvec3(glm::vec3(x0[i])) + origin, p0 = glm::dvec3(glm::vec3(start[i])) + origin;
        glm::dvec3 expectedX = glm::dvec3(glm::vec3(x0[i]));
        glm::dvec3 expectedV = glm::dvec3(glm::vec3(v0[i]));
        // The response to face f: r in front of its plane from `onPlane`, the two-body impulse.
        const auto respond = [&](uint32_t f, const glm::dvec3& w, const glm::dvec3& onPlane) {
            const std::array<uint32_t, 3> k = corners(f);
            const glm::dvec3 n = glm::normalize(glm::cross(ahead[k[1]] - ahead[k[0]], ahead[k[2]] - ahead[k[0]]));
            glm::dvec3 vFace(0.0);
            double wFace = 0.0;
            for (int c = 0; c < 3; ++c) {
                vFace += w[c] * glm::dvec3(glm::vec3(nodeV[k[c]]));
                wFace += w[c] * w[c] * double(nodeX[k[c]].w);
            }
            const double wVertex = 1.0 / double(x0[i].w);
            const glm::vec4 j = shared::solidContactImpulse(glm::vec3(expectedV - vFace), glm::vec3(n), float(wVertex),
                                                            float(wFace), p.contact.x, p.contact.y);
            expectedV += wVertex * glm::dvec3(glm::vec3(j));
            if (j.w > 0.0f)
                for (int c = 0; c < 3; ++c) sumsCpu[k[c]] -= w[c] * glm::dvec3(glm::vec3(j));
            expectedX = onPlane + double(r) * n - origin;
        };
        // Moller and Trumbore against each face where the step carries it.
        double earliest = 2.0;
        uint32_t hitFace = 0;
        glm::dvec3 hitWeights(0.0);
        for (uint32_t f : faces) {
            const std::array<uint32_t, 3> k = corners(f);
            const glm::dvec3 a = ahead[k[0]], e1 = ahead[k[1]] - a, e2 = ahead[k[2]] - a, d = xi - p0;
            const glm::dvec3 pv = glm::cross(d, e2);
            const double det = glm::dot(e1, pv);
            if (!(det > 1e-20)) continue;
            const glm::dvec3 tv = p0 - a, qv = glm::cross(tv, e1);
            const double u = glm::dot(tv, pv) / det, w = glm::dot(d, qv) / det, t = glm::dot(e2, qv) / det;
            if (u < 0 || u > 1 || w < 0 || u + w > 1 || t < 0 || t > 1 || t >= earliest) continue;
            earliest = t;
            hitFace = f;
            hitWeights = {1 - u - w, u, w};
        }
        bool hit = false;
        if (earliest <= 1.0) {
            const std::array<uint32_t, 3> k = corners(hitFace);
            respond(hitFace, hitWeights, hitWeights.x * ahead[k[0]] + hitWeights.y * ahead[k[1]] + hitWeights.z * ahead[k[2]]);
            hit = true;
            ++crossed;
        } else {
            double nearest = 1e30;
            uint32_t best = 0;
            for (uint32_t f : faces) {
                const std::array<uint32_t, 3> k = corners(f);
                glm::dvec3 w;
                const double d = glm::length(xi - closestOnTriangle(xi, ahead[k[0]], ahead[k[1]], ahead[k[2]], w));
                if (d < nearest) nearest = d, best = f;
            }
            if (nearest <= r) {
                const std::array<uint32_t, 3> k = corners(best);
                glm::dvec3 w;
                const glm::dvec3 q = closestOnTriangle(xi, ahead[k[0]], ahead[k[1]], ahead[k[2]], w);
                const glm::dvec3 n = glm::normalize(glm::cross(ahead[k[1]] - ahead[k[0]], ahead[k[2]] - ahead[k[0]]));
                const double side = glm::dot(xi - q, n);
                if (side < r) {
                    hit = true;
                    respond(best, w, xi - side * n);
                }
            }
        }
        touched += hit;
        EXPECT_EQ(flags[i] == 3u, hit) << "vertex " << i;
        EXPECT_LT(glm::length(glm::dvec3(glm::vec3(x1[i])) - expectedX), 2e-6) << "vertex " << i;
        EXPECT_LT(glm::length(glm::dvec3(glm::vec3(v1[i])) - expectedV), 1e-4) << "vertex " << i;
    }
    EXPECT_GE(crossed, 4) << "the ball's lowest vertices must cross the slab's top in their move";
    EXPECT_GT(touched, crossed) << "vertices ending within r of the slab must touch it";
    double largest = 0.0;
    for (uint32_t k = 0; k < nodes; ++k) {
        const glm::dvec3 gpu = glm::dvec3(glm::vec3(sums[k])) / kFixedPointScale;
        largest = std::max(largest, glm::length(sumsCpu[k]));
        EXPECT_LT(glm::length(gpu - sumsCpu[k]), 1e-5 + 1e-4 * glm::length(sumsCpu[k])) << "node " << k;
    }
    EXPECT_GT(largest, 1e-3) << "the slab's nodes must take impulses";
    EXPECT_EQ(s.contacts->state(graph()).y, uint32_t(touched));
}

// A soft ball at 10 m/s onto a fixed iron plate 4 cm thick, at the 4 ms step (4 cm per step): it
// bounces off the plate's top. With only the end points tested (before 2026-11-30) it went
// through to the floor.
TEST_F(SolidContactsTest, AFastBallDoesNotPassThroughAThinPlate)
{
    Solids s = build(nlohmann::json::parse(R"({
      "Configuration": {"timeStepSize": 0.004, "gravitation": [0, -9.81, 0]},
      "Floe": {"domainMin": [-1, 0, -0.6], "domainMax": [1, 2, 0.6]},
      "Deformable": {"omega": 2, "stiffness": 0.7, "volume": "global", "friction": 0.4},
      "DeformableBodies": [{"shape": "sphere", "radius": 0.1, "resolution": 3, "density": 1000, "translation": [0, 1, 0],
                            "velocity": [0, -10, 0]}],
      "FractureBodies": [{"shape": "cuboid", "size": [1.2, 0.04, 0.4], "resolution": 12, "material": "iron",
                          "breakable": false, "density": 0, "translation": [0, 0.5, 0]}]
    })"));
    float lowest = 1e30f, lowestCentre = 1e30f;
    for (int k = 0; k < 30; ++k) { // 0.12 s: the ball reaches the plate after about 0.04 s
        s.bodies->addStep(graph());
        s.fracture->addStep(graph());
        submit();
        s.fracture->afterStep(graph());
        const auto x = s.bodies->download(graph(), s.bodies->positions());
        double centre = 0.0;
        for (const glm::vec4& p : x) {
            lowest = std::min(lowest, p.y);
            centre += p.y / double(x.size());
        }
        lowestCentre = std::min(lowestCentre, float(centre));
    }
    std::printf("the ball's lowest vertex %.4f m, lowest centre %.4f m (the plate from 0.48 to 0.52 m)\n", lowest, lowestCentre);
    EXPECT_GT(lowest, 0.5f) << "the ball went into or through the plate";
    EXPECT_GT(lowestCentre, 0.52f) << "the ball's centre went below the plate's top";
}

// An iron ball of tets above a coarse deformable box (resolution 1: its top is two triangles, no
// vertex near the ball), its lowest node 0.4 r inside the box's top, moving down and sideways.
nlohmann::json ballOnCoarseBox(float y)
{
    return nlohmann::json::parse(fmt::format(R"({{
      "Configuration": {{"timeStepSize": 0.005, "gravitation": [0, -9.81, 0]}},
      "Floe": {{"domainMin": [-1, 0, -1], "domainMax": [1, 2, 1]}},
      "Deformable": {{"omega": 2, "stiffness": 0.9, "friction": 0.3, "restitution": 0.1}},
      "DeformableBodies": [{{"shape": "box", "size": [1.0, 0.3, 1.0], "resolution": 1, "translation": [0, 0.15, 0]}}],
      "FractureBodies": [{{"shape": "sphere", "size": [0.2, 0.2, 0.2], "resolution": 3, "material": "iron",
                           "breakable": false, "translation": [0.05, {}, 0.03]}}]
    }})",
                                             y));
}

TEST_F(SolidContactsTest, NodeContactsMatchTheCpu)
{
    Solids s = build(ballOnCoarseBox(0.5f));
    const shared::SolidContactParams p = s.contacts->params();
    const float r = p.contact.z;
    const uint32_t nodes = s.fracture->nodeCount(), vertices = s.bodies->particleCount();
    // Move the ball down so that its lowest node lies 0.4 r inside the box's top (y = 0.3 m).
    {
        std::vector<glm::vec4> x = s.fracture->download(graph(), s.fracture->positions(), nodes);
        const auto o = s.fracture->download(graph(), s.fracture->origins(), nodes);
        float lowest = 1e30f;
        for (uint32_t k = 0; k < nodes; ++k) lowest = std::min(lowest, x[k].y + o[k].y);
        for (glm::vec4& q : x) q.y -= lowest - (0.3f - 0.4f * r);
        upload(s.fracture->positions(), x);
        std::vector<glm::vec4> v(nodes, glm::vec4(0.4f, -0.8f, 0.0f, 0.0f));
        upload(s.fracture->velocities(), v);
        std::vector<glm::vec4> w(vertices, glm::vec4(0.0f, 0.1f, 0.05f, 0.0f));
        upload(s.bodies->velocities(), w);
    }
    const auto x0 = download<glm::vec4>(s.bodies->relativePositions(), vertices);
    const auto v0 = download<glm::vec4>(s.bodies->velocities(), vertices);
    const auto rest = download<glm::vec4>(s.bodies->restData(), vertices);
    const auto origins = download<glm::vec4>(s.bodies->bodyOrigins(), s.bodies->bodyCount());
    const auto tri = download<glm::uvec4>(s.bodies->triangles(), s.bodies->triangleCount());
    const auto nodeX = s.fracture->download(graph(), s.fracture->positions(), nodes);
    const auto nodeV = s.fracture->download(graph(), s.fracture->velocities(), nodes);
    const std::vector<glm::dvec3> ahead = nodesAhead(s, p.contact.w);
    s.contacts->addTriangleBins(graph());
    s.contacts->addNodeTriangles(graph());
    s.contacts->addVertexPushes(graph());
    submit();
    const auto x1 = download<glm::vec4>(s.bodies->relativePositions(), vertices);
    const auto v1 = download<glm::vec4>(s.bodies->velocities(), vertices);
    const auto flags = download<uint32_t>(s.bodies->flags(), vertices);
    const auto sums = download<glm::ivec4>(s.contacts->nodeSums(), nodes);

    // The CPU: every triangle (no grid), the nearest within r decides.
    const auto world = [&](uint32_t k) {
        return glm::dvec3(glm::vec3(x0[k])) + glm::dvec3(glm::vec3(origins[uint32_t(rest[k].w)]));
    };
    std::vector<glm::dvec3> move(vertices, glm::dvec3(0.0)), impulse(vertices, glm::dvec3(0.0)),
        nodeImpulse(nodes, glm::dvec3(0.0));
    std::vector<int> moves(vertices, 0);
    int touching = 0;
    for (uint32_t n = 0; n < nodes; ++n) {
        double nearest = 1e30;
        uint32_t best = 0;
        for (uint32_t t = 0; t < tri.size(); ++t) {
            glm::dvec3 w;
            const double d =
                glm::length(ahead[n] - closestOnTriangle(ahead[n], world(tri[t].x), world(tri[t].y), world(tri[t].z), w));
            if (d < nearest) nearest = d, best = t;
        }
        if (!(nearest <= r)) continue;
        const uint32_t k[3] = {tri[best].x, tri[best].y, tri[best].z};
        glm::dvec3 b;
        const glm::dvec3 q = closestOnTriangle(ahead[n], world(k[0]), world(k[1]), world(k[2]), b);
        const glm::dvec3 normal = glm::normalize(glm::cross(world(k[1]) - world(k[0]), world(k[2]) - world(k[0])));
        const double side = glm::dot(ahead[n] - q, normal);
        if (!(side < r)) continue;
        ++touching;
        glm::dvec3 vTri(0.0);
        double wTri = 0.0, w[3];
        for (int c = 0; c < 3; ++c) {
            w[c] = 1.0 / double(x0[k[c]].w);
            vTri += b[c] * glm::dvec3(glm::vec3(v0[k[c]]));
            wTri += b[c] * b[c] * w[c];
        }
        const glm::vec4 j = shared::solidContactImpulse(glm::vec3(glm::dvec3(glm::vec3(nodeV[n])) - vTri), glm::vec3(normal),
                                                        nodeX[n].w, float(wTri), p.contact.x, p.contact.y);
        for (int c = 0; c < 3; ++c) {
            if (!(b[c] > 0.0)) continue;
            move[k[c]] -= (w[c] * b[c] / wTri) * (double(r) - side) * normal;
            ++moves[k[c]];
            if (j.w > 0.0f) impulse[k[c]] -= b[c] * glm::dvec3(glm::vec3(j));
        }
        if (j.w > 0.0f) nodeImpulse[n] += glm::dvec3(glm::vec3(j));
    }
    EXPECT_GE(touching, 1) << "the ball's lowest node must touch the box";
    int pushed = 0;
    for (uint32_t i = 0; i < vertices; ++i) {
        glm::dvec3 expectedX = glm::dvec3(glm::vec3(x0[i])), expectedV = glm::dvec3(glm::vec3(v0[i]));
        if (moves[i] > 0) {
            ++pushed;
            expectedX += move[i] / double(moves[i]);
            expectedV += impulse[i] / double(x0[i].w);
        }
        EXPECT_EQ(flags[i] == 3u, moves[i] > 0) << "vertex " << i;
        EXPECT_LT(glm::length(glm::dvec3(glm::vec3(x1[i])) - expectedX), 2e-6) << "vertex " << i;
        EXPECT_LT(glm::length(glm::dvec3(glm::vec3(v1[i])) - expectedV), 1e-4) << "vertex " << i;
    }
    EXPECT_GE(pushed, 3);
    for (uint32_t n = 0; n < nodes; ++n) {
        const glm::dvec3 gpu = glm::dvec3(glm::vec3(sums[n])) / kFixedPointScale;
        EXPECT_LT(glm::length(gpu - nodeImpulse[n]), 1e-5 + 1e-4 * glm::length(nodeImpulse[n])) << "node " << n;
    }
    // The sums are cleared for the next round.
    for (const glm::ivec4& v : download<glm::ivec4>(s.contacts->vertexSums(), 2 * size_t(vertices))) EXPECT_EQ(v, glm::ivec4(0));
    EXPECT_EQ(s.contacts->state(graph()).w, uint32_t(touching));
}

// The same ball dropped on the coarse box: its nodes meet the box's two top triangles, far from
// any vertex. It comes to rest on the box with no node inside it (without the node contacts it
// fell through the box to the floor).
TEST_F(SolidContactsTest, AFractureBallRestsOnACoarseDeformableBox)
{
    Solids s = build(ballOnCoarseBox(0.5f));
    for (int k = 0; k < 160; ++k) {
        s.bodies->addStep(graph());
        s.fracture->addStep(graph());
        submit();
        s.fracture->afterStep(graph());
    }
    const uint32_t n = s.fracture->nodeCount();
    const auto x = s.fracture->download(graph(), s.fracture->positions(), n);
    const auto o = s.fracture->download(graph(), s.fracture->origins(), n);
    const auto v = s.fracture->download(graph(), s.fracture->velocities(), n);
    geometry::TriangleMesh box;
    for (const glm::vec4& p : s.bodies->download(graph(), s.bodies->positions())) box.vertices.push_back(glm::vec3(p));
    for (const glm::uvec4& t : download<glm::uvec4>(s.bodies->triangles(), s.bodies->triangleCount()))
        box.triangles.emplace_back(t.x, t.y, t.z);
    int inside = 0;
    float lowest = 1e30f, fastest = 0.0f;
    for (uint32_t k = 0; k < n; ++k) {
        const glm::vec3 p = glm::vec3(x[k]) + glm::vec3(o[k]);
        inside += geometry::contains(box, p);
        lowest = std::min(lowest, p.y);
        fastest = std::max(fastest, glm::length(glm::vec3(v[k])));
    }
    std::printf("ball's lowest node %.4f m (the box's top 0.3 m), fastest node %.3f m/s\n", lowest, fastest);
    EXPECT_EQ(inside, 0);
    EXPECT_GT(lowest, 0.28f) << "the ball sank into the box";
    EXPECT_LT(lowest, 0.36f) << "the ball did not come down onto the box";
    EXPECT_LT(fastest, 0.5f) << "the ball is not at rest";
}

// No gravity, no walls: a soft ball at 2 m/s into a free iron block. Whatever the contacts do,
// the momentum the block gains is what the ball loses, and no vertex ends inside the block.
TEST_F(SolidContactsTest, ABallAndABlockExchangeMomentumEquallyAndOppositely)
{
    Solids s = build(nlohmann::json::parse(R"({
      "Configuration": {"timeStepSize": 0.004, "gravitation": [0, 0, 0]},
      "Floe": {"domainMin": [-2, -2, -2], "domainMax": [2, 2, 2]},
      "Deformable": {"omega": 2, "stiffness": 0.8, "friction": 0.3},
      "DeformableBodies": [{"shape": "sphere", "radius": 0.1, "resolution": 3, "translation": [-0.3, 0.02, 0.01],
                            "velocity": [2, 0, 0], "density": 1000}],
      "FractureBodies": [{"shape": "cube", "size": [0.2, 0.2, 0.2], "resolution": 4, "material": "iron", "density": 2000,
                          "breakable": false, "translation": [0, 0, 0]}]
    })"));
    const glm::dvec3 ball0 = bodiesMomentum(s), block0 = fractureMomentum(s);
    for (int k = 0; k < 100; ++k) {
        s.bodies->addStep(graph());
        s.fracture->addStep(graph());
        submit();
        s.fracture->afterStep(graph());
    }
    const glm::dvec3 ball1 = bodiesMomentum(s), block1 = fractureMomentum(s);
    const glm::dvec3 lost = ball0 - ball1, gained = block1 - block0;
    std::printf("ball %.5f -> %.5f N s, block %.5f -> %.5f N s\n", ball0.x, ball1.x, block0.x, block1.x);
    EXPECT_GT(gained.x, 0.5 * ball0.x) << "the block barely moved: the ball did not push it";
    EXPECT_LT(glm::length(gained - lost), 0.01 * glm::length(lost));
    // No vertex inside the block's surface.
    const uint32_t n = s.fracture->nodeCount();
    const auto x = s.fracture->download(graph(), s.fracture->positions(), n);
    const auto o = s.fracture->download(graph(), s.fracture->origins(), n);
    const auto tet = tets(s);
    geometry::TriangleMesh surface;
    for (uint32_t k = 0; k < n; ++k) surface.vertices.push_back(glm::vec3(x[k]) + glm::vec3(o[k]));
    for (uint32_t f : boundaryFaces(s))
        surface.triangles.emplace_back(tet[f / 4][kFaceCorners[f % 4][0]], tet[f / 4][kFaceCorners[f % 4][1]],
                                       tet[f / 4][kFaceCorners[f % 4][2]]);
    int inside = 0;
    for (const glm::vec4& v : s.bodies->download(graph(), s.bodies->positions()))
        inside += geometry::contains(surface, glm::vec3(v));
    EXPECT_EQ(inside, 0);
}

} // namespace
} // namespace floe::test
