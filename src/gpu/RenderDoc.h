// RenderDoc's in-application API, loaded when librenderdoc.so is present. It must be loaded
// before the Vulkan instance is created so that RenderDoc's layer wraps it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <volk.h>

struct RENDERDOC_API_1_6_0;

namespace floe::gpu {

class RenderDoc {
public:
    // Returns nullptr and sets `why` when RenderDoc is unavailable.
    static std::unique_ptr<RenderDoc> load(std::string& why);
    // Where librenderdoc.so would be loaded from, without loading it (empty: not found).
    static std::string locate();

    bool injected() const { return injected_; } // started by renderdoccmd / the RenderDoc UI
    // Captures are written as <pathTemplate>_frameN.rdc, N the frame (or step) passed to
    // endFrameCapture. Ignored when injected (the injector's -c option wins).
    void setCaptureTemplate(const std::string& pathTemplate);
    void startFrameCapture(VkInstance instance);
    // Returns the capture's file path, or an empty string if RenderDoc wrote none. RenderDoc
    // numbers its files by its own frame counter, which API captures of a headless run never
    // advance (it wrote capture_capture.rdc): the file is renamed to <pathTemplate>_frameN.rdc.
    std::string endFrameCapture(VkInstance instance, uint64_t frame);
    void setTitle(const std::string& title);

private:
    RenderDoc() = default;
    RENDERDOC_API_1_6_0* api_ = nullptr;
    bool injected_ = false;
    std::string template_;
};

} // namespace floe::gpu
