#include "analysis/CollectiveArrivals.h"

#include <algorithm>
#include <limits>

namespace sl {

namespace {

// See RankArrival::arrival: the latest release of the kernel by its launch, stream and cross-stream
// edges, at measured times, capped by its measured start (an NCCL kernel starts as soon as it may
// and then spins until its peers arrive, so it cannot have been ready later than it started).
TimeNs arrivalOf(const ExecutionGraph& g, NodeId n) {
    const TimeNs start = g.measuredStart(n);
    TimeNs ready = std::numeric_limits<TimeNs>::min();
    for (EdgeId id : g.inEdges(n)) {
        const GraphEdge& e = g.edges[id];
        if (e.kind != EdgeKind::Launch && e.kind != EdgeKind::StreamOrder && e.kind != EdgeKind::CrossStream)
            continue;
        const TimeNs trig = e.triggeredByStart() ? g.measuredStart(e.from) : g.measuredEnd(e.from);
        ready = std::max(ready, trig + e.delay);
    }
    return ready == std::numeric_limits<TimeNs>::min() ? start : std::min(ready, start);
}

const CollectiveMeta* metaOf(const ExecutionGraph& g, NodeId n) {
    const Rank& rank = g.rankOf(n);
    const EventRef ev = g.nodes[n].event;
    const std::uint32_t extra = rank.tracks[ev.track].events.extra[ev.index];
    return extra != kNoExtra && extra < rank.collectives.size() ? &rank.collectives[extra] : nullptr;
}

} // namespace

CollectiveArrivals collectiveArrivals(const ExecutionGraph& g) {
    CollectiveArrivals out;
    out.ranks.resize(g.ranks.size());
    for (std::uint32_t r = 0; r < g.ranks.size(); ++r) {
        out.ranks[r].rank = r;
        out.ranks[r].rankId = g.ranks[r].rankId;
    }
    auto make = [&](std::uint32_t group, CollectiveType type, const std::string& key, std::int64_t bytes,
                    const std::vector<NodeId>& members) {
        CollectiveArrival c;
        c.group = group;
        c.type = type;
        c.bytes = bytes;
        c.processGroup = key;
        const CollectiveMeta* meta = metaOf(g, members.front());
        if (meta && meta->hasMetadata) {
            c.processGroup = std::string(g.rankOf(members.front()).strings.str(meta->processGroupName));
            c.groupRanks = meta->processGroupRanks;
            c.size = !meta->processGroupRanks.empty() ? static_cast<int>(meta->processGroupRanks.size())
                                                      : meta->groupSize;
        }
        for (NodeId n : members) {
            const TimeNs origin = g.ranks[g.nodes[n].rank].origin;
            c.ranks.push_back({n, g.nodes[n].rank, arrivalOf(g, n) - origin, g.measuredStart(n) - origin,
                               g.measuredEnd(n) - origin, 0});
            if (g.nodes[n].phantomArrival >= 0)
                c.phantomArrival = std::max(c.phantomArrival, g.nodes[n].phantomArrival);
        }
        std::stable_sort(c.ranks.begin(), c.ranks.end(),
                         [](const RankArrival& a, const RankArrival& b) { return a.arrival < b.arrival; });
        if (c.phantomArrival >= 0) // at least one peer is missing (a lone rank: its one peer)
            c.phantomPeers = std::max(1, c.size - static_cast<int>(c.ranks.size()));
        c.size = std::max(c.size, static_cast<int>(c.ranks.size()) + c.phantomPeers);
        c.first = c.ranks.front().arrival;
        c.lastArrival = c.ranks.back().arrival;
        if (c.phantomPeers > 0) {
            c.first = std::min(c.first, c.phantomArrival);
            c.lastIsPhantom = c.phantomArrival > c.lastArrival;
            c.lastArrival = std::max(c.lastArrival, c.phantomArrival);
        }
        c.spread = c.lastArrival - c.first;
        TimeNs waits = 0;
        for (RankArrival& a : c.ranks) {
            a.waited = c.lastArrival - a.arrival;
            waits += a.waited;
            RankWaiting& w = out.ranks[a.rank];
            w.collectives++;
            w.waited += a.waited;
        }
        if (waits == 0) {
            // Everyone arrived together: no one was last.
        } else if (c.lastIsPhantom) {
            out.waitedForPhantoms += waits;
        } else {
            RankWaiting& w = out.ranks[c.last().rank];
            w.timesLast++;
            w.madeOthersWait += waits;
        }
        out.collectives.push_back(std::move(c));
    };
    std::vector<char> grouped(g.nodes.size(), 0);
    for (std::uint32_t i = 0; i < g.collectives.size(); ++i) {
        const CollectiveGroup& grp = g.collectives[i];
        if (grp.members.empty()) continue;
        bool phantom = false;
        for (NodeId n : grp.members) {
            grouped[n] = 1;
            phantom = phantom || g.nodes[n].phantomArrival >= 0;
        }
        if (!grp.complete && !phantom) continue; // unmatched: no arrival order to speak of
        make(i, grp.type, grp.processGroup, grp.bytes, grp.members);
    }
    // Send / recv with its peer outside the set: not a group, but the peer's arrival is known.
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        if (grouped[n] || g.nodes[n].phantomArrival < 0) continue;
        const CollectiveMeta* meta = metaOf(g, n);
        const CollectiveType type = meta && meta->type != CollectiveType::Unknown
                                        ? meta->type
                                        : collectiveTypeFromKernelName(g.nodeName(n));
        make(0xffffffffu, type, std::string(), meta ? meta->bytes(g.rankOf(n).strings) : -1, {n});
    }
    std::stable_sort(
        out.collectives.begin(), out.collectives.end(),
        [](const CollectiveArrival& a, const CollectiveArrival& b) { return a.first < b.first; });
    return out;
}

} // namespace sl
