#pragma once
// Durations, edge delays and release times under the knobs (docs/ARCHITECTURE.md, "Simulator"):
// with every knob at its default, the graph's own values (a replay). The job-wide knobs are folded
// in once per node and edge; what differs between ranks (a straggler, a slow node, jitter:
// sim/RankVariation.h) is applied when a value is asked for, so a rank added by dp.degree can run
// its source rank's nodes with a variation of its own.
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "sim/RankVariation.h"
#include "sim/SetupEdits.h"

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace sl {

struct GpuSwap; // sim/GpuSwap.h

// An edge delay so negative that the edge never determines a time.
constexpr TimeNs kEdgeNeverBinds = std::numeric_limits<TimeNs>::min() / 8;

class KnobTiming {
public:
    // Plans gpu.target, re-times collectives (comm.model, dp.scale, dp.degree) and folds every
    // job-wide knob; warnings about knobs that changed nothing go to `warnings`.
    KnobTiming(const ExecutionGraph& graph, const SimKnobs& knobs, const SetupEditPlan& plan,
               Warnings& warnings);

    // Node i's duration on a rank with variation v.
    TimeNs duration(NodeId i, const RankVariation& v) const;
    // Edge e's delay, v being the variation of the rank of e.to (every edge but a collective one
    // stays on one rank; a collective edge's delay is its target's transfer time).
    TimeNs delay(EdgeId e, const RankVariation& v) const;
    // Node i's release time (boundary conditions; 0 for the others), relative to its rank's origin.
    TimeNs release(NodeId i, const RankVariation& v) const;
    // What of a rank's variation node i's duration follows: its host (CPU calls), its GPU (compute
    // kernels, copies, sets) or neither (a collective's transfer; a replay). A variation of 1 there
    // gives duration(i, RankVariation{}) exactly. Delays and release times follow the host alone.
    enum class VariedBy : std::uint8_t { None, Host, Gpu };
    VariedBy durationVariedBy(NodeId i) const;

    const std::shared_ptr<const GpuSwap>& swap() const { return swap_; }

private:
    enum class Work : std::uint8_t { Cpu, GpuCompute, Comm };
    const ExecutionGraph& g_;
    const SetupEditPlan& plan_;
    bool replay_ = false;
    double cpuFactor_ = 1.0; // 1 / cpu.speedup
    double commSpeedup_ = 1.0;
    TimeNs launch_ = -1; // launch.latency_us in ns, < 0: from the trace
    std::shared_ptr<const GpuSwap> swap_;
    std::vector<TimeNs> base_;             // per node: the duration the knob factors apply to
    std::vector<double> factor_;           // per node: CPU: the cpu.speedup[] region factor; GPU: per name
    std::vector<Work> work_;               // per node
    std::vector<TimeNs> edgeWork_;         // per edge: thread gaps' CPU work left after cpu.speedup[] regions
    std::vector<TimeNs> rootWork_;         // per node: a root's CPU work before its first call, likewise
    std::vector<std::uint8_t> neverBinds_; // per edge: a sync inside a removed region, a dropped peer
    // per node: a collective kernel the new layout removes (tp.degree=1); empty when none
    std::vector<std::uint8_t> removedComm_;
};

} // namespace sl
