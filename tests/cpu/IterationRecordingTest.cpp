// The number of Jacobi iterations a step records (sim/sph/IterationRecording.h): the rule, its
// bounds, the history's window and FLOE_RECORD_ITERATIONS.
#include <cstdlib>

#include <gtest/gtest.h>

#include "base/Error.h"
#include "sim/sph/IterationRecording.h"

namespace floe::sim {
namespace {

TEST(IterationRecording, RecordsTwiceTheRecentMostPlusFourWithinTheSolversBounds)
{
    IterationLimits limits;
    limits.minIterations = 2;
    limits.maxIterations = 100;
    IterationHistory history;
    EXPECT_FALSE(history.most().has_value());
    EXPECT_EQ(recordedIterations(limits, history), 12); // no history yet: as if 4 were needed
    history.add(3);
    history.add(7);
    history.add(5);
    EXPECT_EQ(history.most(), 7u);
    EXPECT_EQ(recordedIterations(limits, history), 18);
    history.add(60);
    EXPECT_EQ(recordedIterations(limits, history), 100); // never past the cap
    limits.maxIterations = 5;
    EXPECT_EQ(recordedIterations(limits, history), 5);
    // Never below the minimum, nor 1; a forced count is bounded the same way.
    limits = {};
    limits.minIterations = 20;
    limits.maxIterations = 100;
    EXPECT_EQ(recordedIterations(limits, IterationHistory{}), 20);
    EXPECT_EQ(recordedIterations(limits, IterationHistory{}, 3), 20);
    limits.minIterations = 0;
    EXPECT_EQ(recordedIterations(limits, IterationHistory{}, 0), 1);
    EXPECT_EQ(recordedIterations(limits, IterationHistory{}, 1 << 30), 100);
    // A minimum above the cap: the cap.
    limits.minIterations = 50;
    limits.maxIterations = 10;
    EXPECT_EQ(recordedIterations(limits, IterationHistory{}), 10);
}

TEST(IterationRecording, TheHistoryForgetsStepsOutsideItsWindow)
{
    IterationHistory history;
    history.add(40);
    for (uint32_t i = 0; i < IterationHistory::kWindow - 1; ++i) history.add(2);
    EXPECT_EQ(history.most(), 40u);
    history.add(2); // the 40 leaves the window
    EXPECT_EQ(history.most(), 2u);
    history.clear();
    EXPECT_FALSE(history.most().has_value());
}

TEST(IterationRecording, TheEnvironmentVariableIsCheckedAndNamedInItsError)
{
    const char* name = "FLOE_RECORD_ITERATIONS";
    ::unsetenv(name);
    EXPECT_FALSE(recordIterationsFromEnvironment().has_value());
    ::setenv(name, "adaptive", 1);
    EXPECT_FALSE(recordIterationsFromEnvironment().has_value());
    ::setenv(name, "7", 1);
    EXPECT_EQ(recordIterationsFromEnvironment(), 7);
    ::setenv(name, "all", 1);
    EXPECT_GE(recordIterationsFromEnvironment().value_or(0), 100000);
    for (const char* bad : {"0", "-3", "7x", "lots", "100001"}) {
        ::setenv(name, bad, 1);
        try {
            (void)recordIterationsFromEnvironment();
            ADD_FAILURE() << "accepted " << bad;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(std::string("FLOE_RECORD_ITERATIONS is '") + bad + "'"), std::string::npos)
                << e.what();
        }
    }
    ::unsetenv(name);
}

} // namespace
} // namespace floe::sim
