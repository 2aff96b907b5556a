#include "fracture/Pieces.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <glm/glm.hpp>

namespace floe::fracture {

PiecedMesh preFracture(const TetMesh& mesh, uint32_t sites, uint32_t seed)
{
    const size_t tets = mesh.tets.size();
    std::vector<glm::vec3> centroid(tets);
    for (size_t t = 0; t < tets; ++t) {
        glm::vec3 c(0.0f);
        for (int i = 0; i < 4; ++i) c += 0.25f * mesh.nodes[mesh.tets[t][i]];
        centroid[t] = c;
    }
    std::vector<uint32_t> cell(tets);
    if (sites == 0 || sites >= tets) {
        for (size_t t = 0; t < tets; ++t) cell[t] = uint32_t(t);
    } else {
        // Sites drawn without replacement with probability proportional to the tets' volumes
        // (Efraimidis-Spirakis keys u^(1/V)), so that pieces have about equal volume also in
        // graded meshes (a cone's fine tip would otherwise get many tiny pieces, whose
        // thresholds tau (m_A + m_B) are tiny). The thesis' cells came from mesh nodes (§3.4).
        std::mt19937 random(seed);
        std::vector<std::pair<double, uint32_t>> keys(tets);
        for (size_t t = 0; t < tets; ++t) {
            const double u = (double(random()) + 1.0) / (double(std::mt19937::max()) + 2.0);
            keys[t] = {std::log(u) / std::max(signedVolume(mesh, t), 1e-300), uint32_t(t)};
        }
        std::partial_sort(keys.begin(), keys.begin() + sites, keys.end(), [](auto& a, auto& b) { return a.first > b.first; });
        std::vector<uint32_t> order(sites);
        for (uint32_t s = 0; s < sites; ++s) order[s] = keys[s].second;
        for (size_t t = 0; t < tets; ++t) {
            float best = std::numeric_limits<float>::max();
            for (uint32_t s = 0; s < sites; ++s) {
                const glm::vec3 d = centroid[t] - centroid[order[s]];
                const float d2 = glm::dot(d, d);
                if (d2 < best) {
                    best = d2;
                    cell[t] = s;
                }
            }
        }
    }
    PiecedMesh out;
    out.mesh.name = mesh.name;
    out.mesh.nodes = mesh.nodes;
    out.mesh.tets = mesh.tets;
    out.origin.resize(mesh.nodes.size());
    for (size_t n = 0; n < mesh.nodes.size(); ++n) out.origin[n] = uint32_t(n);
    out.tetPiece.assign(tets, 0);
    std::vector<uint32_t> number(tets, std::numeric_limits<uint32_t>::max());
    for (size_t t = 0; t < tets; ++t) {
        if (number[cell[t]] == std::numeric_limits<uint32_t>::max()) number[cell[t]] = out.pieces++;
        out.tetPiece[t] = number[cell[t]];
    }
    // Copy each node once per further piece that holds it; link every pair of its copies.
    const Incidence inc = incidence(mesh);
    for (uint32_t n = 0; n + 1 < inc.start.size(); ++n) {
        std::vector<std::pair<uint32_t, uint32_t>> copies; // (piece, node)
        for (uint32_t k = inc.start[n]; k < inc.start[n + 1]; ++k) {
            const uint32_t t = inc.corner[k] / 4, c = inc.corner[k] % 4;
            const uint32_t piece = out.tetPiece[t];
            auto it = std::find_if(copies.begin(), copies.end(), [&](auto& p) { return p.first == piece; });
            uint32_t node;
            if (it != copies.end()) {
                node = it->second;
            } else {
                node = copies.empty() ? n : uint32_t(out.mesh.nodes.size());
                if (!copies.empty()) {
                    out.mesh.nodes.push_back(mesh.nodes[n]);
                    out.origin.push_back(n);
                }
                copies.emplace_back(piece, node);
            }
            out.mesh.tets[t][c] = node;
        }
        for (size_t i = 0; i < copies.size(); ++i)
            for (size_t j = i + 1; j < copies.size(); ++j) {
                const bool swap = copies[j].first < copies[i].first;
                const auto& a = swap ? copies[j] : copies[i];
                const auto& b = swap ? copies[i] : copies[j];
                out.links.emplace_back(a.second, b.second);
                out.between.emplace_back(a.first, b.first);
            }
    }
    return out;
}

} // namespace floe::fracture
