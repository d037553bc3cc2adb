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

// |predicted - measured| / measured in %.
inline double errPct(double predicted, double measured) {
    if (measured <= 0) return predicted <= 0 ? 0 : 100;
    return 100.0 * std::abs(predicted - measured) / measured;
}

} // namespace slsynth
