#include "sim/BlockEdits.h"
#include "sim/edits/GraphSplice.h"
#include "sim/edits/MicrobatchPlan.h"
#include "sim/edits/StageUnits.h"

#include "models/PipelineSchedule.h"
#include "structure/Structure.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

// pp.microbatches (docs/Structure.md): the micro-batch planner.
namespace sl {

using namespace edits;

BlockEdit editMicrobatches(const ExecutionGraph& g, int microbatches) {
    BlockEdit out;
    if (microbatches <= 0) return out;
    const TraceSet& set = *g.trace;
    const std::string knob = "pp.microbatches=" + std::to_string(microbatches);
    out.structure = recognizeStructure(set, &g);
    const ParallelStructure& s = out.structure;
    const int M = s.microbatches, N = microbatches;
    if (M == 0) {
        out.warnings.addForKnob(
            "pp.microbatches", Warn::BlockEditIgnored,
            knob + ": no micro-batch blocks recognised (forward_step#N / backward_step#N): knob ignored");
        return out;
    }
    if (N == M) {
        out.notes.push_back(knob + " is the traced number of micro-batches: nothing to add or drop");
        return out;
    }
    auto ignore = [&](const std::string& why) {
        BlockEdit none;
        none.warnings.addForKnob("pp.microbatches", Warn::BlockEditIgnored,
                                 knob + ": " + why + ": knob ignored");
        return none;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> procOf;
    for (std::uint32_t p = 0; p < g.processors.size(); ++p)
        procOf[{g.processors[p].rank, g.processors[p].track}] = p;
    // Which traced block each micro-batch runs as or copies (sim/edits/MicrobatchPlan.h); copies
    // never repeat a gradient all-reduce (with one traced micro-batch its only backward has them).
    const MicrobatchSources sources(M, N);
    const std::vector<std::uint8_t> gradient = gradientCollectives(g);
    std::vector<BlockRun> runs;
    std::vector<int> ranks;
    const std::vector<int> copied = sources.copied();
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        const int stage = s.places[r].known ? s.places[r].pp : 0;
        // Steps: each ProfilerStep#N is a run of its own.
        const std::vector<std::pair<TimeNs, TimeNs>> steps = profilerSteps(rank);
        std::vector<LayerRegion> regions = layerRegions(rank);
        for (std::size_t st = 0; st < steps.size(); ++st) {
            BlockRun run;
            run.rank = r;
            std::map<int, int> unitOf; // m (forward) / -(m + 1) (backward) -> unit
            std::vector<int> traced;   // the traced order
            for (const LayerRegion& lr : regions) {
                const auto& ev = rank.tracks[lr.track].events;
                const TimeNs ts = ev.start[lr.parent], te = ev.end(lr.parent);
                if (ts < steps[st].first || ts >= steps[st].second) continue;
                const int m = trailingIndex(rank.strings.str(ev.name[lr.parent]));
                auto proc = procOf.find({r, lr.track});
                if (m < 0 || proc == procOf.end()) continue;
                const int item = lr.backward ? -(m + 1) : m;
                unitOf[item] = static_cast<int>(run.units.size());
                run.units.push_back(blockNodes(g, g.processors[proc->second], ts, te));
                traced.push_back(item);
            }
            if (traced.empty()) continue;
            if (traced != oneFOneBSchedule(std::max(1, s.pp), stage, M))
                return ignore("rank " + std::to_string(rank.rank) + " does not run its " + std::to_string(M) +
                              " micro-batches in 1F1B order");
            for (int item : oneFOneBSchedule(std::max(1, s.pp), stage, N)) {
                const bool backward = item < 0;
                const int m = backward ? -item - 1 : item;
                const int src = sources.source(m);
                run.sequence.push_back(
                    {unitOf.at(backward ? -(src + 1) : src),
                     sources.original(m) ? kOriginal : microbatchCopyLabel(st, backward, m)});
            }
            runs.push_back(std::move(run));
        }
        ranks.push_back(rank.rank);
    }
    if (runs.empty()) return ignore("no micro-batch blocks inside the graph's window");
    const Applied applied = applyRuns(g, runs, out, gradient);
    try {
        out.graph.validate();
    } catch (const GraphError& err) {
        return ignore(std::string("the edited graph is not valid (") + err.what() + ")");
    }
    out.active = true;
    out.notes.push_back(
        knob + ": " + std::to_string(M) + " -> " + std::to_string(N) + " micro-batches per step on ranks " +
        idRangesText(ranks) + ": " +
        (N > M ? "micro-batches " + std::to_string(M - 1) + ".." + std::to_string(N - 2) +
                     " are copies of the forward / backward blocks of micro-batches " + runsText(copied) +
                     " and the traced last one (" + std::to_string(M - 1) + ") stays last"
               : "micro-batches " + std::to_string(N - 1) + ".." + std::to_string(M - 2) +
                     " dropped, the traced last one (" + std::to_string(M - 1) + ") stays last") +
        "; 1F1B order rebuilt for " + std::to_string(std::max(1, s.pp)) +
        " stages with the sends and receives");
    if (applied.copiedGroups > 0)
        out.notes.push_back(
            "copied " + std::to_string(applied.copiedGroups) +
            " collectives with their blocks (tensor-parallel all-reduces, pipeline sends and receives)");
    out.notes.push_back(
        "copied micro-batch blocks are simulated but not drawn; dropped ones have no simulated time");
    if (applied.unmatchedCopies > 0)
        out.warnings.addForKnob(
            "pp.microbatches", Warn::BlockCopyPeersOutside,
            knob + ": " + std::to_string(applied.unmatchedCopies) +
                " copied collective kernels have peers outside every copied block: they do not "
                "wait for peers",
            applied.unmatchedCopies);
    return out;
}

} // namespace sl
