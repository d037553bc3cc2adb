#pragma once
// Why a what-if moved the iteration as much (or as little) as it did: the share of the replay's
// critical path that the changed knobs act on. A knob that barely moves the answer says why
// instead of printing "-0.0%" (docs/ARCHITECTURE.md, "Analyses").
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include "analysis/CriticalPath.h"

#include <set>
#include <string>

namespace sl {

struct KnobEffect {
    double iterationChangePct = 0; // (what-if - replay) / replay x 100
    // Share of the replay's critical path in the segment kinds the changed knobs act on.
    double targetSharePct = 0;
    // Share of the replay's critical path that is pinned (measured time without a cause:
    // analysis/PinnedTime.h), and the largest pin in words.
    double pinnedSharePct = 0;
    std::string largestPin;
    std::string note; // one sentence; empty when the knobs are the replay defaults
    // gpu.target: the share of the replay's critical path that is host CPU work (-1 without the knob),
    // and, when no host knob describes the target's server and the share is 5% or more, the sentence
    // that says it is kept as traced (docs/ARCHITECTURE.md, "Host work").
    double hostSharePct = -1;
    std::string hostNote;
};

// The critical-path kinds the knobs set away from replay act on (a straggler: every kind).
std::set<PathLabel> knobTargets(const SimKnobs& knobs);

KnobEffect explainKnobEffect(const ExecutionGraph& graph, const SimResult& replay, const SimResult& whatIf,
                             const SimKnobs& knobs);

} // namespace sl
