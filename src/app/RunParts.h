// The parts of a run's world (app/RunWorld.h), one per kind, each in its own file:
// FluidPart.cpp, DeformablePart.cpp, FracturePart.cpp. The world builds them in this order.
#pragma once

#include <memory>

#include "app/RunWorld.h"
#include "body/BodySettings.h"
#include "fracture/FractureSettings.h"

namespace floe {

// The scene's deformable bodies (with RigidBodies as their static obstacles); measures their
// initial energy (submits and waits).
// `settings`: the window's, else the scene's (bodySettings).
std::unique_ptr<RunPart> makeDeformablePart(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                                            const Scene& scene, const body::BodySettings* settings, body::DeformableBodies*& bodies,
                                            bool withFluid);
// The scene's fracture bodies (with the dynamic RigidBodies among them); measures their
// initial energy (submits and waits).
// `settings`: the window's, else the scene's (fractureSettings).
std::unique_ptr<RunPart> makeFracturePart(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                                          const Scene& scene, const fracture::FractureSettings* settings,
                                          fracture::FractureBodies*& bodies, bool withFluid);
// The scene's fluid, sampled clear of the solids (`leftOut`: the particles sampleFluid left out).
// `alone`: no solids; its own energy bound and its CFL steps apply (else the world checks fluid
// and solids together).
std::unique_ptr<RunPart> makeFluidPart(gpu::Context& context, sim::Simulation& fluid, const coupling::FluidSolidCoupling* coupling,
                                       double energyLimit, bool alone, uint64_t leftOut);

// The fracture part's initial elastic energy (J): the world's energy limit includes it.
double initialStrainEnergy(const RunPart& fracturePart);

} // namespace floe
