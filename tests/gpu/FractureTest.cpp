// Tetrahedral bodies with fracture on the GPU (src/fracture/FractureBodies): dynamics, the
// fracture methods, node duplication and fragments (digest-004 §8).
#include <cmath>

#include <fmt/format.h>
#include <glm/gtc/matrix_transform.hpp>

#include "GpuTest.h"
#include "fracture/FractureBodies.h"
#include "fracture/TetShapes.h"

using namespace floe;
using namespace floe::fracture;

namespace {

class FractureTest : public test::GpuTest {
protected:
    FractureReport run(FractureBodies& bodies, int steps)
    {
        FractureReport r;
        for (int i = 0; i < steps; ++i) {
            bodies.addStep(graph());
            submit();
            r = bodies.afterStep(graph());
        }
        return r;
    }
};

FractureBodyInstance body(TetShape shape, int resolution, const char* material, glm::vec3 at, float angle = 0.0f)
{
    TetShapeDesc d;
    d.shape = shape;
    d.resolution = resolution;
    FractureBodyInstance b;
    b.mesh = makeTetShape(d);
    const glm::mat3 R = glm::mat3(glm::rotate(glm::mat4(1.0f), angle, glm::normalize(glm::vec3(1.0f, 0.3f, 0.6f))));
    for (glm::vec3& x : b.mesh.nodes) x = R * x + at;
    b.material = *materialPreset(material);
    return b;
}

} // namespace

TEST_F(FractureTest, Explore)
{
    for (TetShape shape : {TetShape::Cone})
    for (int res : {10})
    for (float angle : {2.0f}) {
        std::string line = fmt::format("{} res {} angle {}:", tetShapeName(shape), res, angle);
        for (int sub : {20, 50}) for (int its : {2, 4}) for (const char* material : {"iron"}) {
            FractureSettings s;
            s.method = FractureMethod::None;
            s.iterations = uint32_t(its);
            s.substeps = uint32_t(sub);
            auto b = body(shape, res, material, glm::vec3(0, 5, 0), angle);
            b.material.phi *= 1e-4f;
            b.material.psi *= 1e-4f;
            b.youngsModulus = 1e8f;
            FractureBodies bodies(context(), shaders(), graph(), {b}, s);
            float worst = 0, first = 0;
            int worstInverted = 0;
            for (int i = 0; i < 100; ++i) {
                bodies.addStep(graph());
                submit();
                const FractureReport r = bodies.afterStep(graph());
                if (r.contact) {
                    const auto nd = bodies.download(graph(), bodies.nodeData(), bodies.nodeCount());
                    const auto xx = bodies.download(graph(), bodies.positions(), bodies.nodeCount());
                    size_t a = 0;
                    for (size_t n = 0; n < nd.size(); ++n) if (nd[n].w > nd[a].w) a = n;
                    float ymin = 1e9f; for (auto& q : xx) ymin = std::min(ymin, q.y);
                    const auto tt = bodies.download(graph(), bodies.tets(), bodies.tetCount());
                    int inverted = 0; double minRatio = 1e9;
                    for (size_t t = 0; t < bodies.tetCount(); ++t) {
                        glm::uvec4 q = glm::floatBitsToUint(tt[t]);
                        const double v = signedVolume(glm::vec3(xx[q.x]), glm::vec3(xx[q.y]), glm::vec3(xx[q.z]), glm::vec3(xx[q.w]));
                        const double v0 = signedVolume(b.mesh, t);
                        minRatio = std::min(minRatio, v / v0);
                        if (v <= 0) ++inverted;
                    }
                    worstInverted = std::max(worstInverted, inverted);

                    worst = std::max(worst, r.maxLoad);
                    if (first == 0) first = r.maxLoad;
                }
            }
            line += fmt::format(" sub {} its {} {} {:.3f}/{:.3f} inverted {}", sub, its, material, first, worst, worstInverted);
        }
        fmt::print("{}\n", line);
    }
}
