#pragma once
// The replay / what-if simulator (docs/ARCHITECTURE.md, "Simulator"): a list scheduler over the execution
// graph in which every CPU thread and GPU stream runs one node at a time. With default knobs it
// replays the trace from durations and dependencies alone.
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "sim/DataLoaderModel.h"
#include "sim/Knobs.h"
#include "sim/SetupEdits.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace sl {

struct GpuSwap;   // sim/GpuSwap.h
struct BlockEdit; // sim/BlockEdits.h
struct EditedRun; // below

// NodeTiming::endBoundBy of a collective whose end was held by peers missing from the rank set
// (they arrive at their measured time: GraphNode::phantomArrival).
constexpr EdgeId kPhantomPeers = 0xfffffffdu;

// NodeTiming::endBoundBy of a collective whose end was held by a peer that has no graph edge to it:
// a member on a rank added by dp.degree, or any member for a node of an added rank
// (AddedRankTimes::heldBy names the peer).
constexpr EdgeId kAddedRankPeer = 0xfffffffcu;

struct NodeTiming {
    TimeNs start = -1; // simulated, in the rank's trace clock (comparable with measured times)
    TimeNs end = -1;
    // The incoming edge that released the node (determined its start), kNoEdge when the processor
    // or the node's own release time did.
    EdgeId startBoundBy = kNoEdge;
    // The incoming Sync / Collective edge that determined its end (the simulated wait), kNoEdge
    // when the end is start + duration.
    EdgeId endBoundBy = kNoEdge;
    // The node's own duration under the knobs (for a collective: its transfer time; the rest of
    // end - start is the wait for peers).
    TimeNs own = 0;
};

// Simulated start and duration of every event of one track, aligned with that track's
// EventColumns (same index). Graph nodes get their simulated times; other events in the window
// (cpu_ops, annotations) are shifted with their thread / stream; -1 where unknown (outside the
// step window, or no simulated time could be derived).
struct TrackTimes {
    std::vector<TimeNs> start;
    std::vector<TimeNs> duration;

    TimeNs end(std::size_t i) const { return start[i] < 0 ? -1 : start[i] + duration[i]; }
};

// A GPU op that a graph edit added (a clone of a traced op, sim/BlockEdits.h): not drawn, but
// counted by the simulated breakdowns of its rank.
struct AddedGpuOp {
    std::uint32_t rank = 0; // index into TraceSet::ranks
    EventRef source;        // the traced op it copies (name, device, class)
    TimeNs start = 0, end = 0;
};

struct SimulatedTimeline {
    std::vector<std::vector<TrackTimes>> ranks; // [rank index][track index]
    std::vector<AddedGpuOp> added;              // GPU ops of clones (model.layers), by rank

    const TrackTimes& track(std::size_t rank, std::size_t track) const { return ranks[rank][track]; }
};

struct RankSimSummary {
    int rank = 0; // Rank::rank id
    TimeNs measuredStart = 0, measuredEnd = 0;
    TimeNs simulatedStart = 0, simulatedEnd = 0;
    // GPU span: first GPU op start to last GPU op end (0 / 0 without GPU ops).
    TimeNs measuredGpuStart = 0, measuredGpuEnd = 0;
    TimeNs simulatedGpuStart = 0, simulatedGpuEnd = 0;

    TimeNs measured() const { return measuredEnd - measuredStart; }
    TimeNs simulated() const { return simulatedEnd - simulatedStart; }
    // |simulated - measured| / measured x 100.
    double errorPct() const;
    double gpuSpanErrorPct() const;
};

// Start-time error of GPU ops (pre-window ops, released at their measured start, excluded).
struct StartErrorStats {
    std::int64_t count = 0;
    double medianUs = 0;
    double p90Us = 0;
    double maxUs = 0;
    // The same, as % of the measured iteration of the op's rank, and the share of ops whose
    // start is within 1% of it.
    double medianPct = 0;
    double p90Pct = 0;
    double within1PctShare = 0;
};

// A node of the simulated job: a graph node on its own (loaded) rank, or the copy that a rank added
// by dp.degree runs of its source rank's node.
struct SimNodeRef {
    NodeId node = kNoNode;
    std::int32_t added = -1; // index into AddedRankTimes, -1: the node's own rank
    bool valid() const { return node != kNoNode; }
    friend bool operator==(const SimNodeRef&, const SimNodeRef&) = default;
};

// The ranks a setup edit added (SimulatedSetup::ranks with measured == false), each simulated on
// its own over its source rank's nodes: 16 bytes of times per node and rank, and the edges that
// bound them (docs/AddedRanks.md).
struct AddedRankTimes {
    std::vector<std::uint32_t> setupIndex; // per added rank: index into SimulatedSetup::ranks
    std::vector<std::uint32_t> source;     // per added rank: index into TraceSet::ranks
    std::vector<int> rankId;               // per added rank: its id in the simulated job
    std::vector<std::size_t> offset;       // per added rank: its first slot (count() + 1 entries)
    // Per slot `offset[a] + rankNodes[source[a]]` position: simulated start / end in the source
    // rank's clock, and the edges that bound them (as NodeTiming: kNoEdge, kPhantomPeers,
    // kAddedRankPeer, or a graph edge of the source rank).
    std::vector<TimeNs> start, end;
    std::vector<EdgeId> startBy, endBy;
    std::vector<std::vector<NodeId>> rankNodes; // per trace rank: its graph nodes in id order
    std::vector<std::uint32_t> slotOf;          // per graph node: its position in rankNodes
    std::vector<RankSimSummary> summary;        // per added rank (measured fields: the source's)
    // Collectives whose end a peer held (endBoundBy == kAddedRankPeer), by key(): that peer.
    std::unordered_map<std::uint64_t, SimNodeRef> heldBy;

    // Fills rankNodes, slotOf and offset for `graph` from `source`.
    void indexNodes(const ExecutionGraph& graph);
    std::size_t count() const { return source.size(); }
    bool empty() const { return source.empty(); }
    std::size_t slot(SimNodeRef r) const {
        return offset[static_cast<std::size_t>(r.added)] + slotOf[r.node];
    }
    // One 64-bit key per node of the job (heldBy, per-node sums), and the node back from it.
    static std::uint64_t key(SimNodeRef r) {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(r.added + 1)) << 32) | r.node;
    }
    static SimNodeRef unkey(std::uint64_t key) {
        return {static_cast<NodeId>(key & 0xffffffffu), static_cast<std::int32_t>(key >> 32) - 1};
    }
};

struct SimResult {
    std::vector<NodeTiming> nodes;     // parallel to ExecutionGraph::nodes
    std::vector<RankSimSummary> ranks; // parallel to TraceSet::ranks (pp.degree: stage 0 of each column)
    // pp.degree (docs/Layouts.md): the stages > 0 of each loaded rank's column, [trace rank x stages +
    // stage] (stage 0's entries unused; empty without the knob). `rank` is the stage's id in the job.
    std::vector<RankSimSummary> laneSummary;
    // The job: longest measured and simulated rank iteration.
    TimeNs measuredIteration = 0;
    TimeNs simulatedIteration = 0;
    double iterationErrorPct() const;
    // |simulated - measured| start of every GPU op node (kernels, memcpy, memset) but pre-window ops.
    StartErrorStats kernelStartError;
    NodeId lastNode = kNoNode;   // the node that finishes last (where the critical path starts)
    std::int32_t lastAdded = -1; // ... on this added rank (AddedRankTimes), -1: on its own rank
    bool complete = true;        // false when cancelled
    Warnings warnings;
    SimulatedTimeline timeline; // filled when SimOptions::timeline
    // The simulated job: the loaded ranks, or after a setup edit (dp.degree) its ranks, which may
    // be more than were measured (added ranks are simulated each on its own: `addedRanks`) or fewer
    // (dropped ranks are left out of the iteration and the critical path).
    SimulatedSetup setup;
    AddedRankTimes addedRanks;
    // The timing of any node of the job (an added rank's: reconstructed from AddedRankTimes).
    NodeTiming timing(SimNodeRef r) const;
    SimNodeRef last() const { return {lastNode, lastAdded}; }
    // The rank id of the job a node runs on.
    int rankId(const ExecutionGraph& graph, SimNodeRef r) const;
    // The peer that held a collective's end (endBoundBy == kAddedRankPeer); invalid if none.
    SimNodeRef heldBy(SimNodeRef r) const;
    // gpu.target: the plan that re-timed the GPU ops (per class and kernel, measured vs predicted);
    // null without the knob or when the GPUs could not be identified (see warnings).
    std::shared_ptr<const GpuSwap> gpuSwap;
    // data.workers with data.cores unknown (and DataLoader ops in the trace): the iteration on free
    // cores (simulatedIteration) and on the cores the trace shows busy (sim/DataLoaderModel.h);
    // applies is false otherwise.
    DataLoaderRange dataLoader;
    // Edges a transform laid over the graph for this run (comm.overlap=false:
    // sim/NoOverlapTransform.h); null when none. startBoundBy / endBoundBy ids from
    // graph.edges.size() on are its edges: resolve any id with edge().
    std::shared_ptr<const EdgeOverlay> addedEdges;
    // After a block edit without added ranks: the edited run (EditedRun below); null otherwise.
    std::shared_ptr<const EditedRun> edited;
    const GraphEdge& edge(const ExecutionGraph& graph, EdgeId id) const {
        return id < graph.edges.size() ? graph.edges[id] : addedEdges->edges[id - graph.edges.size()];
    }
};

// After a block edit (model.layers, pp.microbatches: sim/BlockEdits.h) the job ran on an edited copy
// of the graph, in which copied blocks are nodes of their own. SimResult::nodes gives the caller's
// nodes their times in that run; this keeps the run itself, so that the critical path can walk
// through the copies (docs/Structure.md, "Reports after a block edit").
struct EditedRun {
    std::shared_ptr<const BlockEdit> edit; // the edited graph and its node / edge maps
    SimResult result;                      // the run on edit->graph (nodes, its own overlay, last)
    // Per edge id of the edited run (its graph's edges, then its overlay's): the id under which
    // the caller's result resolves it with SimResult::edge (the caller's edge it is, else an edge
    // of the caller's overlay with both ends mapped to the nodes they are or copy).
    std::vector<EdgeId> edgeInCaller;
};

struct SimOptions {
    bool timeline = true;                      // build SimResult::timeline
    const std::atomic<bool>* cancel = nullptr; // checked periodically; set to stop early
};

SimResult simulate(const ExecutionGraph& graph, const SimKnobs& knobs = {}, const SimOptions& options = {});

} // namespace sl
