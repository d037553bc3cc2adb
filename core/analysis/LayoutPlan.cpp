#include "analysis/LayoutPlan.h"

#include "analysis/Sweep.h"
#include "base/Rounding.h"
#include "models/CollectiveModel.h"
#include "models/GpuTable.h"
#include "sim/SetupEdits.h"
#include "sim/TensorShards.h"
#include "structure/Structure.h"

#include <algorithm>
#include <cmath>
#include <exception>

namespace sl {

namespace {

LayoutMemory memoryOf(const LayoutPlan& p, int tp, int pp, int microbatches) {
    LayoutMemory m;
    const double h = static_cast<double>(p.hidden), layers = static_cast<double>(p.layers);
    // Per layer: QKV, attention output and the two MLP GEMMs (12 H^2) with their biases and two
    // layer norms (13 H); the embedding and an untied LM head (V x H each) on the first and last
    // stage, both on one stage when there is one.
    const double perLayer = 12.0 * h * h + 13.0 * h;
    const double vocab = static_cast<double>(p.vocab) * h * (pp == 1 ? 2.0 : 1.0);
    m.params = (layers / pp * perLayer + vocab) / tp;
    m.weightsBytes = 2.0 * m.params;
    m.gradsBytes = 4.0 * m.params;
    m.optimizerBytes = 12.0 * m.params;
    // 1F1B: the first stage holds pp micro-batches' activations at once; one stage holds one.
    const double inFlight = std::min(microbatches, pp);
    m.activationsBytes =
        layers / pp * static_cast<double>(p.tokens) * h * (10.0 + 24.0 / tp) * std::max(1.0, inFlight);
    return m;
}

std::string errorText(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& x) {
        return x.what();
    }
}

} // namespace

LayoutPlan planLayouts(const ExecutionGraph& g, int gpus, const SimKnobs& base,
                       const std::vector<int>& microbatches, const SweepOptions& sweep,
                       const std::vector<int>& pipelineDegrees) {
    const TraceSet& set = *g.trace;
    const ParallelStructure s = recognizeStructure(set, &g, true);
    if (!s.recognised)
        throw KnobError("plan: no parallel layout recognised (" +
                        (s.notes.empty() ? std::string("no layout") : s.notes.front()) + ")");
    LayoutPlan p;
    p.gpus = gpus;
    p.gpusPerNode = gpusPerNodeOf(set, base.commGpusPerNode);
    p.tracedDp = s.dp;
    p.tracedTp = s.tp;
    p.tracedPp = s.pp;
    p.tracedMicrobatches = std::max(1, s.microbatches);
    p.layers = s.layers;
    const TensorShards model =
        planTensorShards(g, s.tp, s.tp, base.gpuSource, p.gpusPerNode); // the shapes; no change
    p.hidden = model.hidden;
    p.heads = model.heads;
    p.tokens = model.tokens;
    p.vocab = model.vocab;
    const GpuSpec& gpu = sourceGpu(set, GpuTable::builtin(), base.gpuSource);
    p.gpu = gpu.name;
    p.gpuMemoryGB = gpu.memoryGB;
    if (p.layers <= 0)
        p.notes.push_back("no repeated layer blocks recognised: the memory estimate counts no layers");
    const std::vector<int> stages = pipelineDegrees.empty() ? std::vector<int>{s.pp} : pipelineDegrees;
    if (pipelineDegrees.empty())
        p.notes.push_back(
            "pipeline degree as traced (" + std::to_string(s.pp) +
            "): other stage counts to split the layers over (pp.degree) are planned when listed "
            "(plan --pp, the Plan tab's pipeline degrees)");
    if (s.tp == 1)
        p.notes.push_back("the trace has no tensor parallelism: the all-reduces of other tp degrees are "
                          "modelled (docs/Layouts.md, \"From tp 1\")");

    std::vector<SimKnobs> knobs;
    for (int pp : stages)
        for (int tp = 1; tp <= p.gpusPerNode; ++tp) {
            if (pp <= 0 || p.gpusPerNode % tp != 0 || p.heads % tp != 0 || p.hidden % tp != 0 ||
                gpus % (tp * pp) != 0)
                continue;
            LayoutRow r;
            r.tp = tp;
            r.pp = pp;
            r.dp = gpus / (tp * pp);
            SimKnobs k = base;
            k.tpDegree = tp;
            k.ppDegree = pp == s.pp ? 0 : pp;
            if (microbatches.empty()) { // the global batch stays
                const int batch = p.tracedMicrobatches * s.dp;
                r.microbatches = batch % r.dp == 0 ? batch / r.dp : p.tracedMicrobatches;
                k.parallelGpus = gpus;
                p.rows.push_back(r);
                knobs.push_back(k);
                continue;
            }
            // Given micro-batches per replica: the global batch is dp x M micro-batches.
            k.dpDegree = r.dp;
            for (int m : microbatches) {
                r.microbatches = m;
                k.ppMicrobatches = m == p.tracedMicrobatches ? 0 : m;
                p.rows.push_back(r);
                knobs.push_back(k);
            }
        }
    if (p.rows.empty())
        throw KnobError("plan: " + std::to_string(gpus) + " GPUs make no layout with pp " + runsText(stages) +
                        " and a tensor-parallel degree within a node of " + std::to_string(p.gpusPerNode) +
                        " that divides " + std::to_string(p.heads) + " heads and hidden " +
                        std::to_string(p.hidden));

    const std::vector<SweepRun> runs = runSweep(g, knobs, sweep);
    const double tracedTokens =
        static_cast<double>(p.tracedMicrobatches) * s.dp * static_cast<double>(p.tokens);
    for (std::size_t i = 0; i < p.rows.size(); ++i) {
        LayoutRow& r = p.rows[i];
        const SweepRun& run = runs[i];
        if (run.error) {
            r.error = errorText(run.error);
            continue;
        }
        if (!run.done) {
            r.error = "not simulated to its end";
            continue;
        }
        r.step = run.iteration;
        r.exposed = run.exposed;
        const double tokens =
            microbatches.empty() ? tracedTokens
                                 : static_cast<double>(r.microbatches) * r.dp * static_cast<double>(p.tokens);
        r.tokensPerSecond = r.step > 0 ? tokens / (static_cast<double>(r.step) / 1e9) : 0;
        r.bubblePct = 100.0 * (r.pp - 1) / std::max(1, r.microbatches + r.pp - 1);
        r.memory = memoryOf(p, r.tp, r.pp, r.microbatches);
        r.fits = p.gpuMemoryGB <= 0 || r.memory.total() <= p.gpuMemoryGB * 1e9;
        if (r.tp != s.tp)
            r.modelled.push_back(r.tp == 1 ? "tensor-parallel collectives removed"
                                           : "tensor-parallel collectives re-timed for groups of " +
                                                 std::to_string(r.tp));
        if (r.tp != s.tp)
            r.modelled.push_back("sharded GEMM, attention and activation kernels re-shaped for tp " +
                                 std::to_string(r.tp));
        if (r.dp != s.dp)
            r.modelled.push_back("gradient all-reduces re-sized for " + std::to_string(r.dp) + " replicas");
        if (r.pp != s.pp)
            r.modelled.push_back("layers split over " + std::to_string(r.pp) +
                                 " stages, stage-to-stage transfers and the stages' optimizers modelled");
        const int batch = p.tracedMicrobatches * s.dp;
        if (microbatches.empty() && batch % r.dp != 0)
            r.modelled.push_back("each replica's micro-batch work x " + std::to_string(s.dp) + " / " +
                                 std::to_string(r.dp) + " (the global batch of " + std::to_string(batch) +
                                 " micro-batches does not split evenly)");
        else if (r.microbatches != p.tracedMicrobatches)
            r.modelled.push_back(std::to_string(r.microbatches) +
                                 " micro-batches per replica (blocks copied or dropped)");
        for (const auto& line : run.warnings.lines())
            if (std::find(p.notes.begin(), p.notes.end(), line) == p.notes.end()) p.notes.push_back(line);
    }
    std::stable_sort(p.rows.begin(), p.rows.end(), [](const LayoutRow& a, const LayoutRow& b) {
        if (a.error.empty() != b.error.empty()) return a.error.empty();
        if (a.fits != b.fits) return a.fits;
        return a.tokensPerSecond > b.tokensPerSecond;
    });
    return p;
}

nlohmann::ordered_json layoutPlanJson(const LayoutPlan& p) {
    nlohmann::ordered_json j;
    j["gpus"] = p.gpus;
    j["gpus_per_node"] = p.gpusPerNode;
    j["gpu"] = p.gpu;
    j["gpu_memory_gb"] = p.gpuMemoryGB;
    j["model"] = {{"hidden", p.hidden},
                  {"heads", p.heads},
                  {"layers", p.layers},
                  {"tokens_per_microbatch", p.tokens},
                  {"vocab", p.vocab}};
    j["traced"] = {
        {"dp", p.tracedDp}, {"tp", p.tracedTp}, {"pp", p.tracedPp}, {"microbatches", p.tracedMicrobatches}};
    j["layouts"] = nlohmann::ordered_json::array();
    for (const auto& r : p.rows) {
        nlohmann::ordered_json l;
        l["dp"] = r.dp;
        l["tp"] = r.tp;
        l["pp"] = r.pp;
        l["microbatches"] = r.microbatches;
        if (!r.error.empty()) {
            l["error"] = r.error;
            j["layouts"].push_back(std::move(l));
            continue;
        }
        l["step_us"] = us(r.step);
        l["tokens_per_s"] = std::round(r.tokensPerSecond);
        l["exposed_comm_us"] = {{"mean", us(static_cast<TimeNs>(std::llround(r.exposed.meanNs)))},
                                {"max", us(r.exposed.maxNs)}};
        l["bubble_pct"] = pct(r.bubblePct);
        l["memory_gb"] = {{"weights", round3(r.memory.weightsBytes / 1e9)},
                          {"gradients", round3(r.memory.gradsBytes / 1e9)},
                          {"optimizer", round3(r.memory.optimizerBytes / 1e9)},
                          {"activations", round3(r.memory.activationsBytes / 1e9)},
                          {"total", round3(r.memory.total() / 1e9)}};
        l["fits"] = r.fits;
        l["modelled"] = r.modelled;
        j["layouts"].push_back(std::move(l));
    }
    j["notes"] = p.notes;
    return j;
}

} // namespace sl
