// Shared by the contacts between deformable and fracture bodies (shared/solid_contacts.h).
#ifndef FLOE_COUPLING_SOLID_CONTACTS_COMMON_GLSL
#define FLOE_COUPLING_SOLID_CONTACTS_COMMON_GLSL

// Face c of a tet: its corners; (b - a) x (c - a) points away from corner c (coupling::kTetFaceCorners).
const ivec3 kFaceCorners[4] = ivec3[4](ivec3(1, 2, 3), ivec3(0, 3, 2), ivec3(0, 1, 3), ivec3(0, 2, 1));

uvec3 faceNodes(uvec4 tet, uint c)
{
    return uvec3(tet[kFaceCorners[c].x], tet[kFaceCorners[c].y], tet[kFaceCorners[c].z]);
}

// A node where its velocity carries it by the end of the step (world, m).
vec3 nodeAhead(uint n)
{
    return FLOE_LOAD_VEC4(nodePositions, n).xyz + FLOE_LOAD_VEC4(nodeOrigins, n).xyz +
           params.contact.w * FLOE_LOAD_VEC4(nodeVelocities, n).xyz;
}

#endif
