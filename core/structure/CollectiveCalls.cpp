#include "structure/CollectiveCalls.h"

#include "trace/GroupRole.h"

#include <algorithm>
#include <map>

namespace sl {

bool CollectiveCall::spansNodes(int gpusPerNode) const {
    if (gpusPerNode <= 0) return false;
    if (!ranks.empty()) {
        for (auto r : ranks)
            if (r / gpusPerNode != ranks.front() / gpusPerNode) return true;
        return false;
    }
    return groupSize > gpusPerNode;
}

std::vector<CollectiveCall> collectiveCalls(const ExecutionGraph& g) {
    std::vector<CollectiveCall> out;
    std::vector<std::uint8_t> describedDp;
    bool anyDescribedDp = false;
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        const GraphNode& node = g.nodes[n];
        if (node.kind != NodeKind::Collective &&
            !(node.kind == NodeKind::GpuOp && isCollectiveKernelName(g.nodeName(n))))
            continue;
        const Rank& rank = g.rankOf(n);
        CollectiveCall c;
        c.node = n;
        c.transfer = node.duration;
        c.type = collectiveTypeFromKernelName(g.nodeName(n));
        std::uint32_t extra = rank.tracks[node.event.track].events.extra[node.event.index];
        const CollectiveMeta* meta =
            extra != kNoExtra && extra < rank.collectives.size() ? &rank.collectives[extra] : nullptr;
        std::string pgName;
        if (meta) {
            if (meta->type != CollectiveType::Unknown) c.type = meta->type;
            c.bytes = meta->bytes(rank.strings);
            c.ranks = meta->processGroupRanks;
            c.groupSize = meta->groupSize > 0 ? meta->groupSize : static_cast<int>(c.ranks.size());
            pgName = std::string(rank.strings.str(meta->processGroupName));
            c.processGroup = pgName;
        }
        if (node.kind == NodeKind::Collective && node.collective < g.collectives.size()) {
            const CollectiveGroup& grp = g.collectives[node.collective];
            c.matched = grp.complete;
            if (c.type == CollectiveType::Unknown) c.type = grp.type;
            if (c.bytes < 0) c.bytes = grp.bytes;
            c.processGroup = grp.processGroup;
            if (c.ranks.empty()) {
                for (NodeId m : grp.members)
                    c.ranks.push_back(g.rankOf(m).rank);
                std::sort(c.ranks.begin(), c.ranks.end());
            }
            if (c.groupSize <= 0) c.groupSize = static_cast<int>(grp.members.size());
        }
        if (c.groupSize <= 0) c.groupSize = rank.worldSize > 0 ? rank.worldSize : 2;
        bool dp = false;
        if (!pgName.empty())
            for (const auto& pg : rank.processGroups)
                if (pg.name == pgName && roleFromDescription(pg.description) == GroupRole::Data) dp = true;
        anyDescribedDp = anyDescribedDp || dp;
        describedDp.push_back(dp ? 1 : 0);
        out.push_back(std::move(c));
    }
    if (anyDescribedDp) {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i].dataParallel = describedDp[i] != 0;
    } else {
        int largest = 0;
        for (const auto& c : out)
            if (c.type == CollectiveType::AllReduce) largest = std::max(largest, c.groupSize);
        for (auto& c : out)
            c.dataParallel = c.type == CollectiveType::AllReduce && c.groupSize == largest && largest >= 2;
    }
    return out;
}

Calibration calibrate(const ExecutionGraph& g, int gpusPerNode) {
    int withoutBytes = 0;
    std::vector<CollectiveCall> calls = collectiveCalls(g);
    // One sample per matched collective (mean of its members) and per unmatched kernel.
    std::map<std::uint32_t, std::pair<double, int>> perGroup; // collective index -> (sum, count)
    std::map<std::uint32_t, const CollectiveCall*> groupCall;
    std::vector<CommSample> samples;
    for (const auto& c : calls) {
        if (c.bytes < 0) {
            ++withoutBytes;
            continue;
        }
        std::uint32_t gi = g.nodes[c.node].collective;
        if (c.matched && gi < g.collectives.size()) {
            auto& acc = perGroup[gi];
            acc.first += static_cast<double>(c.transfer);
            acc.second++;
            groupCall.emplace(gi, &c);
            continue;
        }
        samples.push_back({static_cast<double>(c.bytes) * busFactor(c.type, c.groupSize),
                           static_cast<double>(c.transfer), commParamGroup(c.type),
                           c.spansNodes(gpusPerNode)});
    }
    for (const auto& [gi, acc] : perGroup) {
        const CollectiveCall& c = *groupCall[gi];
        samples.push_back({static_cast<double>(c.bytes) * busFactor(c.type, c.groupSize),
                           acc.first / acc.second, commParamGroup(c.type), c.spansNodes(gpusPerNode)});
    }
    return fitCalibration(samples, gpusPerNode, withoutBytes);
}

} // namespace sl
