#pragma once

#include <optional>

namespace gpuplan::core {

/// What a run draws from the grid.
struct EnergyInputs
{
    int gpus = 0;
    double gpuWatts = 0;                // board power (TDP) per GPU
    double powerFraction = 0.8;         // average draw as a share of TDP while training
    double hostWattsPerGpu = 0;         // CPUs, memory, network per GPU
    double pue = 1;                     // the data centre's power usage effectiveness
    double hours = 0;                   // wall-clock hours
    std::optional<double> kgCo2ePerKwh; // the grid's carbon intensity; nullopt when unknown
};

struct EnergyEstimate
{
    double kwh = 0;               // gpus * (gpuWatts * powerFraction + hostWattsPerGpu) * pue * hours / 1000
    std::optional<double> kgCo2e; // kwh * intensity; nullopt when the intensity is unknown
};

EnergyEstimate estimateEnergy(const EnergyInputs& inputs);

} // namespace gpuplan::core
