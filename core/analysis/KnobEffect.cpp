#include "analysis/KnobEffect.h"

#include "analysis/CriticalPath.h"
#include "analysis/PinnedTime.h"
#include "sim/RankVariation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <vector>

namespace sl {

std::set<PathLabel> knobTargets(const SimKnobs& k) {
    std::set<PathLabel> t;
    if (k.computeSpeedup != 1.0 || !k.computeClassSpeedup.empty() || !k.kernelSpeedup.empty())
        t.insert(PathLabel::GpuCompute);
    if (k.commSpeedup != 1.0 || k.commModel != CommModel::Measured || k.dpScale != 1.0 || !k.commOverlap) {
        t.insert(PathLabel::GpuComm);
        t.insert(PathLabel::CollectiveWait);
    }
    if (!k.commOverlap) t.insert(PathLabel::GpuCompute);
    if (k.cpuSpeedup != 1.0 || !k.cpuRegionSpeedup.empty() || k.hostDispatch != 1.0 || k.hostCompute != 1.0)
        t.insert(PathLabel::Cpu);
    if (k.hostDispatch != 1.0) t.insert(PathLabel::LaunchLatency);
    if (!k.cpuRegionSpeedup.empty()) t.insert(PathLabel::Sync);
    if (k.launchLatencyUs >= 0) t.insert(PathLabel::LaunchLatency);
    // A straggler and the setup edits (more or fewer replicas, layers, micro-batches) change every
    // kind of time on the path, not one class of work; so does a new parallel layout.
    const bool setupEdit = k.dpDegree > 0 || k.dpStrong || k.modelLayers > 0 || k.ppMicrobatches > 0 ||
                           k.tpDegree > 0 || k.parallelGpus > 0;
    // So do stragglers, slow nodes and jitter (sim/RankVariation.h).
    if (hasRankVariation(k) || setupEdit)
        for (int l = 0; l < kPathLabelCount; ++l)
            t.insert(static_cast<PathLabel>(l));
    if (!k.gpuTarget.empty()) {
        t.insert(PathLabel::GpuCompute);
        t.insert(PathLabel::GpuComm);
    }
    return t;
}

namespace {

std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", v);
    return b;
}

} // namespace

KnobEffect explainKnobEffect(const ExecutionGraph& g, const SimResult& replay, const SimResult& whatIf,
                             const SimKnobs& knobs) {
    KnobEffect e;
    if (knobs.isReplay() || replay.simulatedIteration <= 0) return e;
    e.iterationChangePct = 100.0 *
                           static_cast<double>(whatIf.simulatedIteration - replay.simulatedIteration) /
                           static_cast<double>(replay.simulatedIteration);
    CriticalPath cp = criticalPathTotals(g, replay);
    if (cp.length <= 0) return e;
    auto share = [&](PathLabel l) { return cp.sharePct(cp.byLabel[static_cast<std::size_t>(l)]); };
    const std::set<PathLabel> targets = knobTargets(knobs);
    for (PathLabel l : targets)
        e.targetSharePct += share(l);
    // embedding.plan acts on the embedding lookups and all-to-alls (docs/Embeddings.md, "On the
    // critical path"): parts of the kinds, counted where no other knob already claims their kind.
    if (!knobs.embeddingPlan.empty()) {
        if (!targets.contains(PathLabel::GpuCompute)) e.targetSharePct += cp.sharePct(cp.embeddingLookup);
        if (!targets.contains(PathLabel::GpuComm)) e.targetSharePct += cp.sharePct(cp.embeddingAllToAll);
    }
    // The kinds that bound the step, largest first.
    std::vector<std::pair<double, PathLabel>> kinds;
    for (int l = 0; l < kPathLabelCount; ++l)
        if (share(static_cast<PathLabel>(l)) >= 1.0)
            kinds.push_back({share(static_cast<PathLabel>(l)), static_cast<PathLabel>(l)});
    std::sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string bound;
    for (std::size_t i = 0; i < kinds.size() && i < 3; ++i)
        bound +=
            (i ? ", " : "") + std::string(pathLabelName(kinds[i].second)) + " " + fmt(kinds[i].first) + "%";
    e.note = "the knobs changed the iteration by " + fmt(e.iterationChangePct) + "%; what they act on is " +
             fmt(e.targetSharePct) + "% of the replay's critical path (" + bound + ")";
    // gpu.target swaps the GPU, not the server: the host work it leaves as traced, named.
    if (!knobs.gpuTarget.empty()) {
        e.hostSharePct = share(PathLabel::Cpu);
        const bool hostSet = knobs.hostDispatch != 1.0 || knobs.hostCompute != 1.0 || knobs.cpuSpeedup != 1.0;
        if (!hostSet && e.hostSharePct >= 5.0)
            e.hostNote =
                std::to_string(static_cast<int>(std::lround(e.hostSharePct))) +
                "% of this step's critical path is host CPU work on the traced machine, kept as traced "
                "by gpu.target=" +
                knobs.gpuTarget + ": set host.compute and host.dispatch for the target's CPU";
    }
    const RankPinnedTime pins = pinsOnPathTo(g, replay, replay.last());
    e.pinnedSharePct = pins.sharePct();
    e.largestPin = describePin(g, pins.largest);
    if (std::abs(e.iterationChangePct) < 1.0) {
        e.note += ": the step is bound by something else, so the answer barely moves";
        // Measured time without a cause holds the path: say which pin, the first thing to check.
        if (e.pinnedSharePct >= 5.0 && !e.largestPin.empty())
            e.note += "; " + fmt(e.pinnedSharePct) + "% of the path is pinned to measured time, most of it " +
                      e.largestPin;
    }
    return e;
}

} // namespace sl
