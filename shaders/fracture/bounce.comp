#version 460
// Restitution at the domain's walls, per fragment (issue 17 item 3), after a step's substeps.
//
// Newton's law of restitution for a body that hits a wall: it leaves the wall no faster than e
// times as fast as it came, along the wall's normal (e: the body's restitution, a material and
// scene parameter). The nodes' contacts are position-based projections (fracture/collide): they
// stop the nodes that reach the wall, and the elastic energy the tets take up returns to the
// body as it springs back. The tets' damping (phi, psi) acts on the evaluated stress only, so
// nothing in the dynamics took energy at an impact, and a glass cube dropped from 5 m came back
// with 70 % of its kinetic energy. The law is applied here to what it is stated for: the
// velocity of each fragment's centre of mass, V = sum m v / M, where a wall's impulse changes
// it. Within a step that touched a wall (any node, any substep) the fragment's normal velocity
// away from the wall is limited to e A, with A the largest approach speed of the contact: the
// normal speed towards the wall at the start of a step of this contact. The excess is removed
// from every node of the fragment alike, a change of V alone: no strain, no spin, and the
// kinetic energy falls by M (u^2 - (e A)^2) / 2 for a normal speed u > e A, booked to the
// contacts in the energy account. Spin and vibration keep what the contact gave them; friction
// stays per node (collide). A contact lasts as long as a step touches the same wall; A is kept
// per node (APPROACH), so a fragment split off during a contact keeps its parent's approach. A
// fragment pressed against two opposite walls at once has no direction to bounce in and is left
// as it is along that axis. Contacts between fragments are not affected. The static meshes
// (fracture/obstacles) count as one more wall per fragment, whose normal is the mean of the
// faces' normals that pushed its nodes in the step (OBSTACLE_NORMALS, summed per fragment by a
// second scan); its approach is kept in APPROACH.w. Without it a glass cube dropped on a table
// bounced back elastically, and its shards, hitting it again and again, ended a run with 3.6
// times the energy they started with.
//
// Fragments are found by sorting the nodes by label (the fragment's root node) and summing each
// fragment's (m v, m) at the step's end, its m v at the step's start and its m x with a
// segmented scan, so the sums are deterministic. One thread per node or sorted slot:
//   stage 0 (node): sort key = label, value = node; the root's wall mask cleared
//   stage 1 (slot): scan records (m v_end, m), (m v_start, 0), (m x, 0) and segment heads; each
//                   node's walls (FRACTURE_NODE_WALLS) or-ed into its root's mask
//   stage 2 (slot): the last slot of each fragment: V_end, V_start, the new approach per axis and
//                   the velocity change with the fragment's mass, written at the root (BOUNCE_OUT, 2 vec4); and the
//                   fragment's row of bodies.csv (FRAGMENT_ROWS, counted in state.ductile.z)
//   stage 3 (node): v += the root's change; APPROACH = the root's new approach
#include "fracture/fracture_common.glsl"

FLOE_IN_UINT(FRACTURE_BIND_LABELS, labels);
FLOE_RW_UINT(FRACTURE_BIND_KEYS, keys);
FLOE_RW_UINT(FRACTURE_BIND_VALUES, values);
FLOE_IN_UINT(FRACTURE_BIND_NODE_FLAGS, flags);
FLOE_IN_VEC4(FRACTURE_BIND_NODE_DATA, nodeData);
FLOE_IN_VEC4(FRACTURE_BIND_POSITIONS, positions);
FLOE_RW_VEC4(FRACTURE_BIND_VELOCITIES, velocities);
FLOE_IN_VEC4(FRACTURE_BIND_STEP_VELOCITIES, startVelocities);
FLOE_RW_VEC4(FRACTURE_BIND_RECORDS, records);
FLOE_RW_UINT(FRACTURE_BIND_HEADS, heads);
FLOE_IN_VEC4(FRACTURE_BIND_SCANNED, scanned);
FLOE_RW_VEC4(FRACTURE_BIND_APPROACH, approach);
FLOE_RW_VEC4(FRACTURE_BIND_BOUNCE_OUT, bounce);
FLOE_IN_VEC4(FRACTURE_BIND_REST_NODES, restNodes);
FLOE_IN_VEC4(FRACTURE_BIND_BODY_CONTACT, bodyContact);
layout(std430, binding = FRACTURE_BIND_WALL_MASK) coherent buffer WallMask { uint wallMask[]; };
FLOE_IN_VEC4(FRACTURE_BIND_NODE_ORIGIN, origins);
FLOE_OUT_VEC4(FRACTURE_BIND_FRAGMENT_ROWS, fragmentRows);
FLOE_IN_VEC4(FRACTURE_BIND_OBSTACLE_NORMALS, pushedBy);
FLOE_RW_VEC4(FRACTURE_BIND_NORMAL_RECORDS, normalRecords);
FLOE_IN_VEC4(FRACTURE_BIND_NORMAL_SCANNED, normalSums);
FRACTURE_STATE_BLOCK;
layout(push_constant) uniform Push { uint stage; };

void main()
{
    const uint i = floeGlobalIndex();
    if (i >= params.nodes) return;
    if (stage == 0u) {
        const uint root = FLOE_LOAD_UINT(labels, i);
        FLOE_STORE_UINT(keys, i, root);
        FLOE_STORE_UINT(values, i, i);
        wallMask[i] = 0u;
        if (i == 0u) state.ductile.z = 0u; // the fragment rows of this step
    } else if (stage == 1u) {
        const uint root = FLOE_RW_LOAD_UINT(keys, i), n = FLOE_RW_LOAD_UINT(values, i);
        const float m = FLOE_LOAD_VEC4(nodeData, n).y;
        FLOE_STORE_VEC4(records, 3u * i, vec4(m * FLOE_RW_LOAD_VEC4(velocities, n).xyz, m));
        FLOE_STORE_VEC4(records, 3u * i + 1u, vec4(m * FLOE_LOAD_VEC4(startVelocities, n).xyz, 0.0));
        FLOE_STORE_VEC4(records, 3u * i + 2u, vec4(m * FLOE_LOAD_VEC4(positions, n).xyz, 0.0)); // relative to the fragment's origin
        FLOE_STORE_VEC4(normalRecords, i, FLOE_LOAD_VEC4(pushedBy, n));
        FLOE_STORE_UINT(heads, i, i == 0u || FLOE_RW_LOAD_UINT(keys, i - 1u) != root ? 1u : 0u);
        const uint walls = FLOE_LOAD_UINT(flags, n) & FRACTURE_NODE_WALLS;
        if (walls != 0u) atomicOr(wallMask[root], walls);
    } else if (stage == 2u) {
        const uint root = FLOE_RW_LOAD_UINT(keys, i);
        if (i + 1u < params.nodes && FLOE_RW_LOAD_UINT(keys, i + 1u) == root) return; // not the fragment's last slot
        const vec4 end = FLOE_LOAD_VEC4(scanned, 3u * i), start = FLOE_LOAD_VEC4(scanned, 3u * i + 1u);
        const float mass = end.w;
        const uint walls = wallMask[root];
        const vec4 before = FLOE_RW_LOAD_VEC4(approach, root);
        vec3 change = vec3(0.0), next = vec3(0.0);
        float nextMesh = 0.0;
        if (mass > 0.0) {
            const vec3 v1 = end.xyz / mass, v0 = start.xyz / mass;
            const float e = FLOE_LOAD_VEC4(bodyContact, uint(FLOE_LOAD_VEC4(restNodes, root).w)).x;
            for (int a = 0; a < 3; ++a) {
                const bool low = (walls & (FRACTURE_NODE_WALL_LOW << (2 * a))) != 0u;
                const bool high = (walls & (FRACTURE_NODE_WALL_HIGH << (2 * a))) != 0u;
                if (low == high) continue; // no wall on this axis, or both: no contact to bounce from
                // Signed along the wall's normal n (+1 at the low wall, -1 at the high one): the
                // approach A >= 0 kept with the sign of n, the speed away from the wall u = n v1.
                const float n = low ? 1.0 : -1.0;
                const float kept = before[a] * n > 0.0 ? abs(before[a]) : 0.0;
                const float A = max(kept, max(-n * v0[a], 0.0));
                next[a] = n * A;
                const float u = n * v1[a];
                if (u > e * A) change[a] = n * (e * A - u);
            }
            // The static meshes: one wall along the mean normal of the faces that pushed the
            // fragment (after the walls' change).
            const vec4 pushed = FLOE_LOAD_VEC4(normalSums, i);
            if (pushed.w > 0.0 && dot(pushed.xyz, pushed.xyz) > 1e-12) {
                const vec3 n = normalize(pushed.xyz);
                const float A = max(before.w, max(-dot(n, v0), 0.0));
                nextMesh = A;
                const float u = dot(n, v1 + change);
                if (u > e * A) change += n * (e * A - u);
            }
        }
        FLOE_STORE_VEC4(bounce, 2u * root, vec4(change, mass)); // the mass: coupling/tet_samples reads it
        FLOE_STORE_VEC4(bounce, 2u * root + 1u, vec4(next, nextMesh));
        // The fragment's row of bodies.csv: centre of mass (world) and mass, its velocity after
        // the restitution and its label, its body. Rows in the order they come (sorted on the host).
        const uint row = atomicAdd(state.ductile.z, 1u);
        const float body = FLOE_LOAD_VEC4(restNodes, root).w;
        const vec3 centre = mass > 0.0 ? FLOE_LOAD_VEC4(scanned, 3u * i + 2u).xyz / mass : vec3(0.0);
        const vec3 velocity = mass > 0.0 ? end.xyz / mass + change : vec3(0.0);
        FLOE_STORE_VEC4(fragmentRows, 3u * row, vec4(FLOE_LOAD_VEC4(origins, root).xyz + centre, mass));
        FLOE_STORE_VEC4(fragmentRows, 3u * row + 1u, vec4(velocity, uintBitsToFloat(root)));
        FLOE_STORE_VEC4(fragmentRows, 3u * row + 2u, vec4(body, 0.0, 0.0, 0.0));
    } else {
        const uint root = FLOE_LOAD_UINT(labels, i);
        const vec3 change = FLOE_RW_LOAD_VEC4(bounce, 2u * root).xyz;
        if (FLOE_LOAD_VEC4(positions, i).w > 0.0 && any(notEqual(change, vec3(0.0)))) {
            const vec4 v = FLOE_RW_LOAD_VEC4(velocities, i);
            FLOE_STORE_VEC4(velocities, i, vec4(v.xyz + change, v.w));
        }
        FLOE_STORE_VEC4(approach, i, FLOE_RW_LOAD_VEC4(bounce, 2u * root + 1u));
    }
}
