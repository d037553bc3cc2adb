#pragma once
// How the host knobs re-time CPU time on a graph (docs/ARCHITECTURE.md, "Host work"): which CPU time
// is launch and dispatch and which is CPU compute (host.dispatch, host.compute), which falls inside a
// CPU op, python function or annotation matching cpu.speedup[<regex>], and which is a data wait under
// a worker pool (data.workers, data.speedup).
#include "graph/ExecutionGraph.h"
#include "sim/DataLoaderModel.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sl {

// host.dispatch / host.compute as duration factors (1 / the knob): < 1 faster, > 1 slower.
struct HostFactors {
    double dispatch = 1.0;
    double compute = 1.0;
    bool active() const { return dispatch != 1.0 || compute != 1.0; }
};

// Ops that only make a new view or allocate (aten::view, aten::empty, ...): framework dispatch even
// where they issue no GPU work.
bool isMetadataOpName(std::string_view name);

// CPU compute: an op that issues no GPU work (no runtime or driver call inside it) and is not part of
// a GPU op's dispatch. `kind` is the op's kind; `insideLaunchingCpuOp` says its innermost enclosing
// cpu_op issues GPU work (aten::t inside aten::linear is dispatch). Python functions of the
// framework itself ("torch/...") are dispatch; DataLoader iterator ops are always compute.
bool isHostComputeOp(EventKind kind, std::string_view name, bool launches, bool insideLaunchingCpuOp);

// A stretch of a CPU thread (a graph processor) that the simulated job does not run: the host
// calls of a collective a new layout removes (tp.degree=1).
struct RemovedSpan {
    std::uint32_t processor = 0;
    TimeNs start = 0, end = 0;
};

class CpuRegions {
public:
    // patterns: (ECMAScript regex, speedup), any speedup > 0, +inf removes the region; `removed`
    // spans are removed as an inf pattern's regions are.
    CpuRegions(const ExecutionGraph& g, const std::vector<std::pair<std::string, double>>& patterns,
               DataLoaderKnobs data = {}, HostFactors host = {},
               const std::vector<RemovedSpan>& removed = {});

    bool empty() const { return empty_; }
    // Data waits (DataLoader iterator ops) re-timed by data.workers / data.speedup.
    std::int64_t dataWaits() const { return dataWaits_; }
    // CPU time inside compute regions over the whole graph (measured, every CPU thread).
    TimeNs computeTime() const { return computeTime_; }
    // Duration factor of a CPU call node: dispatch x the cpu.speedup[] region around it (0 inside a
    // removed one).
    double nodeFactor(NodeId n) const;
    // The CPU work `covered` (the part of [a, b) that ops cover) on the thread of CPU node
    // `onThreadOf`, re-timed: dispatch outside every region, compute inside compute regions, the
    // data-wait and cpu.speedup[] factors where they hold.
    TimeNs work(NodeId onThreadOf, TimeNs a, TimeNs b, TimeNs covered) const;

private:
    struct Piece {
        TimeNs start, end;
        double work; // factor of CPU work inside the piece
        double call; // factor of a call inside it
    };
    const ExecutionGraph& g_;
    bool empty_ = true;
    double dispatch_ = 1.0; // outside every piece
    std::int64_t dataWaits_ = 0;
    TimeNs computeTime_ = 0;
    // Per processor (CPU threads only): disjoint pieces sorted by start where a factor differs from
    // the dispatch factor.
    std::vector<std::vector<Piece>> pieces_;
    const Piece* pieceAt(std::uint32_t processor, TimeNs t) const;
};

} // namespace sl
