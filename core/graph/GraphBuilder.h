#pragma once
// Internal to core/graph: the state shared by the stages that build an ExecutionGraph.
#include "graph/CpuCoverage.h"
#include "graph/ExecutionGraph.h"
#include "trace/RuntimeApi.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sl::graph_build {

enum class HostSyncKind { None, Device, Stream, Event };

// What a runtime call waits for, from the one classifier of API names (trace/RuntimeApi.h).
inline HostSyncKind hostSyncKind(std::string_view name) {
    switch (runtimeApi(name)) {
    case RuntimeApi::DeviceSynchronize:
        return HostSyncKind::Device;
    case RuntimeApi::StreamSynchronize:
        return HostSyncKind::Stream;
    case RuntimeApi::EventSynchronize:
        return HostSyncKind::Event;
    default:
        return HostSyncKind::None;
    }
}

// A copy or set call (cudaMemcpy*, cuMemset*, hipMemcpy*, ...).
inline bool isMemcpyCall(std::string_view name) {
    const RuntimeApi api = runtimeApi(name);
    return api == RuntimeApi::Memcpy || api == RuntimeApi::Memset;
}

// A GPU op without a launch in the file that started at most this long after its stream
// predecessor ended was queued behind it (it follows it); after a longer idle gap it heads a queue.
constexpr TimeNs kQueuedGap = 10'000;

inline TimeNs quantile(std::vector<TimeNs> v, double q) {
    if (v.empty()) return 0;
    auto mid = v.begin() + static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

// Builds one ExecutionGraph; each stage lives in its own file (see docs/ARCHITECTURE.md):
// StepWindow.cpp, Processors.cpp, SyncInference.cpp, LaunchModel.cpp, CollectiveMatching.cpp,
// GraphRepairs.cpp, GpuClockOffset.cpp.
struct Builder {
    const TraceSet& set;
    const GraphOptions& opt;
    ExecutionGraph& g;

    // Per rank: the node that stands for a runtime call (itself, or the enclosing call node).
    std::vector<std::vector<std::vector<NodeId>>> callOwner;
    // Per rank: processor index of each track, or -1.
    std::vector<std::vector<std::int64_t>> trackProcessor;
    // Per GPU op node: launch owner node, and the launch call's start (measured).
    std::vector<NodeId> launchOf;
    // Effective measured start of GPU ops (clipped by overlaps on the stream).
    std::vector<TimeNs> effStart;
    std::vector<TimeNs> explained; // measured time that the op's known dependencies explain
    std::vector<std::uint8_t> hasIdentityCross;
    std::vector<std::uint8_t> hasSyncIn;
    std::vector<std::uint8_t> waitHandled; // wait calls with cuda_sync identity
    std::vector<EdgeId> streamIn;          // per GPU op: its incoming stream-order edge
    // Per GPU op: launched before the window and heading a queue (released at its measured start
    // unless it follows an op on another stream of its device: LaunchModel.cpp).
    std::vector<std::uint8_t> queueHead;
    std::vector<std::uint8_t> headFollows; // a queue head that follows another stream's op
    // Moves a queue head between "released at its measured start" and "follows an op on another
    // stream" (follows = false: its inferred edge was dropped), with the counters.
    void followPrewindowHead(NodeId n, bool follows) {
        if (headFollows[n] == static_cast<std::uint8_t>(follows)) return;
        headFollows[n] = follows;
        RankWindow& w = g.ranks[g.nodes[n].rank];
        const std::int64_t d = follows ? 1 : -1;
        w.prewindowOps -= d;
        w.prewindowFollowing += d;
        g.stats.prewindowOps -= d;
        g.stats.prewindowFollowing += d;
        g.nodes[n].release = follows ? 0 : std::max<TimeNs>(0, mStart(n) - w.origin);
    }
    std::vector<EdgeId> crossEdges; // cross-stream edges (for the per-rank delay)
    // Repeated warnings, counted by their line (said once in finish(), with the count).
    std::map<std::string, std::pair<Warn, std::int64_t>> warnCounts;

    Builder(const TraceSet& s, const GraphOptions& o, ExecutionGraph& graph) : set(s), opt(o), g(graph) {}

    void warn(Warn kind, const std::string& text, std::int64_t n = 1) {
        warnCounts.try_emplace(text, kind, 0).first->second.second += n;
    }

    EdgeId addEdge(NodeId from, NodeId to, EdgeKind kind, TimeNs delay, bool inferred = false) {
        GraphEdge e;
        e.from = from;
        e.to = to;
        e.kind = kind;
        e.delay = std::max<TimeNs>(0, delay);
        e.inferred = inferred;
        g.edges.push_back(e);
        return static_cast<EdgeId>(g.edges.size() - 1);
    }

    TimeNs mStart(NodeId n) const { return g.measuredStart(n); }
    TimeNs mEnd(NodeId n) const { return g.measuredEnd(n); }

    void findWindows();
    // Per rank: RankWindow::gpuClockOffset (GpuClockOffset.cpp), before any GPU time is read.
    void estimateGpuClockOffsets();

    std::uint32_t addProcessor(std::uint32_t r, std::uint32_t ti, bool gpu) {
        Processor p;
        p.rank = r;
        p.track = ti;
        p.gpu = gpu;
        g.processors.push_back(std::move(p));
        trackProcessor[r][ti] = static_cast<std::int64_t>(g.processors.size() - 1);
        return static_cast<std::uint32_t>(g.processors.size() - 1);
    }

    NodeId addNode(std::uint32_t r, std::uint32_t ti, std::uint32_t i, std::uint32_t proc, NodeKind kind) {
        GraphNode n;
        n.rank = r;
        n.event = {ti, i};
        n.processor = proc;
        n.kind = kind;
        n.duration = std::max<TimeNs>(0, set.ranks[r].tracks[ti].events.duration[i]);
        g.nodes.push_back(n);
        NodeId id = static_cast<NodeId>(g.nodes.size() - 1);
        g.nodeIndex[r][ti][i] = id;
        g.processors[proc].nodes.push_back(id);
        return id;
    }

    void makeNodes();

    NodeId ownerOfCall(std::uint32_t r, EventRef call) const {
        if (!call.valid() || call.track >= set.ranks[r].tracks.size()) return kNoNode;
        if (set.ranks[r].tracks[call.track].isGpu()) return kNoNode;
        const auto& owners = callOwner[r][call.track];
        return call.index < owners.size() ? owners[call.index] : kNoNode;
    }

    void orderEdges();
    void threadReleases();
    void rootFromFirstEvent(std::uint32_t rank, std::uint32_t rootThread);
    void threadWakeups();
    // CPU work coverage of each CPU thread, by processor index (empty for GPU streams).
    std::vector<CpuCoverage> coverage;
    // Per rank: its CPU thread processors that have calls.
    std::vector<std::vector<std::uint32_t>> cpuThreadsByRank() const;
    // The last call on a CPU thread that ended at or before t, or kNoNode.
    NodeId lastCallEndingBy(std::uint32_t processor, TimeNs t) const;
    // An inferred ThreadStart edge: `to` starts the measured gap after `cause` ends, the part of it
    // that CPU ops on `to`'s thread cover being CPU work.
    void addThreadStart(NodeId cause, NodeId to);

    // GPU ops of each stream ordered by the start of their launch call, to answer "the last op
    // launched on stream S before time t" and "the first op launched on S after t".
    struct LaunchIndex {
        std::vector<std::pair<TimeNs, NodeId>> byLaunch;
    };
    std::vector<std::map<std::pair<std::int64_t, std::int64_t>, LaunchIndex>> streams; // per rank

    void buildLaunchIndex();

    const LaunchIndex* stream(std::uint32_t r, std::int64_t device, std::int64_t s) const {
        auto it = streams[r].find({device, s});
        return it == streams[r].end() ? nullptr : &it->second;
    }

    static NodeId lastLaunchedBefore(const LaunchIndex& li, TimeNs t) {
        auto it = std::lower_bound(li.byLaunch.begin(), li.byLaunch.end(), t,
                                   [](const auto& a, TimeNs v) { return a.first < v; });
        return it == li.byLaunch.begin() ? kNoNode : std::prev(it)->second;
    }
    static NodeId firstLaunchedAfter(const LaunchIndex& li, TimeNs t) {
        auto it = std::lower_bound(li.byLaunch.begin(), li.byLaunch.end(), t,
                                   [](const auto& a, TimeNs v) { return a.first < v; });
        return it == li.byLaunch.end() ? kNoNode : it->second;
    }

    void addHostSync(NodeId call, const std::vector<NodeId>& sources, TimeNs typicalTail);

    void syncEdges();

    void waitEventEdges();

    void launchEdgesAndInference();

    std::int64_t bytesOf(NodeId n) const {
        const Rank& rank = set.ranks[g.nodes[n].rank];
        std::uint32_t extra = rank.tracks[g.nodes[n].event.track].events.extra[g.nodes[n].event.index];
        return extra != kNoExtra && extra < rank.collectives.size()
                   ? rank.collectives[extra].bytes(rank.strings)
                   : -1;
    }

    // Stores a collective; a complete one gets its transfer times and collective edges: all
    // participants start transferring when the last one arrives.
    bool clockWarned = false;
    void addGroup(CollectiveGroup&& grp);

    void collectiveEdges();
    bool fillsDevice(NodeId n) const;
    void smContentionEdges();
    void phantomPeers();
    std::vector<NodeId> phantomCandidates; // members of collectives with peers missing

    void dropUncertainEdges();

    void finish();

    void run() {
        findWindows();
        makeNodes();
        orderEdges();
        buildLaunchIndex();
        syncEdges();
        if (opt.inferCrossStream && opt.inferEventWaits) waitEventEdges();
        smContentionEdges();
        launchEdgesAndInference();
        collectiveEdges();
        g.buildAdjacency();
        if (findCycleNode(g) != kNoNode) {
            g.warnings.add(Warn::GraphCycleDropped,
                           "the graph had a cycle through inferred or collective edges: they were dropped "
                           "(collectives keep measured durations, threads their measured starts)");
            dropUncertainEdges();
            g.buildAdjacency();
        }
        finish();
        g.validate();
    }
};

} // namespace sl::graph_build
