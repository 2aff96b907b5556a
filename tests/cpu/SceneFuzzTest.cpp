// The scene parser and the set-up under random mutations of every shipped scene (issue 18): each
// mutated scene is either accepted or refused with floe::Error; anything else (another exception
// type, a crash, which ASan/UBSan turn into a failure, or a case that takes too long) fails.
// Seeded: a failure names the scene, the case's seed and the mutations, and reruns the same.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/Error.h"
#include "scene/SceneLoader.h"
#include "scene/SceneSetup.h"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The values a careless edit or a fuzzer produces: extremes, signs, zero, wrong types.
json randomValue(std::mt19937& rng, const json& old)
{
    std::uniform_int_distribution<int> pick(0, 15);
    const double x = old.is_number() ? old.get<double>() : 1.0;
    switch (pick(rng)) {
    case 0: return 0;
    case 1: return -1;
    case 2: return 1e30;
    case 3: return -1e30;
    case 4: return 1e-30;
    case 5: return x * 1e4;
    case 6: return x * 1e-4;
    case 7: return -x;
    case 8: return 4294967296.0;
    case 9: return "nonsense";
    case 10: return true;
    case 11: return nullptr;
    case 12: return json::array();
    case 13: return json::object();
    case 14: return json::array({x, x, x});
    default: return x * 0.5;
    }
}

// Every value's JSON pointer, containers included.
void collect(const json& node, const json::json_pointer& at, std::vector<json::json_pointer>& out)
{
    out.push_back(at);
    if (node.is_object())
        for (const auto& [key, value] : node.items()) collect(value, at / key, out);
    else if (node.is_array())
        for (size_t k = 0; k < node.size(); ++k) collect(node[k], at / k, out);
}

// One to three mutations of a random value: replaced, removed, its key misspelt, or (arrays)
// emptied, shortened or grown. Returns what was done, for the failure message.
std::string mutate(json& root, std::mt19937& rng)
{
    std::ostringstream done;
    const int count = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int m = 0; m < count; ++m) {
        std::vector<json::json_pointer> paths;
        collect(root, json::json_pointer(), paths);
        if (paths.size() < 2) break;
        const json::json_pointer at = paths[std::uniform_int_distribution<size_t>(1, paths.size() - 1)(rng)];
        json& parent = root[at.parent_pointer()];
        json& value = root[at];
        const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
        if (kind <= 5) {
            value = randomValue(rng, value);
            done << at.to_string() << " = " << value.dump() << "; ";
        } else if (kind == 6 && parent.is_object()) {
            parent.erase(at.back());
            done << at.to_string() << " removed; ";
        } else if (kind == 7 && parent.is_object()) {
            json moved = value;
            const std::string key = at.back();
            parent.erase(key);
            parent[key + "x"] = moved;
            done << at.to_string() << " renamed " << key << "x; ";
        } else if (value.is_array() && !value.empty()) {
            if (kind == 8) {
                value.erase(value.size() - 1);
                done << at.to_string() << " shortened; ";
            } else {
                value.push_back(value.back());
                done << at.to_string() << " grown; ";
            }
        } else {
            value = randomValue(rng, value);
            done << at.to_string() << " = " << value.dump() << "; ";
        }
    }
    return done.str();
}

} // namespace

TEST(SceneFuzz, MutatedShippedScenesAreAcceptedOrRefusedClearly)
{
    const fs::path dir = fs::path(FLOE_SOURCE_DIR) / "assets" / "scenes";
    std::vector<fs::path> scenes;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".json") scenes.push_back(entry.path());
    std::sort(scenes.begin(), scenes.end());
    ASSERT_GE(scenes.size(), 10u);
    // FLOE_FUZZ_CASES raises the count for a longer local run; the suite's default keeps it to
    // seconds (a few hundred cases) under ASan.
    const char* env = std::getenv("FLOE_FUZZ_CASES");
    const int perScene = env ? std::max(1, std::atoi(env)) : 12;
    int accepted = 0, refused = 0;
    for (size_t s = 0; s < scenes.size(); ++s) {
        std::ifstream in(scenes[s]);
        const json original = json::parse(in);
        for (int c = 0; c < perScene; ++c) {
            const uint32_t seed = uint32_t(1000 * s + c);
            std::mt19937 rng(seed);
            json root = original;
            const std::string what = mutate(root, rng);
            const std::string where = scenes[s].filename().string() + " (fuzz seed " + std::to_string(seed) + ")";
            const auto start = std::chrono::steady_clock::now();
            try {
                floe::Scene scene = floe::parseScene(root, where, scenes[s].parent_path());
                scene.file = scenes[s]; // as loadScene sets them
                scene.name = scenes[s].stem().string();
                floe::validateScene(scene, where);
                (void)floe::makeWorld(scene, 0.0f);
                ++accepted;
            } catch (const floe::Error& e) {
                ++refused;
                EXPECT_NE(std::string(e.what()).find(scenes[s].filename().string()), std::string::npos)
                    << where << ": " << what << "\nthe error does not name the file: " << e.what();
            } catch (const std::exception& e) {
                ADD_FAILURE() << where << ": " << what << "\nnot a floe::Error (" << typeid(e).name() << "): " << e.what();
            }
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            // Refusals come within a second (issue 18); the set-up of an accepted scene is
            // bounded by Floe's sample limits. Under ASan everything runs several times slower.
            EXPECT_LT(seconds, 20.0) << where << ": " << what << " took " << seconds << " s";
        }
    }
    EXPECT_GT(accepted, 0) << "mutations this mild must leave some scenes valid";
    EXPECT_GT(refused, 0) << "and refuse others";
    std::cout << scenes.size() * size_t(perScene) << " cases: " << accepted << " accepted, " << refused << " refused\n";
}
