#pragma once
// `sightline-cli plan` (docs/Layouts.md): the parallel layouts of a GPU count, each predicted from
// one transformer trace with tp.degree and parallel.gpus (the global batch stays), ranked by step
// time, with what each layout's GPU must hold.
#include "analysis/JobExposedComm.h"
#include "analysis/Sweep.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sl {

// Bytes one GPU holds in a layout (mixed precision with Adam, no recomputation, no sharded
// optimizer): BF16 weights (2 per parameter), FP32 gradients (4) and Adam's FP32 master weights
// and moments (12), and the activations a layer keeps for its backward (Korthikanti et al. 2022,
// with flash attention: tokens x hidden x (10 + 24 / tp) bytes) for every micro-batch in flight.
struct LayoutMemory {
    double params = 0; // parameters per GPU (a count)
    double weightsBytes = 0, gradsBytes = 0, optimizerBytes = 0, activationsBytes = 0;
    double total() const { return weightsBytes + gradsBytes + optimizerBytes + activationsBytes; }
};

struct LayoutRow {
    int dp = 1, tp = 1, pp = 1;
    int microbatches = 0; // per replica
    std::string error;    // the layout could not be predicted (one line); the figures below are 0
    TimeNs step = 0;
    double tokensPerSecond = 0;
    JobExposedComm exposed;
    double bubblePct = 0; // 1F1B's idle share, (pp - 1) / (microbatches + pp - 1)
    LayoutMemory memory;
    bool fits = true;                  // memory.total() within the GPU's memory
    std::vector<std::string> modelled; // what the prediction modelled instead of measuring
};

struct LayoutPlan {
    int gpus = 0, gpusPerNode = 0;
    std::string gpu;
    double gpuMemoryGB = 0;
    std::int64_t hidden = 0, heads = 0, tokens = 0, vocab = 0;
    int layers = 0, tracedDp = 1, tracedTp = 1, tracedPp = 1, tracedMicrobatches = 0;
    std::vector<LayoutRow> rows; // fitting layouts first, then by tokens per second; errors last
    std::vector<std::string> notes;
};

// Every DP x TP x PP = gpus with TP within a node dividing the heads and the hidden size, PP as
// traced or each of `pipelineDegrees` (pp.degree: docs/Layouts.md), each simulated with `base` plus
// tp.degree and parallel.gpus (the global batch stays), or, with `microbatches`, once per
// micro-batch count per replica (tp.degree, dp.degree, pp.microbatches: the global batch is dp x M
// micro-batches). A pipeline degree the trace cannot make is a row with its error. Throws KnobError
// where the trace has no transformer layers or the count makes no layout (one line). `sweep` carries
// the GUI's cancel flag and progress hook to the simulations (its onRun indexes the layouts in
// enumeration order).
LayoutPlan planLayouts(const ExecutionGraph& graph, int gpus, const SimKnobs& base = {},
                       const std::vector<int>& microbatches = {}, const SweepOptions& sweep = {},
                       const std::vector<int>& pipelineDegrees = {});

nlohmann::ordered_json layoutPlanJson(const LayoutPlan& plan);

} // namespace sl
