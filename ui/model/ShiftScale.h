#pragma once
// How far the simulated pane's shift colours reach (the "Colour by shift" view, ui/timeline/
// TimelineRenderer.h, shiftBin): the 90th percentile of the run's kernel start error, so most
// shifts fall inside the scale and only the outliers saturate.
#include "sim/Simulator.h"

#include <algorithm>

namespace sl::ui {

inline TimeNs shiftColourScale(const SimResult& result) {
    return static_cast<TimeNs>(std::max(1.0, result.kernelStartError.p90Us) * 1000.0);
}

} // namespace sl::ui
