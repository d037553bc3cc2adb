// SM contention: a kernel whose grid fills the device (at least one block per SM, from the
// profiler's "blocks per SM", else grid size against deviceProperties numSms; both typed at load,
// Rank::kernelLaunches) cannot run beside another such kernel. Where two of them on different
// streams of a device ran one after the other, an inferred cross-stream edge keeps them apart when
// knobs move them (docs/ARCHITECTURE.md, "Launches and streams").
#include "graph/GraphBuilder.h"

#include "trace/Collective.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace sl::graph_build {

bool Builder::fillsDevice(NodeId n) const {
    const auto& node = g.nodes[n];
    const Rank& rank = set.ranks[node.rank];
    const Track& t = rank.tracks[node.event.track];
    if (t.events.kind[node.event.index] != EventKind::Kernel) return false;
    // Typed by the loader (Rank::kernelLaunches), never parsed here.
    const KernelLaunch* launch = rank.kernelLaunch(node.event);
    if (!launch) return false;
    if (launch->blocksPerSm >= 0.0f) return launch->blocksPerSm >= 1.0f;
    int sms = 0;
    for (const auto& d : rank.devices)
        if (d.id == t.device()) sms = d.numSms;
    return sms > 0 && static_cast<double>(launch->gridBlocks) >= sms;
}

void Builder::smContentionEdges() {
    // Per (rank, device): full-device kernels by measured start.
    std::map<std::pair<std::uint32_t, std::int64_t>, std::vector<NodeId>> full;
    // Kernel names repeat by the thousand: each is classified once per rank (by its string id).
    std::unordered_map<StringId, bool> communication;
    for (const auto& p : g.processors) {
        if (!p.gpu) continue;
        const Track& track = set.ranks[p.rank].tracks[p.track];
        const std::int64_t device = track.device();
        communication.clear();
        for (NodeId n : p.nodes) {
            if (!fillsDevice(n)) continue;
            const StringId name = track.events.name[g.nodes[n].event.index];
            auto [it, added] = communication.try_emplace(name, false);
            if (added) it->second = isCommunicationKernelName(g.nodeName(n));
            if (!it->second) full[{p.rank, device}].push_back(n);
        }
    }
    for (auto& [key, v] : full) {
        std::sort(v.begin(), v.end(), [&](NodeId a, NodeId b) { return effStart[a] < effStart[b]; });
        for (std::size_t i = 1; i < v.size(); ++i) {
            NodeId prev = v[i - 1], cur = v[i];
            if (g.nodes[prev].processor == g.nodes[cur].processor) continue; // stream order holds them
            if (mEnd(prev) > effStart[cur] + opt.tolerance) continue;        // they did overlap
            addEdge(prev, cur, EdgeKind::CrossStream, 0, true);
            explained[cur] = std::max(explained[cur], mEnd(prev));
            g.stats.smContentionEdges++;
        }
    }
}

} // namespace sl::graph_build
