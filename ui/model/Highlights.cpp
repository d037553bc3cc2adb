#include "Highlights.h"

#include "trace/Collective.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace sl::ui {

std::size_t PaneHighlights::firstBarEndingAfter(const TrackHighlights& t, TimeNs t0) {
    return static_cast<std::size_t>(std::upper_bound(t.barsMaxEnd.begin(), t.barsMaxEnd.end(), t0) -
                                    t.barsMaxEnd.begin());
}

PaneHighlights buildPaneHighlights(const ExecutionGraph& graph, const SimAnalysis& analysis,
                                   const SimulatedTimeline* timeline) {
    const TraceSet& set = *graph.trace;
    PaneHighlights h;
    h.ranks.resize(set.ranks.size());
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        RankHighlights& rh = h.ranks[r];
        rh.tracks.resize(rank.tracks.size());
        for (std::size_t k = 0; k < rank.tracks.size(); ++k) {
            const Track& track = rank.tracks[k];
            if (!track.isGpu()) continue;
            const EventColumns& ev = track.events;
            for (std::size_t i = 0; i < ev.size() && !rh.tracks[k].communication; ++i)
                rh.tracks[k].communication =
                    ev.kind[i] == EventKind::Kernel && isCollectiveKernelName(rank.strings.str(ev.name[i]));
        }
        const auto& exposed = timeline ? analysis.simulatedExposed : analysis.measuredExposed;
        if (r < exposed.size()) rh.exposed = exposed[r];
    }

    // Per node on the path: the label of its longest own segment (a wait only when it has none).
    struct Best {
        TimeNs own = -1, wait = -1;
        PathLabel ownLabel = PathLabel::Idle, waitLabel = PathLabel::Idle;
    };
    std::vector<std::pair<NodeId, Best>> nodes;
    {
        std::vector<std::uint32_t> slot(graph.nodes.size(), 0xffffffffu);
        for (const PathSegment& s : analysis.path.segments) {
            if (s.node == kNoNode || s.added >= 0 || s.node >= graph.nodes.size()) continue;
            if (slot[s.node] == 0xffffffffu) {
                slot[s.node] = static_cast<std::uint32_t>(nodes.size());
                nodes.push_back({s.node, {}});
            }
            Best& b = nodes[slot[s.node]].second;
            const TimeNs len = s.end - s.start;
            if (s.edge == kNoEdge ? len > b.own : len > b.wait) {
                (s.edge == kNoEdge ? b.own : b.wait) = len;
                (s.edge == kNoEdge ? b.ownLabel : b.waitLabel) = s.label;
            }
        }
    }
    for (const auto& [n, b] : nodes) {
        const GraphNode& node = graph.nodes[n];
        TrackHighlights& th = h.ranks[node.rank].tracks[node.event.track];
        if (th.flags.empty()) th.flags.assign(set.ranks[node.rank].tracks[node.event.track].events.size(), 0);
        const PathLabel l = b.own >= 0 ? b.ownLabel : b.waitLabel;
        th.flags[node.event.index] =
            static_cast<std::uint8_t>(highlight::kOnPath | static_cast<std::uint8_t>(l));
        ++h.eventsOnPath;
    }
    // Every segment, waits included, on the track of its node: in the simulated pane at its
    // simulated times; in the measured pane the replay's path at measured times, each piece moved
    // with its node, so only the slice of an event that is on the path is painted. A node's own
    // pieces end where it ends (CriticalPath.cpp), so they move with its measured end; its waits end
    // where it starts (a phantom wait begins there), so they move with its measured start.
    // Time before the node started (a gap it waited through, its late start) moves with its start.
    // A root's lead-in (the CPU work named by its op, or an uncovered wait, between the rank's first
    // event and its first call) is time before the node, like a gap it waited through.
    auto isWait = [](const PathSegment& s) {
        return s.edge != kNoEdge || s.label == PathLabel::LateStart || s.label == PathLabel::CollectiveWait ||
               s.label == PathLabel::UnexplainedWait || s.op.valid();
    };
    // Drawn striped: nothing of the node's ran (CPU work between calls, named by its op, is solid).
    auto striped = [](const PathSegment& s) {
        return s.label == PathLabel::LateStart || s.label == PathLabel::CollectiveWait ||
               s.label == PathLabel::UnexplainedWait || s.label == PathLabel::Idle ||
               (s.edge != kNoEdge && s.label != PathLabel::Cpu);
    };
    std::unordered_map<NodeId, TimeNs> simStart, simEnd;
    if (!timeline)
        for (const PathSegment& s : analysis.path.segments) {
            if (s.node == kNoNode || s.added >= 0 || s.node >= graph.nodes.size()) continue;
            if (!isWait(s)) {
                auto [it, fresh] = simEnd.try_emplace(s.node, s.end);
                if (!fresh) it->second = std::max(it->second, s.end);
                continue;
            }
            const TimeNs at = s.edge == kNoEdge && s.label == PathLabel::CollectiveWait ? s.start : s.end;
            auto [it, fresh] = simStart.try_emplace(s.node, at);
            if (!fresh) it->second = std::max(it->second, at);
        }
    PathJoint last; // the previous painted piece: its end (from), rank, track and lane
    for (const PathSegment& s : analysis.path.segments) {
        if (s.node == kNoNode || s.added >= 0 || s.node >= graph.nodes.size() || s.end <= s.start) continue;
        const GraphNode& node = graph.nodes[s.node];
        const EventColumns& ev = set.ranks[node.rank].tracks[node.event.track].events;
        const bool wait = isWait(s);
        TimeNs a = s.start, b = s.end;
        if (!timeline) {
            const TimeNs ms = graph.measuredStart(s.node), me = graph.measuredEnd(s.node);
            const TimeNs shift = wait ? ms - simStart[s.node] : me - simEnd[s.node];
            a += shift;
            b += shift;
            if (!wait) { // the node's own time stays inside its measured event
                a = std::clamp(a, ms, me);
                b = std::clamp(b, ms, me);
            }
            if (b <= a) continue;
        }
        h.ranks[node.rank].tracks[node.event.track].bars.push_back(
            {a, b, ev.depth[node.event.index], s.label, striped(s)});
        // Where the path moves to another rank (through a collective), a joint from where it left.
        const PathJoint here{b, a, static_cast<int>(node.rank), static_cast<int>(node.event.track),
                             ev.depth[node.event.index]};
        if (last.rank >= 0 && last.rank != here.rank)
            h.joints.push_back(
                {last.from, a, last.rank, last.track, last.depth, here.rank, here.track, here.depth});
        last = here;
    }
    for (auto& rh : h.ranks)
        for (auto& th : rh.tracks) {
            std::stable_sort(th.bars.begin(), th.bars.end(),
                             [](const PathBar& a, const PathBar& b) { return a.start < b.start; });
            th.barsMaxEnd.resize(th.bars.size());
            TimeNs m = std::numeric_limits<TimeNs>::min();
            for (std::size_t i = 0; i < th.bars.size(); ++i)
                th.barsMaxEnd[i] = m = std::max(m, th.bars[i].end);
            h.bars += static_cast<std::int64_t>(th.bars.size());
        }
    return h;
}

} // namespace sl::ui
