#pragma once
// The simulated timeline as Chrome trace JSON (opens in Perfetto and chrome://tracing), written by
// both `sightline-cli simulate --export-trace` and the GUI's File > Export simulated trace.
#include "sim/Simulator.h"
#include "trace/TraceSet.h"

#include <ostream>
#include <string>

namespace sl {

// The input's tracks with simulated ts / dur (us): one process per (rank, pid or device), the
// original thread and stream ids, the measured start and the correlation in each event's args.
// Events without a simulated time (outside the window) and instants are left out.
void writeSimulatedChromeTrace(std::ostream& out, const TraceSet& set, const SimulatedTimeline& timeline);

// The same into a file. Throws WriteError(path, ...) when the file cannot be written.
void writeSimulatedChromeTraceFile(const std::string& path, const TraceSet& set,
                                   const SimulatedTimeline& timeline);

} // namespace sl
