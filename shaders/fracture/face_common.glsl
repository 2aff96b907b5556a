// Shared by the face contacts between fragments (fracture/face_bins, face_contacts, face_resolve):
// a tet's faces, world positions, the face grid's wrapped cells.
#ifndef FLOE_FRACTURE_FACE_COMMON_GLSL
#define FLOE_FRACTURE_FACE_COMMON_GLSL

// Face c of a tet is the one opposite its corner c.
const ivec3 kFaceCorners[4] = ivec3[4](ivec3(1, 2, 3), ivec3(0, 3, 2), ivec3(0, 1, 3), ivec3(0, 2, 1));

// The face grid's cell of a world position, folded into the grid (it wraps around, as the
// node grid does: fracture/contact_cells); non-finite positions go to cell 0.
ivec3 faceCell(vec3 world)
{
    const vec3 c = floor((world - params.gridOrigin.xyz) / params.gridOrigin.w);
    return ivec3(mix(c, vec3(0.0), bvec3(uvec3(isnan(c)) | uvec3(isinf(c)))));
}

uint faceKey(ivec3 c)
{
    const ivec3 dims = ivec3(params.gridDims.xyz);
    const ivec3 q = ((c % dims) + dims) % dims;
    return uint(q.x) + uint(dims.x) * (uint(q.y) + uint(dims.y) * uint(q.z));
}

// The cells of the box [lo, hi] (cell coordinates), folded: an axis spanning the whole grid is
// walked once. Use as FACE_CELLS_BEGIN(lo, hi, key) { ... } FACE_CELLS_END
#define FACE_CELLS_BEGIN(lo_, hi_, key)                                                   \
    {                                                                                      \
        const ivec3 dims_ = ivec3(params.gridDims.xyz);                                    \
        const ivec3 first_ = (lo_);                                                        \
        const ivec3 last_ = min((hi_), (lo_) + dims_ - 1);                                 \
        for (int z_ = first_.z; z_ <= last_.z; ++z_)                                       \
            for (int y_ = first_.y; y_ <= last_.y; ++y_)                                   \
                for (int x_ = first_.x; x_ <= last_.x; ++x_) {                             \
                    const uint key = faceKey(ivec3(x_, y_, z_));
#define FACE_CELLS_END \
    }                  \
    }

#endif
