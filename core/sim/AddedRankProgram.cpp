#include "sim/AddedRankProgram.h"

namespace sl {

std::vector<SourceProgram> sourcePrograms(const ExecutionGraph& g, const KnobTiming& timing,
                                          const JobLayout& layout, const AddedRankTimes& added,
                                          const EdgeOverlay* overlay,
                                          const std::vector<std::uint32_t>& pendStart,
                                          const std::vector<std::uint32_t>& pendEnd) {
    std::vector<SourceProgram> programs(added.rankNodes.size());
    std::vector<std::uint8_t> used(programs.size(), 0);
    for (std::uint32_t s : added.source)
        used[s] = 1;
    // Thread gaps and launches scale with a rank's host; every other delay is the same on all ranks.
    auto hostScaled = [](EdgeKind k) {
        return k == EdgeKind::ThreadOrder || k == EdgeKind::ThreadStart || k == EdgeKind::Launch;
    };
    const RankVariation unit;
    for (std::size_t r = 0; r < programs.size(); ++r) {
        if (!used[r]) continue;
        SourceProgram& p = programs[r];
        const std::vector<NodeId>& nodes = added.rankNodes[r];
        p.info.reserve(nodes.size());
        p.first.reserve(2 * nodes.size() + 1);
        p.release.resize(nodes.size());
        p.pendStart.resize(nodes.size());
        p.pendEnd.resize(nodes.size());
        for (std::uint32_t slot = 0; slot < nodes.size(); ++slot) {
            const NodeId node = nodes[slot];
            p.info.push_back({timing.duration(node, unit), node, layout.collIndex[node],
                              timing.durationVariedBy(node), g.nodes[node].phantomArrival >= 0});
            p.release[slot] = timing.release(node, unit);
            p.pendStart[slot] = pendStart[node];
            p.pendEnd[slot] = pendEnd[node];
            if (pendStart[node] == 0) p.roots.push_back(slot);
            for (const bool atEnd : {false, true}) {
                p.first.push_back(static_cast<std::uint32_t>(p.edges.size()));
                // An edge fires at its source's start (launch and collective edges) or its end.
                auto add = [&](const GraphEdge& e, EdgeId id, TimeNs delay, bool scaled) {
                    if (e.kind == EdgeKind::Collective || e.triggeredByStart() == atEnd) return;
                    std::uint32_t to = added.slotOf[e.to];
                    if (e.gatesEnd()) to |= SlotEdge::kGatesEnd;
                    if (scaled) to |= SlotEdge::kHostScaled;
                    p.edges.push_back({to, id, delay});
                };
                for (EdgeId id : g.outEdges(node))
                    add(g.edges[id], id, timing.delay(id, unit), hostScaled(g.edges[id].kind));
                if (overlay) // overlay edges keep their delay under every knob
                    for (std::uint32_t k = overlay->outOffsets[node]; k < overlay->outOffsets[node + 1];
                         ++k) {
                        const GraphEdge& e = overlay->edges[overlay->outIds[k]];
                        add(e, static_cast<EdgeId>(g.edges.size() + overlay->outIds[k]), e.delay, false);
                    }
            }
        }
        p.first.push_back(static_cast<std::uint32_t>(p.edges.size()));
    }
    return programs;
}

} // namespace sl
