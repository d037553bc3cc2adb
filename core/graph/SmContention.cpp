// SM contention: a kernel whose grid fills the device (at least one block per SM, from the
// profiler's "blocks per SM", else grid size against deviceProperties numSms) cannot run beside
// another such kernel. Where two of them on different streams of a device ran one after the other,
// an inferred cross-stream edge keeps them apart when knobs move them (docs/ARCHITECTURE.md,
// "Launches and streams").
#include "graph/GraphBuilder.h"

#include "trace/Collective.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace sl::graph_build {

namespace {

// The number after `"key":` in a raw args object, or -1.
double argNumber(std::string_view args, std::string_view key) {
    std::string quoted = "\"" + std::string(key) + "\"";
    auto at = args.find(quoted);
    if (at == std::string_view::npos) return -1;
    at = args.find(':', at + quoted.size());
    if (at == std::string_view::npos) return -1;
    ++at;
    while (at < args.size() && (args[at] == ' ' || args[at] == '\t'))
        ++at;
    double v = -1;
    auto [p, ec] = std::from_chars(args.data() + at, args.data() + args.size(), v);
    (void)p;
    return ec == std::errc() ? v : -1;
}

// Total blocks of a "grid": [x, y, z] array, or -1.
double gridBlocks(std::string_view args) {
    auto at = args.find("\"grid\"");
    if (at == std::string_view::npos) return -1;
    at = args.find('[', at);
    if (at == std::string_view::npos) return -1;
    double total = 1;
    const char* p = args.data() + at + 1;
    const char* end = args.data() + args.size();
    for (int i = 0; i < 3 && p < end; ++i) {
        while (p < end && (*p == ' ' || *p == ','))
            ++p;
        long long v = 0;
        auto [q, ec] = std::from_chars(p, end, v);
        if (ec != std::errc()) break;
        total *= static_cast<double>(v);
        p = q;
    }
    return total;
}

} // namespace

bool Builder::fillsDevice(NodeId n) const {
    const auto& node = g.nodes[n];
    const Rank& rank = set.ranks[node.rank];
    const Track& t = rank.tracks[node.event.track];
    if (t.events.kind[node.event.index] != EventKind::Kernel) return false;
    std::string_view args = rank.args(node.event);
    double perSm = argNumber(args, "blocks per SM");
    if (perSm >= 0) return perSm >= 1.0;
    int sms = 0;
    for (const auto& d : rank.devices)
        if (d.id == t.device()) sms = d.numSms;
    double blocks = gridBlocks(args);
    return sms > 0 && blocks >= sms;
}

void Builder::smContentionEdges() {
    // Per (rank, device): full-device kernels by measured start.
    std::map<std::pair<std::uint32_t, std::int64_t>, std::vector<NodeId>> full;
    for (const auto& p : g.processors) {
        if (!p.gpu) continue;
        const std::int64_t device = set.ranks[p.rank].tracks[p.track].device();
        for (NodeId n : p.nodes)
            if (!isCommunicationKernelName(g.nodeName(n)) && fillsDevice(n))
                full[{p.rank, device}].push_back(n);
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
