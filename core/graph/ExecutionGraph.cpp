#include "graph/ExecutionGraph.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace sl {

std::string_view edgeKindName(EdgeKind kind) {
    static constexpr std::array<std::string_view, kEdgeKindCount> names = {
        "thread_order", "launch", "stream_order", "cross_stream", "sync", "collective"};
    auto i = static_cast<std::size_t>(kind);
    return i < names.size() ? names[i] : std::string_view("unknown");
}

std::string_view nodeKindName(NodeKind kind) {
    switch (kind) {
    case NodeKind::CpuCall:
        return "cpu_call";
    case NodeKind::SyncCall:
        return "sync_call";
    case NodeKind::GpuOp:
        return "gpu_op";
    case NodeKind::Collective:
        return "collective";
    }
    return "unknown";
}

TimeNs ExecutionGraph::measuredStart(NodeId n) const {
    const auto& node = nodes[n];
    return trace->ranks[node.rank].tracks[node.event.track].events.start[node.event.index];
}

TimeNs ExecutionGraph::measuredEnd(NodeId n) const {
    const auto& node = nodes[n];
    return trace->ranks[node.rank].tracks[node.event.track].events.end(node.event.index);
}

void ExecutionGraph::buildAdjacency() {
    const std::size_t n = nodes.size();
    const std::size_t regular = regularEdgeCount();
    inOffsets.assign(n + 1, 0);
    outOffsets.assign(n + 1, 0);
    noOverlapOutOffsets.assign(n + 1, 0);
    for (std::size_t id = 0; id < edges.size(); ++id) {
        const auto& e = edges[id];
        if (id < regular) {
            ++inOffsets[e.to + 1];
            ++outOffsets[e.from + 1];
        } else {
            ++noOverlapOutOffsets[e.from + 1];
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        inOffsets[i + 1] += inOffsets[i];
        outOffsets[i + 1] += outOffsets[i];
        noOverlapOutOffsets[i + 1] += noOverlapOutOffsets[i];
    }
    inEdgeIds.resize(regular);
    outEdgeIds.resize(regular);
    noOverlapOutIds.resize(edges.size() - regular);
    std::vector<std::uint32_t> inPos(inOffsets.begin(), inOffsets.end() - 1);
    std::vector<std::uint32_t> outPos(outOffsets.begin(), outOffsets.end() - 1);
    std::vector<std::uint32_t> noPos(noOverlapOutOffsets.begin(), noOverlapOutOffsets.end() - 1);
    for (std::uint32_t id = 0; id < edges.size(); ++id) {
        if (id < regular) {
            inEdgeIds[inPos[edges[id].to]++] = id;
            outEdgeIds[outPos[edges[id].from]++] = id;
        } else {
            noOverlapOutIds[noPos[edges[id].from]++] = id;
        }
    }
}

namespace {

// Kahn's algorithm on the start/end vertex graph (vertex 2n = start of n, 2n+1 = end of n).
// Returns kNoNode when acyclic, else a node that lies on or behind a cycle.
NodeId findCycleNode(const ExecutionGraph& g, bool withNoOverlap = false) {
    const std::size_t n = g.nodes.size();
    const std::size_t count = withNoOverlap ? g.edges.size() : g.regularEdgeCount();
    std::vector<std::uint32_t> indeg(2 * n, 0);
    for (std::size_t i = 0; i < n; ++i)
        indeg[2 * i + 1] = 1;
    for (std::size_t id = 0; id < count; ++id) {
        const auto& e = g.edges[id];
        ++indeg[2 * std::size_t(e.to) + (e.gatesEnd() ? 1 : 0)];
    }
    auto visit = [&](std::uint32_t id, bool isEnd, std::vector<std::uint32_t>& stack) {
        const auto& e = g.edges[id];
        if (e.triggeredByStart() == isEnd) return;
        std::uint32_t w = 2 * e.to + (e.gatesEnd() ? 1 : 0);
        if (--indeg[w] == 0) stack.push_back(w);
    };
    std::vector<std::uint32_t> stack;
    for (std::uint32_t v = 0; v < 2 * n; ++v)
        if (indeg[v] == 0) stack.push_back(v);
    std::size_t done = 0;
    while (!stack.empty()) {
        std::uint32_t v = stack.back();
        stack.pop_back();
        ++done;
        NodeId node = v / 2;
        bool isEnd = v & 1;
        if (!isEnd && --indeg[v + 1] == 0) stack.push_back(v + 1);
        for (std::uint32_t id : g.outEdges(node))
            visit(id, isEnd, stack);
        if (withNoOverlap && g.noOverlapOutOffsets.size() == n + 1)
            for (std::uint32_t k = g.noOverlapOutOffsets[node]; k < g.noOverlapOutOffsets[node + 1]; ++k)
                visit(g.noOverlapOutIds[k], isEnd, stack);
    }
    if (done == 2 * n) return kNoNode;
    for (std::uint32_t v = 0; v < 2 * n; ++v)
        if (indeg[v] > 0) return v / 2;
    return kNoNode;
}

} // namespace

void ExecutionGraph::validate() const {
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto& e = edges[i];
        if (e.from >= nodes.size() || e.to >= nodes.size())
            throw GraphError("edge " + std::to_string(i) + " refers to a node that does not exist");
        if (e.delay < 0)
            throw GraphError(std::string(edgeKindName(e.kind)) + " edge " + std::to_string(i) + " into '" +
                             std::string(nodeName(e.to)) + "' has a negative delay");
    }
    for (const auto& n : nodes)
        if (n.duration < 0 || n.release < 0)
            throw GraphError("a node has a negative duration or release time");
    if (inOffsets.size() != nodes.size() + 1 || inEdgeIds.size() != regularEdgeCount())
        throw GraphError("graph adjacency is out of date");
    NodeId c = findCycleNode(*this);
    if (c != kNoNode)
        throw GraphError("the execution graph has a cycle through '" + std::string(nodeName(c)) +
                         "' on rank " + std::to_string(trace->ranks[nodes[c].rank].rank));
}

namespace {

enum class HostSyncKind { None, Device, Stream, Event };

HostSyncKind hostSyncKind(std::string_view name) {
    // cudaDeviceSynchronize, hipDeviceSynchronize, cuCtxSynchronize, cudaStreamSynchronize, ...
    if (name.find("DeviceSynchronize") != std::string_view::npos ||
        name.find("CtxSynchronize") != std::string_view::npos)
        return HostSyncKind::Device;
    if (name.find("StreamSynchronize") != std::string_view::npos) return HostSyncKind::Stream;
    if (name.find("EventSynchronize") != std::string_view::npos) return HostSyncKind::Event;
    return HostSyncKind::None;
}

bool isMemcpyCall(std::string_view name) {
    return name.find("Memcpy") != std::string_view::npos || name.find("memcpy") != std::string_view::npos ||
           name.find("Memset") != std::string_view::npos;
}

TimeNs quantile(std::vector<TimeNs> v, double q) {
    if (v.empty()) return 0;
    auto mid = v.begin() + static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

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
    std::vector<EdgeId> crossEdges;        // cross-stream edges (for the per-rank delay)
    std::map<std::string, std::int64_t> warnCounts;

    Builder(const TraceSet& s, const GraphOptions& o, ExecutionGraph& graph) : set(s), opt(o), g(graph) {}

    void warn(const std::string& key, std::int64_t n = 1) { warnCounts[key] += n; }

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

    void findWindows() {
        g.ranks.resize(set.ranks.size());
        g.nodeIndex.resize(set.ranks.size());
        const std::string stepName = "ProfilerStep#" + std::to_string(opt.step);
        for (std::size_t r = 0; r < set.ranks.size(); ++r) {
            const Rank& rank = set.ranks[r];
            RankWindow& w = g.ranks[r];
            w.rankId = rank.rank;
            w.windowStart = std::numeric_limits<TimeNs>::min();
            w.windowEnd = std::numeric_limits<TimeNs>::max();
            if (opt.step >= 0) {
                bool found = false;
                StringId id = rank.strings.find(stepName);
                for (const auto& t : rank.tracks) {
                    if (t.isGpu() || id == StringTable::kNone) continue;
                    for (std::size_t i = 0; i < t.events.size(); ++i) {
                        if (t.events.name[i] != id) continue;
                        if (!found || t.events.start[i] < w.windowStart) {
                            w.windowStart = t.events.start[i];
                            w.windowEnd = t.events.end(i);
                        }
                        found = true;
                    }
                }
                if (!found)
                    throw GraphError(rank.sourcePath + ": " + stepName +
                                     " not found (the trace has no such step)");
                w.hasStep = true;
            }
            // Window membership: CPU events by start; GPU events by their launch, else by start.
            auto& idx = g.nodeIndex[r];
            idx.resize(rank.tracks.size());
            auto inCpuWindow = [&](TimeNs t) { return t >= w.windowStart && t <= w.windowEnd; };
            TimeNs gpuEnd = w.windowEnd;
            for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
                const auto& t = rank.tracks[ti];
                const auto& ev = t.events;
                idx[ti].assign(ev.size(), kNoNode);
                if (!w.hasStep) continue;
                for (std::size_t i = 0; i < ev.size(); ++i) {
                    bool in;
                    if (!t.isGpu()) {
                        in = inCpuWindow(ev.start[i]);
                    } else if (ev.link[i] != kNoLink) {
                        EventRef l = EventRef::unpack(ev.link[i]);
                        in = inCpuWindow(rank.tracks[l.track].events.start[l.index]);
                        if (in && w.windowEnd != std::numeric_limits<TimeNs>::max())
                            gpuEnd = std::max(gpuEnd, ev.end(i));
                    } else {
                        continue; // decided below
                    }
                    if (!in) idx[ti][i] = kOutsideWindow;
                }
            }
            for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
                const auto& t = rank.tracks[ti];
                if (!t.isGpu() || !w.hasStep) continue;
                for (std::size_t i = 0; i < t.events.size(); ++i)
                    if (t.events.link[i] == kNoLink &&
                        !(t.events.start[i] >= w.windowStart && t.events.start[i] <= gpuEnd))
                        idx[ti][i] = kOutsideWindow;
            }
            // Measured span of the window.
            TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
            for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
                const auto& ev = rank.tracks[ti].events;
                for (std::size_t i = 0; i < ev.size(); ++i) {
                    if (idx[ti][i] == kOutsideWindow || ev.kind[i] == EventKind::Instant) continue;
                    lo = std::min(lo, ev.start[i]);
                    hi = std::max(hi, ev.end(i));
                }
            }
            if (lo > hi) lo = hi = 0;
            w.measuredStart = lo;
            w.measuredEnd = hi;
        }
        // One clock for all ranks unless clock bases differ or starts lie far apart.
        bool sameClock = true;
        TimeNs minStart = std::numeric_limits<TimeNs>::max(), maxStart = std::numeric_limits<TimeNs>::min();
        for (std::size_t r = 0; r < set.ranks.size(); ++r) {
            if (set.ranks[r].clockBaseNs != set.ranks[0].clockBaseNs) sameClock = false;
            minStart = std::min(minStart, g.ranks[r].measuredStart);
            maxStart = std::max(maxStart, g.ranks[r].measuredStart);
        }
        if (!set.ranks.empty() && maxStart - minStart > 60'000'000'000LL) sameClock = false;
        for (auto& w : g.ranks)
            w.origin = sameClock ? minStart : w.measuredStart;
        if (!sameClock)
            g.warnings.push_back(
                "rank clocks differ (different clock bases or starts over 60 s apart): each rank "
                "is aligned at its first event");
    }

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

    void makeNodes() {
        callOwner.resize(set.ranks.size());
        trackProcessor.resize(set.ranks.size());
        for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
            const Rank& rank = set.ranks[r];
            callOwner[r].resize(rank.tracks.size());
            trackProcessor[r].assign(rank.tracks.size(), -1);
            for (std::uint32_t ti = 0; ti < rank.tracks.size(); ++ti) {
                const Track& t = rank.tracks[ti];
                const auto& ev = t.events;
                auto& idx = g.nodeIndex[r][ti];
                std::int64_t proc = -1;
                if (!t.isGpu()) {
                    callOwner[r][ti].assign(ev.size(), kNoNode);
                    NodeId cur = kNoNode;
                    TimeNs curEnd = std::numeric_limits<TimeNs>::min();
                    for (std::uint32_t i = 0; i < ev.size(); ++i) {
                        if (idx[i] == kOutsideWindow || !isRuntimeCall(ev.kind[i])) continue;
                        if (cur != kNoNode && ev.start[i] < curEnd) { // nested (driver inside runtime)
                            callOwner[r][ti][i] = cur;
                            if (ev.end(i) > curEnd) g.stats.repairedOverlaps++;
                            continue;
                        }
                        if (proc < 0) proc = addProcessor(r, ti, false);
                        cur = addNode(r, ti, i, static_cast<std::uint32_t>(proc), NodeKind::CpuCall);
                        callOwner[r][ti][i] = cur;
                        curEnd = ev.end(i);
                    }
                } else {
                    for (std::uint32_t i = 0; i < ev.size(); ++i) {
                        if (idx[i] == kOutsideWindow || !isGpuOp(ev.kind[i])) continue;
                        if (proc < 0) proc = addProcessor(r, ti, true);
                        addNode(r, ti, i, static_cast<std::uint32_t>(proc), NodeKind::GpuOp);
                    }
                }
            }
        }
        launchOf.assign(g.nodes.size(), kNoNode);
        effStart.assign(g.nodes.size(), 0);
        explained.assign(g.nodes.size(), std::numeric_limits<TimeNs>::min());
        hasIdentityCross.assign(g.nodes.size(), 0);
        hasSyncIn.assign(g.nodes.size(), 0);
        waitHandled.assign(g.nodes.size(), 0);
    }

    NodeId ownerOfCall(std::uint32_t r, EventRef call) const {
        if (!call.valid() || call.track >= set.ranks[r].tracks.size()) return kNoNode;
        if (set.ranks[r].tracks[call.track].isGpu()) return kNoNode;
        const auto& owners = callOwner[r][call.track];
        return call.index < owners.size() ? owners[call.index] : kNoNode;
    }

    // Thread order, stream order (with overlap repair), launch owners, first-node release times.
    void orderEdges() {
        for (auto& p : g.processors) {
            const Rank& rank = set.ranks[p.rank];
            const auto& ev = rank.tracks[p.track].events;
            const TimeNs origin = g.ranks[p.rank].origin;
            if (p.nodes.empty()) continue;
            if (!p.gpu) {
                g.nodes[p.nodes[0]].release = std::max<TimeNs>(0, mStart(p.nodes[0]) - origin);
                for (std::size_t k = 1; k < p.nodes.size(); ++k)
                    addEdge(p.nodes[k - 1], p.nodes[k], EdgeKind::ThreadOrder,
                            mStart(p.nodes[k]) - mEnd(p.nodes[k - 1]));
                continue;
            }
            TimeNs prevEnd = std::numeric_limits<TimeNs>::min();
            for (std::size_t k = 0; k < p.nodes.size(); ++k) {
                NodeId n = p.nodes[k];
                const auto& node = g.nodes[n];
                TimeNs s = ev.start[node.event.index], e = ev.end(node.event.index);
                if (s < prevEnd) { // overlapping ops on one stream: keep the end, clip the start
                    if (prevEnd - s > 1000) g.stats.repairedOverlaps++;
                    g.nodes[n].duration = std::max<TimeNs>(0, e - prevEnd);
                    s = prevEnd;
                }
                effStart[n] = s;
                if (k > 0) {
                    addEdge(p.nodes[k - 1], n, EdgeKind::StreamOrder, 0);
                    explained[n] = std::max(explained[n], prevEnd);
                }
                prevEnd = std::max(prevEnd, e);
                std::uint64_t link = ev.link[node.event.index];
                if (link != kNoLink) launchOf[n] = ownerOfCall(p.rank, EventRef::unpack(link));
                if (launchOf[n] == kNoNode) g.stats.gpuOpsWithoutLaunch++;
            }
        }
    }

    // GPU ops of each stream ordered by the start of their launch call, to answer "the last op
    // launched on stream S before time t" and "the first op launched on S after t".
    struct LaunchIndex {
        std::vector<std::pair<TimeNs, NodeId>> byLaunch;
    };
    std::vector<std::map<std::pair<std::int64_t, std::int64_t>, LaunchIndex>> streams; // per rank

    void buildLaunchIndex() {
        streams.resize(set.ranks.size());
        for (auto& p : g.processors) {
            if (!p.gpu) continue;
            const Track& t = set.ranks[p.rank].tracks[p.track];
            auto& li = streams[p.rank][{t.device(), t.stream()}];
            for (NodeId n : p.nodes)
                if (launchOf[n] != kNoNode) li.byLaunch.push_back({mStart(launchOf[n]), n});
            std::stable_sort(li.byLaunch.begin(), li.byLaunch.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
        }
    }

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

    // Host waits for GPU work: the call cannot end before the sources end.
    void addHostSync(NodeId call, const std::vector<NodeId>& sources, TimeNs typicalTail) {
        TimeNs cs = mStart(call), ce = mEnd(call);
        TimeNs latestWaited = std::numeric_limits<TimeNs>::min();
        std::vector<NodeId> used;
        for (NodeId s : sources) {
            if (s == kNoNode || s == call) continue;
            TimeNs se = mEnd(s);
            if (se > ce + opt.tolerance) continue; // the call returned before it: not waited on
            used.push_back(s);
            if (se > cs) latestWaited = std::max(latestWaited, se);
        }
        if (used.empty()) return;
        TimeNs tail = latestWaited > std::numeric_limits<TimeNs>::min()
                          ? std::max<TimeNs>(0, ce - latestWaited)
                          : std::min<TimeNs>(std::max<TimeNs>(0, ce - cs), typicalTail);
        if (latestWaited > std::numeric_limits<TimeNs>::min()) g.nodes[call].duration = tail;
        // The call returns its intrinsic tail after the last GPU op it waits on ends: the same
        // delay on every source (not each source's measured distance to the return).
        for (NodeId s : used)
            addEdge(s, call, EdgeKind::Sync, tail);
        g.nodes[call].kind = NodeKind::SyncCall;
        hasSyncIn[call] = 1;
    }

    void syncEdges() {
        for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
            const Rank& rank = set.ranks[r];
            // Correlation -> runtime call (for cudaEventRecord lookups).
            std::unordered_map<std::int64_t, EventRef> callByCorr;
            for (std::uint32_t ti = 0; ti < rank.tracks.size(); ++ti) {
                const auto& t = rank.tracks[ti];
                if (t.isGpu()) continue;
                for (std::uint32_t i = 0; i < t.events.size(); ++i)
                    if (isRuntimeCall(t.events.kind[i]) && t.events.correlation[i] >= 0)
                        callByCorr.emplace(t.events.correlation[i], EventRef{ti, i});
            }
            // 1. Identity from cuda_sync events.
            for (const SyncMeta& sm : rank.syncs) {
                if (!sm.event.valid() || g.nodeOf(r, sm.event) == kOutsideWindow) continue;
                const Track& st = rank.tracks[sm.event.track];
                std::uint64_t link = st.events.link[sm.event.index];
                NodeId waitCall = link == kNoLink ? kNoNode : ownerOfCall(r, EventRef::unpack(link));
                std::int64_t device = sm.device >= 0 ? sm.device : st.device();
                NodeId src = kNoNode;
                if (sm.waitOnStream >= 0) {
                    const LaunchIndex* li = stream(r, device, sm.waitOnStream);
                    TimeNs t = std::numeric_limits<TimeNs>::max();
                    if (sm.waitOnEventRecordCorrelation >= 0) {
                        auto it = callByCorr.find(sm.waitOnEventRecordCorrelation);
                        if (it != callByCorr.end())
                            t = rank.tracks[it->second.track].events.start[it->second.index];
                    } else if (waitCall != kNoNode) {
                        t = mStart(waitCall);
                    }
                    if (li && t != std::numeric_limits<TimeNs>::max()) src = lastLaunchedBefore(*li, t);
                }
                if (sm.stream >= 0) { // a stream waits: cross-stream edge to the next op launched there
                    if (waitCall != kNoNode) waitHandled[waitCall] = 1;
                    if (src == kNoNode || waitCall == kNoNode || sm.stream == sm.waitOnStream) continue;
                    const LaunchIndex* li = stream(r, device, sm.stream);
                    if (!li) continue;
                    NodeId dst = firstLaunchedAfter(*li, mStart(waitCall));
                    if (dst == kNoNode) continue;
                    if (mEnd(src) > effStart[dst] + opt.tolerance) {
                        warn("cross-stream waits contradict the measured times (skipped)");
                        continue;
                    }
                    addEdge(src, dst, EdgeKind::CrossStream, 0);
                    crossEdges.push_back(static_cast<EdgeId>(g.edges.size() - 1));
                    explained[dst] = std::max(explained[dst], mEnd(src));
                    hasIdentityCross[dst] = 1;
                } else if (waitCall != kNoNode) { // the host waits
                    std::vector<NodeId> sources;
                    if (src != kNoNode) {
                        sources.push_back(src);
                    } else {
                        for (const auto& [key, li] : streams[r])
                            if (key.first == device)
                                sources.push_back(lastLaunchedBefore(li, mStart(waitCall)));
                    }
                    addHostSync(waitCall, sources, 0);
                }
            }
        }
        // 2. Synchronize calls and blocking copies without identity.
        std::vector<std::vector<TimeNs>> tails(set.ranks.size());
        std::vector<std::pair<NodeId, HostSyncKind>> pending;
        for (NodeId n = 0; n < g.nodes.size(); ++n) {
            const auto& node = g.nodes[n];
            if (node.kind != NodeKind::CpuCall || hasSyncIn[n]) continue;
            HostSyncKind k = hostSyncKind(g.nodeName(n));
            if (k != HostSyncKind::None) pending.push_back({n, k});
        }
        for (NodeId n = 0; n < g.nodes.size(); ++n) { // blocking memcpy: the call outlives its copy
            const auto& node = g.nodes[n];
            if (node.kind != NodeKind::GpuOp || launchOf[n] == kNoNode) continue;
            NodeId call = launchOf[n];
            if (hasSyncIn[call] && g.nodes[call].kind == NodeKind::SyncCall &&
                !isMemcpyCall(g.nodeName(call)))
                continue;
            if (!isMemcpyCall(g.nodeName(call))) continue;
            if (mEnd(call) + opt.tolerance / 4 >= mEnd(n) && mEnd(n) > mStart(call)) {
                addHostSync(call, {n}, 0);
                tails[node.rank].push_back(mEnd(call) - mEnd(n));
            }
        }
        for (auto [n, k] : pending) {
            const auto& node = g.nodes[n];
            const Rank& rank = set.ranks[node.rank];
            TimeNs cs = mStart(n), ce = mEnd(n);
            std::vector<NodeId> sources;
            NodeId best = kNoNode;
            for (const auto& [key, li] : streams[node.rank]) {
                (void)rank;
                NodeId last = lastLaunchedBefore(li, cs);
                if (last == kNoNode) continue;
                if (k == HostSyncKind::Device) {
                    sources.push_back(last);
                } else if (mEnd(last) <= ce + opt.tolerance && (best == kNoNode || mEnd(last) > mEnd(best))) {
                    best = last;
                }
            }
            if (best != kNoNode) sources.push_back(best);
            addHostSync(n, sources, quantile(tails[node.rank], 0.5));
        }
    }

    // cudaStreamWaitEvent without cuda_sync identity (older traces): the waiting stream is the one
    // of the next GPU op the same thread launches; the recorded stream is the one of the last op
    // the thread launched before the preceding cudaEventRecord. Without a record on the thread
    // (events recorded by a library that the profiler does not trace, e.g. NCCL), the source is
    // the latest-ending op, among the last ops launched on the device's other streams before the
    // wait, that is consistent with the measured start. Edges are marked inferred.
    void waitEventEdges() {
        std::vector<NodeId> firstLaunched(g.nodes.size(), kNoNode), lastLaunched(g.nodes.size(), kNoNode);
        for (NodeId n = 0; n < g.nodes.size(); ++n) {
            NodeId c = launchOf[n];
            if (c == kNoNode) continue;
            if (firstLaunched[c] == kNoNode || effStart[n] < effStart[firstLaunched[c]]) firstLaunched[c] = n;
            if (lastLaunched[c] == kNoNode || effStart[n] > effStart[lastLaunched[c]]) lastLaunched[c] = n;
        }
        constexpr std::size_t kLookaround = 64;
        for (const auto& p : g.processors) {
            if (p.gpu) continue;
            for (std::size_t k = 0; k < p.nodes.size(); ++k) {
                NodeId w = p.nodes[k];
                if (waitHandled[w] || g.nodeName(w).find("StreamWaitEvent") == std::string_view::npos)
                    continue;
                NodeId dst = kNoNode;
                for (std::size_t j = k + 1; j < p.nodes.size() && j <= k + kLookaround; ++j)
                    if ((dst = firstLaunched[p.nodes[j]]) != kNoNode) break;
                if (dst == kNoNode) continue;
                NodeId src = kNoNode;
                bool recordFound = false;
                for (std::size_t j = k; j-- > 0 && k - j <= kLookaround;) {
                    std::string_view nm = g.nodeName(p.nodes[j]);
                    if (nm.find("EventRecord") != std::string_view::npos) {
                        recordFound = true;
                        for (std::size_t i = j; i-- > 0 && j - i <= kLookaround;)
                            if ((src = lastLaunched[p.nodes[i]]) != kNoNode) break;
                        break;
                    }
                }
                if (!recordFound) {
                    const Track& dt = set.ranks[p.rank].tracks[g.nodes[dst].event.track];
                    for (const auto& [key, li] : streams[p.rank]) {
                        if (key.first != dt.device() || key.second == dt.stream()) continue;
                        NodeId c = lastLaunchedBefore(li, mStart(w));
                        if (c == kNoNode || mEnd(c) > effStart[dst] + opt.tolerance) continue;
                        if (src == kNoNode || mEnd(c) > mEnd(src)) src = c;
                    }
                }
                if (src == kNoNode || g.nodes[src].processor == g.nodes[dst].processor) continue;
                if (mEnd(src) > effStart[dst] + opt.tolerance) {
                    warn("event waits contradict the measured times (skipped)");
                    continue;
                }
                addEdge(src, dst, EdgeKind::CrossStream, 0, true);
                crossEdges.push_back(static_cast<EdgeId>(g.edges.size() - 1));
                g.stats.waitEventEdges++;
                explained[dst] = std::max(explained[dst], mEnd(src));
            }
        }
    }

    void launchEdgesAndInference() {
        // Launch latency per rank (and per launch API): launch call start -> GPU op start, over
        // ops launched onto an idle stream with no pending known dependency (the GPU could start
        // the op as soon as the launch reached it). The median is robust against waits that the
        // trace does not name.
        std::vector<std::vector<TimeNs>> lat(set.ranks.size());
        std::vector<std::map<std::string, std::vector<TimeNs>>> latByApi(set.ranks.size());
        for (NodeId n = 0; n < g.nodes.size(); ++n) {
            NodeId call = launchOf[n];
            if (call == kNoNode) continue;
            TimeNs l = effStart[n] - mStart(call);
            if (l < 0 || explained[n] > mStart(call)) continue;
            lat[g.nodes[n].rank].push_back(l);
            latByApi[g.nodes[n].rank][std::string(g.nodeName(call))].push_back(l);
        }
        std::vector<std::map<std::string, TimeNs>> apiLatency(set.ranks.size());
        for (std::size_t r = 0; r < set.ranks.size(); ++r) {
            g.ranks[r].typicalLaunchLatency = quantile(lat[r], 0.5);
            g.ranks[r].launchLatencySamples = static_cast<std::int64_t>(lat[r].size());
            for (auto& [api, v] : latByApi[r]) {
                if (v.size() < 8) continue; // too few: the rank-wide value
                TimeNs q = quantile(v, 0.5);
                apiLatency[r][api] = q;
                g.ranks[r].launchLatencyByApi.push_back({api, q});
            }
        }
        auto latencyOf = [&](NodeId call) {
            const auto& m = apiLatency[g.nodes[call].rank];
            auto it = m.find(std::string(g.nodeName(call)));
            return it != m.end() ? it->second : g.ranks[g.nodes[call].rank].typicalLaunchLatency;
        };

        // Per device: GPU ops sorted by measured end, for cross-stream inference.
        std::map<std::pair<std::uint32_t, std::int64_t>, std::vector<std::pair<TimeNs, NodeId>>> byEnd;
        if (opt.inferCrossStream) {
            for (auto& p : g.processors) {
                if (!p.gpu) continue;
                auto& v = byEnd[{p.rank, set.ranks[p.rank].tracks[p.track].device()}];
                for (NodeId n : p.nodes)
                    v.push_back({mEnd(n), n});
            }
            for (auto& [k, v] : byEnd)
                std::sort(v.begin(), v.end());
        }

        for (auto& p : g.processors) {
            if (!p.gpu) continue;
            const TimeNs origin = g.ranks[p.rank].origin;
            const std::int64_t device = set.ranks[p.rank].tracks[p.track].device();
            for (std::size_t k = 0; k < p.nodes.size(); ++k) {
                NodeId n = p.nodes[k];
                TimeNs s = effStart[n];
                NodeId call = launchOf[n];
                TimeNs latency = call != kNoNode ? latencyOf(call) : 0;
                TimeNs launchReady =
                    call != kNoNode ? mStart(call) + latency : std::numeric_limits<TimeNs>::min();
                TimeNs known = std::max(explained[n], launchReady);
                // Inferred cross-stream dependency: the op started later than its known
                // dependencies explain, right after an op on another stream of the same device
                // ended. The edge carries the rank's cross-stream delay, not this gap.
                if (opt.inferCrossStream && !hasIdentityCross[n] && s > known + opt.tolerance) {
                    const auto& v = byEnd[{p.rank, device}];
                    auto it = std::upper_bound(v.begin(), v.end(), std::make_pair(s, kNoNode));
                    for (int steps = 0; steps < 8 && it != v.begin(); ++steps) {
                        --it;
                        if (it->first < s - opt.tolerance || it->first <= known) break;
                        if (g.nodes[it->second].processor == g.nodes[n].processor) continue;
                        addEdge(it->second, n, EdgeKind::CrossStream, 0, true);
                        crossEdges.push_back(static_cast<EdgeId>(g.edges.size() - 1));
                        g.stats.inferredCrossStream++;
                        explained[n] = std::max(explained[n], it->first);
                        break;
                    }
                }
                if (call != kNoNode) {
                    if (s < mStart(call)) g.stats.repairedLaunches++;
                    addEdge(call, n, EdgeKind::Launch, latency);
                } else if (k == 0) {
                    // The stream's first op has no launch in the trace (launched before the
                    // window): the stream starts working at its measured start, like a thread.
                    g.nodes[n].release = std::max<TimeNs>(0, s - origin);
                }
                // Other ops without a launch follow their stream predecessor (delay 0).
            }
        }
        // One cross-stream delay per rank: the median gap between a cross-stream source's end and
        // the waiting op's start (the GPU-side cost of an event wait), over gaps up to the
        // tolerance (longer ones were held by something else).
        std::vector<std::vector<TimeNs>> gaps(set.ranks.size());
        for (EdgeId id : crossEdges) {
            const auto& e = g.edges[id];
            TimeNs gap = effStart[e.to] - mEnd(e.from);
            if (gap >= 0 && gap <= opt.tolerance) gaps[g.nodes[e.to].rank].push_back(gap);
        }
        for (std::size_t r = 0; r < set.ranks.size(); ++r)
            g.ranks[r].crossStreamDelay = quantile(gaps[r], 0.5);
        for (auto& e : g.edges)
            if (e.kind == EdgeKind::CrossStream) e.delay = g.ranks[g.nodes[e.to].rank].crossStreamDelay;
    }

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
    void addGroup(CollectiveGroup&& grp) {
        if (grp.complete) {
            TimeNs latest = std::numeric_limits<TimeNs>::min();
            for (NodeId n : grp.members)
                latest = std::max(latest, effStart[n]);
            bool offset = false;
            for (NodeId n : grp.members)
                if (mEnd(n) < latest) offset = true;
            TimeNs minDur = std::numeric_limits<TimeNs>::max();
            for (NodeId n : grp.members)
                minDur = std::min(minDur, g.nodes[n].duration);
            if (offset && !clockWarned) {
                g.warnings.push_back("collective end times contradict their start times across ranks "
                                     "(clock offset between rank files): transfer time taken from the "
                                     "shortest participant");
                clockWarned = true;
            }
            std::uint32_t gi = static_cast<std::uint32_t>(g.collectives.size());
            for (NodeId n : grp.members) {
                TimeNs transfer = offset ? minDur : std::max<TimeNs>(0, mEnd(n) - latest);
                g.nodes[n].duration = std::min(transfer, g.nodes[n].duration);
                g.nodes[n].kind = NodeKind::Collective;
                g.nodes[n].collective = gi;
            }
            for (NodeId a : grp.members)
                for (NodeId b : grp.members)
                    if (a != b) addEdge(b, a, EdgeKind::Collective, g.nodes[a].duration);
            g.stats.collectivesMatched++;
        } else {
            g.stats.collectivesUnmatched++;
        }
        g.collectives.push_back(std::move(grp));
    }

    // The k-th collective of a process group on each rank is one collective.
    void collectiveEdges() {
        struct Seq {
            std::vector<NodeId> nodes;
        };
        std::map<std::string, std::map<std::uint32_t, Seq>> byKey; // key -> rank index -> nodes
        std::map<std::string, std::vector<std::int32_t>> keyRanks; // key -> expected rank ids
        std::map<std::string, int> keySize;
        // Point-to-point (send / recv with metadata): key -> rank index -> sends, receives.
        struct P2p {
            std::vector<NodeId> sends, recvs;
        };
        std::map<std::string, std::map<std::uint32_t, P2p>> p2p;
        for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
            const Rank& rank = set.ranks[r];
            std::map<std::pair<std::int64_t, std::int64_t>, int> streamOrdinal;
            for (auto& p : g.processors) {
                if (p.rank != r || !p.gpu) continue;
                const Track& t = rank.tracks[p.track];
                for (NodeId n : p.nodes) {
                    const auto& node = g.nodes[n];
                    std::string_view name = rank.name(node.event);
                    if (!isCollectiveKernelName(name)) continue;
                    std::uint32_t extra = t.events.extra[node.event.index];
                    const CollectiveMeta* meta = extra != kNoExtra && extra < rank.collectives.size()
                                                     ? &rank.collectives[extra]
                                                     : nullptr;
                    std::string key;
                    if (meta && meta->hasMetadata && !meta->processGroupRanks.empty()) {
                        key = "pg:" + std::string(rank.strings.str(meta->processGroupName)) + ":";
                        for (auto x : meta->processGroupRanks)
                            key += std::to_string(x) + ",";
                        keyRanks[key] = meta->processGroupRanks;
                    } else if (meta && meta->hasMetadata && meta->groupSize > 0) {
                        key = "pg:" + std::string(rank.strings.str(meta->processGroupName)) + ":size" +
                              std::to_string(meta->groupSize);
                        keySize[key] = meta->groupSize;
                    } else {
                        auto [it, fresh] = streamOrdinal.try_emplace({t.device(), t.stream()},
                                                                     static_cast<int>(streamOrdinal.size()));
                        (void)fresh;
                        key = "stream-order:" + std::to_string(it->second);
                        if (rank.worldSize > 0) keySize[key] = std::max(keySize[key], rank.worldSize);
                    }
                    CollectiveType type = meta && meta->type != CollectiveType::Unknown
                                              ? meta->type
                                              : collectiveTypeFromKernelName(name);
                    if (meta && meta->hasMetadata &&
                        (type == CollectiveType::Send || type == CollectiveType::Recv)) {
                        auto& pr = p2p[key][r];
                        (type == CollectiveType::Send ? pr.sends : pr.recvs).push_back(n);
                        continue;
                    }
                    byKey[key][r].nodes.push_back(n);
                }
            }
        }
        for (auto& [key, perRank] : byKey) {
            std::vector<std::uint32_t> participants;
            bool missing = false;
            if (auto it = keyRanks.find(key); it != keyRanks.end()) {
                for (auto id : it->second) {
                    const Rank* rk = set.findRank(id);
                    if (!rk) {
                        missing = true;
                        continue;
                    }
                    participants.push_back(static_cast<std::uint32_t>(rk - set.ranks.data()));
                }
            } else {
                for (auto& [r, seq] : perRank)
                    participants.push_back(r);
                int expected = keySize.count(key) ? keySize[key] : -1;
                if (expected < 0 && set.ranks.size() == 1) expected = 2; // a lone rank with NCCL kernels
                if (expected > 0 && static_cast<int>(participants.size()) < expected) missing = true;
            }
            std::size_t maxCount = 0, minCount = std::numeric_limits<std::size_t>::max();
            for (auto r : participants) {
                std::size_t c = perRank.count(r) ? perRank[r].nodes.size() : 0;
                maxCount = std::max(maxCount, c);
                minCount = std::min(minCount, c);
            }
            if (participants.empty()) continue;
            if (!missing && minCount != maxCount)
                warn("collectives of a process group differ in number across ranks; extra ones keep measured "
                     "durations");
            bool mismatch = false;
            for (std::size_t k = 0; k < maxCount; ++k) {
                CollectiveGroup grp;
                grp.processGroup = key;
                grp.expectedParticipants = static_cast<int>(participants.size());
                bool typeOk = true;
                for (auto r : participants) {
                    if (!perRank.count(r) || k >= perRank[r].nodes.size()) continue;
                    NodeId n = perRank[r].nodes[k];
                    CollectiveType t = collectiveTypeFromKernelName(g.nodeName(n));
                    const Rank& rank = set.ranks[r];
                    std::uint32_t extra =
                        rank.tracks[g.nodes[n].event.track].events.extra[g.nodes[n].event.index];
                    std::int64_t bytes = -1;
                    if (extra != kNoExtra && extra < rank.collectives.size()) {
                        const auto& m = rank.collectives[extra];
                        if (m.type != CollectiveType::Unknown) t = m.type;
                        bytes = m.bytes(rank.strings);
                    }
                    if (grp.members.empty()) {
                        grp.type = t;
                        grp.bytes = bytes;
                    } else if (t != grp.type) {
                        typeOk = false;
                    } else if (bytes >= 0 && grp.bytes >= 0 && bytes != grp.bytes) {
                        // all_to_allv legitimately sends different amounts per rank: the group is
                        // as large as its largest member. Other collectives must agree.
                        if (t == CollectiveType::AllToAll)
                            grp.bytes = std::max(grp.bytes, bytes);
                        else
                            typeOk = false;
                    }
                    grp.members.push_back(n);
                }
                if (!typeOk && !mismatch) {
                    warn("collectives could not be matched across ranks (type or size differ): from there on "
                         "they "
                         "keep measured durations");
                    mismatch = true;
                }
                grp.complete = opt.matchCollectives && !missing && !mismatch &&
                               grp.members.size() == participants.size() && participants.size() > 1;
                addGroup(std::move(grp));
            }
            if (missing)
                warn("collectives with peers missing from the rank set keep their measured durations (key " +
                     key + ")");
        }
        // Send / recv pairs: in a process group of two ranks A and B, the k-th send of A meets the
        // k-th receive of B (and the other way round).
        for (auto& [key, perRank] : p2p) {
            for (auto& [r, pr] : perRank) {
                auto byStart = [&](NodeId a, NodeId b) { return effStart[a] < effStart[b]; };
                std::stable_sort(pr.sends.begin(), pr.sends.end(), byStart);
                std::stable_sort(pr.recvs.begin(), pr.recvs.end(), byStart);
            }
            std::vector<std::uint32_t> participants;
            bool missing = false;
            if (auto it = keyRanks.find(key); it != keyRanks.end()) {
                for (auto id : it->second) {
                    const Rank* rk = set.findRank(id);
                    if (!rk)
                        missing = true;
                    else
                        participants.push_back(static_cast<std::uint32_t>(rk - set.ranks.data()));
                }
            } else {
                for (auto& [r, pr] : perRank)
                    participants.push_back(r);
                int expected = keySize.count(key) ? keySize[key] : 2;
                missing = static_cast<int>(participants.size()) < expected;
            }
            std::int64_t total = 0;
            for (auto& [r, pr] : perRank)
                total += static_cast<std::int64_t>(pr.sends.size() + pr.recvs.size());
            if (missing || participants.size() != 2) {
                warn(missing
                         ? "send / recv with the peer missing from the rank set keep their measured durations"
                         : "send / recv in process groups of more than two ranks keep their measured "
                           "durations (the peer is not recorded)");
                g.stats.collectivesUnmatched += total;
                continue;
            }
            for (int dir = 0; dir < 2; ++dir) {
                std::uint32_t a = participants[static_cast<std::size_t>(dir)];
                std::uint32_t b = participants[static_cast<std::size_t>(1 - dir)];
                const auto& sends = perRank[a].sends;
                const auto& recvs = perRank[b].recvs;
                if (sends.size() != recvs.size())
                    warn("sends and receives of a process group differ in number; extra ones keep measured "
                         "durations");
                std::size_t pairs = std::min(sends.size(), recvs.size());
                g.stats.collectivesUnmatched +=
                    static_cast<std::int64_t>(sends.size() + recvs.size() - 2 * pairs);
                bool mismatch = false;
                for (std::size_t k = 0; k < pairs; ++k) {
                    CollectiveGroup grp;
                    grp.type = CollectiveType::SendRecv;
                    grp.processGroup = key;
                    grp.expectedParticipants = 2;
                    std::int64_t sb = bytesOf(sends[k]), rb = bytesOf(recvs[k]);
                    grp.bytes = sb >= 0 ? sb : rb;
                    if (sb >= 0 && rb >= 0 && sb != rb && !mismatch) {
                        warn("a send and its receive differ in size: from there on they keep measured "
                             "durations");
                        mismatch = true;
                    }
                    grp.members = {sends[k], recvs[k]};
                    grp.complete = opt.matchCollectives && !mismatch;
                    addGroup(std::move(grp));
                }
            }
        }
    }

    // Drops inferred and collective edges (a cycle came from them) and restores durations.
    void dropUncertainEdges() {
        std::vector<GraphEdge> kept;
        kept.reserve(g.edges.size());
        for (const auto& e : g.edges)
            if (!(e.kind == EdgeKind::Collective || (e.kind == EdgeKind::CrossStream && e.inferred)))
                kept.push_back(e);
        g.edges.swap(kept);
        for (auto& grp : g.collectives) {
            if (!grp.complete) continue;
            grp.complete = false;
            for (NodeId n : grp.members) {
                g.nodes[n].kind = NodeKind::GpuOp;
                g.nodes[n].duration = std::max<TimeNs>(0, mEnd(n) - effStart[n]);
            }
        }
        g.stats.collectivesUnmatched += g.stats.collectivesMatched;
        g.stats.collectivesMatched = 0;
        g.stats.inferredCrossStream = 0;
    }

    // comm.overlap=false: see ExecutionGraph::noOverlapBegin.
    void noOverlapEdges() {
        std::map<std::pair<std::uint32_t, std::int64_t>, std::vector<std::uint32_t>> compute;
        for (std::uint32_t pi = 0; pi < g.processors.size(); ++pi) {
            const auto& p = g.processors[pi];
            if (!p.gpu) continue;
            const Track& t = set.ranks[p.rank].tracks[p.track];
            for (NodeId n : p.nodes)
                if (t.events.kind[g.nodes[n].event.index] == EventKind::Kernel &&
                    !isCollectiveKernelName(g.nodeName(n))) {
                    compute[{p.rank, t.device()}].push_back(pi);
                    break;
                }
        }
        const std::size_t begin = g.edges.size();
        for (NodeId n = 0; n < g.nodes.size(); ++n) {
            const auto& node = g.nodes[n];
            if (node.kind != NodeKind::Collective &&
                !(node.kind == NodeKind::GpuOp && isCollectiveKernelName(g.nodeName(n))))
                continue;
            const Track& t = set.ranks[node.rank].tracks[node.event.track];
            auto it = compute.find({node.rank, t.device()});
            if (it == compute.end()) continue;
            for (std::uint32_t pi : it->second) {
                if (pi == node.processor) continue;
                const auto& seq = g.processors[pi].nodes;
                auto ub = std::upper_bound(seq.begin(), seq.end(), effStart[n],
                                           [&](TimeNs v, NodeId m) { return v < effStart[m]; });
                if (ub != seq.begin()) addEdge(*std::prev(ub), n, EdgeKind::CrossStream, 0);
                if (ub != seq.end()) addEdge(n, *ub, EdgeKind::CrossStream, 0);
            }
        }
        if (g.edges.size() == begin) return;
        g.noOverlapBegin = static_cast<EdgeId>(begin);
        g.buildAdjacency();
        if (findCycleNode(g, true) != kNoNode) {
            g.edges.resize(begin);
            g.noOverlapBegin = kNoEdge;
            g.buildAdjacency();
            g.noOverlapUnavailable = "comm.overlap=false cannot be simulated on this trace: serializing "
                                     "collectives with compute would deadlock (ranks issue collectives of "
                                     "different streams in different orders); it was ignored";
        }
    }

    void finish() {
        for (const auto& [what, n] : warnCounts)
            g.warnings.push_back(what + (n > 1 ? " (" + std::to_string(n) + "x)" : ""));
        if (g.stats.repairedLaunches)
            g.warnings.push_back(std::to_string(g.stats.repairedLaunches) +
                                 " GPU ops start before their launch call: launch latency clamped to 0");
        if (g.stats.repairedOverlaps)
            g.warnings.push_back(
                std::to_string(g.stats.repairedOverlaps) +
                " overlapping ops on one stream or thread: serialized, keeping their end times");
        if (g.stats.gpuOpsWithoutLaunch)
            g.warnings.push_back(std::to_string(g.stats.gpuOpsWithoutLaunch) +
                                 " GPU ops without a launch call: replayed after their stream predecessor");
        for (auto& c : g.stats.edgesByKind)
            c = 0;
        for (const auto& e : g.edges)
            g.stats.edgesByKind[static_cast<int>(e.kind)]++;
    }

    void run() {
        findWindows();
        makeNodes();
        orderEdges();
        buildLaunchIndex();
        syncEdges();
        if (opt.inferCrossStream && opt.inferEventWaits) waitEventEdges();
        launchEdgesAndInference();
        collectiveEdges();
        g.buildAdjacency();
        if (findCycleNode(g) != kNoNode) {
            g.warnings.push_back(
                "the graph had a cycle through inferred or collective edges: they were dropped "
                "(collectives keep measured durations)");
            dropUncertainEdges();
            g.buildAdjacency();
        }
        finish();
        noOverlapEdges();
        g.validate();
    }
};

} // namespace

ExecutionGraph buildExecutionGraph(const TraceSet& set, const GraphOptions& options) {
    ExecutionGraph g;
    g.trace = &set;
    Builder b(set, options, g);
    b.run();
    return g;
}

} // namespace sl
