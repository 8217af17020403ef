#include "gpuplan/estimate/SpotModel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace gpuplan::core {

namespace {

constexpr double kHoursPerMonth = 730;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

double percentile(std::vector<double>& values, double fraction)
{
    if (values.empty()) {
        return 0;
    }
    const auto k = static_cast<std::size_t>(std::ceil(fraction * double(values.size()))) - 1;
    std::nth_element(values.begin(), values.begin() + long(k), values.end());
    return values[k];
}

} // namespace

double mtbfFromMonthlyProbability(double probability)
{
    if (!(probability > 0)) {
        return kInfinity;
    }
    probability = std::min(probability, 0.999999);
    return -kHoursPerMonth / std::log1p(-probability);
}

double youngInterval(double checkpointHours, double mtbfHours)
{
    return std::isinf(mtbfHours) ? kInfinity : std::sqrt(2 * checkpointHours * mtbfHours);
}

double dalyInterval(double checkpointHours, double mtbfHours)
{
    if (std::isinf(mtbfHours)) {
        return kInfinity;
    }
    const double delta = checkpointHours;
    const double m = mtbfHours;
    if (delta >= 2 * m) {
        return m;
    }
    return std::sqrt(2 * delta * m) * (1 + std::sqrt(delta / (2 * m)) / 3 + delta / (18 * m)) - delta;
}

double expectedWallHours(const SpotScenario& s)
{
    const double tau = s.intervalHours > 0 ? std::min(s.intervalHours, s.workHours) : s.workHours;
    if (s.workHours <= 0) {
        return 0;
    }
    if (std::isinf(s.mtbfHours)) {
        return s.workHours * (tau + s.checkpointHours) / tau;
    }
    const double m = s.mtbfHours;
    return m * std::exp(s.restartHours / m) * std::expm1((tau + s.checkpointHours) / m) * s.workHours / tau;
}

SpotOutcome simulateSpot(const SpotScenario& s, int runs, std::uint64_t seed)
{
    SpotOutcome outcome;
    if (s.workHours <= 0 || runs <= 0) {
        return outcome;
    }
    const double tau = s.intervalHours > 0 ? std::min(s.intervalHours, s.workHours) : s.workHours;
    const double segment = tau + s.checkpointHours;
    const auto fullSegments = static_cast<long>(std::floor(s.workHours / tau));
    const double remainder = s.workHours - double(fullSegments) * tau;
    // The run as a list of segments: fullSegments of `segment` hours, then the remainder (+ checkpoint).
    const double lastSegment = remainder > 1e-12 ? remainder + s.checkpointHours : 0;
    const long segments = fullSegments + (lastSegment > 0 ? 1 : 0);

    if (std::isinf(s.mtbfHours)) {
        const double wall = double(fullSegments) * segment + lastSegment;
        outcome.meanHours = outcome.p10Hours = outcome.p25Hours = outcome.p50Hours = outcome.p75Hours =
            outcome.p90Hours = wall;
        return outcome;
    }

    std::mt19937_64 random(seed);
    std::exponential_distribution<double> nextInterruption(1.0 / s.mtbfHours);
    std::vector<double> hours(static_cast<std::size_t>(runs));
    std::vector<double> interruptions(static_cast<std::size_t>(runs));
    double hoursSum = 0;
    double interruptionSum = 0;
    for (int run = 0; run < runs; ++run) {
        double wall = 0;
        long done = 0;  // segments completed and checkpointed
        long stops = 0; // interruptions
        bool restarting = false;
        while (done < segments) {
            double left = nextInterruption(random);
            if (restarting) {
                if (left < s.restartHours) { // interrupted again while restarting
                    wall += left;
                    ++stops;
                    continue;
                }
                left -= s.restartHours;
                wall += s.restartHours;
                restarting = false;
            }
            // Whole segments that finish before the interruption.
            const long fullLeft = fullSegments - std::min(done, fullSegments);
            const long canFinish = std::min<long>(fullLeft, static_cast<long>(std::floor(left / segment)));
            done += canFinish;
            wall += double(canFinish) * segment;
            left -= double(canFinish) * segment;
            if (done == fullSegments && lastSegment > 0 && done < segments && left >= lastSegment) {
                done += 1;
                wall += lastSegment;
                left -= lastSegment;
            }
            if (done >= segments) {
                break;
            }
            wall += left; // work lost since the last checkpoint
            ++stops;
            restarting = true;
        }
        hours[std::size_t(run)] = wall;
        interruptions[std::size_t(run)] = double(stops);
        hoursSum += wall;
        interruptionSum += double(stops);
    }
    outcome.meanHours = hoursSum / runs;
    outcome.meanInterruptions = interruptionSum / runs;
    outcome.p10Hours = percentile(hours, 0.1);
    outcome.p25Hours = percentile(hours, 0.25);
    outcome.p50Hours = percentile(hours, 0.5);
    outcome.p75Hours = percentile(hours, 0.75);
    outcome.p90Hours = percentile(hours, 0.9);
    outcome.p90Interruptions = percentile(interruptions, 0.9);
    return outcome;
}

} // namespace gpuplan::core
