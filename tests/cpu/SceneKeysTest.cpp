// docs/scene-keys.md is the output of `floe keys`: the documented keys, ranges and defaults are
// the ones the loader applies.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "scene/SceneKeys.h"

namespace floe::test {
namespace {

TEST(SceneKeys, DocumentationMatchesTheSettingsTables)
{
    std::ifstream in(std::string(FLOE_SOURCE_DIR) + "/docs/scene-keys.md");
    ASSERT_TRUE(in) << "docs/scene-keys.md is missing; write it with: build/floe keys > docs/scene-keys.md";
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), sceneKeysMarkdown()) << "docs/scene-keys.md is out of date; rewrite it with: build/floe keys > "
                                                  "docs/scene-keys.md";
}

TEST(SceneKeys, ListsEverySectionWithItsDefaults)
{
    const std::string md = sceneKeysMarkdown();
    for (const char* s :
         {"## Configuration", "## Materials[]", "## FluidBlocks[]", "## RigidBodies[]", "## Floe\n", "## Floe.container"})
        EXPECT_NE(md.find(s), std::string::npos) << s;
    // A few rows with their defaults, as the structs initialise them.
    EXPECT_NE(md.find("| `particleRadius` | number in [1e-05, 10] | m | 0.025 |"), std::string::npos);
    EXPECT_NE(md.find("| `stiffness` | number in [0, 1e+12] | Pa | 1e+06 |"), std::string::npos);
    EXPECT_NE(
        md.find("| `solver` | one of `\"eos\"`, `\"iisph\"`, `\"dfsph\"`, `\"pcisph\"`, `\"pbf\"`, `\"none\"` | - | (none) |"),
        std::string::npos);
    for (const char* s : {"## Configuration.DFSPH", "## Configuration.IISPH", "## Configuration.WCSPH", "## Configuration.PCISPH",
                          "## Configuration.PBF", "## FluidModels[]", "`viscosityMethod`"})
        EXPECT_NE(md.find(s), std::string::npos) << s;
}

} // namespace
} // namespace floe::test
