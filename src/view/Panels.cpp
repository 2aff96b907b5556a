#include "view/Panels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <sys/wait.h>

#include <fmt/format.h>
#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>
#include <imgui.h>
#include <imgui_internal.h>

#include "app/ProjectFiles.h"
#include "base/Settings.h"
#include "shared/fluid.h"
#include "shared/render.h"
#include "sim/Simulation.h"

namespace floe::view {

// ---- Camera ----------------------------------------------------------------------------------

OrbitCamera OrbitCamera::from(const render::Camera& camera)
{
    OrbitCamera o;
    o.target = camera.target;
    const glm::vec3 offset = camera.position - camera.target;
    o.distance = std::max(glm::length(offset), 1e-4f);
    o.yaw = std::atan2(offset.x, offset.z);
    o.pitch = std::asin(std::clamp(offset.y / o.distance, -1.0f, 1.0f));
    o.fovY = camera.fovY;
    o.nearPlane = camera.nearPlane;
    o.farPlane = camera.farPlane;
    return o;
}

render::Camera OrbitCamera::camera(bool) const
{
    render::Camera c;
    c.target = target;
    c.position = target + distance * glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    c.fovY = fovY;
    // Near and far follow the zoom so that depth precision stays where the scene is.
    c.nearPlane = std::max(distance * 0.01f, 1e-4f);
    c.farPlane = std::max(farPlane, distance * 20.0f);
    return c;
}

void OrbitCamera::rotate(float dx, float dy)
{
    yaw -= dx * 0.005f;
    pitch = std::clamp(pitch + dy * 0.005f, -1.55f, 1.55f);
}

void OrbitCamera::pan(float dx, float dy, float viewportHeight)
{
    // One pixel moves the target by the size of a pixel at the target's depth.
    const float metresPerPixel = 2.0f * distance * std::tan(glm::radians(fovY) * 0.5f) / std::max(viewportHeight, 1.0f);
    const glm::vec3 forward = -glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0, 1, 0)));
    const glm::vec3 up = glm::cross(right, forward);
    target += (-dx * right + dy * up) * metresPerPixel;
}

void OrbitCamera::zoom(float wheel)
{
    distance = std::clamp(distance * std::pow(0.9f, wheel), 1e-3f, 1e4f);
}

// ---- State ----------------------------------------------------------------------------------

void History::push(float v, size_t capacity)
{
    values.push_back(v);
    while (values.size() > capacity) values.pop_front();
}

float History::mean() const
{
    if (values.empty()) return 0.0f;
    double s = 0;
    for (float v : values) s += v;
    return float(s / double(values.size()));
}

void PanelState::recordBodyMetrics(float volume, float rigid)
{
    volumeError.push(100.0f * volume);
    rigidError.push(100.0f * rigid);
}

void PanelState::resetHistories()
{
    volumeError = {};
    rigidError = {};
    fractureLoad = {};
    fragments = {};
    densityErrorAvg = {};
    densityErrorMax = {};
    iterations = {};
    divergenceIterations = {};
    dt = {};
    last = {};
}

void PanelState::recordTimings(const std::map<std::string, double>& passes)
{
    double total = 0;
    for (const auto& [name, ms] : passes) {
        passMs[name].push(float(ms));
        total += ms;
    }
    totalMs.push(float(total));
}

void PanelState::recordMetrics(const sim::StepMetrics& m)
{
    last = m;
    simTime = m.time;
    densityErrorAvg.push(100.0f * m.densityErrorAvg);
    densityErrorMax.push(100.0f * m.densityErrorMax);
    iterations.push(float(m.iterations));
    divergenceIterations.push(float(m.divergenceIterations));
    dt.push(1000.0f * m.dt);
}

nlohmann::ordered_json PanelState::meanTimings() const
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const auto& [name, h] : passMs) out[name] = h.mean();
    return out;
}

// ---- Panels ---------------------------------------------------------------------------------

namespace {

void plot(const char* label, const History& h, const char* unit, float height = 40.0f)
{
    // The label above the plot, which takes the whole width.
    const std::vector<float> v = h.vector();
    const std::string overlay = v.empty() ? "no data yet" : fmt::format("{:.4g} {}", v.back(), unit);
    ImGui::TextUnformatted(label);
    ImGui::PlotLines(fmt::format("##{}", label).c_str(), v.data(), int(v.size()), 0, overlay.c_str(), 0.0f, FLT_MAX,
                     ImVec2(ImGui::GetContentRegionAvail().x, height));
}

// One settings row as an ImGui widget; true when the value changed.
bool settingWidget(const SettingRow& row, void* settings);

// A subsystem's whole settings table under a collapsed "every setting" node (`id` keeps the
// nodes of two panels apart); true when a value changed.
bool everySetting(const char* id, const SettingsTable& table, void* settings)
{
    bool changed = false;
    if (ImGui::TreeNode(fmt::format("every setting##{}", id).c_str())) {
        ImGui::TextDisabled("Enter applies");
        ImGui::PushItemWidth(150.0f);
        for (const SettingRow& row : table.rows()) changed |= settingWidget(row, settings);
        ImGui::PopItemWidth();
        ImGui::TreePop();
    }
    return changed;
}

bool settingWidget(const SettingRow& row, void* settings)
{
    const SettingRow::Value value = row.member(settings);
    const std::string label = row.unit.empty() ? row.key : fmt::format("{} ({})", row.key, row.unit);
    bool changed = false;
    if (auto* f = std::get_if<float*>(&value)) {
        float v = **f;
        if (ImGui::InputFloat(label.c_str(), &v, 0.0f, 0.0f, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue)) {
            **f = float(std::clamp(double(v), row.min, row.max));
            changed = true;
        }
    } else if (auto* i = std::get_if<int*>(&value)) {
        int v = **i;
        if (ImGui::InputInt(label.c_str(), &v)) {
            **i = int(std::clamp(double(v), row.min, row.max));
            changed = true;
        }
    } else if (auto* u = std::get_if<uint32_t*>(&value)) {
        int v = int(std::min<uint32_t>(**u, uint32_t(INT32_MAX)));
        if (ImGui::InputInt(label.c_str(), &v)) {
            **u = uint32_t(std::clamp(double(v), std::max(row.min, 0.0), row.max));
            changed = true;
        }
    } else if (auto* b = std::get_if<bool*>(&value)) {
        changed = ImGui::Checkbox(label.c_str(), *b);
    } else if (auto* vec = std::get_if<glm::vec3*>(&value)) {
        glm::vec3 v = **vec;
        if (ImGui::InputFloat3(label.c_str(), &v.x, "%.4g", ImGuiInputTextFlags_EnterReturnsTrue)) {
            for (int c = 0; c < 3; ++c) v[c] = float(std::clamp(double(v[c]), row.min, row.max));
            **vec = v;
            changed = true;
        }
    } else if (auto* s = std::get_if<std::string*>(&value)) {
        const std::string current = (*s)->empty() ? "(from the scene)" : **s;
        if (ImGui::BeginCombo(label.c_str(), current.c_str())) {
            for (const std::string& choice : row.choices)
                if (ImGui::Selectable(choice.c_str(), choice == **s)) {
                    **s = choice;
                    changed = true;
                }
            ImGui::EndCombo();
        }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", row.help.c_str(), describeExpectation(row).c_str());
    return changed;
}

// The colour map as a bar with the range's ends, drawn with the same nine viridis samples as
// the particles (shared::viridisSample; sRGB values, as the bar is drawn in sRGB).
void legend(float lo, float hi, const char* what)
{
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x, height = 14.0f;
    for (int i = 0; i < 8; ++i) {
        // The swapchain encodes sRGB: ImGui's colours are taken as linear, so decode the samples.
        const auto linear = [](float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); };
        const auto col = [&](int k) {
            const glm::vec3 c = shared::viridisSample(k);
            return ImGui::GetColorU32(ImVec4(linear(c.r), linear(c.g), linear(c.b), 1.0f));
        };
        const float x0 = p.x + width * float(i) / 8.0f, x1 = p.x + width * float(i + 1) / 8.0f;
        draw->AddRectFilledMultiColor(ImVec2(x0, p.y), ImVec2(x1, p.y + height), col(i), col(i + 1), col(i + 1), col(i));
    }
    ImGui::Dummy(ImVec2(width, height));
    ImGui::Text("%.3g", lo);
    ImGui::SameLine(width * 0.5f - 30.0f);
    ImGui::TextUnformatted(what);
    ImGui::SameLine(std::max(width - 40.0f, 0.0f));
    ImGui::Text("%.3g", hi);
}

const char* kAttributes[] = {"speed (m/s)",
                             "height (m)",
                             "",
                             "density (kg/m^3)",
                             "compression (%)",
                             "pressure (Pa)",
                             "0 free, 1 under pressure, 2 at a wall, 3 escaped"};

} // namespace

PanelActions drawPanels(PanelState& s, const sim::Simulation* simulation, const body::DeformableBodies* bodies,
                        uint32_t boundaryCount, const fracture::FractureBodies* fracture)
{
    PanelActions actions;
    // On the right, full height: the scene is drawn in the viewport left of it (ViewSession);
    // dam breaks start on the left. The panel can be resized by its left edge and collapsed.
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float height = std::max(display.y - 2.0f * kPanelMargin, 100.0f);
    ImGui::SetNextWindowPos(ImVec2(display.x - kPanelMargin, kPanelMargin), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(defaultPanelWidth(display.x), height), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(260.0f, height), ImVec2(std::max(0.75f * display.x, 260.0f), height));
    ImGui::Begin("Floe", nullptr, ImGuiWindowFlags_NoMove);
    s.panelMin = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y};
    s.panelMax = {s.panelMin.x + ImGui::GetWindowSize().x, s.panelMin.y + ImGui::GetWindowSize().y};
    s.panelCollapsed = ImGui::IsWindowCollapsed();
    // Widgets leave their labels a column as wide as the longest label drawn by default.
    ImGui::PushItemWidth(-(ImGui::CalcTextSize("max. fracture iterations").x + ImGui::GetStyle().ItemInnerSpacing.x));
    ImGui::Text("%s", s.deviceName.c_str());
    // Scene picker.
    const std::string current = s.scenePath.filename().string();
    if (ImGui::BeginCombo("scene", current.c_str())) {
        for (const std::filesystem::path& p : s.scenes)
            if (ImGui::Selectable(p.filename().string().c_str(), p.filename() == s.scenePath.filename())) actions.openScene = p;
        ImGui::EndCombo();
    }
    if (!s.sceneError.empty()) ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "%s", s.sceneError.c_str());
    if (simulation) {
        ImGui::TextWrapped("%u fluid particles, %u boundary particles, %u wall samples drawn", simulation->count(),
                           simulation->boundaryCount(), boundaryCount);
        ImGui::Text("t = %.4f s, %llu steps, dt = %.3g ms", s.simTime, static_cast<unsigned long long>(s.steps),
                    1000.0 * s.last.dt);
        if (simulation->viscousSubsteps() > 1) {
            ImGui::Text("viscosity in %s%u substeps per step", simulation->gpuChoosesViscousSubsteps() ? "up to " : "",
                        simulation->viscousSubsteps());
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("the step is above the explicit viscosity's stability bound h^2 / (16 nu) (docs/fluids.md)");
        }
    }
    if (bodies && simulation) {
        ImGui::Text("coupled with %u bodies, %u particles, %u triangles", bodies->bodyCount(), bodies->particleCount(),
                    bodies->triangleCount());
        ImGui::TextWrapped("through %u surface samples; %u fluid particles put back out of the bodies so far",
                           simulation->solidCount(), s.last.solidCorrections);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("sph/solid_guard: particles left behind a body's surface after a step (docs/coupling.md)");
    } else if (bodies) {
        ImGui::Text("%u bodies, %u particles, %u triangles", bodies->bodyCount(), bodies->particleCount(), bodies->triangleCount());
        ImGui::Text("t = %.4f s, %llu steps, dt = %.3g ms", double(s.steps) * s.bodySettings.timeStep,
                    static_cast<unsigned long long>(s.steps), 1000.0 * s.bodySettings.timeStep);
    }
    if (fracture && simulation) {
        ImGui::Text("coupled with %u fracture bodies, %u tets, %u nodes", fracture->bodyCount(), fracture->tetCount(),
                    fracture->nodeCount());
        ImGui::TextWrapped("through %u tet face samples (on while a face bounds a fragment); %u fluid particles put back "
                           "out of the bodies so far",
                           simulation->solidCount(), s.last.solidCorrections);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("sph/solid_guard: particles left behind a body's surface after a step (docs/coupling.md)");
    } else if (fracture) {
        ImGui::Text("%u fracture bodies, %u tets, %u nodes", fracture->bodyCount(), fracture->tetCount(), fracture->nodeCount());
        if (!bodies) // beside deformable bodies, the clock is theirs (one step for both)
            ImGui::Text("t = %.4f s, %llu steps, dt = %.3g ms", double(s.steps) * s.fractureSettings.timeStep,
                        static_cast<unsigned long long>(s.steps), 1000.0 * s.fractureSettings.timeStep);
    }
    if (!s.diverged.empty()) ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "DIVERGED: %s (R resets)", s.diverged.c_str());

    // Run controls.
    if (ImGui::Button(s.paused ? "Run (Space)" : "Pause (Space)")) s.paused = !s.paused;
    ImGui::SameLine();
    if (ImGui::Button("Step (S)")) {
        s.paused = true;
        s.stepOnce = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Reset (R)")) actions.reset = true;
    ImGui::SliderInt("steps per frame", &s.stepsPerFrame, 1, 50);

    // The pressure solver, switched live (the particle state is kept).
    if (bodies && ImGui::CollapsingHeader("Deformable bodies", ImGuiTreeNodeFlags_DefaultOpen)) {
        body::BodySettings& b = s.bodySettings;
        bool changed = false;
        changed |= ImGui::SliderInt("omega (resets)", &b.omega, 1, 6);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("region size; a change applies at once and restarts the bodies");
        changed |= ImGui::SliderFloat("stiffness s", &b.stiffness, 0.0f, 1.0f);
        changed |= ImGui::SliderFloat("damping k", &b.damping, 0.0f, 1.0f);
        changed |= ImGui::Combo("volume", &b.volumeMode, "none\0global\0local\0");
        changed |= ImGui::SliderFloat("alpha (local)", &b.alpha, 0.0f, 1.0f);
        changed |= ImGui::SliderFloat("friction", &b.friction, 0.0f, 2.0f);
        changed |= ImGui::SliderInt("Jacobi sweeps", &b.jacobiSweeps, 1, 16);
        changed |= ImGui::SliderInt("volume rounds", &b.volumeIterations, 1, 8);
        changed |= ImGui::SliderFloat("beta (joints, local)", &b.beta, 0.0f, 1.0f);
        // Every key of the bodies' own settings table (the scene's Deformable section), with its
        // range: what the sliders above leave out (weight smoothing, restitution, the glass).
        changed |= everySetting("bodies", body::BodySettings::table(), &b);
        if (changed) actions.bodySettingsChanged = true;
        plot("volume error (worst body)", s.volumeError, "%");
        plot("rigid error (worst body)", s.rigidError, "% of size");
    }
    if (fracture && ImGui::CollapsingHeader("Fracture", ImGuiTreeNodeFlags_DefaultOpen)) {
        fracture::FractureSettings& f = s.fractureSettings;
        bool changed = false;
        // The combo's entries are the method ids (none 0, radius 1, radius connected 2, secondary
        // splits 3, wave 4, constraint 5); switching to or from constraint restarts the scene.
        int method = int(f.method);
        if (ImGui::Combo("method", &method,
                         "none\0radius (Mueller 2001)\0radius, connected (no jumps across air)\0secondary splits\0"
                         "wave (Glondu 2012)\0constraint (Smith 2001, restarts)\0")) {
            f.method = fracture::FractureMethod(method);
            changed = true;
        }
        int separation = int(f.separation);
        if (ImGui::Combo("separation tensor", &separation, "equation (16)\0averaged elements\0")) {
            f.separation = fracture::SeparationMode(separation);
            changed = true;
        }
        int iterations = int(f.maxIterations);
        if (ImGui::SliderInt("max. fracture iterations", &iterations, 0, 22)) {
            f.maxIterations = uint32_t(iterations);
            changed = true;
        }
        changed |= ImGui::SliderFloat("fragility", &f.fragility, 1.0f, 10.0f);
        changed |= ImGui::SliderFloat("radius factor", &f.radiusFactor, 0.0f, 10.0f);
        if (f.method == fracture::FractureMethod::Wave) {
            changed |= ImGui::SliderFloat("wave toughness Gc/gamma", &f.waveToughness, 0.0f, 5.0f);
            changed |= ImGui::Checkbox("split the band (Glondu; else it detaches)", &f.waveSplitBand);
        }
        if (f.method == fracture::FractureMethod::Constraint) {
            changed |= ImGui::SliderFloat("link scale", &f.linkScale, 0.01f, 100.0f, "%.3f", ImGuiSliderFlags_Logarithmic);
            changed |= ImGui::SliderFloat("neighbour weakening", &f.weakening, 0.5f, 1.0f);
            changed |= ImGui::SliderFloat("weakening floor", &f.weakeningFloor, 0.0f, 1.0f);
            changed |= ImGui::SliderFloat("wear (1: the thesis)", &f.wear, 0.0f, 1.0f);
        }
        changed |= ImGui::Checkbox("contacts between fragments", &f.contacts);
        changed |= ImGui::SliderFloat("tau scale", &f.tauScale, 1.0f, 10000.0f, "%.1f", ImGuiSliderFlags_Logarithmic);
        changed |= ImGui::Checkbox("evaluate every step (else on contact)", &f.evaluateEveryStep);
        changed |= ImGui::SliderFloat("friction", &f.friction, 0.0f, 2.0f);
        int colours = int(f.colourMode);
        if (ImGui::Combo("colours", &colours, "fragments (cluster view)\0stress (green 0, red tau)\0")) {
            f.colourMode = uint32_t(colours);
            changed = true;
        }
        // Every key of the fracture bodies' own settings table (the scene's Fracture section).
        changed |= everySetting("fracture", fracture::FractureSettings::table(), &f);
        if (changed) actions.fractureSettingsChanged = true;
        const fracture::FractureReport& r = s.fractureReport;
        ImGui::Text("%u fragments, %u fracture events, %u cuts", r.fragments, r.events, r.cuts);
        ImGui::Text("largest load %.3f tau%s", r.maxLoad, r.contact ? " (contact)" : "");
        if (r.maxDamage > 0.0f) ImGui::Text("largest ductile damage %.3f", r.maxDamage);
        ImGui::Text("%.2f rounds per substep, %u at the limit", r.rounds, r.roundsAtLimit);
        plot("largest load / tau", s.fractureLoad, "");
        plot("fragments", s.fragments, "");
    }
    if (simulation && ImGui::CollapsingHeader("Pressure solver", ImGuiTreeNodeFlags_DefaultOpen)) {
        const sim::PressureSolver solver = s.settings.pressureSolver();
        for (const sim::PressureSolver option : sim::allPressureSolvers())
            if (ImGui::RadioButton(sim::pressureSolverTitle(option), solver == option) && solver != option) {
                s.settings.solver = sim::pressureSolverName(option);
                actions.settingsChanged = true;
            }
        ImGui::Text("density error avg %.3f %%, max %.2f %%", 100.0 * s.last.densityErrorAvg, 100.0 * s.last.densityErrorMax);
        plot("density error avg", s.densityErrorAvg, "%");
        plot("density error max", s.densityErrorMax, "%");
        if (sim::isIterative(solver))
            plot(fmt::format("{} iterations", sim::pressureSolverTitle(solver)).c_str(), s.iterations, "");
        if (solver == sim::PressureSolver::Dfsph && s.settings.divergenceSolver)
            plot("DFSPH divergence iterations", s.divergenceIterations, "");
        plot("dt", s.dt, "ms");
    }
    if (simulation && ImGui::CollapsingHeader("Solver settings")) {
        ImGui::TextDisabled("Enter applies; boundary sampling changes apply on Reset");
        ImGui::PushItemWidth(150.0f);
        // The running solver's own object (Configuration.DFSPH, ...) beside the common settings.
        const sim::PressureSolver solver = s.settings.pressureSolver();
        const std::string own = solver == sim::PressureSolver::Eos ? "WCSPH" : sim::pressureSolverTitle(solver);
        std::vector<const SettingsTable*> tables = {&sim::SphSettings::configurationTable()};
        if (const SettingsTable* t = sim::SphSettings::methodTable(own)) tables.push_back(t);
        tables.push_back(&sim::SphSettings::floeTable());
        for (const SettingsTable* table : tables) {
            ImGui::Separator();
            ImGui::TextDisabled("%s", table->section().c_str());
            for (const SettingRow& row : table->rows())
                if (settingWidget(row, &s.settings)) actions.settingsChanged = true;
        }
        ImGui::PopItemWidth();
    }

    // Rendering.
    if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) {
        if (!s.bodies && !s.fracture) { // particles and the fluid surface
            ImGui::Combo("draw (F)", &s.view.mode, "particles\0fluid surface\0both\0");
            int attribute = s.view.colorAttribute == RENDER_COLOR_SOLID ? RENDER_COLOR_SPEED : s.view.colorAttribute;
            if (ImGui::Combo("colour by", &attribute, "speed\0height\0\0density\0compression\0pressure\0solver phase\0")) {
                s.view.colorAttribute = attribute;
                if (attribute == RENDER_COLOR_SPEED) {
                    s.view.colorMin = s.colorDefaults.first;
                    s.view.colorMax = s.colorDefaults.second;
                } else if (attribute == RENDER_COLOR_DENSITY) {
                    s.view.colorMin = 950.0f;
                    s.view.colorMax = 1050.0f;
                } else if (attribute == RENDER_COLOR_COMPRESSION) {
                    s.view.colorMin = 0.0f;
                    s.view.colorMax = 2.0f;
                } else if (attribute == RENDER_COLOR_PRESSURE) {
                    s.view.colorMin = 0.0f;
                    s.view.colorMax = 1.0e4f;
                } else if (attribute == RENDER_COLOR_PHASE) {
                    s.view.colorMin = 0.0f;
                    s.view.colorMax = 3.0f;
                }
            }
            ImGui::InputFloat("colour min", &s.view.colorMin, 0, 0, "%.4g");
            ImGui::InputFloat("colour max", &s.view.colorMax, 0, 0, "%.4g");
            legend(s.view.colorMin, s.view.colorMax, kAttributes[std::clamp(attribute, 0, 6)]);
            ImGui::SliderInt("smoothing iterations", &s.view.fluid.iterations, 0, 16);
            ImGui::SliderFloat("filter radius (m)", &s.view.fluid.filterRadius, 0.1f * s.view.particleRadius,
                               10.0f * s.view.particleRadius, "%.4f");
            ImGui::SliderFloat("sphere scale", &s.view.fluid.sphereScale, 1.0f, 2.5f);
            ImGui::InputFloat3("absorption (1/m)", &s.view.fluid.absorption.x, "%.3g");
        }
        ImGui::Checkbox("floor", &s.view.drawFloor);
        if (ImGui::Button("Home camera")) s.orbit = s.homeOrbit;
    }

    // GPU time per pass.
    if (ImGui::CollapsingHeader("GPU ms per pass", ImGuiTreeNodeFlags_DefaultOpen)) {
        plot("frame total", s.totalMs, "ms", 50.0f);
        if (ImGui::BeginTable("passes", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
            ImGui::TableSetupColumn("pass");
            ImGui::TableSetupColumn("last ms");
            ImGui::TableSetupColumn("mean ms");
            ImGui::TableHeadersRow();
            for (const auto& [name, h] : s.passMs) {
                if (h.values.empty()) continue;
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(name.c_str());
                if (ImGui::IsItemHovered()) {
                    const std::vector<float> v = h.vector();
                    ImGui::BeginTooltip();
                    ImGui::PlotLines("##history", v.data(), int(v.size()), 0, name.c_str(), 0.0f, FLT_MAX, ImVec2(300, 80));
                    ImGui::EndTooltip();
                }
                ImGui::TableNextColumn();
                ImGui::Text("%.3f", h.values.back());
                ImGui::TableNextColumn();
                ImGui::Text("%.3f", h.mean());
            }
            ImGui::EndTable();
        }
    }

    // Tools.
    if (ImGui::CollapsingHeader("Capture and shaders", ImGuiTreeNodeFlags_DefaultOpen)) {
        if (s.renderDocAvailable) {
            if (ImGui::Button("Capture frame (C)")) s.captureRequested = true;
            if (!s.lastCapture.empty()) ImGui::TextWrapped("last capture: %s", s.lastCapture.c_str());
        } else {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("RenderDoc capture unavailable: %s", s.renderDocWhy.c_str());
            ImGui::PopStyleColor();
        }
        if (ImGui::Button("Reload shaders")) actions.reloadShaders = true;
        ImGui::SameLine();
        ImGui::Checkbox("on change", &s.autoReload);
        if (!s.reloadMessage.empty()) {
            if (s.reloadFailed)
                ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "%s", s.reloadMessage.c_str());
            else
                ImGui::TextUnformatted(s.reloadMessage.c_str());
        }
    }
    ImGui::PopItemWidth();
    // How far the widest item reached past the panel's work area (a clipped label): 0 when all fit.
    if (!s.panelCollapsed) {
        const ImGuiWindow* window = ImGui::GetCurrentWindow();
        s.panelOverflow = std::max(s.panelOverflow, window->DC.CursorMaxPos.x - window->WorkRect.Max.x);
    }
    ImGui::End();

    if (s.showHelp) {
        ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
        ImGui::Begin("Help (H)", &s.showHelp, ImGuiWindowFlags_AlwaysAutoResize);
        ImGui::TextUnformatted("left drag: orbit   right/middle drag: pan   wheel: zoom\n"
                               "Space: run/pause   S: single step   R: reset\n"
                               "F: particles / fluid surface / both   C: capture (RenderDoc)   H: this help");
        ImGui::End();
    }
    return actions;
}

// ---- Files and commands -----------------------------------------------------------------------

std::vector<std::filesystem::path> listScenes()
{
    std::vector<std::filesystem::path> out;
    const std::filesystem::path dir = findProjectFile("assets/scenes");
    if (dir.empty()) return out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".json") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<std::filesystem::file_time_type> newestShaderSource()
{
    const std::filesystem::path dir = findProjectFile("shaders/shared");
    if (dir.empty()) return std::nullopt;
    std::optional<std::filesystem::file_time_type> newest;
    std::error_code ec;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir.parent_path(), ec)) {
        if (!e.is_regular_file(ec)) continue;
        const auto t = e.last_write_time(ec);
        if (!ec && (!newest || t > *newest)) newest = t;
    }
    return newest;
}

CommandOutput runCommand(const std::vector<std::string>& argv)
{
    std::string command;
    for (const std::string& a : argv) {
        std::string quoted = "'";
        for (char c : a) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        command += quoted + "' ";
    }
    command += "2>&1";
    CommandOutput out;
    std::FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return out;
    char buffer[4096];
    while (size_t n = std::fread(buffer, 1, sizeof(buffer), pipe)) out.output.append(buffer, n);
    const int status = pclose(pipe);
    out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

} // namespace floe::view
