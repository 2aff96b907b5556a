// floe view's ImGui panels and the state they edit: the scene picker, run controls, the live
// pressure solver switch, every solver setting from the SettingsTables (units and ranges),
// the renderer's settings with the colour legend, GPU ms per pass with history plots, density
// error and solver iterations over time, RenderDoc capture and shader reload.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "body/DeformableBodies.h"
#include "fracture/FractureBodies.h"
#include "render/Renderer.h"
#include "sim/World.h"
#include "sim/sph/SphSettings.h"

namespace floe::sim {
class Simulation;
}

namespace floe::view {

// The control panel: docked on the right at this width (pixels) for a window `width` wide, with
// this margin; the scene is drawn in the viewport left of it (sceneViewportWidth).
inline constexpr float kPanelMargin = 8.0f;
inline float defaultPanelWidth(float width)
{
    return std::clamp(0.3f * width, 360.0f, 560.0f);
}
// The width of the scene's viewport in a window `width` wide: left of the panel when the panel is
// open and reaches the right edge (docked), else the whole width; never under a quarter of it.
inline uint32_t sceneViewportWidth(uint32_t width, float panelLeft, float panelRight, bool collapsed)
{
    const bool docked = !collapsed && panelRight >= float(width) - 2.0f * kPanelMargin && panelLeft < float(width);
    const float left = docked ? std::floor(panelLeft) : float(width);
    return uint32_t(std::clamp(left, std::ceil(0.25f * float(width)), float(width)));
}

// A camera orbiting a target: yaw and pitch in radians, distance in metres.
struct OrbitCamera {
    glm::vec3 target{0.0f};
    float distance = 4.0f, yaw = 0.0f, pitch = 0.0f;
    float fovY = 40.0f, nearPlane = 0.01f, farPlane = 100.0f;

    static OrbitCamera from(const render::Camera& camera);
    render::Camera camera(bool flat) const;
    void rotate(float dxPixels, float dyPixels);
    void pan(float dxPixels, float dyPixels, float viewportHeight);
    void zoom(float wheel);
};

struct History {
    std::deque<float> values;
    void push(float v, size_t capacity = 600);
    std::vector<float> vector() const { return {values.begin(), values.end()}; }
    float mean() const;
};

struct PanelState {
    std::filesystem::path scenePath;
    std::vector<std::filesystem::path> scenes; // the picker's list
    std::string deviceName;
    sim::SphSettings settings;                   // edited live; applied with Simulation::setSettings
    bool bodies = false;                         // the scene has deformable bodies (no fluid)
    body::BodySettings bodySettings;             // edited live; omega applies on reset
    bool fracture = false;                       // the scene has fracture bodies
    fracture::FractureSettings fractureSettings; // edited live
    fracture::FractureReport fractureReport;     // after the last step
    render::ViewSettings view;
    OrbitCamera orbit, homeOrbit;
    std::pair<float, float> colorDefaults{0.0f, 1.0f};
    bool paused = false, stepOnce = false, showHelp = false, autoReload = true;
    int stepsPerFrame = 1;
    bool renderDocAvailable = false, captureRequested = false;
    std::string renderDocWhy, lastCapture;
    std::string reloadMessage;
    bool reloadFailed = false;
    std::string diverged;
    std::string sceneError; // the picker's last failure
    // The panel's rectangle (pixels) and state in the last frame, and the farthest any of its items
    // reached past its right edge since the start (a clipped label; 0 or less: all fit).
    glm::vec2 panelMin{0.0f}, panelMax{0.0f};
    bool panelCollapsed = false;
    float panelOverflow = -1e9f;
    uint64_t steps = 0, minimisedWaits = 0;
    double simTime = 0.0;

    std::map<std::string, History> passMs; // GPU ms per pass and frame
    History totalMs;
    History densityErrorAvg, densityErrorMax, iterations, divergenceIterations, dt; // per metrics read-back
    History volumeError, rigidError;                                                // deformable bodies: worst body, percent
    History fractureLoad, fragments;                                                // fracture: largest load / tau, fragments
    sim::StepMetrics last;

    void resetHistories();
    void recordTimings(const std::map<std::string, double>& passes);
    void recordMetrics(const sim::StepMetrics& m);
    void recordBodyMetrics(float volumeError, float rigidError);
    nlohmann::ordered_json meanTimings() const;
};

struct PanelActions {
    std::optional<std::filesystem::path> openScene;
    bool reset = false;
    bool settingsChanged = false;
    bool bodySettingsChanged = false;
    bool fractureSettingsChanged = false;
    bool reloadShaders = false;
};

// One of `simulation` (a fluid scene), `bodies` and `fracture` is set.
PanelActions drawPanels(PanelState& state, const sim::Simulation* simulation, const body::DeformableBodies* bodies,
                        uint32_t boundaryCount, const fracture::FractureBodies* fracture = nullptr);

// assets/scenes/*.json, sorted (empty if the folder is not found).
std::vector<std::filesystem::path> listScenes();
// The newest modification time among the shader sources (shaders/**), if found.
std::optional<std::filesystem::file_time_type> newestShaderSource();

struct CommandOutput {
    int status = -1;
    std::string output; // stdout and stderr
};
CommandOutput runCommand(const std::vector<std::string>& argv);

} // namespace floe::view
