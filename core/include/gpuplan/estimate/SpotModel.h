#pragma once

#include <cstdint>

namespace gpuplan::core {

/// A run on interruptible (spot / preemptible) capacity that saves checkpoints.
/// All times in hours. Interruptions arrive as a Poisson process with mean time between them `mtbfHours`.
struct SpotScenario
{
    double workHours = 0;       // uninterrupted compute the run needs (W)
    double mtbfHours = 0;       // mean time between interruptions (M); infinity: never interrupted
    double checkpointHours = 0; // time to write one checkpoint (delta)
    double restartHours = 0;    // time to get new capacity and reload the last checkpoint (R)
    double intervalHours = 0;   // compute between checkpoints (tau)
};

/// What a scenario comes to.
struct SpotOutcome
{
    double meanHours = 0; // wall-clock hours to finish, including checkpoints, lost work and restarts
    double p10Hours = 0;
    double p25Hours = 0;
    double p50Hours = 0;
    double p75Hours = 0;
    double p90Hours = 0;
    double meanInterruptions = 0;
    double p90Interruptions = 0;
};

/// Probability of being interrupted within a month (730 h) -> mean time between interruptions in hours:
/// M = -730 / ln(1 - p). p <= 0 gives infinity; p >= 1 is clamped just below 1.
double mtbfFromMonthlyProbability(double probability);

/// Young's optimum checkpoint interval (Young 1974): sqrt(2 delta M).
double youngInterval(double checkpointHours, double mtbfHours);

/// Daly's higher-order optimum (Daly 2006, "A higher order estimate of the optimum checkpoint interval for
/// restart dumps", eq. 37): sqrt(2 delta M) * (1 + sqrt(delta / (2M)) / 3 + delta / (18 M)) - delta for
/// delta < 2M, else M. Infinite M gives infinity (never checkpoint).
double dalyInterval(double checkpointHours, double mtbfHours);

/// Expected wall-clock hours, Daly 2006 eq. 13: M e^(R/M) (e^((tau + delta)/M) - 1) W / tau.
/// With infinite M this is W (tau + delta) / tau.
double expectedWallHours(const SpotScenario& scenario);

/// Monte Carlo simulation of `runs` independent executions with a fixed `seed` (same seed, same result).
/// Segments of `intervalHours` compute followed by a checkpoint; an interruption loses the current segment's
/// progress and costs a restart (which may itself be interrupted). The last segment is the remainder of the
/// work followed by a checkpoint. Thread safe (no shared state).
SpotOutcome simulateSpot(const SpotScenario& scenario, int runs, std::uint64_t seed);

} // namespace gpuplan::core
