// The parts of a run's world (app/RunWorld.h), one per kind, each in its own file:
// FluidPart.cpp, DeformablePart.cpp, FracturePart.cpp. The world builds them in this order.
#pragma once

#include <memory>

#include "app/RunWorld.h"
#include "body/BodySettings.h"
#include "fracture/FractureSettings.h"

namespace floe {

// The scene's deformable bodies (with RigidBodies as their static obstacles).
std::unique_ptr<RunPart> makeDeformablePart(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                                            const Scene& scene, body::DeformableBodies*& bodies);
// The scene's fracture bodies (with the dynamic RigidBodies among them); measures their
// initial energy (submits and waits).
std::unique_ptr<RunPart> makeFracturePart(gpu::Context& context, const gpu::ShaderLibrary& shaders, graph::RenderGraph& graph,
                                          const Scene& scene, fracture::FractureBodies*& bodies, bool withFluid);
// The scene's fluid, sampled clear of the solids. `alone`: no solids; its own energy bound and
// its CFL steps apply (else the world checks fluid and solids together).
std::unique_ptr<RunPart> makeFluidPart(gpu::Context& context, const Scene& scene, sim::Simulation& fluid,
                                       const coupling::FluidSolidCoupling* coupling, double energyLimit, bool alone);

// The fracture part's initial elastic energy (J): the world's energy limit includes it.
double initialStrainEnergy(const RunPart& fracturePart);

} // namespace floe
