// Nodes, processors (CPU threads, GPU streams), thread order and stream order.
#include "graph/GraphBuilder.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace sl::graph_build {

void Builder::makeNodes() {
    callOwner.resize(set.ranks.size());
    trackProcessor.resize(set.ranks.size());
    // The node array sized once: grown by doubling it ended up to twice the nodes' memory, for the
    // whole life of the graph. Nested calls make no node, so this counts a few too many at most.
    std::size_t nodeCount = 0;
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r)
        for (std::uint32_t ti = 0; ti < set.ranks[r].tracks.size(); ++ti) {
            const Track& t = set.ranks[r].tracks[ti];
            const auto& idx = g.nodeIndex[r][ti];
            for (std::uint32_t i = 0; i < t.events.size(); ++i)
                if (idx[i] != kOutsideWindow &&
                    (t.isGpu() ? isGpuOp(t.events.kind[i]) : isRuntimeCall(t.events.kind[i])))
                    ++nodeCount;
        }
    g.nodes.reserve(g.nodes.size() + nodeCount);
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
    streamIn.assign(g.nodes.size(), kNoEdge);
    queueHead.assign(g.nodes.size(), 0);
    headFollows.assign(g.nodes.size(), 0);
}

// Thread order (gaps split into CPU work and unexplained wait), stream order (with overlap
// repair), launch owners, and the boundary conditions: each rank's root and its pre-window GPU ops
// are the only nodes released at their measured start.
void Builder::orderEdges() {
    std::vector<TimeNs> firstCpu(set.ranks.size(), std::numeric_limits<TimeNs>::max());
    for (auto& p : g.processors)
        if (!p.gpu && !p.nodes.empty()) firstCpu[p.rank] = std::min(firstCpu[p.rank], mStart(p.nodes[0]));
    coverage.assign(g.processors.size(), CpuCoverage{});
    for (std::uint32_t pi = 0; pi < g.processors.size(); ++pi) {
        const Processor& p = g.processors[pi];
        const Rank& rank = set.ranks[p.rank];
        const auto& ev = rank.tracks[p.track].events;
        const TimeNs origin = g.ranks[p.rank].origin;
        if (p.nodes.empty()) continue;
        if (!p.gpu) {
            coverage[pi] = CpuCoverage(rank, rank.tracks[p.track]);
            const CpuCoverage& cov = coverage[pi];
            for (std::size_t k = 1; k < p.nodes.size(); ++k) {
                const TimeNs a = mEnd(p.nodes[k - 1]), b = mStart(p.nodes[k]);
                EdgeId id = addEdge(p.nodes[k - 1], p.nodes[k], EdgeKind::ThreadOrder, b - a);
                auto& e = g.edges[id];
                e.cpuWork = std::min(e.delay, cov.covered(a, b));
                g.ranks[p.rank].unexplainedWait += e.delay - e.cpuWork;
            }
            continue;
        }
        TimeNs prevEnd = std::numeric_limits<TimeNs>::min();
        bool leading = true; // no op of the stream so far has its launch in the file
        for (std::size_t k = 0; k < p.nodes.size(); ++k) {
            NodeId n = p.nodes[k];
            const auto& node = g.nodes[n];
            TimeNs s = mStart(n), e = mEnd(n);
            if (s < prevEnd) { // overlapping ops on one stream: keep the end, clip the start
                if (prevEnd - s > 1000) g.stats.repairedOverlaps++;
                g.nodes[n].duration = std::max<TimeNs>(0, e - prevEnd);
                s = prevEnd;
            }
            effStart[n] = s;
            const TimeNs prevOpEnd = prevEnd;
            if (k > 0) {
                streamIn[n] = addEdge(p.nodes[k - 1], n, EdgeKind::StreamOrder, 0);
                explained[n] = std::max(explained[n], prevEnd);
            }
            prevEnd = std::max(prevEnd, e);
            std::uint64_t link = ev.link[node.event.index];
            if (link != kNoLink) launchOf[n] = ownerOfCall(p.rank, EventRef::unpack(link));
            if (launchOf[n] != kNoNode) {
                leading = false;
                if (runtimeApi(g.nodeName(launchOf[n])) == RuntimeApi::GraphLaunch) {
                    g.ranks[p.rank].graphKernels++;
                    g.stats.graphKernels++;
                }
                continue;
            }
            if (leading || s < firstCpu[p.rank]) {
                // Launched before the window (its call is not in the file, and it started before
                // the first call or was queued ahead of every launched op of its stream): a
                // boundary condition, released at its measured start; its duration still follows
                // the knobs.
                // Queued back to back behind the previous op, it follows it (a faster GPU
                // moves it earlier); after an idle gap, or first on its stream, it keeps its
                // measured start.
                g.nodes[n].prewindow = true;
                if (k == 0 || s > prevOpEnd + kQueuedGap) { // the head of a queue
                    g.nodes[n].release = std::max<TimeNs>(0, s - origin);
                    queueHead[n] = 1;
                    g.ranks[p.rank].prewindowOps++;
                    g.stats.prewindowOps++;
                } else {
                    g.ranks[p.rank].prewindowQueued++;
                    g.stats.prewindowQueued++;
                }
            } else {
                g.stats.gpuOpsWithoutLaunch++;
            }
        }
    }
    threadReleases();
    threadWakeups();
}

std::vector<std::vector<std::uint32_t>> Builder::cpuThreadsByRank() const {
    std::vector<std::vector<std::uint32_t>> byRank(set.ranks.size());
    for (std::uint32_t pi = 0; pi < g.processors.size(); ++pi)
        if (!g.processors[pi].gpu && !g.processors[pi].nodes.empty())
            byRank[g.processors[pi].rank].push_back(pi);
    return byRank;
}

NodeId Builder::lastCallEndingBy(std::uint32_t processor, TimeNs t) const {
    const auto& seq = g.processors[processor].nodes;
    // Calls on a thread do not overlap, so their ends are sorted like their starts.
    auto it = std::upper_bound(seq.begin(), seq.end(), t, [&](TimeNs v, NodeId m) { return v < mEnd(m); });
    return it == seq.begin() ? kNoNode : *std::prev(it);
}

void Builder::addThreadStart(NodeId cause, NodeId to) {
    const TimeNs from = mEnd(cause), at = mStart(to);
    EdgeId id = addEdge(cause, to, EdgeKind::ThreadStart, at - from, true);
    g.edges[id].cpuWork = std::min(g.edges[id].delay, coverage[g.nodes[to].processor].covered(from, at));
    g.stats.threadStartEdges++;
}

// A thread that sleeps between two of its calls (a gap that no CPU op covers) and resumes right
// after a call on another thread of the rank ended was woken by that call (autograd's thread at
// each backward, the main thread when backward returns): an inferred ThreadStart edge from the
// waker, and the sleeping thread's own order keeps only its CPU work, so the wake-up moves when the
// waker moves.
void Builder::threadWakeups() {
    constexpr TimeNs kWakeWindow = 50'000; // resumed at most this long after the waker ended
    constexpr TimeNs kMinSleep = 20'000;   // shorter unexplained gaps are not a sleep
    const auto threads = cpuThreadsByRank();
    const std::size_t edgeCount = g.edges.size();
    for (std::size_t id = 0; id < edgeCount; ++id) {
        const GraphEdge e = g.edges[id];
        if (e.kind != EdgeKind::ThreadOrder || e.delay - e.cpuWork < kMinSleep) continue;
        const auto& cpu = threads[g.nodes[e.to].rank];
        if (cpu.size() < 2) continue;
        const TimeNs a = mEnd(e.from), b = mStart(e.to);
        const std::uint32_t own = g.nodes[e.to].processor;
        const CpuCoverage& cov = coverage[own];
        // Most of the sleep lies before the waker: what follows it is a wake-up latency and the
        // Python before the next call.
        const TimeNs wakeWindow = std::max(kWakeWindow, (e.delay - e.cpuWork) / 4);
        NodeId waker = kNoNode;
        for (std::uint32_t pi : cpu) {
            if (pi == own) continue;
            NodeId c = lastCallEndingBy(pi, b);
            // Woken shortly after c: what the thread did between c and b, besides CPU work that
            // its ops cover, is short.
            if (c == kNoNode || mEnd(c) < a || (b - mEnd(c)) - cov.covered(mEnd(c), b) > wakeWindow) continue;
            if (waker == kNoNode || mEnd(c) > mEnd(waker)) waker = c;
        }
        if (waker == kNoNode) continue;
        addThreadStart(waker, e.to);
        // Asleep until woken: the thread's own order holds only the CPU work of the gap.
        g.edges[id].delay = g.edges[id].cpuWork;
    }
}

// Only each rank's root (its earliest CPU call) has an absolute release. Every other thread's
// first call is released by the call on another thread of the rank that ended last before it
// (the main thread's call before backward() for autograd's thread, the enqueue before a
// communication thread wakes up): an inferred ThreadStart edge whose delay is the measured gap,
// with the part covered by the new thread's CPU ops counted as CPU work. A thread that starts
// before any other call ended keeps its measured start and is counted.
void Builder::threadReleases() {
    auto threads = cpuThreadsByRank();
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        auto& cpu = threads[r];
        std::stable_sort(cpu.begin(), cpu.end(), [&](std::uint32_t a, std::uint32_t b) {
            return mStart(g.processors[a].nodes[0]) < mStart(g.processors[b].nodes[0]);
        });
        for (std::size_t i = 0; i < cpu.size(); ++i) {
            const NodeId first = g.processors[cpu[i]].nodes[0];
            const TimeNs s = mStart(first);
            NodeId cause = kNoNode;
            for (std::size_t j = 0; j < i; ++j) {
                NodeId c = lastCallEndingBy(cpu[j], s);
                if (c != kNoNode && (cause == kNoNode || mEnd(c) > mEnd(cause))) cause = c;
            }
            if (cause != kNoNode) {
                addThreadStart(cause, first);
                continue;
            }
            g.nodes[first].release = std::max<TimeNs>(0, s - g.ranks[r].origin);
            if (i > 0) {
                g.ranks[r].threadsReleasedAtMeasured++;
                continue;
            }
            rootFromFirstEvent(r, cpu[i]);
        }
    }
}

// The rank's root starts at its first profiled event in the window (the step's start, or its
// earliest CPU op), not at its first runtime call: what the thread did before that call is CPU work
// where its ops cover it (data loading, tensor creation) and an unexplained wait elsewhere, and only
// the time before the first event is a late start (docs/ARCHITECTURE.md, "Boundary conditions").
void Builder::rootFromFirstEvent(std::uint32_t r, std::uint32_t rootThread) {
    const Rank& rank = set.ranks[r];
    const NodeId root = g.processors[rootThread].nodes[0];
    const TimeNs callStart = mStart(root);
    TimeNs first = callStart;
    for (std::uint32_t ti = 0; ti < rank.tracks.size(); ++ti) {
        const Track& t = rank.tracks[ti];
        if (t.isGpu()) continue;
        const auto& ev = t.events;
        const auto& idx = g.nodeIndex[r][ti];
        // Events are sorted by start: the first in the window that is not an instant.
        for (std::size_t i = 0; i < ev.size() && ev.start[i] < first; ++i)
            if (idx[i] != kOutsideWindow && ev.kind[i] != EventKind::Instant) {
                first = ev.start[i];
                break;
            }
    }
    const TimeNs origin = g.ranks[r].origin;
    first = std::max(first, origin);
    g.ranks[r].firstEvent = first - origin;
    if (first >= callStart) return;
    auto& node = g.nodes[root];
    node.releaseWork = std::min(callStart - first, coverage[rootThread].covered(first, callStart));
    node.releaseWait = (callStart - first) - node.releaseWork;
}

} // namespace sl::graph_build
