#pragma once
// Throughput against a baseline and scaling efficiency (docs/Scaling.md): when a what-if changes
// the work of a step (dp.degree with or without dp.strong, pp.microbatches, model.layers), its step
// time alone misleads: 4 -> 32 data-parallel replicas take 1.14x longer per step but process 8x the
// samples. These numbers relate the two steps by the work they do.
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "structure/Structure.h"

#include <nlohmann/json.hpp>

#include <string>

namespace sl {

// What one step of a simulated job does, in the trace's units (the traced step = 1 sample unit,
// 1 GPU unit, 1 work unit per sample). Counts are those the simulator applied: a knob it ignored
// (a warning "<key>=...: ... ignored") counts as traced.
struct StepWork {
    int dp = 1;                 // data-parallel replicas
    int tracedDp = 1;           // ... in the trace
    bool strong = false;        // dp.strong: the global batch stays
    int microbatches = 0;       // per step (0: not recognised)
    int tracedMicrobatches = 0; //
    int tp = 1;                 // tensor-parallel degree (tp.degree)
    int layers = 0;             // layer blocks of the model (0: not recognised)
    int tracedLayers = 0;       //
    double samples = 1.0;       // samples per step / the trace's
    double gpus = 1.0;          // GPUs of the job / the trace's
    double workPerSample = 1.0; // model work per sample / the trace's (layers)
    bool changesWork() const;   // any of the three differs from the trace
};

// True when the knobs set a count that changes the work per step (dp.degree, pp.microbatches,
// model.layers); needsBlocks: one that needs the trace's micro-batch and layer blocks.
bool setsWork(const SimKnobs& knobs);
bool needsBlocks(const SimKnobs& knobs);

// The work of the step `result` simulated with `knobs` on `graph`. Reads the trace's structure
// (structure/Structure.h) only when a work knob is set.
StepWork stepWork(const ExecutionGraph& graph, const SimKnobs& knobs, const SimResult& result);
// The same on a structure already recognised (with blocks when a block knob is set).
StepWork stepWork(const ParallelStructure& traced, const SimKnobs& knobs, const SimResult& result);

struct Throughput {
    bool applies = false;      // the two steps do different work (else only the step time compares)
    TimeNs baselineStep = 0;   // simulated iteration of the baseline
    TimeNs step = 0;           // ... of the what-if
    double samplesRatio = 1.0; // samples per step, what-if / baseline
    double gpusRatio = 1.0;    // GPUs, what-if / baseline
    double workRatio = 1.0;    // model work per sample, what-if / baseline
    // Samples per second, what-if / baseline: samplesRatio x baselineStep / step.
    double throughputRatio = 1.0;
    // Achieved against ideal throughput: throughputRatio x workRatio / gpusRatio. Weak scaling:
    // baselineStep / step; strong scaling: that / gpusRatio; more micro-batches on the same GPUs can
    // exceed 1 (the pipeline's fill and drain are shared by more work).
    double efficiency = 1.0;
    std::string kind;     // "weak scaling", "strong scaling", "micro-batches", "layers" (joined by ", ")
    std::string sentence; // "7.03x baseline throughput (8x the samples per step, 1.14x the step time);
                          //  scaling efficiency 88% (weak scaling, 4 -> 32 replicas)"; empty unless applies
};

// The what-if (result, knobs) against the baseline (baseline, baselineKnobs): both on `graph`.
Throughput throughputVsBaseline(const ExecutionGraph& graph, const SimResult& baseline,
                                const SimKnobs& baselineKnobs, const SimResult& result,
                                const SimKnobs& knobs);
// The same from two StepWork values and the steps (no trace needed: tests, sweeps).
Throughput throughputFrom(const StepWork& baseline, TimeNs baselineStep, const StepWork& work, TimeNs step);

// Absolute throughput (docs/Scaling.md): the traced job's batch (batch.samples, batch.tokens:
// not in a Kineto trace, the user gives it) x the samples ratio of the simulated step's work
// over its time. Each field is 0 where its batch is not given.
struct Rate {
    double samplesPerStep = 0;
    double samplesPerSecond = 0;
    double tokensPerStep = 0;
    double tokensPerSecond = 0;
    bool known() const { return samplesPerSecond > 0 || tokensPerSecond > 0; }
};
// `batch` holds the traced batch (the what-if's own batch.* knobs, else the baseline's);
// `samples` is StepWork::samples of the step (1 = the trace's); `step` its simulated time.
Rate rateOf(const SimKnobs& batch, double samples, TimeNs step);
// "13,467 samples/s, 3.45M tokens/s": empty when !r.known().
std::string rateText(const Rate& r);
// Sets iteration.samples_per_step, samples_per_s, tokens_per_step, tokens_per_s (those given) and
// rate_note (rateText) when r.known().
void addRateJson(nlohmann::json& iteration, const Rate& r);

// Sets iteration.throughput_vs_baseline, iteration.scaling_efficiency and the ratios behind them
// (samples_per_step_vs_baseline, gpus_vs_baseline, work_per_sample_vs_baseline, baseline_us,
// throughput_note) in `iteration` when t.applies; leaves it alone otherwise.
void addThroughputJson(nlohmann::json& iteration, const Throughput& t);

} // namespace sl
