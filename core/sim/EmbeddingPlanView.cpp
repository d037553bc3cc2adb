#include "sim/EmbeddingPlanView.h"

#include "base/Error.h"
#include "models/GpuTable.h"

namespace sl {

namespace {

// Each shard's raw model time on its own: the weights that split a rank's calibrated time.
double standaloneNs(const TableShard& shard, const EmbeddingTables& tables, int worldSize,
                    const EmbeddingMachine& machine) {
    const auto t = lookupTimes({shard}, tables, worldSize, machine);
    const auto r = static_cast<std::size_t>(shard.rank);
    return r < t.size() ? t[r].forwardNs + t[r].backwardNs : 0.0;
}

} // namespace

EmbeddingPlanView embeddingPlanView(const ExecutionGraph& g, const EmbeddingInventory& inv,
                                    const SimKnobs& k) {
    EmbeddingPlanView view;
    if (!inv.any()) return view;
    const GpuTable& gpus = GpuTable::builtin();
    const EmbeddingMachine machine = embeddingMachine(gpus.find(g.trace->ranks.front().deviceName()));
    const GpuSpec* targetGpu = k.gpuTarget.empty() ? nullptr : gpus.find(k.gpuTarget);
    const EmbeddingMachine target = embeddingMachine(targetGpu);
    try {
        view.tables = embeddingTablesFor(inv, k.embeddingTables);
    } catch (const Error& e) {
        view.error = e.what();
        try {
            view.tables = embeddingTablesFor(inv, "");
        } catch (const Error&) {
            // No lookup op to read tables from (a transformer's token embedding): nothing to show.
            return EmbeddingPlanView{};
        }
    }
    view.worldSize = inv.worldSize;
    view.plan = tracedPlan(view.tables);
    EmbeddingWhatIf whatIf;
    auto compute = [&] {
        whatIf = planEmbeddingWhatIf(inv, view.tables, view.plan, machine,
                                     EmbeddingModelOptions{k.embeddingCalibrate, k.embeddingResizeComm},
                                     targetGpu ? &target : nullptr);
    };
    if (!k.embeddingPlan.empty() && view.error.empty()) {
        try {
            std::string file;
            const std::string text = embeddingKnobText(k.embeddingPlan, file);
            view.plan = parseEmbeddingPlan(text, file, view.tables, inv.worldSize);
            view.traced = false;
            compute();
        } catch (const Error& e) {
            view.error = e.what();
            view.plan = tracedPlan(view.tables);
            view.traced = true;
        }
    }
    if (view.traced) {
        try {
            compute();
        } catch (const Error&) {
            return EmbeddingPlanView{}; // the traced plan cannot be re-timed: nothing to show
        }
    }
    const std::int64_t batch = view.tables.batchPerRank > 0 ? view.tables.batchPerRank : inv.batchPerRank;
    const auto shards = planShards(view.plan, view.tables, view.worldSize, batch);
    view.lookupUs = whatIf.lookupUs;
    view.sentBytes = whatIf.pooled.send;
    view.lookupUs.resize(static_cast<std::size_t>(view.worldSize), 0.0);
    view.sentBytes.resize(static_cast<std::size_t>(view.worldSize), 0.0);
    // A rank's calibrated time split by its shards' stand-alone model times (the shards share L2,
    // so the parts are shares, not separate predictions).
    std::vector<double> weight(shards.size()), rankWeight(static_cast<std::size_t>(view.worldSize), 0.0);
    for (std::size_t i = 0; i < shards.size(); ++i) {
        weight[i] = standaloneNs(shards[i], view.tables, view.worldSize, targetGpu ? target : machine);
        rankWeight[static_cast<std::size_t>(shards[i].rank)] += weight[i];
    }
    for (int r = 0; r < view.worldSize; ++r)
        for (std::size_t i = 0; i < shards.size(); ++i) {
            if (shards[i].rank != r) continue;
            const auto rr = static_cast<std::size_t>(r);
            EmbeddingShardShare s;
            s.table = shards[i].table;
            s.rank = r;
            s.lookupUs = rankWeight[rr] > 0 ? view.lookupUs[rr] * weight[i] / rankWeight[rr] : 0.0;
            s.sentBytes = pooledExchange({shards[i]}, view.tables, view.worldSize, batch).send[rr];
            view.shards.push_back(s);
        }
    return view;
}

std::string planWithTableOn(const EmbeddingPlanView& view, int table, int rank) {
    EmbeddingPlan plan = view.plan;
    for (TablePlacement& p : plan.placements)
        if (p.table == table) {
            p.sharding = Sharding::TableWise;
            p.ranks = {rank};
        }
    // Only the tables that left their traced place (a plan leaves the others where the trace has
    // them): a short knob value and scenario name; none left means no plan, the replay.
    const EmbeddingPlan traced = tracedPlan(view.tables);
    EmbeddingPlan moved;
    for (const TablePlacement& p : plan.placements) {
        const auto t = static_cast<std::size_t>(p.table);
        if (t < traced.placements.size() && traced.placements[t].sharding == p.sharding &&
            traced.placements[t].ranks == p.ranks)
            continue;
        moved.placements.push_back(p);
    }
    return moved.placements.empty() ? std::string() : embeddingPlanJson(moved, view.tables);
}

} // namespace sl
