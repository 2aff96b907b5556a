// Loads a scene file. Errors (missing file, malformed JSON, unknown keys, wrong types, values
// out of range, inconsistent geometry) throw floe::Error naming the file, the key and what was
// expected; main turns that into exit status 2. Keys SPlisHSPlasH defines but Floe does not use
// yet are listed in Scene::warnings so that SPlisHSPlasH scenes run unchanged.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "scene/Scene.h"

namespace floe {

Scene loadScene(const std::filesystem::path& file);
// `sceneDir` resolves relative mesh paths.
Scene parseScene(const nlohmann::json& root, const std::string& where, const std::filesystem::path& sceneDir);
// `assignment` is "Section.key=value" or "key=value" (searched in Configuration, then Floe);
// value is JSON ("0.02", "[0,-9.81,0]", "true") or a bare string.
void applyOverride(Scene& scene, const std::string& assignment);
// Every --set in order, the scene checked once after the last, so that settings that only make
// sense together (Floe.domainMin and domainMax) can be set one by one. Errors name the --set
// that failed, or all of them when the result does not hold.
void applyOverrides(Scene& scene, const std::vector<std::string>& assignments);
// Cross-key checks (block extents, domain, particle count); called by both functions above.
void validateScene(const Scene& scene, const std::string& where);

} // namespace floe
