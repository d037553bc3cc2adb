#pragma once
// The collective model that comm.* knobs ask for (docs/ARCHITECTURE.md, "Simulator"). It lives in
// sim/ because it reads knobs: models/ knows bandwidths and algorithms, not knobs, so the layers
// depend one way (sim -> models).
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "structure/CollectiveCalls.h"

#include <string>
#include <vector>

namespace sl {

// The model the knobs ask for: their bandwidths / latencies where set, per type overrides, and the
// calibration of the graph for whatever is not set. `warnings` gets what was filled in.
CollectiveModel collectiveModelFor(const ExecutionGraph& graph, const SimKnobs& knobs,
                                   const std::vector<CollectiveCall>& calls, Warnings* warnings);

} // namespace sl
