// SPlisHSPlasH's scene format, as far as it differs from Floe's own keys: the keys it defines that
// Floe accepts without using (listed in warnings, or quietly where they cannot change a run), its
// sections for features Floe does not have, its materials with their per-method objects, and the
// checks that say up front what runs differently (substituted boundary handling, unexported
// attributes, fluid starting inside solids) or cannot run at all (elastic fluids). parseScene
// (SceneLoader.cpp) calls these; the per-solver Configuration objects go through the settings
// tables like Floe's own keys.
#pragma once

#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "scene/Scene.h"

namespace floe {

// Keys SPlisHSPlasH defines per section that Floe accepts and names in one warning.
const std::set<std::string>& splishConfigurationKeys();
const std::set<std::string>& splishFluidBlockKeys();
const std::set<std::string>& splishFluidModelKeys();
const std::set<std::string>& splishRigidBodyKeys();
// Of those, the keys accepted without a warning (they cannot change a Floe run).
const std::set<std::string>& quietKeys();
// Top-level sections of features Floe does not have, with the warning that names each.
const std::map<std::string, std::string>& splishSections();

// A number in [lo, hi] at `key` of `object`, or an error naming the file, `name` and the range.
double numberAt(const nlohmann::json& object, const std::string& key, double lo, double hi, const std::string& where,
                const std::string& name, const char* unit);

// Throws for features that change what the scene is (elastic SPH solids), before any other key.
void refuseMissingFeatures(const nlohmann::json& root, const std::string& where);
// The fluid's material from "Materials": rest density, viscosity (flat keys or viscosityMethod with
// its object), XSPH; methods Floe does not have are named in warnings.
void parseMaterials(const nlohmann::json& value, const std::string& where, Scene& scene);
// Warnings for Configuration values Floe runs differently (boundary handling, scripts, exports).
void noteConfigurationSubstitutions(Scene& scene, const std::string& where);
// Rigid bodies that do not say which side the fluid is on get the side most of the fluid is on.
void orientRigidBodies(Scene& scene);
// Warns when part of the fluid starts inside a solid or outside a container.
void warnFluidInsideSolids(Scene& scene, const std::string& where);

} // namespace floe
