#include "view/Ui.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include "base/Error.h"
#include "gpu/Check.h"
#include "gpu/Context.h"
#include "gpu/Image.h"
#include "graph/RenderGraph.h"
#include "view/Swapchain.h"
#include "view/Window.h"

namespace floe::view {
namespace {

// ImGui's backend loads its Vulkan functions through volk's loader (VULKAN-ON-CPU.md).
PFN_vkVoidFunction loadFunction(const char* name, void* user)
{
    auto* context = static_cast<gpu::Context*>(user);
    if (PFN_vkVoidFunction f = vkGetDeviceProcAddr(context->device(), name)) return f;
    return vkGetInstanceProcAddr(context->instance(), name);
}

void checkResult(VkResult r)
{
    VK_CHECK(r);
}

} // namespace

Ui::Ui(gpu::Context& context, Window& window, const Swapchain& swapchain) : context_(context)
{
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // no imgui.ini next to the user's files
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 3.0f;

    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16}};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    poolInfo.maxSets = 16;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = sizes;
    VK_CHECK(vkCreateDescriptorPool(context.device(), &poolInfo, nullptr, &pool_));

    VkAttachmentDescription color{};
    color.format = swapchain.format();
    color.samples = VK_SAMPLE_COUNT_1_BIT;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    // The graph brings the image into this layout before the pass and takes it on after it.
    color.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &ref;
    VkRenderPassCreateInfo rpInfo{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    rpInfo.attachmentCount = 1;
    rpInfo.pAttachments = &color;
    rpInfo.subpassCount = 1;
    rpInfo.pSubpasses = &subpass;
    VK_CHECK(vkCreateRenderPass(context.device(), &rpInfo, nullptr, &renderPass_));
    context.setObjectName(VK_OBJECT_TYPE_RENDER_PASS, reinterpret_cast<uint64_t>(renderPass_), "ui render pass");

    if (!ImGui_ImplVulkan_LoadFunctions(loadFunction, &context)) throw Error("floe view: ImGui cannot load Vulkan functions");
    if (!ImGui_ImplGlfw_InitForVulkan(window.handle(), true)) throw Error("floe view: ImGui's GLFW backend failed to start");
    ImGui_ImplVulkan_InitInfo init{};
    init.Instance = context.instance();
    init.PhysicalDevice = context.physicalDevice();
    init.Device = context.device();
    init.QueueFamily = context.queueFamily();
    init.Queue = context.queue();
    init.DescriptorPool = pool_;
    init.MinImageCount = std::max(swapchain.minImageCount(), 2u);
    init.ImageCount = std::max(swapchain.imageCount(), init.MinImageCount);
    init.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    init.CheckVkResultFn = checkResult;
    if (!ImGui_ImplVulkan_Init(&init, renderPass_)) throw Error("floe view: ImGui's Vulkan backend failed to start");
    context.submitAndWait([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
    ImGui_ImplVulkan_DestroyFontUploadObjects();
    rebuildFramebuffers(swapchain);
}

Ui::~Ui()
{
    vkDeviceWaitIdle(context_.device());
    for (VkFramebuffer f : framebuffers_) vkDestroyFramebuffer(context_.device(), f, nullptr);
    ImGui_ImplVulkan_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    vkDestroyRenderPass(context_.device(), renderPass_, nullptr);
    vkDestroyDescriptorPool(context_.device(), pool_, nullptr);
}

void Ui::rebuildFramebuffers(const Swapchain& swapchain)
{
    for (VkFramebuffer f : framebuffers_) vkDestroyFramebuffer(context_.device(), f, nullptr);
    framebuffers_.clear();
    for (uint32_t i = 0; i < swapchain.imageCount(); ++i) {
        const VkImageView view = swapchain.image(i).view();
        VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        info.renderPass = renderPass_;
        info.attachmentCount = 1;
        info.pAttachments = &view;
        info.width = swapchain.width();
        info.height = swapchain.height();
        info.layers = 1;
        VkFramebuffer f = VK_NULL_HANDLE;
        VK_CHECK(vkCreateFramebuffer(context_.device(), &info, nullptr, &f));
        framebuffers_.push_back(f);
    }
    ImGui_ImplVulkan_SetMinImageCount(std::max(swapchain.minImageCount(), 2u));
    generation_ = swapchain.generation();
}

void Ui::newFrame()
{
    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void Ui::addPass(graph::RenderGraph& graph, const Swapchain& swapchain, uint32_t index)
{
    ImGui::Render();
    if (generation_ != swapchain.generation()) rebuildFramebuffers(swapchain);
    ImDrawData* data = ImGui::GetDrawData();
    lastVertices_ = data ? data->TotalVtxCount : 0;
    const gpu::Image& image = swapchain.image(index);
    const VkFramebuffer framebuffer = framebuffers_.at(index);
    const VkExtent2D extent{swapchain.width(), swapchain.height()};
    const VkRenderPass renderPass = renderPass_;
    graph::ResourceUse use{image.id(), true,
                           graph::Access{VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                         VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}};
    graph.addCustom("ui/imgui", {use},
                    [data, framebuffer, extent, renderPass](VkCommandBuffer cmd) {
                        VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
                        begin.renderPass = renderPass;
                        begin.framebuffer = framebuffer;
                        begin.renderArea.extent = extent;
                        vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
                        ImGui_ImplVulkan_RenderDrawData(data, cmd);
                        vkCmdEndRenderPass(cmd);
                    },
                    {&image});
}

} // namespace floe::view
