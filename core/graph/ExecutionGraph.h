#pragma once
// The execution graph of a trace set (docs/ARCHITECTURE.md, "Execution graph"): nodes are the events that
// take part in execution (runtime/driver calls on CPU threads, GPU ops on streams), edges are
// typed dependencies with a delay. The graph refers into a TraceSet, which must outlive it.
#include "base/Diagnostics.h"
#include "base/Error.h"
#include "trace/Collective.h"
#include "trace/TraceSet.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sl {

using NodeId = std::uint32_t;
using EdgeId = std::uint32_t;
constexpr NodeId kNoNode = 0xffffffffu;
constexpr NodeId kOutsideWindow = 0xfffffffeu; // ExecutionGraph::nodeOf: event outside the step window
constexpr EdgeId kNoEdge = 0xffffffffu;

enum class EdgeKind : std::uint8_t {
    ThreadOrder, // consecutive runtime/driver calls on one CPU thread; delay = CPU work in between
    Launch,      // runtime call -> GPU op with the same correlation; delay = launch latency
    StreamOrder, // consecutive GPU ops on one (device, stream)
    CrossStream, // op before cudaEventRecord on stream A -> next op on stream B after the wait
    Sync,        // GPU op -> host call that waits for it (cudaDeviceSynchronize, blocking memcpy...)
    Collective,  // peer participant -> participant of the same collective (across ranks)
    // The call on another thread of the same rank that released a thread's first call (autograd's
    // backward thread, a communication or data-loader thread); always inferred from timing.
    ThreadStart,
    // pp.degree (docs/Layouts.md, "pp.degree"): the activation (forward) or its gradient (backward)
    // of one micro-batch sent from one pipeline stage to the next inside a trace rank's column of
    // stages; triggered by the sender's last compute op, it gates the receiver's first; delay = the
    // modelled transfer. Never in a traced graph.
    PipelineTransfer,
    Count
};
constexpr int kEdgeKindCount = static_cast<int>(EdgeKind::Count);

// Stable lower-case names: "thread_order", "launch", "stream_order", "cross_stream", "sync",
// "collective", "thread_start", "pipeline_transfer".
std::string_view edgeKindName(EdgeKind kind);

enum class NodeKind : std::uint8_t {
    CpuCall,    // runtime/driver call on a CPU thread
    SyncCall,   // a CPU call that waits for GPU work (has incoming Sync edges)
    GpuOp,      // kernel, memcpy, memset
    Collective, // NCCL/RCCL kernel that is part of a matched CollectiveGroup
};
std::string_view nodeKindName(NodeKind kind);

struct GraphNode {
    std::uint32_t rank = 0;      // index into TraceSet::ranks (not the rank id)
    EventRef event;              // the event in that rank
    std::uint32_t processor = 0; // index into ExecutionGraph::processors
    NodeKind kind = NodeKind::CpuCall;
    // The node's own time, from the trace:
    //   CpuCall: measured duration;  SyncCall: the intrinsic part (the wait is simulated);
    //   GpuOp: measured duration;    Collective: transfer time (measured end - latest arrival).
    TimeNs duration = 0;
    // Earliest start relative to the rank's origin (RankWindow::origin). Only boundary conditions
    // have one: the rank's root (its first CPU call), GPU ops launched before the window
    // (`prewindow`), and threads whose releasing call could not be found (counted in
    // RankWindow::threadsReleasedAtMeasured). Every other node starts from its causes.
    TimeNs release = 0;
    // The rank's root: the part of `release` after the rank's first profiled event (the step's
    // start, or its earliest CPU op) that is CPU work (cpu_op / annotation cover it: it scales with
    // the CPU knobs) and the part nothing covers (an unexplained wait). Only the time before that
    // first event is a late start (docs/ARCHITECTURE.md, "Boundary conditions").
    TimeNs releaseWork = 0;
    TimeNs releaseWait = 0;
    bool prewindow = false; // GPU op whose launch happened before the trace window
    // Collective with peers missing from the rank set: the phantom peers' arrival relative to the
    // rank's origin (measured end - modelled transfer); -1 when all peers are simulated. The
    // collective ends at max(own start, arrival) + transfer.
    TimeNs phantomArrival = -1;
    std::uint32_t collective = 0xffffffffu; // index into ExecutionGraph::collectives, or none
};

// Edge semantics in the simulator: an edge is triggered by the end of `from` (or by its start for
// Launch and Collective edges) and gates the start of `to` (or its end for Sync and Collective
// edges):  gated time of `to` >= trigger time of `from` + delay.
struct GraphEdge {
    NodeId from = kNoNode;
    NodeId to = kNoNode;
    EdgeKind kind = EdgeKind::ThreadOrder;
    bool inferred = false; // cross-stream edge inferred from timing (no cuda_sync identity)
    TimeNs delay = 0;      // >= 0
    // The part of `delay` that is host CPU work (thread order: time covered by cpu_op /
    // python_function / annotations; launch: the call's excess over its API's median duration);
    // it scales with the CPU knobs. The rest is fixed (an unexplained wait, a launch latency).
    TimeNs cpuWork = 0;
    // Launch edges: the part of `delay` that nothing in the trace explains (the op started far
    // later than every dependency found); kept as measured under every knob. Inferred cross-stream
    // edges of a long device wait: the residual between the source's end and the op's start.
    TimeNs wait = 0;

    bool triggeredByStart() const { return kind == EdgeKind::Launch || kind == EdgeKind::Collective; }
    bool gatesEnd() const { return kind == EdgeKind::Sync || kind == EdgeKind::Collective; }
};

// A CPU thread or GPU stream: runs one node at a time, in the order of `nodes`.
struct Processor {
    std::uint32_t rank = 0;  // index into TraceSet::ranks
    std::uint32_t track = 0; // index into Rank::tracks
    bool gpu = false;
    std::vector<NodeId> nodes; // in execution (measured start) order
};

// One collective matched across ranks: the k-th collective of a process group on each rank.
struct CollectiveGroup {
    CollectiveType type = CollectiveType::Unknown;
    std::string processGroup; // process group name, or "stream-order:<i>" without metadata
    std::int64_t bytes = -1;  // per participant, when known
    int expectedParticipants = 0;
    bool complete = false;       // all participants present: the wait is simulated
    std::vector<NodeId> members; // one node per participating rank
};

// Per rank: the time window of the graph and the origin that simulated times are relative to.
struct RankWindow {
    int rankId = 0;         // Rank::rank
    TimeNs origin = 0;      // simulated time 0 of this rank, in the rank's trace clock
    TimeNs windowStart = 0; // the chosen window (whole trace or ProfilerStep#N), measured
    TimeNs windowEnd = 0;
    TimeNs measuredStart = 0; // first start / last end of any event in the window (measured)
    TimeNs measuredEnd = 0;
    // Launch latency (launch call start -> GPU op start) of this rank: the median over GPU ops
    // launched onto an idle stream with no other pending dependency. Every launch edge of the
    // rank carries it (or the value of its launch API, below): never a per-op observed delay.
    TimeNs typicalLaunchLatency = 0;
    // Per launch API name (cudaLaunchKernel, cudaMemcpyAsync, ...) with enough samples.
    std::vector<std::pair<std::string, TimeNs>> launchLatencyByApi;
    // Delay of every cross-stream edge of this rank (event wait -> start on the waiting stream):
    // the median gap of the inferred edges, 0 without any.
    TimeNs crossStreamDelay = 0;
    std::int64_t launchLatencySamples = 0;
    bool hasStep = false;
    // The profiler's step ranges (ProfilerStep#N, distinct N) that start in the window: a window
    // of the whole trace may hold several, and a sentence about "the step" must say so.
    int profilerSteps = 0;
    // Boundary conditions and unexplained time of this rank (reported, see docs/ARCHITECTURE.md).
    // GPU ops launched before the window: queue heads released at their measured start
    // (prewindowOps), ops queued back to back behind them that follow in stream order
    // (prewindowQueued), and kernels of CUDA / HIP graphs tied to a graph launch in the window
    // (graphKernels: not pre-window, they follow their launch).
    // A queue head that started right after an op on another stream of its device ended follows
    // that op (an inferred cross-stream edge, prewindowFollowing); only a head after an idle GPU
    // keeps its measured start (prewindowOps).
    std::int64_t prewindowOps = 0;
    std::int64_t prewindowQueued = 0;
    std::int64_t prewindowFollowing = 0;
    std::int64_t graphKernels = 0;
    // How far this rank's GPU timestamps run ahead of its host clock (docs/ARCHITECTURE.md, "GPU
    // clock offset"): the largest distance by which a GPU op ended after a host call that must have
    // waited for it returned (a synchronize call, a blocking copy), over gpuClockOffsetPairs such
    // pairs. The graph reads every GPU time of the rank less this offset (measuredStart / End);
    // 0 where no pair shows the GPU ahead.
    TimeNs gpuClockOffset = 0;
    std::int64_t gpuClockOffsetPairs = 0;
    // The rank's first profiled event in the window, relative to the origin: its root's boundary.
    TimeNs firstEvent = 0;
    std::int64_t threadsReleasedAtMeasured = 0; // CPU threads without a found releasing call
    TimeNs unexplainedWait = 0;                 // CPU time between calls that no cpu_op / annotation covers
    // GPU ops that started far later than every dependency the graph found: the excess, kept as
    // measured on the op's incoming launch (or stream-order) edge.
    TimeNs unexplainedGpuWait = 0;
    // Of those, the waits tied to the device's last op on another stream (they move with it; only
    // the residual stays).
    std::int64_t deviceWaits = 0;
    // Cross-stream inference window of the rank (calibrated from identified waits).
    TimeNs crossStreamTolerance = 0;
};

struct GraphOptions {
    int step = -1;                // restrict to ProfilerStep#step; -1 = whole trace
    bool inferCrossStream = true; // infer cross-stream edges from timing where ids are missing
    bool matchCollectives = true; // match collectives across ranks (else keep measured durations)
    // Pair cudaStreamWaitEvent calls without cuda_sync identity with the op they wait for (the last
    // op launched before the thread's preceding cudaEventRecord, else inferred from timing).
    bool inferEventWaits = true;
    // Timing tolerance (ns) when explaining a GPU op's start by a dependency.
    TimeNs tolerance = 2000;
    // Estimate each rank's GPU clock offset and read GPU times less it (RankWindow::gpuClockOffset);
    // false reads them as recorded.
    bool correctGpuClock = true;
};

struct GraphStats {
    std::int64_t edgesByKind[kEdgeKindCount] = {};
    std::int64_t inferredCrossStream = 0;
    std::int64_t collectivesMatched = 0;
    std::int64_t collectivesUnmatched = 0;
    std::int64_t repairedLaunches = 0; // GPU op before its launch
    std::int64_t repairedOverlaps = 0; // overlapping ops on one stream / calls on one thread
    std::int64_t gpuOpsWithoutLaunch = 0;
    std::int64_t waitEventEdges = 0; // cross-stream edges from cudaStreamWaitEvent without ids
    std::int64_t threadStartEdges = 0;
    std::int64_t prewindowOps = 0;       // queue heads (RankWindow::prewindowOps)
    std::int64_t prewindowQueued = 0;    // queued behind a head
    std::int64_t prewindowFollowing = 0; // heads that follow an op on another stream of the device
    std::int64_t graphKernels = 0;
    std::int64_t phantomCollectives = 0; // collectives whose missing peers are phantom arrivals
    std::int64_t smContentionEdges = 0;  // full-device kernels kept apart across streams
    std::int64_t deviceWaitEdges = 0;    // long device waits tied to the op that ended last before them
};

// Thrown for an invalid graph (cycle, negative delay) or a window that does not exist: a
// base/Error of kind Graph. file(): the trace file it concerns, when one does (what() then reads
// "file: message"); message() without it.
class GraphError : public Error {
public:
    explicit GraphError(const std::string& message) : Error(ErrorKind::Graph, std::string(), message) {}
    GraphError(std::string file, const std::string& message)
        : Error(ErrorKind::Graph, std::move(file), message) {}
};

// Edges that a what-if transform lays over a finished graph without changing it, so that one graph
// serves every run (comm.overlap=false: sim/NoOverlapTransform.h; docs/ARCHITECTURE.md,
// "comm.overlap=false"). In a SimResult the k-th overlay edge has the id graph.edges.size() + k.
struct EdgeOverlay {
    std::vector<GraphEdge> edges;
    std::vector<std::uint32_t> outOffsets, outIds; // CSR by `from`: indices into `edges`

    bool empty() const { return edges.empty(); }
    // (Re)builds outOffsets / outIds from `edges` for a graph of nodeCount nodes.
    void buildAdjacency(std::size_t nodeCount);
};

// Data that later layers derive from a finished graph (the comm.overlap=false edges:
// sim/NoOverlapTransform.h), computed on first use and kept with the graph, so that re-running one
// graph (the GUI on every knob change) derives it once. buildAdjacency(), the step after any edit
// of the edges, clears it; a copied or moved graph starts without it. Thread-safe.
class DerivedData {
public:
    DerivedData() = default;
    DerivedData(const DerivedData&) {}
    DerivedData& operator=(const DerivedData&) {
        clear();
        return *this;
    }
    // The value stored under `key` (the address of a tag owned by the deriving code), made with
    // make() on first use.
    template <class T, class Make> std::shared_ptr<const T> get(const void* key, Make&& make) const {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& [k, v] : items_)
            if (k == key) return std::static_pointer_cast<const T>(v);
        std::shared_ptr<const T> v = std::make_shared<const T>(make());
        items_.emplace_back(key, v);
        return v;
    }
    void clear() {
        std::lock_guard<std::mutex> lock(mutex_);
        items_.clear();
    }

private:
    mutable std::mutex mutex_;
    mutable std::vector<std::pair<const void*, std::shared_ptr<const void>>> items_;
};

class ExecutionGraph {
public:
    const TraceSet* trace = nullptr;
    std::vector<GraphNode> nodes;
    std::vector<GraphEdge> edges;
    std::vector<Processor> processors;
    std::vector<CollectiveGroup> collectives;
    std::vector<RankWindow> ranks; // parallel to TraceSet::ranks
    GraphStats stats;
    Warnings warnings;
    DerivedData derived; // see DerivedData

    // Adjacency (CSR): edge ids into and out of each node.
    std::vector<std::uint32_t> inOffsets, inEdgeIds, outOffsets, outEdgeIds;

    // For every event of every track: its node, kNoNode (in the window but not a node, e.g. a
    // cpu_op), or kOutsideWindow. nodeIndex[rank][track][event].
    std::vector<std::vector<std::vector<NodeId>>> nodeIndex;

    std::size_t nodeCount() const { return nodes.size(); }
    NodeId nodeOf(std::uint32_t rank, EventRef e) const { return nodeIndex[rank][e.track][e.index]; }
    bool inWindow(std::uint32_t rank, EventRef e) const { return nodeOf(rank, e) != kOutsideWindow; }

    struct EdgeRange {
        const std::uint32_t* b;
        const std::uint32_t* e;
        const std::uint32_t* begin() const { return b; }
        const std::uint32_t* end() const { return e; }
        std::size_t size() const { return static_cast<std::size_t>(e - b); }
    };
    EdgeRange inEdges(NodeId n) const {
        return {inEdgeIds.data() + inOffsets[n], inEdgeIds.data() + inOffsets[n + 1]};
    }
    EdgeRange outEdges(NodeId n) const {
        return {outEdgeIds.data() + outOffsets[n], outEdgeIds.data() + outOffsets[n + 1]};
    }

    // Measured times of a node's event on its rank's host clock: a GPU op's trace time less the
    // rank's GPU clock offset (RankWindow::gpuClockOffset; the trace itself keeps what was recorded).
    TimeNs measuredStart(NodeId n) const;
    TimeNs measuredEnd(NodeId n) const;
    // What measuredStart / End subtract from the trace times of an event on `track` of rank `rank`.
    TimeNs clockShift(std::uint32_t rank, const Track& track) const {
        return track.isGpu() && rank < ranks.size() ? ranks[rank].gpuClockOffset : 0;
    }
    const Rank& rankOf(NodeId n) const { return trace->ranks[nodes[n].rank]; }
    std::string_view nodeName(NodeId n) const { return rankOf(n).name(nodes[n].event); }

    // (Re)builds the CSR adjacency from `edges`.
    void buildAdjacency();
    // Throws GraphError when an edge has a negative delay or dangling node, or the graph has a
    // cycle (start/end vertex graph as the simulator sees it).
    void validate() const;
};

// Cycle check on the start/end vertex graph as the simulator sees it, with `overlay`'s edges when
// given: kNoNode when acyclic, else a node that lies on or behind a cycle.
NodeId findCycleNode(const ExecutionGraph& g, const EdgeOverlay* overlay = nullptr);

// Builds the execution graph of a trace set. Repairs inconsistent traces (GPU op before launch,
// overlapping ops, unmatched collectives) with warnings. Throws GraphError when the requested
// step does not exist or the graph cannot be made valid.
ExecutionGraph buildExecutionGraph(const TraceSet& set, const GraphOptions& options = {});

} // namespace sl
