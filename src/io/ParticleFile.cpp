#include "io/ParticleFile.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <zlib.h>

#include "base/Error.h"

namespace floe::io {
namespace {

template <class T> T swapped(T v)
{
    unsigned char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    for (size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    std::memcpy(&v, b, sizeof(T));
    return v;
}

// A byte cursor over a whole file, refusing to read past its end.
struct Cursor {
    const std::string& bytes;
    size_t at = 0;
    const std::filesystem::path& path;
    const char* what;
    const unsigned char* take(size_t n)
    {
        if (at + n > bytes.size())
            throw Error(fmt::format("{}: the {} file ends early (byte {} of {})", path.string(), what, at + n, bytes.size()));
        const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + at);
        at += n;
        return p;
    }
    template <class T> T big()
    {
        T v;
        std::memcpy(&v, take(sizeof(T)), sizeof(T));
        return std::endian::native == std::endian::little ? swapped(v) : v;
    }
};

std::string gunzip(const std::filesystem::path& path)
{
    gzFile f = gzopen(path.string().c_str(), "rb");
    if (!f) throw Error(fmt::format("{}: cannot open the particle file", path.string()));
    std::string out;
    char buffer[1 << 16];
    int n;
    while ((n = gzread(f, buffer, sizeof(buffer))) > 0) out.append(buffer, size_t(n));
    int code = 0;
    const char* message = gzerror(f, &code);
    const std::string error = code < 0 ? message : "";
    gzclose(f);
    if (n < 0 || !error.empty()) throw Error(fmt::format("{}: not a readable (gzip) BGEO file: {}", path.string(), error));
    return out;
}

// Houdini's classic binary geometry ("BgeoV", version 5, big endian) as Partio writes it:
// counts, point attribute definitions, then per point x y z w and the attributes' values.
std::vector<glm::vec3> readBgeo(const std::filesystem::path& path)
{
    const std::string bytes = gunzip(path);
    Cursor c{bytes, 0, path, "BGEO"};
    if (bytes.size() < 5 || std::memcmp(bytes.data(), "BgeoV", 5) != 0)
        throw Error(fmt::format("{}: not a BGEO file (expected the magic \"BgeoV\")", path.string()));
    c.take(5);
    const int32_t version = c.big<int32_t>();
    if (version != 5) throw Error(fmt::format("{}: BGEO version {}, Floe reads version 5 (Partio's)", path.string(), version));
    const int32_t points = c.big<int32_t>();
    c.big<int32_t>(); // primitives
    c.big<int32_t>(); // point groups
    c.big<int32_t>(); // primitive groups
    const int32_t pointAttributes = c.big<int32_t>();
    c.big<int32_t>(); // vertex attributes
    c.big<int32_t>(); // primitive attributes
    c.big<int32_t>(); // detail attributes
    if (points < 0 || pointAttributes < 0 || size_t(points) > bytes.size() / 16)
        throw Error(fmt::format("{}: BGEO header holds impossible counts ({} points, {} attributes)", path.string(), points,
                                pointAttributes));
    size_t wordsPerPoint = 0; // 4-byte words after x y z w
    for (int32_t a = 0; a < pointAttributes; ++a) {
        const uint16_t nameLength = c.big<uint16_t>();
        c.take(nameLength);
        const uint16_t size = c.big<uint16_t>();
        const int32_t type = c.big<int32_t>();
        // 0 float, 1 int, 5 vector: `size` 4-byte words each. Indexed (string) attributes lay
        // out a string table Partio does not write for particles: refused rather than guessed.
        if (type != 0 && type != 1 && type != 5)
            throw Error(fmt::format("{}: BGEO point attribute {} has type {}; Floe reads float, int and vector attributes",
                                    path.string(), a, type));
        c.take(size_t(size) * 4); // defaults
        wordsPerPoint += size;
    }
    std::vector<glm::vec3> out(static_cast<size_t>(points));
    for (int32_t i = 0; i < points; ++i) {
        const float x = c.big<float>(), y = c.big<float>(), z = c.big<float>();
        const float w = c.big<float>();
        (void)w;
        c.take(wordsPerPoint * 4);
        out[size_t(i)] = glm::vec3(x, y, z);
    }
    return out;
}

// PLY with a vertex element holding x, y, z.
std::vector<glm::vec3> readPlyPositions(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("{}: cannot open the particle file", path.string()));
    std::string line;
    std::getline(in, line);
    if (line.rfind("ply", 0) != 0) throw Error(fmt::format("{}: not a PLY file (expected \"ply\" on line 1)", path.string()));
    enum class Format { Ascii, Little, Big } format = Format::Ascii;
    struct Property {
        std::string name, type;
    };
    struct Element {
        std::string name;
        size_t count = 0;
        std::vector<Property> properties;
    };
    std::vector<Element> elements;
    int lineNo = 1;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream words(line);
        std::string word;
        words >> word;
        if (word == "end_header") break;
        if (word == "format") {
            std::string f;
            words >> f;
            format = f == "ascii" ? Format::Ascii : f == "binary_little_endian" ? Format::Little : Format::Big;
            if (f != "ascii" && f != "binary_little_endian" && f != "binary_big_endian")
                throw Error(fmt::format("{}:{}: unknown PLY format '{}'", path.string(), lineNo, f));
        } else if (word == "element") {
            Element e;
            words >> e.name >> e.count;
            elements.push_back(e);
        } else if (word == "property") {
            if (elements.empty()) throw Error(fmt::format("{}:{}: property before any element", path.string(), lineNo));
            Property p;
            words >> p.type;
            if (p.type == "list")
                throw Error(fmt::format("{}:{}: list properties are not read (a particle file has none)", path.string(), lineNo));
            words >> p.name;
            elements.back().properties.push_back(p);
        } else if (word != "comment" && word != "obj_info" && !word.empty()) {
            throw Error(fmt::format("{}:{}: unexpected PLY header line '{}'", path.string(), lineNo, line));
        }
    }
    if (elements.empty() || elements.front().name != "vertex")
        throw Error(fmt::format("{}: expected the first PLY element to be \"vertex\"", path.string()));
    const Element& v = elements.front();
    const auto sizeOf = [&](const std::string& t) -> size_t {
        if (t == "char" || t == "uchar" || t == "int8" || t == "uint8") return 1;
        if (t == "short" || t == "ushort" || t == "int16" || t == "uint16") return 2;
        if (t == "int" || t == "uint" || t == "float" || t == "int32" || t == "uint32" || t == "float32") return 4;
        if (t == "double" || t == "float64") return 8;
        throw Error(fmt::format("{}: unknown PLY property type '{}'", path.string(), t));
    };
    int axis[3] = {-1, -1, -1};
    for (size_t k = 0; k < v.properties.size(); ++k)
        for (int a = 0; a < 3; ++a)
            if (v.properties[k].name == std::string(1, char('x' + a))) axis[a] = int(k);
    for (int a = 0; a < 3; ++a)
        if (axis[a] < 0) throw Error(fmt::format("{}: the PLY vertex element has no property {}", path.string(), char('x' + a)));
    std::vector<glm::vec3> out(v.count);
    if (format == Format::Ascii) {
        for (size_t i = 0; i < v.count; ++i) {
            std::vector<double> values(v.properties.size());
            for (double& x : values)
                if (!(in >> x))
                    throw Error(fmt::format("{}: the PLY data ends early (vertex {} of {})", path.string(), i, v.count));
            out[i] = glm::vec3(float(values[size_t(axis[0])]), float(values[size_t(axis[1])]), float(values[size_t(axis[2])]));
        }
        return out;
    }
    const bool swap = (format == Format::Big) != (std::endian::native == std::endian::big);
    std::vector<char> record;
    size_t recordSize = 0;
    for (const Property& p : v.properties) recordSize += sizeOf(p.type);
    record.resize(recordSize);
    for (size_t i = 0; i < v.count; ++i) {
        if (!in.read(record.data(), std::streamsize(recordSize)))
            throw Error(fmt::format("{}: the PLY data ends early (vertex {} of {})", path.string(), i, v.count));
        size_t offset = 0;
        float xyz[3] = {0, 0, 0};
        for (size_t k = 0; k < v.properties.size(); ++k) {
            const size_t size = sizeOf(v.properties[k].type);
            for (int a = 0; a < 3; ++a)
                if (axis[a] == int(k)) {
                    if (v.properties[k].type.find("float") == std::string::npos && v.properties[k].type != "double")
                        throw Error(fmt::format("{}: PLY vertex {} must be float or double, is {}", path.string(), char('x' + a),
                                                v.properties[k].type));
                    if (size == 4) {
                        float f;
                        std::memcpy(&f, record.data() + offset, 4);
                        xyz[a] = swap ? swapped(f) : f;
                    } else {
                        double d;
                        std::memcpy(&d, record.data() + offset, 8);
                        xyz[a] = float(swap ? swapped(d) : d);
                    }
                }
            offset += size;
        }
        out[i] = glm::vec3(xyz[0], xyz[1], xyz[2]);
    }
    return out;
}

} // namespace

std::vector<glm::vec3> readParticlePositions(const std::filesystem::path& path)
{
    const std::string ext = path.extension().string();
    if (ext != ".bgeo" && ext != ".ply")
        throw Error(fmt::format("{}: particle files are read as .ply or .bgeo (Partio), not '{}'", path.string(), ext));
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw Error(fmt::format("{}: no such particle file", path.string()));
    std::vector<glm::vec3> points = ext == ".bgeo" ? readBgeo(path) : readPlyPositions(path);
    for (size_t i = 0; i < points.size(); ++i)
        if (!std::isfinite(points[i].x) || !std::isfinite(points[i].y) || !std::isfinite(points[i].z))
            throw Error(fmt::format("{}: particle {} has a non-finite position", path.string(), i));
    return points;
}

} // namespace floe::io
