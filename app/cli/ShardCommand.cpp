#include "CliCommon.h"
#include "SimSetup.h"

#include "base/ParallelFor.h"
#include "base/Rounding.h"
#include "models/GpuTable.h"
#include "sim/EmbeddingCandidates.h"
#include "sim/EmbeddingWhatIf.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <thread>

namespace sl::cli {

namespace {

struct Ranked {
    NamedPlan plan;
    std::string planJson;
    TimeNs iteration = 0;
    EmbeddingWhatIf whatIf;
};

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::size_t b = 0;
    while (b <= s.size()) {
        std::size_t e = s.find(',', b);
        if (e == std::string::npos) e = s.size();
        if (e > b) out.push_back(s.substr(b, e - b));
        b = e + 1;
    }
    return out;
}

double mb(double bytes) {
    return bytes / 1e6;
}

Command makeShardCommand() {
    return {"shard", "rank placements of the embedding tables by predicted iteration",
            "usage: sightline-cli shard PATH... [--tables tables.json] [--plans a.json,b.json] [--top N]\n"
            "                           [--json] [--step N] [--et F|DIR] [--set key=value]...\n"
            "\n"
            "Recommendation models (docs/Embeddings.md): the trace's embedding lookups and all-to-alls\n"
            "re-timed for other placements of the tables. Without --plans, candidates as TorchRec's\n"
            "planner proposes them (the traced plan, greedy table-wise by modelled lookup cost, the\n"
            "largest table row-wise, the widest column-wise, round robin by size); each is simulated\n"
            "and the list printed best first: predicted iteration, the largest per-rank lookup time\n"
            "and the bytes of the pooled-embedding and index all-to-alls.\n"
            "\n"
            "  --tables F   the tables side file (rows, dim, pooling, rank per table); without it the\n"
            "               tables are inferred evenly from each rank's lookup op, and the output says so\n"
            "  --plans L    plan files to rank instead of the candidates (comma separated)\n"
            "  --top N      print the N best (default 5)\n"
            "  --json       {tables, replay_us, plans[]} instead of the table\n",
            [](Args& args) {
                const bool json = args.flag("--json");
                const std::string tablesPath = args.option("--tables").value_or("");
                const std::string plansList = args.option("--plans").value_or("");
                const int top = nonNegativeInt("--top", args.option("--top").value_or("5"));
                SimSetup setup = parseSimSetup(args, "shard", true);
                TraceSet set = loadWithProgress(setup.paths);
                ExecutionGraph g = buildGraphForCli(set, setup);
                const EmbeddingInventory inv = embeddingInventory(g);
                if (!inv.any())
                    throw Error(ErrorKind::Format, setup.paths.front(),
                                "no embedding lookup kernels in the trace");
                const EmbeddingTables tables = embeddingTablesFor(inv, tablesPath);
                const EmbeddingMachine machine =
                    embeddingMachine(GpuTable::builtin().find(set.ranks.front().deviceName()));
                std::vector<Ranked> ranked;
                if (!plansList.empty()) {
                    for (const auto& file : splitList(plansList)) {
                        std::string name;
                        const std::string text = embeddingKnobText(file, name);
                        ranked.push_back(
                            {{file, parseEmbeddingPlan(text, file, tables, inv.worldSize)}, {}, 0, {}});
                    }
                } else {
                    for (auto& p : candidatePlans(tables, inv.worldSize, machine))
                        ranked.push_back({std::move(p), {}, 0, {}});
                }
                for (auto& r : ranked) {
                    r.planJson = embeddingPlanJson(r.plan.plan, tables);
                    r.whatIf = planEmbeddingWhatIf(inv, tables, r.plan.plan, machine);
                }
                const TimeNs replay = simulate(g, setup.knobs).simulatedIteration;
                const std::size_t threads = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
                parallelFor(ranked.size(), threads, [&](std::size_t i) {
                    SimKnobs k = setup.knobs;
                    k.embeddingTables = tablesPath;
                    k.embeddingPlan = ranked[i].planJson;
                    ranked[i].iteration = simulate(g, k).simulatedIteration;
                });
                std::stable_sort(ranked.begin(), ranked.end(),
                                 [](const Ranked& a, const Ranked& b) { return a.iteration < b.iteration; });
                if (static_cast<std::size_t>(top) < ranked.size())
                    ranked.resize(static_cast<std::size_t>(top));
                const std::string tablesNote =
                    tables.inferred ? "inferred evenly from the trace's per-rank totals (no --tables)"
                                    : "from " + tables.source;
                if (json) {
                    nlohmann::ordered_json out;
                    out["tables"] = {{"count", tables.tables.size()},
                                     {"batch_per_rank", tables.batchPerRank},
                                     {"inferred", tables.inferred},
                                     {"source", tables.inferred ? nlohmann::ordered_json()
                                                                : nlohmann::ordered_json(tables.source)}};
                    out["gpu"] = ranked.empty() ? std::string() : ranked.front().whatIf.machine;
                    out["replay_us"] = us(replay);
                    out["plans"] = nlohmann::ordered_json::array();
                    for (const auto& r : ranked) {
                        nlohmann::ordered_json p;
                        p["name"] = r.plan.name;
                        p["iteration_us"] = us(r.iteration);
                        p["vs_replay_pct"] =
                            pct(100.0 * (static_cast<double>(r.iteration) /
                                             static_cast<double>(std::max<TimeNs>(1, replay)) -
                                         1));
                        p["lookup_us"] = nlohmann::ordered_json::array();
                        for (double v : r.whatIf.lookupUs)
                            p["lookup_us"].push_back(round3(v));
                        p["pooled_bytes"] = {{"total", r.whatIf.pooled.total()},
                                             {"peak", r.whatIf.pooled.peak()}};
                        p["index_bytes"] = {{"total", r.whatIf.indices.total()},
                                            {"peak", r.whatIf.indices.peak()}};
                        p["plan"] = nlohmann::ordered_json::parse(r.planJson);
                        out["plans"].push_back(std::move(p));
                    }
                    std::cout << out.dump(2) << "\n";
                    return kExitOk;
                }
                std::printf("tables: %zu, %s; batch %lld per rank; replay %.2f us\n", tables.tables.size(),
                            tablesNote.c_str(), static_cast<long long>(tables.batchPerRank), us(replay));
                std::printf("%3s %-36s %14s %9s %15s %12s %11s\n", "#", "plan", "iteration_us", "vs_replay",
                            "max_lookup_us", "pooled_MB", "index_MB");
                for (std::size_t i = 0; i < ranked.size(); ++i) {
                    const auto& r = ranked[i];
                    const double maxLookup =
                        r.whatIf.lookupUs.empty()
                            ? 0
                            : *std::max_element(r.whatIf.lookupUs.begin(), r.whatIf.lookupUs.end());
                    std::printf("%3zu %-36s %14.2f %8.2f%% %15.2f %12.3f %11.3f\n", i + 1,
                                r.plan.name.c_str(), us(r.iteration),
                                100.0 * (static_cast<double>(r.iteration) /
                                             static_cast<double>(std::max<TimeNs>(1, replay)) -
                                         1),
                                maxLookup, mb(r.whatIf.pooled.total()), mb(r.whatIf.indices.total()));
                }
                if (!ranked.empty()) {
                    std::printf("\nbest plan, lookup time per rank (us):");
                    for (std::size_t r = 0; r < ranked.front().whatIf.lookupUs.size(); ++r)
                        std::printf(" %zu:%.1f", r, ranked.front().whatIf.lookupUs[r]);
                    std::printf("\nbest plan: %s\n", ranked.front().planJson.c_str());
                }
                return kExitOk;
            }};
}

CommandRegistrar registerShard{makeShardCommand()};

} // namespace

} // namespace sl::cli
