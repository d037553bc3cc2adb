#include "Highlights.h"

#include "trace/Collective.h"

#include <algorithm>
#include <limits>

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
            if (s.node == kNoNode || s.node >= graph.nodes.size()) continue;
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
        if (!timeline) { // measured pane: the event's measured interval
            const EventColumns& ev = set.ranks[node.rank].tracks[node.event.track].events;
            th.bars.push_back({ev.start[node.event.index],
                               ev.start[node.event.index] + ev.duration[node.event.index],
                               ev.depth[node.event.index], l});
        }
    }
    if (timeline) { // simulated pane: every segment, waits included, on the track of its node
        for (const PathSegment& s : analysis.path.segments) {
            if (s.node == kNoNode || s.node >= graph.nodes.size() || s.end <= s.start) continue;
            const GraphNode& node = graph.nodes[s.node];
            const EventColumns& ev = set.ranks[node.rank].tracks[node.event.track].events;
            h.ranks[node.rank].tracks[node.event.track].bars.push_back(
                {s.start, s.end, ev.depth[node.event.index], s.label});
        }
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
