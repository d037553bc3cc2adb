#pragma once
// Pinned time: the part of a replay's critical path that is measured time without a cause in the
// graph, which no knob can move (docs/ARCHITECTURE.md, "Pinned time"). A what-if that barely moves
// the step names the pin that holds it.
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

enum class PinKind : std::uint8_t {
    LateStart,       // before a rank's first profiled event (its root's boundary condition)
    UnexplainedWait, // CPU time between calls that no profiled op covers
    QueueHead,       // a GPU op queued before the window, released at its measured start
    PhantomWait,     // waiting for peers missing from the rank set (their measured skew)
    LaunchWait,      // a GPU op's wait that nothing explains (the residual of a long device wait)
    Count
};
constexpr int kPinKindCount = static_cast<int>(PinKind::Count);
// "late_start", "unexplained_wait", "queue_head", "phantom_wait", "launch_wait".
std::string_view pinKindName(PinKind k);

// The largest single pin: the node it belongs to and how long it holds the path.
struct Pin {
    PinKind kind = PinKind::LateStart;
    NodeId node = kNoNode;
    TimeNs time = 0;
};

struct RankPinnedTime {
    int rank = 0;          // Rank::rank id
    TimeNs pathLength = 0; // critical path that ends at the rank's last node
    std::array<TimeNs, kPinKindCount> byKind{};
    Pin largest;
    TimeNs total() const;
    double sharePct() const; // total / pathLength x 100
};

// Per loaded rank (parallel to TraceSet::ranks): the pins on the critical path that ends at the
// rank's last node in `replay`.
// With `jobPath`, also the totals of the job's critical path (criticalPathTotals), from the same
// walk where the job ends on a loaded rank's last node.
std::vector<RankPinnedTime> pinnedTime(const ExecutionGraph& graph, const SimResult& replay,
                                       CriticalPath* jobPath = nullptr);

// The pins of one critical path.
RankPinnedTime pinsOnPath(const ExecutionGraph& graph, const SimResult& result, const CriticalPath& path);
// The pins of the critical path that ends at `end`, walked without keeping its segments.
RankPinnedTime pinsOnPathTo(const ExecutionGraph& graph, const SimResult& result, SimNodeRef end);

// One sentence naming a pin ("a 57.0 ms device wait with no cause before Memcpy DtoH on rank 0").
std::string describePin(const ExecutionGraph& graph, const Pin& pin);

} // namespace sl
