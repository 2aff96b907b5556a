// Particle files for FluidModels: PLY in its three encodings and Partio's BGEO (gzip, big endian),
// written here byte by byte, read back exactly; malformed files name the file and the fault; a
// scene's FluidModels place the points.
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <zlib.h>

#include "base/Error.h"
#include "io/ParticleFile.h"
#include "scene/SceneLoader.h"

namespace floe {
namespace {

namespace fs = std::filesystem;

fs::path tempFile(const std::string& name)
{
    const fs::path dir = fs::temp_directory_path() / "floe_particle_files";
    fs::create_directories(dir);
    return dir / name;
}

const std::vector<glm::vec3> kPoints = {{0.5f, -1.25f, 2.0f}, {1e-3f, 3.75f, -0.125f}, {7.0f, 0.0f, 1.5f}};

template <class T> void putBig(std::string& out, T v)
{
    unsigned char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if (std::endian::native == std::endian::little)
        for (size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    out.append(reinterpret_cast<const char*>(b), sizeof(T));
}

// A BGEO as Partio writes particles: header, a 3-float "v" and a 1-int "id" attribute, points.
std::string bgeoBytes(const std::vector<glm::vec3>& points)
{
    std::string b = "BgeoV";
    putBig<int32_t>(b, 5);
    for (int32_t v : {int32_t(points.size()), 1, 0, 0, 2, 0, 1, 0}) putBig<int32_t>(b, v);
    const auto attribute = [&](const std::string& name, uint16_t size, int32_t type) {
        putBig<uint16_t>(b, uint16_t(name.size()));
        b += name;
        putBig<uint16_t>(b, size);
        putBig<int32_t>(b, type);
        for (uint16_t k = 0; k < size; ++k) putBig<int32_t>(b, 0);
    };
    attribute("v", 3, 5);
    attribute("id", 1, 1);
    for (size_t i = 0; i < points.size(); ++i) {
        for (float c : {points[i].x, points[i].y, points[i].z, 1.0f}) putBig<float>(b, c);
        for (float c : {9.0f, 9.0f, 9.0f}) putBig<float>(b, c);
        putBig<int32_t>(b, int32_t(i));
    }
    b += std::string("\0\x01trailer", 9); // primitives and details follow in real files
    return b;
}

void writeGzip(const fs::path& path, const std::string& bytes)
{
    gzFile f = gzopen(path.string().c_str(), "wb");
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(gzwrite(f, bytes.data(), unsigned(bytes.size())), int(bytes.size()));
    gzclose(f);
}

TEST(ParticleFile, PlyInEveryEncodingReadsBackExactly)
{
    const fs::path ascii = tempFile("points_ascii.ply");
    {
        std::ofstream out(ascii);
        out << "ply\nformat ascii 1.0\ncomment test\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
               "property float density\nend_header\n";
        for (const glm::vec3& p : kPoints) out << p.x << ' ' << p.y << ' ' << p.z << " 1000\n";
    }
    EXPECT_EQ(io::readParticlePositions(ascii), kPoints);
    for (const bool big : {false, true}) {
        const fs::path path = tempFile(big ? "points_big.ply" : "points_little.ply");
        std::string data;
        for (const glm::vec3& p : kPoints) {
            // a double id before the positions, so that offsets matter
            double id = 3.0;
            for (double value : {id}) {
                unsigned char b[8];
                std::memcpy(b, &value, 8);
                if (big == (std::endian::native == std::endian::little)) std::reverse(b, b + 8);
                data.append(reinterpret_cast<const char*>(b), 8);
            }
            for (float c : {p.x, p.y, p.z}) {
                unsigned char b[4];
                std::memcpy(b, &c, 4);
                if (big == (std::endian::native == std::endian::little)) std::reverse(b, b + 4);
                data.append(reinterpret_cast<const char*>(b), 4);
            }
        }
        std::ofstream out(path, std::ios::binary);
        out << "ply\nformat " << (big ? "binary_big_endian" : "binary_little_endian")
            << " 1.0\nelement vertex 3\nproperty double id\nproperty float x\nproperty float y\nproperty float z\nend_header\n"
            << data;
        out.close();
        EXPECT_EQ(io::readParticlePositions(path), kPoints) << path;
    }
}

TEST(ParticleFile, PartioBgeoReadsBackExactly)
{
    const fs::path path = tempFile("points.bgeo");
    writeGzip(path, bgeoBytes(kPoints));
    EXPECT_EQ(io::readParticlePositions(path), kPoints);
}

TEST(ParticleFile, BrokenFilesNameTheFileAndTheFault)
{
    const auto message = [](const fs::path& path) {
        try {
            io::readParticlePositions(path);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    const fs::path truncated = tempFile("truncated.bgeo");
    std::string bytes = bgeoBytes(kPoints);
    writeGzip(truncated, bytes.substr(0, bytes.size() - 40));
    EXPECT_NE(message(truncated).find("ends early"), std::string::npos) << message(truncated);
    const fs::path notBgeo = tempFile("other.bgeo");
    writeGzip(notBgeo, "BgeoX1234");
    EXPECT_NE(message(notBgeo).find("magic"), std::string::npos) << message(notBgeo);
    const fs::path plain = tempFile("plain.bgeo");
    std::ofstream(plain) << "not gzip at all";
    EXPECT_NE(message(plain).find("plain.bgeo"), std::string::npos) << message(plain);
    const fs::path noZ = tempFile("noz.ply");
    std::ofstream(noZ) << "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n1 2\n";
    EXPECT_NE(message(noZ).find("no property z"), std::string::npos) << message(noZ);
    const fs::path shortPly = tempFile("short.ply");
    std::ofstream(shortPly) << "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\n"
                               "end_header\n1 2 3\n";
    EXPECT_NE(message(shortPly).find("ends early"), std::string::npos) << message(shortPly);
    EXPECT_NE(message(tempFile("missing.ply")).find("no such particle file"), std::string::npos);
    EXPECT_NE(message(tempFile("x.xyz")).find(".ply or .bgeo"), std::string::npos);
}

TEST(ParticleFile, FluidModelsPlaceTheirPoints)
{
    const fs::path bgeo = tempFile("model.bgeo");
    writeGzip(bgeo, bgeoBytes(kPoints));
    const fs::path scene = tempFile("model_scene.json");
    std::ofstream(scene) << R"({"Configuration": {"particleRadius": 0.05},
        "FluidModels": [{"particleFile": "model.bgeo", "translation": [1, 2, 3], "scale": [2, 2, 2],
                         "initialVelocity": [0, -1, 0], "resolutionSDF": [20, 20, 20]}]})";
    const Scene s = loadScene(scene);
    ASSERT_EQ(countFluidParticles(s), kPoints.size());
    const FluidSampling f = sampleFluid(s);
    for (size_t i = 0; i < kPoints.size(); ++i) {
        EXPECT_EQ(glm::vec3(f.positions[i]), 2.0f * kPoints[i] + glm::vec3(1, 2, 3));
        EXPECT_EQ(glm::vec3(f.velocities[i]), glm::vec3(0, -1, 0));
        EXPECT_GT(f.positions[i].w, 0.0f);
    }
    EXPECT_TRUE(s.warnings.empty()); // resolutionSDF: SPlisHSPlasH's mesh sampling only, nothing runs differently
    std::ofstream(scene) << R"({"Configuration": {}, "FluidModels": [{"particleFile": "model.obj"}]})";
    try {
        loadScene(scene);
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("FluidModels[0].particleFile model.obj"), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace floe
