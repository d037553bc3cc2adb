#pragma once
// A generated job (core/synth) written into a temporary folder, loaded and turned into an execution
// graph: the oracle tests generate two runs of one job that differ in one physical change and predict
// one from the other.
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "synth/Generator.h"

#include <cmath>
#include <memory>

namespace slsynth {

struct Loaded {
    QTemporaryDir dir;
    sl::TraceSet set;
    sl::ExecutionGraph graph;
};

inline std::unique_ptr<Loaded> generateAndLoad(const sl::synth::SynthConfig& c) {
    auto l = std::make_unique<Loaded>();
    sl::synth::generate(c, l->dir.path().toStdString(), 2);
    l->set = sl::loadTraceSet({l->dir.path().toStdString()});
    l->graph = sl::buildExecutionGraph(l->set);
    return l;
}

// The layout oracles' transformer job (tests/core/test_LayoutOracle.cpp, tests/ui/test_PlanView.cpp):
// four layers of a 4096-wide, 32-head model, two micro-batches of 5 x 1024 tokens, on one node of 8
// GPUs whose links are PCIe-class (120 GB/s): the tensor-parallel all-reduces, which the compute
// stream waits for, are a sizeable part of the step (5120 tokens: no GEMM dim of the model equals
// them, so the shapes leave no doubt which dim is sharded).
inline sl::synth::SynthConfig layoutJob(int dp, int tp, int microbatches = 2, double linkGBps = 120) {
    sl::synth::SynthConfig c;
    c.layers = 4;
    c.hidden = 4096;
    c.heads = 32;
    c.seq = 1024;
    c.microbatch = 5;
    c.vocab = 32000;
    c.microbatches = microbatches;
    c.dp = dp;
    c.tp = tp;
    c.intraNodeGBps = linkGBps;
    c.recordShapes = true;
    return c;
}

// |predicted - measured| / measured in %.
inline double errPct(double predicted, double measured) {
    if (measured <= 0) return predicted <= 0 ? 0 : 100;
    return 100.0 * std::abs(predicted - measured) / measured;
}

} // namespace slsynth
