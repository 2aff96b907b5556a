// The energy account of a solid's run (issue 17 item 3; docs/fracture.md, *Energy*): the
// mechanical energy (kinetic, potential -m g . x, elastic) and what the damping, the fracture,
// the contacts and the solver have taken from it since the start.
//
// Damping and fracture are measured where they act. Contacts and the position-based solve
// cannot be told apart within a step: a contact's push and the elastic answer to it are one
// projection. What the measured terms leave, initial - (mechanical + damping + fracture), is
// therefore booked by step: to the contacts in a step with a contact (walls, floor, other
// fragments), to the solver in one without (its own loss in free flight, measured the same way).
// That remainder must not fall below zero: energy gained from nothing is reported.
#pragma once

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

namespace floe {

struct EnergyAccount {
    double initial = 0;                                        // J, kinetic + potential + elastic at the start
    double damping = 0, fracture = 0, contact = 0, solver = 0; // J taken since the start
    double mechanical = 0;                                     // J, at the end of the latest step
    double mostGained = 0;                                     // J, the most the mechanical energy exceeded what the terms allow

    explicit EnergyAccount(double initialEnergy) : initial(initialEnergy), mechanical(initialEnergy) {}

    double remainder() const { return contact + solver; }

    // One step: its mechanical energy at the end, what the damping and the fracture took during
    // it, and whether anything touched.
    void add(double kinetic, double potential, double elastic, double dampingStep, double fractureStep, bool touched)
    {
        damping += dampingStep;
        fracture += fractureStep;
        mechanical = kinetic + potential + elastic;
        const double left = initial - (mechanical + damping + fracture);
        (touched ? contact : solver) += left - remainder();
        mostGained = std::max(mostGained, -left);
    }

    // Its state as seven numbers, for saved states, and back.
    std::vector<double> values() const { return {initial, damping, fracture, contact, solver, mechanical, mostGained}; }
    void restore(const std::vector<double>& v)
    {
        initial = v.at(0), damping = v.at(1), fracture = v.at(2), contact = v.at(3);
        solver = v.at(4), mechanical = v.at(5), mostGained = v.at(6);
    }

    nlohmann::ordered_json json() const
    {
        return {{"initial_J", initial},      {"final_J", mechanical},   {"damping_loss_J", damping},  {"fracture_loss_J", fracture},
                {"contact_loss_J", contact}, {"solver_loss_J", solver}, {"most_gained_J", mostGained}};
    }
};

} // namespace floe
