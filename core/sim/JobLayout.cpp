#include "sim/JobLayout.h"

#include <algorithm>
#include <unordered_map>

namespace sl {

std::size_t JobLayout::addedOf(std::size_t u, const AddedRankTimes& added) const {
    return static_cast<std::size_t>(std::upper_bound(added.offset.begin(), added.offset.end(), u - n) -
                                    added.offset.begin() - 1);
}

SimNodeRef JobLayout::refOf(std::size_t u, const AddedRankTimes& added) const {
    if (u < n) return SimNodeRef{static_cast<NodeId>(u), -1};
    const std::size_t a = addedOf(u, added);
    return SimNodeRef{added.rankNodes[added.source[a]][u - n - added.offset[a]],
                      static_cast<std::int32_t>(a)};
}

JobLayout layoutJob(const ExecutionGraph& g, const SetupEditPlan& plan,
                    const std::vector<CollectiveCall>& calls, AddedRankTimes& added) {
    JobLayout L;
    L.n = g.nodes.size();
    L.total = L.n;
    const auto& setup = plan.setup;
    for (std::uint32_t i = 0; i < setup.ranks.size(); ++i)
        if (!setup.ranks[i].measured && setup.ranks[i].lane == 0) { // lanes > 0 run in their column
            added.setupIndex.push_back(i);
            added.source.push_back(setup.ranks[i].source);
            added.rankId.push_back(setup.ranks[i].rank);
        }
    if (added.empty()) return L;
    const std::size_t R = g.trace->ranks.size();
    added.indexNodes(g);
    L.total = L.n + added.offset.back();

    // Which matched collectives join every replica (CallResize::replicated).
    std::vector<std::uint8_t> replicated(g.collectives.size(), 0);
    for (std::size_t c = 0; c < calls.size() && c < plan.calls.size(); ++c) {
        const NodeId node = calls[c].node;
        if (node < L.n && plan.calls[c].replicated && g.nodes[node].collective < g.collectives.size())
            replicated[g.nodes[node].collective] = 1;
    }
    auto inRendezvous = [&](NodeId x) {
        const std::uint32_t gi = g.nodes[x].collective;
        return gi < g.collectives.size() && g.collectives[gi].complete;
    };
    std::vector<std::uint32_t> collCount(R, 0);
    L.collIndex.assign(L.n, JobLayout::kNone);
    for (NodeId i = 0; i < L.n; ++i)
        if (inRendezvous(i)) L.collIndex[i] = collCount[g.nodes[i].rank]++;
    std::unordered_map<std::uint64_t, std::uint32_t> rdvIds;
    std::vector<std::uint32_t> rdvSize;
    // Ranks an edit dropped meet only each other (kDroppedRdv): they must still finish, and never
    // hold a kept rank (a layout change adds and drops ranks in one job).
    constexpr std::uint32_t kDroppedRdv = 0x80000000u;
    auto rdvFor = [&](NodeId x, int dp, bool dropped = false) {
        const std::uint32_t gi = g.nodes[x].collective;
        const std::uint32_t low = dropped ? kDroppedRdv | static_cast<std::uint32_t>(replicated[gi] ? 0 : dp)
                                          : static_cast<std::uint32_t>(replicated[gi] ? -1 : dp);
        const std::uint64_t key = (static_cast<std::uint64_t>(gi) << 32) | low;
        auto [it, fresh] = rdvIds.try_emplace(key, static_cast<std::uint32_t>(rdvSize.size()));
        if (fresh) rdvSize.push_back(0);
        ++rdvSize[it->second];
        return it->second;
    };
    std::vector<int> loadedDp(R, 0);
    for (const auto& r : setup.ranks)
        if (r.measured) loadedDp[r.source] = r.dp;
    L.rdvOfNode.assign(L.n, JobLayout::kNone);
    for (NodeId i = 0; i < L.n; ++i)
        if (L.collIndex[i] != JobLayout::kNone)
            L.rdvOfNode[i] = rdvFor(i, loadedDp[g.nodes[i].rank], setup.isDropped(g.nodes[i].rank));
    L.addedCollBase.assign(added.count() + 1, 0);
    for (std::size_t a = 0; a < added.count(); ++a)
        L.addedCollBase[a + 1] = L.addedCollBase[a] + collCount[added.source[a]];
    L.rdvOfAdded.assign(L.addedCollBase.back(), JobLayout::kNone);
    for (std::size_t a = 0; a < added.count(); ++a) {
        const int dp = setup.ranks[added.setupIndex[a]].dp;
        for (NodeId x : added.rankNodes[added.source[a]])
            if (L.collIndex[x] != JobLayout::kNone)
                L.rdvOfAdded[L.addedCollBase[a] + L.collIndex[x]] = rdvFor(x, dp);
    }
    L.rdvOffsets.assign(rdvSize.size() + 1, 0);
    for (std::size_t r = 0; r < rdvSize.size(); ++r)
        L.rdvOffsets[r + 1] = L.rdvOffsets[r] + rdvSize[r];
    L.rdvMembers.assign(L.rdvOffsets.back(), 0);
    std::vector<std::size_t> fillAt(L.rdvOffsets.begin(), L.rdvOffsets.end() - 1);
    for (NodeId i = 0; i < L.n; ++i)
        if (L.rdvOfNode[i] != JobLayout::kNone) L.rdvMembers[fillAt[L.rdvOfNode[i]]++] = i;
    for (std::size_t a = 0; a < added.count(); ++a)
        for (NodeId x : added.rankNodes[added.source[a]])
            if (L.collIndex[x] != JobLayout::kNone)
                L.rdvMembers[fillAt[L.rdvOfAdded[L.addedCollBase[a] + L.collIndex[x]]]++] =
                    L.n + added.offset[a] + added.slotOf[x];
    return L;
}

} // namespace sl
