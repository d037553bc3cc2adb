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

TimeNs measuredArrival(const ExecutionGraph& g, NodeId n) {
    return arrivalOf(g, n);
}

CollectiveArrivals settleArrivals(const std::vector<int>& rankIds,
                                  std::vector<CollectiveArrival> collectives) {
    CollectiveArrivals out;
    out.ranks.resize(rankIds.size());
    for (std::uint32_t r = 0; r < rankIds.size(); ++r) {
        out.ranks[r].rank = r;
        out.ranks[r].rankId = rankIds[r];
    }
    for (CollectiveArrival& c : collectives) {
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
    }
    out.collectives = std::move(collectives);
    std::stable_sort(
        out.collectives.begin(), out.collectives.end(),
        [](const CollectiveArrival& a, const CollectiveArrival& b) { return a.first < b.first; });
    return out;
}

CollectiveArrivals collectiveArrivals(const ExecutionGraph& g) {
    std::vector<CollectiveArrival> raw;
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
        raw.push_back(std::move(c));
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
    std::vector<int> rankIds;
    for (const RankWindow& w : g.ranks)
        rankIds.push_back(w.rankId);
    return settleArrivals(rankIds, std::move(raw));
}

bool isPointToPoint(CollectiveType type, int participants) {
    return participants <= 2 &&
           (type == CollectiveType::Send || type == CollectiveType::Recv || type == CollectiveType::SendRecv);
}

LateRank lateRank(const ExecutionGraph& g, const CollectiveArrivals& a) {
    constexpr TimeNs kTogether = 1000; // arrivals within 1 us: nobody waited
    LateRank out;
    const std::size_t n = a.ranks.size();
    out.madeOthersWait.assign(n, 0);
    out.timesLast.assign(n, 0);
    out.waitedAt.assign(n, 0);
    for (const CollectiveArrival& c : a.collectives) {
        if (isPointToPoint(c.type, c.size) || c.spread <= kTogether) continue;
        for (const RankArrival& r : c.ranks)
            if (r.rank < n) out.waitedAt[r.rank]++;
        if (c.lastIsPhantom || c.last().rank >= n) continue;
        TimeNs waits = 0;
        for (const RankArrival& r : c.ranks)
            waits += r.waited;
        out.timesLast[c.last().rank]++;
        out.madeOthersWait[c.last().rank] += waits;
    }
    // Among evenly loaded ranks whoever is a little slower comes last at most collectives, so the
    // waits it causes must also be a visible part of the step: 0.5% of the longest rank's step or
    // more per collective it came last to (64 evenly loaded ranks: rank 25, last at 5 of 9, 27 us
    // each of a 26.3 ms step, 0.1%; 03-tp2-pp2's rank 1, 3 us each; a host 2x slower on 8 ranks,
    // 615 us each of 36.6 ms, 1.7%).
    TimeNs step = 0;
    for (const RankWindow& w : g.ranks)
        step = std::max(step, w.measuredEnd - w.measuredStart);
    // Of those, the one last at the largest share of its collectives, then the one that caused the
    // most waiting: a straggler's pipeline peers wait for its sends and then come late to their
    // own collectives (64 ranks, straggler 37: rank 7 made the others wait 10.1 ms, last at 5 of 9;
    // rank 37 9.3 ms, last at 9 of 9).
    auto before = [&](std::size_t r, std::size_t o) {
        const std::int64_t x = std::int64_t{out.timesLast[r]} * out.waitedAt[o];
        const std::int64_t y = std::int64_t{out.timesLast[o]} * out.waitedAt[r];
        return x != y ? x > y : out.madeOthersWait[r] > out.madeOthersWait[o];
    };
    for (std::size_t r = 0; r < n; ++r) {
        const TimeNs made = out.madeOthersWait[r];
        if (out.timesLast[r] * 2 <= out.waitedAt[r] || made * 200 < step * out.timesLast[r]) continue;
        if (out.latest < 0 || before(r, static_cast<std::size_t>(out.latest)))
            out.latest = static_cast<int>(r);
    }
    return out;
}

} // namespace sl
