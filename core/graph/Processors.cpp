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

// Thread order, stream order (with overlap repair), launch owners, first-node release times.
void Builder::orderEdges() {
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

} // namespace sl::graph_build
