#include "body/BodySettings.h"

namespace floe::body {

const SettingsTable& BodySettings::table()
{
    static const SettingsTable t = [] {
        SettingsTable s("Deformable");
        using S = BodySettings;
        s.integer("omega", &S::omega, 1, 8, "region size: each vertex's omega-ring (larger is stiffer)")
            .number("stiffness", &S::stiffness, "", 0, 1, "shape-matching stiffness s (1: rigid regions)")
            .number("damping", &S::damping, "", 0, 1, "per-region velocity damping k (1: rigid motion of each region)")
            .number("alpha", &S::alpha, "", 0, 1, "local volume: share of the uniform weight (1 is global)")
            .integer("weightSmoothing", &S::weightSmoothing, 0, 64, "local volume: umbrella smoothing passes over the weights")
            .number("beta", &S::beta, "", 0, 1, "local volume: influence of the interior measurement joints (thesis: 0.1)")
            .integer("jacobiSweeps", &S::jacobiSweeps, 1, 32, "polar decomposition sweeps per step")
            .integer("volumeIterations", &S::volumeIterations, 1, 16,
                     "rounds of volume correction and wall/plate contacts per step (more keep a body crushed flat closer "
                     "to its volume)")
            .integer("contactIterations", &S::contactIterations, 1, 32,
                     "Jacobi iterations of the contacts between bodies per step (a vertex in n contacts counts with 1/n "
                     "of its mass in each)")
            .number("friction", &S::friction, "", 0, 10, "Coulomb friction coefficient at walls, the plate and between bodies")
            .number("restitution", &S::restitution, "", 0, 1, "normal velocity kept at impacts")
            .vector("glassCentre", &S::glassCentre, "m", -1e6, 1e6, "centre of a cylindrical glass on the floor (x, z)")
            .number("glassRadius", &S::glassRadius, "m", 0, 1e3, "inner radius of the glass (0: none)")
            .number("glassHeight", &S::glassHeight, "m", 0, 1e3, "rim height of the glass above the floor");
        return s;
    }();
    return t;
}

} // namespace floe::body
