#pragma once
#include "trace/TraceSet.h"

#include <nlohmann/json.hpp>

namespace sl {

// The summary that `sightline-cli info` prints: per rank its id, device, world size, event counts by
// kind, tracks, time span, collectives by type, GPU ops without a launch, and warnings.
nlohmann::json traceInfoJson(const TraceSet& set);

} // namespace sl
