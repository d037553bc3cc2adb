#include "sim/edits/StageUnits.h"

#include "sim/Knobs.h"
#include "sim/edits/GraphSplice.h"
#include "structure/Structure.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>

namespace sl::edits {

int trailingIndex(std::string_view name) {
    std::size_t i = name.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1])))
        --i;
    return i == name.size() ? -1 : std::stoi(std::string(name.substr(i)));
}

std::vector<std::pair<TimeNs, TimeNs>> profilerSteps(const Rank& rank) {
    std::vector<std::pair<TimeNs, TimeNs>> steps;
    for (const Track& t : rank.tracks) {
        if (t.isGpu()) continue;
        for (std::uint32_t i = 0; i < t.events.size(); ++i)
            if (t.events.kind[i] == EventKind::UserAnnotation &&
                rank.strings.str(t.events.name[i]).rfind("ProfilerStep#", 0) == 0)
                steps.push_back({t.events.start[i], t.events.end(i)});
    }
    std::sort(steps.begin(), steps.end());
    if (steps.empty())
        steps.push_back({std::numeric_limits<TimeNs>::min(), std::numeric_limits<TimeNs>::max()});
    return steps;
}

std::vector<StepUnits> stageUnits(const ExecutionGraph& g, int layers, const std::string& knob) {
    const TraceSet& set = *g.trace;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> procOf;
    for (std::uint32_t p = 0; p < g.processors.size(); ++p)
        procOf[{g.processors[p].rank, g.processors[p].track}] = p;
    std::vector<StepUnits> out;
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        const std::string who = knob + ": rank " + std::to_string(rank.rank);
        const std::vector<LayerRegion> regions = layerRegions(rank);
        for (const LayerRegion& lr : regions) {
            const auto& ev = rank.tracks[lr.track].events;
            if (trailingIndex(rank.strings.str(ev.name[lr.parent])) < 0)
                throw KnobError(knob + ": no micro-batch blocks recognised (forward_step#N / backward_step#N "
                                       "markers tell the forward from the backward)");
        }
        if (regions.empty())
            throw KnobError(knob + ": no micro-batch blocks recognised (forward_step#N / backward_step#N "
                                   "markers tell the forward from the backward)");
        for (const auto& [stepStart, stepEnd] : profilerSteps(rank)) {
            StepUnits su;
            su.rank = r;
            std::vector<const LayerRegion*> inStep;
            for (const LayerRegion& lr : regions) {
                const TimeNs ts = rank.tracks[lr.track].events.start[lr.parent];
                if (ts >= stepStart && ts < stepEnd) inStep.push_back(&lr);
            }
            if (inStep.empty()) continue;
            const std::uint32_t track = inStep.front()->track;
            auto proc = procOf.find({r, track});
            if (proc == procOf.end()) continue;
            su.thread = proc->second;
            const Processor& P = g.processors[proc->second];
            const auto& ev = rank.tracks[track].events;
            auto unit = [&](TimeNs from, TimeNs to) {
                su.units.push_back(blockNodes(g, P, from, to));
                return static_cast<int>(su.units.size()) - 1;
            };
            const TimeNs firstBlock = ev.start[inStep.front()->parent];
            su.head = unit(stepStart, firstBlock);
            for (std::size_t b = 0; b < inStep.size(); ++b) {
                const LayerRegion& lr = *inStep[b];
                if (lr.track != track) throw KnobError(who + ": micro-batch blocks on two threads");
                const int m = trailingIndex(rank.strings.str(ev.name[lr.parent]));
                // The block reaches to the next block (calls between blocks go with the one before).
                const TimeNs from = ev.start[lr.parent];
                const TimeNs to = b + 1 < inStep.size() ? ev.start[inStep[b + 1]->parent] : ev.end(lr.parent);
                if (lr.rep.count != layers || lr.rep.length <= 0)
                    throw KnobError(who + ": " + (lr.backward ? "backward" : "forward") + " block " +
                                    std::to_string(m) + " repeats " + std::to_string(lr.rep.count) +
                                    " layer blocks, not the " + std::to_string(layers) +
                                    " layers recognised");
                auto childStart = [&](std::size_t k) { return ev.start[lr.children[k]]; };
                const std::size_t first = lr.rep.first, len = static_cast<std::size_t>(lr.rep.length);
                const std::size_t past = first + static_cast<std::size_t>(layers) * len;
                MicrobatchUnits mu;
                mu.microbatch = m;
                mu.backward = lr.backward;
                mu.prefix = unit(from, childStart(first));
                std::vector<int> traced;
                for (int l = 0; l < layers; ++l) {
                    const std::size_t k = first + static_cast<std::size_t>(l) * len;
                    const TimeNs end = k + len < lr.children.size() ? childStart(k + len) : to;
                    traced.push_back(unit(childStart(k), end));
                }
                if (past < lr.children.size())
                    mu.suffix = unit(childStart(past), to);
                else
                    mu.suffix = unit(to, to); // none
                // The backward runs the layers last to first: repetition i is layer layers-1-i.
                if (lr.backward) std::reverse(traced.begin(), traced.end());
                mu.layers = std::move(traced);
                su.blocks.push_back(std::move(mu));
            }
            const LayerRegion& last = *inStep.back();
            const TimeNs lastEnd = ev.end(last.parent);
            su.tail = unit(lastEnd, stepEnd);
            for (std::uint32_t i = 0; i < ev.size(); ++i)
                if (ev.start[i] >= lastEnd && ev.start[i] < stepEnd &&
                    rank.strings.str(ev.name[i]).rfind("Optimizer.step", 0) == 0)
                    su.optimizer.push_back({ev.start[i], ev.end(i)});
            // Forward and backward blocks pair: every micro-batch once each way.
            std::map<int, int> seen;
            for (const auto& mu : su.blocks)
                seen[mu.microbatch] += mu.backward ? 2 : 1;
            for (const auto& [m, v] : seen)
                if (v != 3)
                    throw KnobError(who + ": micro-batch " + std::to_string(m) +
                                    " has no forward / backward block pair (a backward outside the blocks "
                                    "cannot be staged)");
            out.push_back(std::move(su));
        }
    }
    return out;
}

} // namespace sl::edits
