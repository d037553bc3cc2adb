// Host syncs and cross-stream event waits: which GPU op a call or a stream waits for.
#include "graph/GraphBuilder.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace sl::graph_build {

void Builder::buildLaunchIndex() {
    streams.resize(set.ranks.size());
    for (auto& p : g.processors) {
        if (!p.gpu) continue;
        const Track& t = set.ranks[p.rank].tracks[p.track];
        auto& li = streams[p.rank][{t.device(), t.stream()}];
        // Pre-window ops are producers too (a sync or event wait early in the window waits for
        // them): they were launched before any call in the file, so they come before every launch
        // of the window, in stream order (a queue of them may run long after the first call).
        constexpr TimeNs kBeforeWindow = std::numeric_limits<TimeNs>::min() / 4;
        for (NodeId n : p.nodes)
            if (launchOf[n] != kNoNode)
                li.byLaunch.push_back({mStart(launchOf[n]), n});
            else if (g.nodes[n].prewindow)
                li.byLaunch.push_back({kBeforeWindow, n});
        std::stable_sort(li.byLaunch.begin(), li.byLaunch.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
    }
}

// Host waits for GPU work: the call cannot end before the sources end.
void Builder::addHostSync(NodeId call, const std::vector<NodeId>& sources, TimeNs typicalTail) {
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

void Builder::syncEdges() {
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
                    warn(Warn::CrossStreamWaitSkipped,
                         "cross-stream waits contradict the measured times (skipped)");
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
                        if (key.first == device) sources.push_back(lastLaunchedBefore(li, mStart(waitCall)));
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
        if (hasSyncIn[call] && g.nodes[call].kind == NodeKind::SyncCall && !isMemcpyCall(g.nodeName(call)))
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
void Builder::waitEventEdges() {
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
            if (waitHandled[w] || runtimeApi(g.nodeName(w)) != RuntimeApi::StreamWaitEvent) continue;
            NodeId dst = kNoNode;
            for (std::size_t j = k + 1; j < p.nodes.size() && j <= k + kLookaround; ++j)
                if ((dst = firstLaunched[p.nodes[j]]) != kNoNode) break;
            if (dst == kNoNode) continue;
            NodeId src = kNoNode;
            bool recordFound = false;
            for (std::size_t j = k; j-- > 0 && k - j <= kLookaround;) {
                if (runtimeApi(g.nodeName(p.nodes[j])) == RuntimeApi::EventRecord) {
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
                    // The last op launched there before the wait; when it ends after the waiting
                    // op started, the event was recorded earlier: search older ops.
                    auto it = std::lower_bound(li.byLaunch.begin(), li.byLaunch.end(), mStart(w),
                                               [](const auto& a, TimeNs v) { return a.first < v; });
                    for (int back = 0; back < 16 && it != li.byLaunch.begin(); ++back) {
                        NodeId c = (--it)->second;
                        if (mEnd(c) > effStart[dst] + opt.tolerance) continue;
                        if (src == kNoNode || mEnd(c) > mEnd(src)) src = c;
                        break;
                    }
                }
            }
            if (src == kNoNode || g.nodes[src].processor == g.nodes[dst].processor) continue;
            if (mEnd(src) > effStart[dst] + opt.tolerance) {
                warn(Warn::EventWaitSkipped, "event waits contradict the measured times (skipped)");
                continue;
            }
            addEdge(src, dst, EdgeKind::CrossStream, 0, true);
            crossEdges.push_back(static_cast<EdgeId>(g.edges.size() - 1));
            g.stats.waitEventEdges++;
            explained[dst] = std::max(explained[dst], mEnd(src));
        }
    }
}

} // namespace sl::graph_build
