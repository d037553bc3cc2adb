#pragma once
// The knob cpu.speedup[<regex>] on a graph: which CPU time falls inside a matching CPU op,
// python function or annotation, and by how much it shrinks (docs/ARCHITECTURE.md, "Simulator").
#include "graph/ExecutionGraph.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sl {

// data.workers / data.speedup: the host's data waits (DataLoader iterator ops) under a worker pool
// (docs/ARCHITECTURE.md, "Data waits").
struct DataLoaderKnobs {
    int workers = 0;      // 0: loading stays in the main process
    double speedup = 1.0; // per-batch load time / speedup
    bool active() const { return workers > 0 || speedup != 1.0; }
};

// True for the ops during which the host waits for (or loads) a batch: PyTorch's DataLoader
// iterator ops ("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", ...).
bool isDataLoaderOpName(std::string_view name);

class CpuRegions {
public:
    // patterns: (ECMAScript regex, speedup), speedup may be +inf (the region is removed).
    CpuRegions(const ExecutionGraph& g, const std::vector<std::pair<std::string, double>>& patterns,
               DataLoaderKnobs data = {});

    bool empty() const { return empty_; }
    // Data waits (DataLoader iterator ops) re-timed by data.workers / data.speedup.
    std::int64_t dataWaits() const { return dataWaits_; }
    // Duration factor of a CPU call node (1 outside every region, 0 inside a removed one).
    double nodeFactor(NodeId n) const;
    // Time saved inside [a, b) on the thread of CPU node `onThreadOf` (b <= a: 0).
    TimeNs saved(NodeId onThreadOf, TimeNs a, TimeNs b) const;

private:
    struct Piece {
        TimeNs start, end;
        double factor; // < 1
    };
    const ExecutionGraph& g_;
    bool empty_ = true;
    std::int64_t dataWaits_ = 0;
    // Per processor (CPU threads only): disjoint pieces sorted by start, with the strongest
    // factor of the regions covering them.
    std::vector<std::vector<Piece>> pieces_;
    const Piece* pieceAt(std::uint32_t processor, TimeNs t) const;
};

} // namespace sl
