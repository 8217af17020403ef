#pragma once

namespace gpuplan::core {

/// A figure with its uncertainty: the central estimate and a low/high bound (low <= value <= high).
struct Range
{
    double value = 0;
    double low = 0;
    double high = 0;

    static Range exact(double v) { return {v, v, v}; }
    Range operator*(double factor) const { return {value * factor, low * factor, high * factor}; }
    Range operator+(const Range& other) const { return {value + other.value, low + other.low, high + other.high}; }
    bool operator==(const Range&) const = default;
};

} // namespace gpuplan::core
