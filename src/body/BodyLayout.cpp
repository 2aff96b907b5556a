#include "body/BodyLayout.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <unordered_set>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "base/Error.h"
#include "body/SurfaceMesh.h"

namespace floe::body {

std::vector<std::vector<uint32_t>> vertexNeighbours(const geometry::TriangleMesh& mesh)
{
    std::vector<std::vector<uint32_t>> adj(mesh.vertices.size());
    for (const glm::uvec3& t : mesh.triangles)
        for (int e = 0; e < 3; ++e) {
            adj[t[e]].push_back(t[(e + 1) % 3]);
            adj[t[(e + 1) % 3]].push_back(t[e]);
        }
    for (auto& a : adj) {
        std::sort(a.begin(), a.end());
        a.erase(std::unique(a.begin(), a.end()), a.end());
    }
    return adj;
}

std::vector<uint32_t> ring(const std::vector<std::vector<uint32_t>>& neighbours, uint32_t v, int omega)
{
    std::unordered_set<uint32_t> seen = {v};
    std::vector<uint32_t> members = {v};
    size_t frontierBegin = 0;
    for (int depth = 0; depth < omega; ++depth) {
        const size_t frontierEnd = members.size();
        for (size_t k = frontierBegin; k < frontierEnd; ++k)
            for (uint32_t w : neighbours[members[k]])
                if (seen.insert(w).second) members.push_back(w);
        frontierBegin = frontierEnd;
    }
    std::sort(members.begin(), members.end());
    return members;
}

std::vector<std::vector<uint32_t>> generatePaths(const std::vector<std::vector<uint32_t>>& neighbours,
                                                 const std::vector<glm::vec3>& rest, uint32_t maxLength)
{
    const size_t n = neighbours.size();
    std::vector<bool> inPath(n, false);
    std::deque<uint32_t> queue;
    std::vector<std::vector<uint32_t>> paths;
    size_t covered = 0, scan = 0;
    while (covered < n) {
        uint32_t start = UINT32_MAX;
        while (!queue.empty() && start == UINT32_MAX) {
            const uint32_t q = queue.front();
            queue.pop_front();
            if (!inPath[q]) start = q;
        }
        if (start == UINT32_MAX) {
            while (inPath[scan]) ++scan;
            start = static_cast<uint32_t>(scan);
        }
        std::vector<uint32_t> path = {start};
        inPath[start] = true;
        ++covered;
        const float z0 = rest[start].z;
        uint32_t p = start;
        while (path.size() < maxLength) {
            std::vector<uint32_t> candidates;
            for (uint32_t q : neighbours[p])
                if (!inPath[q]) candidates.push_back(q);
            if (candidates.empty()) break;
            // Criterion 1: prefer vertices next to the covered part (no holes left behind).
            std::vector<uint32_t> preferred;
            for (uint32_t q : candidates)
                for (uint32_t r : neighbours[q])
                    if (r != p && inPath[r]) {
                        preferred.push_back(q);
                        break;
                    }
            if (preferred.empty()) preferred = candidates;
            // Criterion 2: closest to the plane z = z0 through the start (straight, parallel paths).
            const uint32_t best = *std::min_element(preferred.begin(), preferred.end(), [&](uint32_t a, uint32_t b) {
                const float da = std::fabs(rest[a].z - z0), db = std::fabs(rest[b].z - z0);
                return da != db ? da < db : a < b;
            });
            for (uint32_t q : candidates)
                if (q != best) queue.push_back(q);
            path.push_back(best);
            inPath[best] = true;
            ++covered;
            p = best;
        }
        paths.push_back(std::move(path));
    }
    return paths;
}

BodyLayout layoutBody(const geometry::TriangleMesh& input, int omega, uint32_t maxPathLength)
{
    if (omega < 1 || omega > 8) throw Error(fmt::format("{}: region size omega {} is outside 1..8", input.name, omega));
    const geometry::TriangleMesh mesh = closedSurface(input);
    const size_t n = mesh.vertices.size();
    BodyLayout L;
    L.omega = omega;
    L.restVolume = enclosedVolume(mesh);
    const std::vector<std::vector<uint32_t>> adjacency = vertexNeighbours(mesh);
    const std::vector<std::vector<uint32_t>> paths = generatePaths(adjacency, mesh.vertices, maxPathLength);
    L.paths = static_cast<uint32_t>(paths.size());
    std::vector<uint32_t> newIndex(n);
    for (const auto& path : paths)
        for (size_t k = 0; k < path.size(); ++k) {
            newIndex[path[k]] = static_cast<uint32_t>(L.order.size());
            L.order.push_back(path[k]);
            L.pathHead.push_back(k == 0 ? 1u : 0u);
        }
    for (uint32_t v : L.order) L.rest.push_back(mesh.vertices[v]);
    for (const glm::uvec3& t : mesh.triangles) L.triangles.push_back({newIndex[t.x], newIndex[t.y], newIndex[t.z]});
    L.adj.resize(n);
    for (size_t p = 0; p < n; ++p) {
        for (uint32_t q : adjacency[L.order[p]]) L.adj[p].push_back(newIndex[q]);
        std::sort(L.adj[p].begin(), L.adj[p].end());
    }

    // Rest normals (area-weighted) and the incident-triangle lists.
    std::vector<glm::dvec3> normal(n, glm::dvec3(0));
    std::vector<std::vector<uint32_t>> around(n);
    for (uint32_t t = 0; t < L.triangles.size(); ++t) {
        const glm::uvec3 tri = L.triangles[t];
        const glm::dvec3 a = L.rest[tri.x], b = L.rest[tri.y], c = L.rest[tri.z];
        const glm::dvec3 areaNormal = 0.5 * glm::cross(b - a, c - a);
        for (int e = 0; e < 3; ++e) {
            normal[tri[e]] += areaNormal;
            around[tri[e]].push_back(t);
        }
    }
    for (size_t p = 0; p < n; ++p) {
        L.restNormal.push_back(glm::vec3(glm::normalize(normal[p])));
        L.incidentStart.push_back(static_cast<uint32_t>(L.incident.size()));
        L.incident.insert(L.incident.end(), around[p].begin(), around[p].end());
    }
    L.incidentStart.push_back(static_cast<uint32_t>(L.incident.size()));

    // Regions: the omega-ring in path order, split into runs of consecutive indices that do not
    // cross a path start (digest §10 item 7: a path may enter a ring several times).
    for (size_t p = 0; p < n; ++p) {
        std::vector<uint32_t> members = ring(L.adj, static_cast<uint32_t>(p), omega);
        L.regionStart.push_back(static_cast<uint32_t>(L.intervals.size()));
        for (size_t k = 0; k < members.size();) {
            size_t e = k;
            while (e + 1 < members.size() && members[e + 1] == members[e] + 1 && !L.pathHead[members[e + 1]]) ++e;
            L.intervals.push_back({members[k], members[e]});
            k = e + 1;
        }
        glm::dvec3 centre(0);
        for (uint32_t m : members) centre += glm::dvec3(L.rest[m]);
        centre /= double(members.size());
        double distance = 0;
        for (uint32_t m : members) distance += glm::length(glm::dvec3(L.rest[m]) - centre);
        L.regionCount.push_back(static_cast<uint32_t>(members.size()));
        // Relative to the first rest vertex, taken in double: in world coordinates the float
        // rounding of a centre 512 m out (30 um) shifted every region's goals by as much, and a
        // spinning box there lost 41 % of its angular momentum in 0.15 s (issue 17 item 4).
        L.regionRestCentre.push_back(glm::vec3(centre - glm::dvec3(L.rest[0])));
        // digest-002 §2.7.4: l = mean rest distance to the region's centre. The thesis weights
        // by m_j and divides by the count (§10 item 4); with one mass per body this is the
        // plain mean distance, which is what we use.
        L.extraDistance.push_back(float(distance / double(members.size())));
    }
    L.regionStart.push_back(static_cast<uint32_t>(L.intervals.size()));

    // Interior joints by brute-force ray casting (Moller-Trumbore), skipped for huge meshes.
    L.jointPartner.assign(n, -1);
    L.jointLength.assign(n, 0.0f);
    L.jointStiffness.assign(n, 0.0f);
    if (double(n) * double(L.triangles.size()) <= kMaxJointWork) {
        float shortest = 1e30f, longest = 0.0f;
        for (uint32_t p = 0; p < n; ++p) {
            const glm::dvec3 o = L.rest[p], d = -glm::dvec3(L.restNormal[p]);
            double best = 1e300;
            int32_t partner = -1;
            for (const glm::uvec3& t : L.triangles) {
                if (t.x == p || t.y == p || t.z == p) continue;
                const glm::dvec3 a = L.rest[t.x], e1 = glm::dvec3(L.rest[t.y]) - a, e2 = glm::dvec3(L.rest[t.z]) - a;
                const glm::dvec3 h = glm::cross(d, e2);
                const double det = glm::dot(e1, h);
                if (std::fabs(det) < 1e-18) continue;
                const glm::dvec3 q = o - a;
                const double u = glm::dot(q, h) / det;
                if (u < 0.0 || u > 1.0) continue;
                const glm::dvec3 r = glm::cross(q, e1);
                const double v = glm::dot(d, r) / det;
                if (v < 0.0 || u + v > 1.0) continue;
                const double dist = glm::dot(e2, r) / det;
                if (dist <= 1e-9 || dist >= best) continue;
                best = dist;
                const glm::dvec3 hit = o + dist * d;
                uint32_t nearest = t.x;
                for (uint32_t c : {t.y, t.z})
                    if (glm::length(glm::dvec3(L.rest[c]) - hit) < glm::length(glm::dvec3(L.rest[nearest]) - hit)) nearest = c;
                partner = int32_t(nearest);
            }
            if (partner < 0) continue;
            L.jointPartner[p] = partner;
            L.jointLength[p] = glm::length(L.rest[p] - L.rest[uint32_t(partner)]);
            shortest = std::min(shortest, L.jointLength[p]);
            longest = std::max(longest, L.jointLength[p]);
        }
        for (uint32_t p = 0; p < n; ++p)
            if (L.jointPartner[p] >= 0) {
                const float f = longest > shortest ? (L.jointLength[p] - shortest) / (longest - shortest) : 0.0f;
                L.jointStiffness[p] = 0.1f + (0.01f - 0.1f) * f; // digest-002 §2.7.9: s_max 0.1 .. s_min 0.01
            }
    }

    geometry::Bounds b;
    for (const glm::vec3& p : L.rest) b.add(p);
    const glm::vec3 extent = b.hi - b.lo;
    L.scale = 1.0f / std::max({extent.x, extent.y, extent.z, 1e-6f});
    return L;
}

} // namespace floe::body
