// sim::Simulation's recording of solver iterations (sim/sph/IterationRecording.h): how many a step
// records, the counts recent steps needed, and whether a step's solve ran out of them.
#include "sim/Simulation.h"

namespace floe::sim {

int Simulation::iterationsToRecord(const IterationLimits& limits, uint32_t counter)
{
    // A run that can replay a step (app/RunCommand, a fluid alone) records as many iterations as
    // recent steps needed (sim/sph/IterationRecording.h); everything else the solver's cap.
    const int recorded =
        recordingAll_ ? limits.maxIterations : recordedIterations(limits, iterationHistory_[counter], forcedIterations_);
    recorded_[counter] = recorded;
    return recorded;
}

void Simulation::observe(const StepMetrics& m)
{
    if (!(m.dt > 0.0f)) return; // a step after the stop time did nothing
    iterationHistory_[0].add(m.iterations);
    iterationHistory_[1].add(m.divergenceIterations);
}

bool Simulation::stoppedShort(const StepMetrics& m, const RecordedIterations& recorded) const
{
    if (!(m.dt > 0.0f)) return false;
    // The solve ran every recorded iteration and had not converged (the GPU's rule,
    // sph/solver_stop.glsl: at least the minimum, which the recorded count never undercuts, and the
    // error at most the tolerance, the same floats compared), though its cap allowed more. A PCISPH
    // solve that stalled at its last recorded iteration looks the same and is replayed too: the
    // replay stops where it stopped.
    const auto cut = [](uint32_t iterations, float error, int recordedCount, const IterationLimits& limits) {
        return recordedCount > 0 && recordedCount < limits.maxIterations && int(iterations) == recordedCount &&
               !(error <= limits.tolerance);
    };
    return cut(m.iterations, m.solverError, recorded.pressure, settings_.limits(settings_.pressureSolver())) ||
           cut(m.divergenceIterations, m.divergenceError, recorded.divergence, settings_.divergenceLimits());
}

} // namespace floe::sim
