#version 460
// One thread per node, at the end of a step: counts the nodes that approach a wall of the domain
// fast enough to need the rounds past Fracture.iterations in the next step
// (FractureState.rounds.w; fracture/round_check): nearer to the wall than |v| T + |g| T^2 / 2
// plus a margin (push.reach.y: the largest mean edge, for what the tets and contacts between
// fragments may add), T the step (push.reach.x), and moving towards it faster than the tolerance
// per substep (push.reach.z, m/s). The host records those rounds only for a step after one with
// such a node or one that ran them: a body at rest on the floor or far from the walls then records
// no launches it would skip (on lavapipe each skipped launch costs about 5 us: a cube with holes
// at rest took 102 GPU ms per step with 29 skipped rounds recorded, 71 without).
//
// In a step in which something outside the bodies pushed them (a coupled fluid, a deformable
// body: EXTERNAL_CONTACT), every node within the reach counts, however it moves: the next step's
// pushes may drive it into the wall before it moves fast. Without that rule a shard of
// coupled_dam_break_glass's pane, pushed by the water into the tank's wall, ran the rounds past
// the iterations one step late (step 235) once static meshes no longer recorded them every step.
//
// Compiled with OBSTACLES=1 as fracture/obstacle_approach, for a scene with static triangle
// meshes (fracture/obstacles): a node also counts when a mesh's face lies within that reach and
// the node moves against the face's front normal faster than the tolerance. The faces looked at
// are those the meshes' grid lists in the cells that the box p +- reach overlaps: a cell lists
// every face within the grid's margin of it, so every face with a point inside the box is among
// them. A box over more than kMaxCells cells (a node far faster than the cells are wide) counts
// without a look: the count only decides what the next step records, and too many costs time,
// too few energy. Until 2026-11-30 a scene with static meshes recorded the rounds for every step
// (64 rounds per substep): a cube of tets floating in a pool, whose tank is such a mesh, took
// 27.2-29.5 GPU ms per step on lavapipe with them, 22.7-24.3 without (docs/fracture.md).
#include "fracture/fracture_common.glsl"
#if OBSTACLES
#include "common/triangle.glsl"
#endif

FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_IN_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_IN_UINT(FRACTURE_BIND_EXTERNAL_CONTACT, externalContact);
#if OBSTACLES
FLOE_IN_VEC4(FRACTURE_BIND_OBSTACLE_TRIANGLES, triangles);
FLOE_IN_UINT(FRACTURE_BIND_OBSTACLE_CELLS, cells);
FLOE_IN_UINT(FRACTURE_BIND_OBSTACLE_ENTRIES, entries);
#endif
FRACTURE_STATE_BLOCK;
layout(push_constant) uniform Push { FractureApproachPush push; };

#if OBSTACLES
const int kMaxCells = 64;

// Whether a face of the static meshes lies within `reach` of p while the node moves against its
// front normal faster than `speed` (or in any way, when `pushed`).
bool approachesAFace(vec3 p, vec3 v, float reach, float speed, bool pushed)
{
    const float size = push.origin.w;
    const ivec3 dims = ivec3(push.dims.xyz);
    const ivec3 lo = max(ivec3(floor((p - reach - push.origin.xyz) / size)), ivec3(0));
    const ivec3 hi = min(ivec3(floor((p + reach - push.origin.xyz) / size)), dims - 1);
    if (any(greaterThan(lo, hi))) return false; // the box misses the grid, which holds every face
    const ivec3 span = hi - lo + 1;
    if (span.x * span.y * span.z > kMaxCells) return true;
    for (int z = lo.z; z <= hi.z; ++z)
        for (int y = lo.y; y <= hi.y; ++y)
            for (int x = lo.x; x <= hi.x; ++x) {
                const uint key = uint(x + dims.x * (y + dims.y * z));
                const uint end = FLOE_LOAD_UINT(cells, key + 1u);
                for (uint k = FLOE_LOAD_UINT(cells, key); k < end; ++k) {
                    const uint t = FLOE_LOAD_UINT(entries, k);
                    const vec3 a = FLOE_LOAD_VEC4(triangles, 3u * t).xyz, b = FLOE_LOAD_VEC4(triangles, 3u * t + 1u).xyz,
                               c = FLOE_LOAD_VEC4(triangles, 3u * t + 2u).xyz;
                    const vec3 e = cross(b - a, c - a); // the front normal (counter-clockwise seen from the front)
                    const float area2 = dot(e, e);
                    if (!(area2 > 0.0) || !(pushed || -dot(v, e) > speed * sqrt(area2))) continue;
                    const vec3 w = nearestOnTriangle(p, a, b, c);
                    const vec3 d = p - (w.x * a + w.y * b + w.z * c);
                    if (dot(d, d) < reach * reach) return true;
                }
            }
    return false;
}
#endif

void main()
{
    const uint n = floeGlobalIndex();
    if (n >= params.nodes) return;
    const vec4 x = FLOE_LOAD_VEC4(positions, n);
    if (x.w == 0.0) return; // fixed
    const vec3 p = x.xyz + FLOE_LOAD_VEC4(origins, n).xyz;
    const vec3 v = FLOE_LOAD_VEC4(velocities, n).xyz;
    const float step = push.reach.x, speed = push.reach.z;
    const bool pushed = FLOE_LOAD_UINT(externalContact, 0) != 0u; // from outside this step: any motion counts
    const float reach = length(v) * step + 0.5 * length(params.gravity.xyz) * step * step + push.reach.y;
    bool approaching = false;
    for (int a = 0; a < 3; ++a) {
        approaching = approaching || (p[a] - params.domainMin[a] < reach && (pushed || -v[a] > speed));
        approaching = approaching || (params.domainMax[a] - p[a] < reach && (pushed || v[a] > speed));
    }
#if OBSTACLES
    approaching = approaching || approachesAFace(p, v, reach, speed, pushed);
#endif
    if (approaching) atomicAdd(state.rounds.w, 1u);
}
