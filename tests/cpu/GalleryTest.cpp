// docs/scenes.md, the scene gallery written by tools/gallery.py: it must stay current with the
// shipped scenes, one row and one picture per scene, so a scene added without re-running the
// script fails here.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

TEST(Docs, SceneGalleryShowsEveryShippedScene)
{
    const fs::path root = FLOE_SOURCE_DIR;
    std::ifstream in(root / "docs" / "scenes.md");
    ASSERT_TRUE(in) << "docs/scenes.md is missing: run /usr/bin/python3 tools/gallery.py";
    std::stringstream page;
    page << in.rdbuf();
    const std::string text = page.str();
    int scenes = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(root / "assets" / "scenes")) {
        if (e.path().extension() != ".json") continue;
        ++scenes;
        const std::string name = e.path().stem().string();
        const std::string row = "| ![" + name + "](gallery/" + name + ".png) | `" + name + ".json` | ";
        EXPECT_NE(text.find(row), std::string::npos)
            << name << " has no row with its picture in docs/scenes.md: run /usr/bin/python3 tools/gallery.py " << name;
        EXPECT_TRUE(fs::exists(root / "docs" / "gallery" / (name + ".png"))) << name;
    }
    EXPECT_GT(scenes, 20);
}
