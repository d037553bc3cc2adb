#pragma once
// Ranks loaded without CPU-side records (a GPU-only set: a profiler that recorded kernels but no
// runtime calls, docs/Formats.md, "GPU-only sets"): their GPU queues replay in stream order
// from their measured heads, and a knob that acts on the host has nothing to act on there. Each
// such knob that is set gets one warning naming it and the ranks, instead of a silent no-op.
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"

namespace sl {

void warnHostKnobsOnGpuOnlyRanks(const ExecutionGraph& g, const SimKnobs& knobs, Warnings& out);

} // namespace sl
