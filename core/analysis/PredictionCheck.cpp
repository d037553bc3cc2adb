#include "analysis/PredictionCheck.h"

#include "trace/Collective.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace sl {

namespace {

double relErrPct(TimeNs value, TimeNs actual) {
    if (actual <= 0) return value <= 0 ? 0.0 : 100.0;
    return 100.0 * std::abs(static_cast<double>(value - actual)) / static_cast<double>(actual);
}

TimeNs simulatedDuration(const SimResult& r, NodeId n) {
    return n < r.nodes.size() && r.nodes[n].start >= 0 ? r.nodes[n].end - r.nodes[n].start : 0;
}

} // namespace

bool worseThanNoChange(double errorPct, double unchangedErrorPct) {
    return errorPct > unchangedErrorPct + 0.1;
}

double PredictedRow::errorPct() const {
    return relErrPct(predicted, actual);
}
double PredictedRow::unchangedErrorPct() const {
    return relErrPct(before, actual);
}
double RankPrediction::errorPct() const {
    return relErrPct(predicted, actual);
}
double RankPrediction::unchangedErrorPct() const {
    return relErrPct(before, actual);
}
double PredictionCheck::iterationErrorPct() const {
    return relErrPct(predictedIteration, actualIteration);
}
double PredictionCheck::iterationUnchangedErrorPct() const {
    return relErrPct(beforeIteration, actualIteration);
}
double PredictionCheck::worstRankErrorPct() const {
    double w = 0;
    for (const auto& r : ranks)
        w = std::max(w, r.errorPct());
    return w;
}

PredictionCheck checkPrediction(const RunComparison& cmp, const ExecutionGraph& before,
                                const SimResult& predicted, const ExecutionGraph& after) {
    PredictionCheck out;
    std::unordered_map<std::string_view, EventClass> classes;
    auto classOf = [&](const ExecutionGraph& g, NodeId n) {
        if (g.nodes[n].kind == NodeKind::Collective) return EventClass::CommKernel;
        const std::string_view name = g.nodeName(n);
        auto [it, fresh] = classes.try_emplace(name, EventClass::OtherKernel);
        if (fresh) {
            const GraphNode& node = g.nodes[n];
            it->second =
                eventClassOf(g.rankOf(n).tracks[node.event.track].events.kind[node.event.index], name);
        }
        return it->second;
    };
    std::map<EventClass, PredictedRow> byClass;
    std::map<std::string, PredictedRow, std::less<>> byKernel;
    std::vector<int> pairedBefore(before.trace->ranks.size(), 0);
    const auto opsBefore = gpuOpNodesByRank(before), opsAfter = gpuOpNodesByRank(after);
    for (const RankComparison& rc : cmp.ranks) {
        const auto ia = static_cast<std::size_t>(rc.beforeIndex);
        pairedBefore[ia] = 1;
        RankPrediction rp;
        rp.beforeRank = rc.beforeRank;
        rp.afterRank = rc.afterRank;
        rp.before = rc.before.iteration;
        rp.predicted = ia < predicted.ranks.size() ? predicted.ranks[ia].simulated() : 0;
        rp.actual = rc.after.iteration;
        out.ranks.push_back(rp);
        out.beforeIteration = std::max(out.beforeIteration, rp.before);
        out.predictedIteration = std::max(out.predictedIteration, rp.predicted);
        out.actualIteration = std::max(out.actualIteration, rp.actual);
        // Kernel rows by name over every op of the rank (so a kernel whose count changed compares
        // all its instances); ops aligned only through their CPU op (other names after) are one row
        // per CPU op, "<op> (via CPU op)", on both sides.
        std::unordered_map<NodeId, std::string> viaOpBefore, viaOpAfter;
        for (const AlignedUnit& u : rc.units) {
            if (u.by != AlignedBy::CpuOp) continue;
            const GraphNode& first = before.nodes[u.before.front()];
            const Rank& rank = before.trace->ranks[first.rank];
            const std::string key =
                std::string(rank.name(launchingCpuOp(rank, first.event))) + " (via CPU op)";
            for (NodeId n : u.before)
                viaOpBefore[n] = key;
            for (NodeId n : u.after)
                viaOpAfter[n] = key;
        }
        auto kernelRow = [&](const std::unordered_map<NodeId, std::string>& via, const ExecutionGraph& g,
                             NodeId n) -> PredictedRow& {
            auto it = via.find(n);
            if (it != via.end()) return byKernel[it->second];
            const std::string_view name = g.nodeName(n);
            auto k = byKernel.find(name);
            return k != byKernel.end() ? k->second : byKernel[std::string(name)];
        };
        for (NodeId n : opsBefore[ia]) {
            const TimeNs measured = before.measuredEnd(n) - before.measuredStart(n),
                         sim = simulatedDuration(predicted, n);
            PredictedRow& row = byClass[classOf(before, n)];
            row.before += measured;
            row.predicted += sim;
            ++row.count;
            PredictedRow& k = kernelRow(viaOpBefore, before, n);
            k.before += measured;
            k.predicted += sim;
            ++k.count;
        }
        for (NodeId n : opsAfter[static_cast<std::size_t>(rc.afterIndex)]) {
            const TimeNs measured = after.measuredEnd(n) - after.measuredStart(n);
            byClass[classOf(after, n)].actual += measured;
            kernelRow(viaOpAfter, after, n).actual += measured;
        }
    }
    // GPU ops a setup edit added (model.layers clones): in their class and under their source's name.
    for (const AddedGpuOp& op : predicted.timeline.added) {
        if (op.rank >= pairedBefore.size() || !pairedBefore[op.rank]) continue;
        const Rank& rank = before.trace->ranks[op.rank];
        const Track& t = rank.tracks[op.source.track];
        const std::string_view name = rank.name(op.source);
        EventClass c = isCommunicationKernelName(name) ? EventClass::CommKernel
                                                       : eventClassOf(t.events.kind[op.source.index], name);
        byClass[c].predicted += op.end - op.start;
        auto k = byKernel.find(name);
        if (k != byKernel.end()) k->second.predicted += op.end - op.start;
    }
    for (auto& [c, row] : byClass) {
        row.key = std::string(eventClassName(c));
        out.byClass.push_back(row);
    }
    for (auto& [k, row] : byKernel) {
        row.key = k;
        out.byKernel.push_back(row);
    }
    std::stable_sort(out.byKernel.begin(), out.byKernel.end(),
                     [](const PredictedRow& x, const PredictedRow& y) {
                         return std::llabs(x.error()) > std::llabs(y.error());
                     });
    if (!cmp.comparable()) out.warnings.add(Warn::CompareNotOneProgram, cmp.alignmentNote());
    return out;
}

} // namespace sl
