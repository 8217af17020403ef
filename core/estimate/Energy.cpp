#include "gpuplan/estimate/Energy.h"

namespace gpuplan::core {

EnergyEstimate estimateEnergy(const EnergyInputs& in)
{
    EnergyEstimate e;
    e.kwh = in.gpus * (in.gpuWatts * in.powerFraction + in.hostWattsPerGpu) * in.pue * in.hours / 1000;
    if (in.kgCo2ePerKwh) {
        e.kgCo2e = e.kwh * *in.kgCo2ePerKwh;
    }
    return e;
}

} // namespace gpuplan::core
