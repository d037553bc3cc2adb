#include "sim/EmbeddingCandidates.h"

#include <algorithm>
#include <numeric>

namespace sl {

namespace {

// The modelled forward + backward time of one table alone on a rank, table-wise.
double tableCost(const EmbeddingTables& tables, int table, int worldSize, const EmbeddingMachine& m) {
    EmbeddingPlan one;
    one.placements.push_back({table, Sharding::TableWise, {0}});
    const auto shards = planShards(one, tables, worldSize, std::max<std::int64_t>(1, tables.batchPerRank));
    const auto t = lookupTimes(shards, tables, worldSize, m);
    return t[0].forwardNs + t[0].backwardNs;
}

} // namespace

std::vector<NamedPlan> candidatePlans(const EmbeddingTables& tables, int worldSize,
                                      const EmbeddingMachine& m) {
    std::vector<NamedPlan> out;
    const int n = static_cast<int>(tables.tables.size());
    bool traced = n > 0;
    for (const auto& t : tables.tables)
        traced = traced && t.tracedRank >= 0 && t.tracedRank < worldSize;
    if (traced) out.push_back({"traced", tracedPlan(tables)});
    std::vector<double> cost(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        cost[static_cast<std::size_t>(i)] = tableCost(tables, i, worldSize, m);
    std::vector<int> bySize(static_cast<std::size_t>(n));
    std::iota(bySize.begin(), bySize.end(), 0);
    std::stable_sort(bySize.begin(), bySize.end(), [&](int a, int b) {
        return cost[static_cast<std::size_t>(a)] > cost[static_cast<std::size_t>(b)];
    });
    // Greedy: the costliest table first, each onto the least loaded rank.
    auto greedy = [&](int skip) {
        EmbeddingPlan p;
        std::vector<double> load(static_cast<std::size_t>(worldSize));
        for (int t : bySize) {
            if (t == skip) continue;
            const auto r = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
            load[static_cast<std::size_t>(r)] += cost[static_cast<std::size_t>(t)];
            p.placements.push_back({t, Sharding::TableWise, {r}});
        }
        return p;
    };
    auto sorted = [](EmbeddingPlan p, const std::string& name) {
        std::sort(p.placements.begin(), p.placements.end(),
                  [](const TablePlacement& a, const TablePlacement& b) { return a.table < b.table; });
        p.source = name;
        return NamedPlan{name, std::move(p)};
    };
    out.push_back(sorted(greedy(-1), "greedy table-wise"));
    if (n > 0 && worldSize > 1) {
        const int largest = bySize.front();
        EmbeddingPlan rw = greedy(largest);
        std::vector<int> all(static_cast<std::size_t>(worldSize));
        std::iota(all.begin(), all.end(), 0);
        rw.placements.push_back({largest, Sharding::RowWise, all});
        out.push_back(
            sorted(rw, "greedy, " + tables.tables[static_cast<std::size_t>(largest)].name + " row-wise"));
        int widest = 0;
        for (int i = 1; i < n; ++i)
            if (tables.tables[static_cast<std::size_t>(i)].dim >
                tables.tables[static_cast<std::size_t>(widest)].dim)
                widest = i;
        if (tables.tables[static_cast<std::size_t>(widest)].dim >= 64) {
            EmbeddingPlan cw = greedy(widest);
            // The two least loaded ranks of the greedy plan without it.
            std::vector<double> load(static_cast<std::size_t>(worldSize));
            for (const auto& pl : cw.placements)
                load[static_cast<std::size_t>(pl.ranks.front())] += cost[static_cast<std::size_t>(pl.table)];
            std::vector<int> order(all);
            std::sort(order.begin(), order.end(), [&](int a, int b) {
                return load[static_cast<std::size_t>(a)] < load[static_cast<std::size_t>(b)];
            });
            cw.placements.push_back({widest, Sharding::ColumnWise, {order[0], order[1]}});
            out.push_back(sorted(cw, "greedy, " + tables.tables[static_cast<std::size_t>(widest)].name +
                                         " column-wise"));
        }
    }
    EmbeddingPlan rr;
    for (std::size_t i = 0; i < bySize.size(); ++i)
        rr.placements.push_back({bySize[i], Sharding::TableWise, {static_cast<int>(i) % worldSize}});
    out.push_back(sorted(rr, "round robin by size"));
    return out;
}

} // namespace sl
