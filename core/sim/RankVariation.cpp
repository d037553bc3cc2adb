#include "sim/RankVariation.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace sl {

namespace {

// SplitMix64: a fixed, portable mix (std:: distributions differ between standard libraries).
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

std::string jobText(const SimulatedSetup& setup) {
    std::vector<int> ids;
    ids.reserve(setup.ranks.size());
    for (const auto& r : setup.ranks)
        ids.push_back(r.rank);
    return std::to_string(setup.ranks.size()) + (setup.ranks.size() == 1 ? " rank: " : " ranks: ") +
           idRangesText(ids);
}

} // namespace

double jitterFactor(int seed, int rankId, double pct) {
    if (pct <= 0) return 1.0;
    const std::uint64_t h = mix(mix(static_cast<std::uint64_t>(static_cast<std::uint32_t>(seed))) ^
                                static_cast<std::uint64_t>(static_cast<std::uint32_t>(rankId)));
    const double u = static_cast<double>(h >> 11) * 0x1.0p-53; // [0, 1)
    return 1.0 + pct / 100.0 * (2.0 * u - 1.0);
}

bool hasRankVariation(const SimKnobs& k) {
    const bool slowRanks = (k.stragglerRank >= 0 || !k.stragglerRanks.empty()) && k.stragglerSlowdown != 1.0;
    const bool slowNodes = std::any_of(k.nodeSlowdown.begin(), k.nodeSlowdown.end(),
                                       [](const auto& node) { return node.second != 1.0; });
    return slowRanks || slowNodes || k.jitterPct > 0;
}

std::vector<RankVariation> rankVariations(const SimulatedSetup& setup, const SimKnobs& k, int gpusPerNode) {
    std::vector<RankVariation> out(setup.ranks.size());
    if (k.stragglerRank < 0 && k.stragglerRanks.empty() && k.nodeSlowdown.empty() && k.jitterPct <= 0)
        return out;
    std::unordered_map<int, std::size_t> byId;
    for (std::size_t i = 0; i < setup.ranks.size(); ++i)
        byId.emplace(setup.ranks[i].rank, i);
    // Every rank a knob names must be in the job: a slowdown on a rank that is not simulated would
    // silently change nothing.
    if (k.stragglerRank >= 0 && !byId.count(k.stragglerRank))
        throw KnobError("straggler.rank=" + std::to_string(k.stragglerRank) +
                        ": the simulated job has no such rank (" + jobText(setup) + ")");
    std::vector<int> absent;
    for (int id : k.stragglerRanks)
        if (!byId.count(id)) absent.push_back(id);
    if (!absent.empty())
        throw KnobError("straggler.ranks: " + idRangesText(absent) + (absent.size() == 1 ? " is" : " are") +
                        " not in the simulated job (" + jobText(setup) + ")");
    const int perNode = std::max(1, gpusPerNode);
    std::unordered_map<int, int> ranksOnNode;
    for (const auto& r : setup.ranks)
        ++ranksOnNode[r.rank / perNode];
    for (const auto& [node, factor] : k.nodeSlowdown)
        if (!ranksOnNode.count(node)) {
            int last = 0;
            for (const auto& r : setup.ranks)
                last = std::max(last, r.rank / perNode);
            throw KnobError("node.slowdown[" + std::to_string(node) + "]: the simulated job has nodes 0.." +
                            std::to_string(last) + " (" + std::to_string(perNode) + " GPUs per node, " +
                            jobText(setup) + ")");
        }
    for (std::size_t i = 0; i < setup.ranks.size(); ++i) {
        const int id = setup.ranks[i].rank;
        double slow = 1.0;
        if (k.stragglerSlowdown != 1.0 &&
            (id == k.stragglerRank ||
             std::binary_search(k.stragglerRanks.begin(), k.stragglerRanks.end(), id)))
            slow = k.stragglerSlowdown;
        if (auto it = k.nodeSlowdown.find(id / perNode); it != k.nodeSlowdown.end()) slow *= it->second;
        auto& v = out[i];
        v.host = slow;
        v.gpu = slow * jitterFactor(k.jitterSeed, id, k.jitterPct);
        v.straggling = slow != 1.0;
    }
    return out;
}

} // namespace sl
