#include "fracture/FractureSettings.h"

namespace floe::fracture {
namespace {

struct NamedMethod {
    const char* name;
    FractureMethod method;
};
constexpr NamedMethod kMethods[] = {{"none", FractureMethod::None},
                                    {"radius", FractureMethod::Radius},
                                    {"radius_connected", FractureMethod::RadiusConnected},
                                    {"secondary_splits", FractureMethod::SecondarySplits},
                                    {"wave", FractureMethod::Wave},
                                    {"constraint", FractureMethod::Constraint}};

} // namespace

std::optional<FractureMethod> fractureMethodFromName(const std::string& name)
{
    for (const NamedMethod& m : kMethods)
        if (name == m.name) return m.method;
    return std::nullopt;
}

const char* fractureMethodName(FractureMethod method)
{
    for (const NamedMethod& m : kMethods)
        if (m.method == method) return m.name;
    return "?";
}

const SettingsTable& FractureSettings::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("Fracture");
        using S = FractureSettings;
        s.integer("maxIterations", &S::maxIterations, 0, 150, "cuts per fracture event (secondary splits: 1 + this many)")
            .number("fragility", &S::fragility, "", 1, 100, "secondary splits: crack nodes cut at tau / fragility (20)")
            .number("radiusFactor", &S::radiusFactor, "", 0, 1e3, "radius: crack radius in mean edge lengths per load / tau")
            .number("tauScale", &S::tauScale, "", 1e-9, 1e9, "load (Pa) to tau units (docs/fracture.md)")
            .flag("evaluateEveryStep", &S::evaluateEveryStep, "evaluate fracture every step, not only on contact")
            .integer("substeps", &S::substeps, 1, 1000, "substeps of the tet dynamics per time step")
            .integer("iterations", &S::iterations, 1, 100, "constraint iterations per substep (at least)")
            .integer("iterationLimit", &S::iterationLimit, 1, 1000,
                     "the most iterations of a substep in which the walls still find a node deeper than wallTolerance")
            .number("wallTolerance", &S::wallTolerance, "", 0, 1,
                    "iterations go on while the walls or static meshes find a node deeper than this (in mean edge lengths "
                    "of the finest body)")
            .number("friction", &S::friction, "", 0, 10, "Coulomb friction coefficient at the floor and walls")
            .number("damping", &S::damping, "1/s", 0, 1e3, "velocity damping per second")
            .number("waveToughness", &S::waveToughness, "", 0, 1e3, "wave: G_c / gamma in tau units (energy stop, (18)/(19))")
            .integer("weakEvery", &S::weakEvery, 1, 1000000, "wave: about one tet in this many is weak")
            .integer("pieces", &S::pieces, 0, 1000000, "constraint: Voronoi pieces per body (0: every tet a piece)")
            .integer("pieceSeed", &S::pieceSeed, 0, 1000000, "constraint: seed of the Voronoi sites")
            .number("linkScale", &S::linkScale, "", 1e-9, 1e9, "constraint: link threshold = this x tau x (m_A + m_B) (N s)")
            .number("weakening", &S::weakening, "", 0, 1, "constraint: threshold factor per broken neighbour (0.975)")
            .number("weakeningFloor", &S::weakeningFloor, "", 0, 1, "constraint: neighbour weakening stops at this fraction")
            .number("wear", &S::wear, "", 0, 1,
                    "constraint: share of a non-breaking impulse taken off the threshold (1: the thesis)")
            .flag("contacts", &S::contacts, "contacts between bodies and fragments (node spheres on the grid)")
            .flag("faceContacts", &S::faceContacts,
                  "with contacts: no node passes through another fragment's boundary face where faces are wider than the "
                  "node spheres cover (1.6-2.7x the GPU time per step on lavapipe, hence off; fixed when the bodies are built)")
            .number("contactRadius", &S::contactRadius, "", 0.01, 1, "node sphere radius in mean edge lengths of its body");
        return s;
    }();
    return t;
}

} // namespace floe::fracture
