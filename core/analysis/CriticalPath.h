#pragma once
// Critical path of a simulated schedule (docs/ARCHITECTURE.md, "Analyses"): walked back from the node that
// finishes last through the edge that released each node, across ranks through collectives.
#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"
#include "trace/EmbeddingWork.h"

#include <array>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

enum class PathLabel : std::uint8_t {
    GpuCompute,
    GpuComm,
    CollectiveWait,
    Cpu,
    LaunchLatency,
    Sync,
    Idle,
    LateStart,       // before a rank's first event: the rank started late (a boundary condition)
    UnexplainedWait, // CPU time between calls that no cpu_op / annotation covers
    Count
};
constexpr int kPathLabelCount = static_cast<int>(PathLabel::Count);
// "gpu_compute", "gpu_comm", "collective_wait", "cpu", "launch_latency", "sync", "idle",
// "late_start", "unexplained_wait".
std::string_view pathLabelName(PathLabel l);

struct PathSegment {
    NodeId node = kNoNode; // the node the time belongs to (for gaps: the node that waited)
    EdgeId edge = kNoEdge; // for gaps: the edge crossed
    TimeNs start = 0;      // simulated, in the node's rank clock
    TimeNs end = 0;
    PathLabel label = PathLabel::Idle;
    // CPU time between calls and before a rank's first call: the innermost profiled op (cpu_op,
    // python_function, user_annotation; graph/CpuCoverage.h) that ran then, on the node's rank and
    // thread; invalid where no op ran (unexplained_wait, or late_start before the rank's first event).
    EventRef op;
    // The rank added by dp.degree that ran `node` (index into SimResult::addedRanks), -1: the
    // node's own rank.
    std::int32_t added = -1;
    SimNodeRef ref() const { return {node, added}; }
};

// What a segment's time is named after (`critical-path --by name`, the path table): the op that
// ran for CPU time between calls, "unexplained_wait" for such time that no op covers, "late_start"
// before a rank's first event, otherwise the node (for other gaps: the node that waited).
std::string_view pathSegmentName(const ExecutionGraph& graph, const PathSegment& segment);

// The embedding work a segment's time is (docs/Embeddings.md, "On the critical path"): GPU time and
// collective waits of an embedding lookup kernel or of a collective of TorchRec's embedding
// all-to-all; None for every other segment.
EmbeddingWork pathSegmentWork(const ExecutionGraph& graph, const PathSegment& segment);

struct CriticalPath {
    TimeNs length = 0; // sum of segment lengths
    std::array<TimeNs, kPathLabelCount> byLabel{};
    // The path's time in embedding lookups and in the embedding all-to-all (pathSegmentWork), a
    // part of byLabel's gpu_compute / gpu_comm / collective_wait.
    TimeNs embeddingLookup = 0;
    TimeNs embeddingAllToAll = 0;
    std::vector<PathSegment> segments; // in time order
    // Nodes on the path by their time on it, longest first.
    std::vector<std::pair<SimNodeRef, TimeNs>> topNodes;

    // `t` as a percentage of the path's length (0 for an empty path).
    double sharePct(TimeNs t) const {
        return length > 0 ? 100.0 * static_cast<double>(t) / static_cast<double>(length) : 0.0;
    }
};

// The critical path of the whole job. Decision on the length across ranks (docs/ARCHITECTURE.md: the path
// crosses ranks through collectives): the walk starts at the node that finishes last on any rank
// and follows binding edges; where a collective's end was held by a peer (the latest participant
// to arrive holds the others) it continues on that peer's rank, so one path may visit several
// ranks. Segments are contiguous in simulated time, so `length` is the end of the last node minus
// the origin of the rank where the path begins: with one host clock (the usual case) that is the
// simulated job iteration measured from the first rank's first event. HTA's lightweight critical
// path is per rank and never leaves it; ours differs exactly where a collective wait is bound by
// another rank (that time is then attributed to the peer's work instead of collective_wait).
CriticalPath criticalPath(const ExecutionGraph& graph, const SimResult& result, std::size_t topCount = 10);

// The path that ends at `end` (e.g. the last node of one rank, for `critical-path --rank R`).
CriticalPath criticalPathFrom(const ExecutionGraph& graph, const SimResult& result, SimNodeRef end,
                              std::size_t topCount = 10);
inline CriticalPath criticalPathFrom(const ExecutionGraph& graph, const SimResult& result, NodeId end,
                                     std::size_t topCount = 10) {
    return criticalPathFrom(graph, result, SimNodeRef{end, -1}, topCount);
}

// The totals of the path without its segments (`segments` stays empty): length, time per label,
// the top nodes, with the memory of the totals only. For summaries; the segments of a long trace
// run to millions.
CriticalPath criticalPathTotals(const ExecutionGraph& graph, const SimResult& result,
                                std::size_t topCount = 10);
// `visit`, where given, also sees each segment (last first): another summary from the same walk.
CriticalPath criticalPathTotalsFrom(const ExecutionGraph& graph, const SimResult& result, SimNodeRef end,
                                    std::size_t topCount = 10,
                                    const std::function<void(const PathSegment&)>& visit = {});

// Each segment of the path that ends at `end`, last first, none kept.
void forEachPathSegmentBackwards(const ExecutionGraph& graph, const SimResult& result, SimNodeRef end,
                                 const std::function<void(const PathSegment&)>& visit);

// The path summed by pathSegmentName (CPU time between calls under the op that ran, uncovered time
// as unexplained_wait, other gaps under the node that waited), longest first: which ops bound the step.
struct PathNameShare {
    std::string name;
    // Embedding work is summed apart from other work of the same name (a SendRecv kernel of the
    // embedding all-to-all is not one of a pipeline's sends).
    EmbeddingWork work = EmbeddingWork::None;
    PathLabel label = PathLabel::Idle; // the label holding most of this name's time
    TimeNs time = 0;
    std::int64_t segments = 0;
};
std::vector<PathNameShare> criticalPathByName(const ExecutionGraph& graph, const CriticalPath& path);

// The node of rank index `rank` that finishes last in the simulation (kNoNode when none).
NodeId lastNodeOfRank(const ExecutionGraph& graph, const SimResult& result, std::uint32_t rank);

} // namespace sl
