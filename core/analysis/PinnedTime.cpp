#include "analysis/PinnedTime.h"

#include "base/DurationText.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace sl {

std::string_view pinKindName(PinKind k) {
    switch (k) {
    case PinKind::LateStart:
        return "late_start";
    case PinKind::UnexplainedWait:
        return "unexplained_wait";
    case PinKind::QueueHead:
        return "queue_head";
    case PinKind::PhantomWait:
        return "phantom_wait";
    case PinKind::LaunchWait:
        return "launch_wait";
    case PinKind::Count:
        break;
    }
    return "unknown";
}

TimeNs RankPinnedTime::total() const {
    TimeNs t = 0;
    for (TimeNs v : byKind)
        t += v;
    return t;
}

double RankPinnedTime::sharePct() const {
    return pathLength > 0 ? 100.0 * static_cast<double>(total()) / static_cast<double>(pathLength) : 0.0;
}

namespace {

// The pins of a path folded segment by segment (in any order: the largest pin is chosen by kind
// and node, not by arrival).
class PinFold {
public:
    PinFold(const ExecutionGraph& g, const SimResult& res) : g_(g), res_(res) {}

    void add(const PathSegment& s) {
        const TimeNs len = s.end - s.start;
        out_.pathLength += len;
        const GraphNode& node = g_.nodes[s.node];
        switch (s.label) {
        case PathLabel::LateStart:
            pin(node.prewindow ? PinKind::QueueHead : PinKind::LateStart, s.node, len);
            return;
        case PathLabel::UnexplainedWait:
            pin(PinKind::UnexplainedWait, s.node, len);
            return;
        case PathLabel::CollectiveWait:
            if (s.edge == kNoEdge && node.phantomArrival >= 0) {
                pin(PinKind::PhantomWait, s.node, len);
                return;
            }
            break;
        default:
            break;
        }
        if (s.edge != kNoEdge) {
            const GraphEdge& e = res_.edge(g_, s.edge);
            if (e.wait > 0) pin(PinKind::LaunchWait, s.node, std::min(len, e.wait));
        }
    }

    RankPinnedTime finish() {
        for (const auto& [key, t] : perPin_)
            if (t > out_.largest.time) out_.largest = {static_cast<PinKind>(key.first), key.second, t};
        return out_;
    }

private:
    void pin(PinKind k, NodeId n, TimeNs t) {
        if (t <= 0) return;
        out_.byKind[static_cast<std::size_t>(k)] += t;
        perPin_[{static_cast<int>(k), n}] += t;
    }

    const ExecutionGraph& g_;
    const SimResult& res_;
    RankPinnedTime out_;
    std::map<std::pair<int, NodeId>, TimeNs> perPin_;
};

} // namespace

RankPinnedTime pinsOnPath(const ExecutionGraph& g, const SimResult& res, const CriticalPath& cp) {
    PinFold fold(g, res);
    for (const PathSegment& s : cp.segments)
        fold.add(s);
    return fold.finish();
}

RankPinnedTime pinsOnPathTo(const ExecutionGraph& g, const SimResult& res, SimNodeRef end) {
    PinFold fold(g, res);
    forEachPathSegmentBackwards(g, res, end, [&](const PathSegment& s) { fold.add(s); });
    return fold.finish();
}

std::vector<RankPinnedTime> pinnedTime(const ExecutionGraph& g, const SimResult& res, CriticalPath* jobPath) {
    const std::size_t rankCount = g.trace ? g.trace->ranks.size() : 0;
    std::vector<RankPinnedTime> out(rankCount);
    if (res.nodes.size() != g.nodes.size()) {
        if (jobPath) *jobPath = criticalPathTotals(g, res);
        return out;
    }
    std::vector<NodeId> last(rankCount, kNoNode);
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        const std::uint32_t r = g.nodes[n].rank;
        if (res.nodes[n].end >= 0 && (last[r] == kNoNode || res.nodes[n].end > res.nodes[last[r]].end))
            last[r] = n;
    }
    // The job's path is the path of the rank that ends last (unless an added rank ends the job):
    // its totals come from that rank's walk.
    bool jobWalked = false;
    for (std::size_t r = 0; r < rankCount; ++r) {
        if (last[r] != kNoNode) {
            const SimNodeRef end{last[r], -1};
            if (jobPath && !jobWalked && end == res.last()) {
                PinFold fold(g, res);
                *jobPath =
                    criticalPathTotalsFrom(g, res, end, 10, [&](const PathSegment& s) { fold.add(s); });
                out[r] = fold.finish();
                jobWalked = true;
            } else {
                out[r] = pinsOnPathTo(g, res, end);
            }
        }
        out[r].rank = g.trace->ranks[r].rank;
    }
    if (jobPath && !jobWalked) *jobPath = criticalPathTotals(g, res);
    return out;
}

namespace {

// "22.1 ms", or "812 us" under a millisecond.
std::string roundedDuration(TimeNs t) {
    return durationText(static_cast<double>(t), true, {.ms = 1, .us = 0});
}

} // namespace

std::string describePin(const ExecutionGraph& g, const Pin& pin) {
    if (pin.node == kNoNode || pin.time <= 0) return {};
    const std::string rank = "rank " + std::to_string(g.trace->ranks[g.nodes[pin.node].rank].rank);
    std::string name(g.nodeName(pin.node));
    if (name.size() > 60) name = name.substr(0, 57) + "...";
    switch (pin.kind) {
    case PinKind::LateStart:
        return rank + " starts " + roundedDuration(pin.time) +
               " after the job's first event (a boundary condition)";
    case PinKind::UnexplainedWait:
        return roundedDuration(pin.time) + " of CPU time that no profiled op covers before " + name + " on " +
               rank;
    case PinKind::QueueHead:
        return name + " on " + rank + ", queued before the profiler started, keeps its measured start (" +
               roundedDuration(pin.time) + ")";
    case PinKind::PhantomWait:
        return roundedDuration(pin.time) + " waiting at " + name + " on " + rank +
               " for peers missing from the trace (their measured skew)";
    case PinKind::LaunchWait:
        return "a " + roundedDuration(pin.time) + " device wait with no cause before " + name + " on " + rank;
    case PinKind::Count:
        break;
    }
    return {};
}

} // namespace sl
