#include "sim/edits/PipelineSplit.h"

#include "sim/LayoutKnobs.h"

#include <algorithm>
#include <limits>

namespace sl::edits {

namespace {

TimeNs gpuTime(const ExecutionGraph& g, const std::vector<NodeId>& unit) {
    TimeNs t = 0;
    for (NodeId x : unit)
        if (g.nodes[x].kind == NodeKind::GpuOp) t += g.nodes[x].duration;
    return t;
}

} // namespace

LayerTimes measuredLayerTimes(const ExecutionGraph& g, const std::vector<StepUnits>& steps, int layers) {
    LayerTimes t;
    t.layer.assign(static_cast<std::size_t>(std::max(0, layers)), 0);
    auto of = [&](const StepUnits& su, int u) {
        return u < 0 ? TimeNs{0} : gpuTime(g, su.units[static_cast<std::size_t>(u)]);
    };
    for (const StepUnits& su : steps)
        for (const MicrobatchUnits& mu : su.blocks) {
            for (std::size_t l = 0; l < mu.layers.size() && l < t.layer.size(); ++l)
                t.layer[l] += of(su, mu.layers[l]);
            // Forward: the embedding is the prefix, the head and loss the suffix; backward the reverse.
            (mu.backward ? t.last : t.first) += of(su, mu.prefix);
            (mu.backward ? t.first : t.last) += of(su, mu.suffix);
        }
    return t;
}

std::vector<int> balancedSplit(const LayerTimes& t, int stages) {
    const int L = static_cast<int>(t.layer.size());
    if (stages <= 0 || L < stages) return {};
    std::vector<TimeNs> prefix(static_cast<std::size_t>(L) + 1, 0);
    for (int l = 0; l < L; ++l)
        prefix[static_cast<std::size_t>(l) + 1] =
            prefix[static_cast<std::size_t>(l)] + t.layer[static_cast<std::size_t>(l)];
    auto stageTime = [&](int from, int to, int stage) { // layers [from, to) on `stage`
        return prefix[static_cast<std::size_t>(to)] - prefix[static_cast<std::size_t>(from)] +
               (stage == 0 ? t.first : 0) + (stage == stages - 1 ? t.last : 0);
    };
    // best[j][i]: the least largest stage time of layers [0, i) on stages 0..j; cut[j][i]: where stage j
    // starts in it.
    constexpr TimeNs kNone = std::numeric_limits<TimeNs>::max();
    const auto S = static_cast<std::size_t>(stages), W = static_cast<std::size_t>(L) + 1;
    std::vector<std::vector<TimeNs>> best(S, std::vector<TimeNs>(W, kNone));
    std::vector<std::vector<int>> cut(S, std::vector<int>(W, 0));
    for (int i = 1; i <= L; ++i)
        best[0][static_cast<std::size_t>(i)] = stageTime(0, i, 0);
    for (int j = 1; j < stages; ++j)
        for (int i = j + 1; i <= L; ++i)
            for (int k = j; k < i; ++k) { // stage j runs layers [k, i)
                const TimeNs before = best[static_cast<std::size_t>(j) - 1][static_cast<std::size_t>(k)];
                if (before == kNone) continue;
                const TimeNs worst = std::max(before, stageTime(k, i, j));
                // "<": of equal splits, the first cut found (the longest stage j) stays.
                if (worst < best[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)]) {
                    best[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)] = worst;
                    cut[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)] = k;
                }
            }
    std::vector<int> counts(S, 0);
    int end = L;
    for (int j = stages - 1; j > 0; --j) {
        const int start = cut[static_cast<std::size_t>(j)][static_cast<std::size_t>(end)];
        counts[static_cast<std::size_t>(j)] = end - start;
        end = start;
    }
    counts[0] = end;
    return counts;
}

std::vector<int> stageLayerCounts(const SimKnobs& knobs, int layers, int stages, int tracedStages,
                                  const std::function<LayerTimes()>& times, const std::string& knob) {
    const std::string split = "pp.split=" + pipelineSplitText(knobs);
    if (knobs.ppSplit == PipelineSplit::Even) {
        if (layers % stages != 0)
            throw KnobError(knob + ": " + std::to_string(stages) + " does not divide the " +
                            std::to_string(layers) +
                            " layers (pp.split=time or pp.split=a,b,... give stages of unequal layers)");
        return std::vector<int>(static_cast<std::size_t>(stages), layers / stages);
    }
    if (tracedStages > 1)
        throw KnobError(knob + " " + split +
                        ": an uneven split is only made from a trace of one pipeline stage "
                        "(this one has " +
                        std::to_string(tracedStages) + "; pp.split=even splits each traced stage)");
    if (knobs.ppSplit == PipelineSplit::Counts) {
        const std::vector<int>& counts = knobs.ppSplitLayers;
        if (static_cast<int>(counts.size()) != stages)
            throw KnobError(knob + " " + split + ": " + std::to_string(counts.size()) + " stage counts for " +
                            std::to_string(stages) + " stages");
        int sum = 0;
        for (int n : counts)
            sum += n;
        if (sum != layers)
            throw KnobError(knob + " " + split + ": the counts sum to " + std::to_string(sum) + ", not the " +
                            std::to_string(layers) + " layers of the trace");
        return counts;
    }
    if (layers < stages)
        throw KnobError(knob + " " + split + ": " + std::to_string(layers) + " layers cannot fill " +
                        std::to_string(stages) + " stages (every stage needs a layer)");
    return balancedSplit(times(), stages);
}

} // namespace sl::edits
