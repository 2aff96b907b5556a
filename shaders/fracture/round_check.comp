#version 460
// One workgroup, after a round's tet sweep: whether the substep runs another round. A substep
// always runs Fracture.iterations rounds (contacts and walls, then the tets); after that, rounds
// go on while the round's walls and static meshes (fracture/collide, fracture/obstacles) found a
// node deeper than Fracture.wallTolerance, up to Fracture.iterationLimit. The rounds past
// Fracture.iterations are dispatched indirectly from ROUND_ARGS: this pass copies the host's
// group counts (ROUND_TEMPLATE) there for another round, or zero groups, which skips every later
// round of the substep (a skipped round's check sees its launches at zero and keeps them there).
//
// Why (docs/fracture.md, *Energy*): a node that the last sweep leaves inside a wall is taken out
// together with its start at the next substep, so that the depenetration gives it no speed; but
// that move compresses its tets with nothing paying for it. Gauss-Seidel between the hard walls
// and stiff tets converges slowly, and three rounds left that much at impacts: a glass cube with
// holes gained 16 % of its energy in the step it landed, an iron one 110 %. Rounds until the walls
// hold let the tets answer them within the substep. Contacts between fragments are not checked:
// they are averaged over a node's contacts (Jacobi), and a resting heap's overlaps never fall
// below the tolerance (fracture_cube_600's heap ran every substep to the limit), while the drops
// gain nothing without them.
//   push.x: 0 only clears the depth (in the round before the first check, so that each check
//           sees its own round's); 1 decides
//   push.y: the launches in ROUND_ARGS; push.z: 1 if a round follows this one; push.w: the entry
//           whose x says whether this round ran (the nodes' launch; FRACTURE_NONE: a direct round)
#include "fracture/fracture_common.glsl"

FRACTURE_STATE_BLOCK;
layout(std430, binding = FRACTURE_BIND_ROUND_ARGS) buffer Args { uvec4 args[]; };
FLOE_IN_UVEC4(FRACTURE_BIND_ROUND_TEMPLATE, templates);
layout(push_constant) uniform Push { uint mode, launches, more, self; };

shared bool gGo;

void main()
{
    const uint i = gl_LocalInvocationID.x;
    if (i == 0u) {
        const bool ran = self == FRACTURE_NONE || args[self].x != 0u;
        const float deepest = uintBitsToFloat(state.rounds.x);
        state.rounds.x = 0u;
        gGo = mode == 1u && ran && deepest > params.constraint.y;
        if (gGo) {
            if (more != 0u) ++state.rounds.y;
            else ++state.rounds.z;
        }
    }
    barrier();
    if (mode == 0u) return;
    const bool go = gGo && more != 0u;
    for (uint k = i; k < launches; k += gl_WorkGroupSize.x)
        args[k] = go ? FLOE_LOAD_UVEC4(templates, k) : uvec4(0u, 1u, 1u, 0u);
}
