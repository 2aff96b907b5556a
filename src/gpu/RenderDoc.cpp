#include "gpu/RenderDoc.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include <renderdoc_app.h>

namespace floe::gpu {

std::unique_ptr<RenderDoc> RenderDoc::load(std::string& why)
{
    bool injected = true;
    void* lib = dlopen("librenderdoc.so", RTLD_NOW | RTLD_NOLOAD);
    if (!lib) {
        injected = false;
        lib = dlopen("librenderdoc.so", RTLD_NOW);
    }
    if (!lib) {
        why = "RenderDoc is not installed (librenderdoc.so not found; Debian: librenderdoc, installed by tools/install-deps.sh)";
        return nullptr;
    }
    auto getApi = reinterpret_cast<pRENDERDOC_GetAPI>(dlsym(lib, "RENDERDOC_GetAPI"));
    RENDERDOC_API_1_6_0* api = nullptr;
    if (!getApi || getApi(eRENDERDOC_API_Version_1_6_0, reinterpret_cast<void**>(&api)) != 1 || !api) {
        why = "librenderdoc.so does not offer the in-application API 1.6";
        return nullptr;
    }
    std::unique_ptr<RenderDoc> rd(new RenderDoc());
    rd->api_ = api;
    rd->injected_ = injected;
    return rd;
}

std::string RenderDoc::locate()
{
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("LD_LIBRARY_PATH")) {
        std::stringstream list(env);
        for (std::string dir; std::getline(list, dir, ':');)
            if (!dir.empty()) dirs.push_back(dir);
    }
    for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib", "/usr/local/lib", "/lib/x86_64-linux-gnu", "/lib"})
        dirs.emplace_back(dir);
    std::error_code ec;
    for (const std::string& dir : dirs) {
        const std::filesystem::path path = std::filesystem::path(dir) / "librenderdoc.so";
        if (std::filesystem::exists(path, ec)) return path.string();
    }
    return {};
}

void RenderDoc::setCaptureTemplate(const std::string& pathTemplate)
{
    if (injected_) return;
    api_->SetCaptureFilePathTemplate(pathTemplate.c_str());
    template_ = pathTemplate;
}

void RenderDoc::startFrameCapture(VkInstance instance)
{
    api_->StartFrameCapture(RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE(instance), nullptr);
}

std::string RenderDoc::endFrameCapture(VkInstance instance, uint64_t frame)
{
    if (api_->EndFrameCapture(RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE(instance), nullptr) != 1) return {};
    const uint32_t n = api_->GetNumCaptures();
    if (n == 0) return {};
    uint32_t length = 0;
    if (api_->GetCapture(n - 1, nullptr, &length, nullptr) != 1 || length == 0) return {};
    std::vector<char> path(length + 1, '\0');
    api_->GetCapture(n - 1, path.data(), &length, nullptr);
    std::string written(path.data());
    if (template_.empty()) return written;
    const std::string wanted = template_ + "_frame" + std::to_string(frame) + ".rdc";
    std::error_code ec;
    if (written != wanted) {
        std::filesystem::rename(written, wanted, ec);
        if (ec) return written; // keep RenderDoc's name rather than lose the capture
    }
    return wanted;
}

void RenderDoc::setTitle(const std::string& title)
{
    api_->SetCaptureTitle(title.c_str());
}

} // namespace floe::gpu
