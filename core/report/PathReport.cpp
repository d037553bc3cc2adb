#include "report/PathReport.h"

#include "base/Rounding.h"

#include <cmath>

namespace sl {

std::string pathTrackName(const ExecutionGraph& g, NodeId n) {
    const Rank& rank = g.rankOf(n);
    const Track& t = rank.tracks[g.nodes[n].event.track];
    return t.isGpu() ? "gpu" + std::to_string(t.device()) + " s" + std::to_string(t.stream())
                     : "thread " + std::to_string(t.tid);
}

nlohmann::json criticalPathJson(const ExecutionGraph& g, const SimResult& res, const CriticalPath& cp) {
    const TimeNs origin = cp.segments.empty() ? 0 : g.ranks[g.nodes[cp.segments.front().node].rank].origin;
    nlohmann::json j;
    j["length_us"] = us(cp.length);
    nlohmann::json byKind = nlohmann::json::object();
    for (int l = 0; l < kPathLabelCount; ++l)
        byKind[std::string(pathLabelName(static_cast<PathLabel>(l)))] =
            us(cp.byLabel[static_cast<std::size_t>(l)]);
    j["by_kind"] = byKind;
    // Only for paths through embedding work, so that other paths' reports stay as they were.
    if (cp.embeddingLookup > 0 || cp.embeddingAllToAll > 0)
        j["embedding"] = {{"lookup_us", us(cp.embeddingLookup)}, {"all_to_all_us", us(cp.embeddingAllToAll)}};
    nlohmann::json segs = nlohmann::json::array();
    for (const auto& s : cp.segments) {
        segs.push_back({{"start_us", us(s.start - origin)},
                        {"dur_us", us(s.end - s.start)},
                        {"kind", std::string(pathLabelName(s.label))},
                        {"rank", res.rankId(g, s.ref())},
                        {"track", pathTrackName(g, s.node)},
                        {"edge", s.edge == kNoEdge ? std::string()
                                                   : std::string(edgeKindName(res.edge(g, s.edge).kind))},
                        {"name", std::string(g.nodeName(s.node))},
                        {"op", s.op.valid() ? std::string(g.rankOf(s.node).name(s.op)) : std::string()}});
        if (const EmbeddingWork work = pathSegmentWork(g, s); work != EmbeddingWork::None)
            segs.back()["work"] = std::string(embeddingWorkName(work));
    }
    j["segments"] = segs;
    return j;
}

nlohmann::json criticalPathByNameJson(const ExecutionGraph& g, const CriticalPath& cp) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& sh : criticalPathByName(g, cp)) {
        const double pct = cp.sharePct(sh.time);
        arr.push_back({{"name", sh.name},
                       {"us", us(sh.time)},
                       {"pct", std::round(pct * 100.0) / 100.0},
                       {"kind", std::string(pathLabelName(sh.label))},
                       {"segments", sh.segments}});
        if (sh.work != EmbeddingWork::None) arr.back()["work"] = std::string(embeddingWorkName(sh.work));
    }
    return nlohmann::json{{"length_us", us(cp.length)}, {"by_name", arr}};
}

} // namespace sl
