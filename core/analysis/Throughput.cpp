#include "analysis/Throughput.h"

#include <cmath>
#include <cstdio>

namespace sl {

namespace {

// True when the simulator said it ignored the knob `key` ("pp.microbatches=8: ...: knob ignored",
// "pp.microbatches=8 together with model.layers: ..., pp.microbatches ignored").
bool ignored(const SimResult& r, const std::string& key) {
    for (const auto& w : r.warnings)
        if (w.rfind(key + "=", 0) == 0 && w.find("ignored") != std::string::npos) return true;
    return false;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// "8x", "1.14x", "0.5x": a ratio with as few decimals as it needs.
std::string times(double v) {
    if (std::abs(v - std::round(v)) < 0.005) return fixed(std::round(v), 0) + "x";
    return fixed(v, 2) + "x";
}

} // namespace

bool setsWork(const SimKnobs& k) {
    return k.dpDegree > 0 || k.ppMicrobatches > 0 || k.modelLayers > 0;
}

bool needsBlocks(const SimKnobs& k) {
    return k.ppMicrobatches > 0 || k.modelLayers > 0;
}

bool StepWork::changesWork() const {
    return std::abs(samples - 1.0) > 1e-9 || std::abs(gpus - 1.0) > 1e-9 ||
           std::abs(workPerSample - 1.0) > 1e-9;
}

StepWork stepWork(const ExecutionGraph& graph, const SimKnobs& knobs, const SimResult& result) {
    if (!setsWork(knobs)) return {};
    return stepWork(
        recognizeStructure(*graph.trace, &graph, knobs.ppMicrobatches > 0 || knobs.modelLayers > 0), knobs,
        result);
}

StepWork stepWork(const ParallelStructure& s, const SimKnobs& knobs, const SimResult& result) {
    StepWork w;
    w.tracedDp = w.dp = std::max(1, s.dp);
    w.tracedMicrobatches = w.microbatches = s.microbatches;
    w.tracedLayers = w.layers = s.layers;
    // dp.degree applied: the simulated job has the knob's replicas.
    if (knobs.dpDegree > 0 && s.recognised && result.setup.edited && result.setup.dp == knobs.dpDegree &&
        !ignored(result, "dp.degree")) {
        w.dp = knobs.dpDegree;
        w.strong = knobs.dpStrong;
    }
    if (knobs.ppMicrobatches > 0 && s.microbatches > 0 && !ignored(result, "pp.microbatches"))
        w.microbatches = knobs.ppMicrobatches;
    if (knobs.modelLayers > 0 && s.layers > 0 && !ignored(result, "model.layers"))
        w.layers = knobs.modelLayers;
    const double dpRatio = static_cast<double>(w.dp) / w.tracedDp;
    w.gpus = dpRatio;
    w.samples = (w.strong ? 1.0 : dpRatio) *
                (w.tracedMicrobatches > 0 ? static_cast<double>(w.microbatches) / w.tracedMicrobatches : 1.0);
    w.workPerSample = w.tracedLayers > 0 ? static_cast<double>(w.layers) / w.tracedLayers : 1.0;
    return w;
}

Throughput throughputFrom(const StepWork& base, TimeNs baselineStep, const StepWork& work, TimeNs step) {
    Throughput t;
    t.baselineStep = baselineStep;
    t.step = step;
    t.samplesRatio = work.samples / base.samples;
    t.gpusRatio = work.gpus / base.gpus;
    t.workRatio = work.workPerSample / base.workPerSample;
    const bool differs = std::abs(t.samplesRatio - 1.0) > 1e-9 || std::abs(t.gpusRatio - 1.0) > 1e-9 ||
                         std::abs(t.workRatio - 1.0) > 1e-9 || work.strong != base.strong;
    if (!differs || baselineStep <= 0 || step <= 0) return t;
    t.applies = true;
    const double timeRatio = static_cast<double>(step) / static_cast<double>(baselineStep);
    t.throughputRatio = t.samplesRatio / timeRatio;
    t.efficiency = t.throughputRatio * t.workRatio / t.gpusRatio;

    std::string kinds, scale;
    auto add = [&](const std::string& k) { kinds += (kinds.empty() ? "" : ", ") + k; };
    if (work.dp != base.dp || work.strong != base.strong) {
        add(work.strong ? "strong scaling" : "weak scaling");
        scale = std::to_string(base.dp) + " -> " + std::to_string(work.dp) + " replicas";
    }
    if (work.microbatches != base.microbatches) {
        add("micro-batches");
        if (!scale.empty()) scale += ", ";
        scale +=
            std::to_string(base.microbatches) + " -> " + std::to_string(work.microbatches) + " micro-batches";
    }
    if (work.layers != base.layers) {
        add("layers");
        if (!scale.empty()) scale += ", ";
        scale += std::to_string(base.layers) + " -> " + std::to_string(work.layers) + " layers";
    }
    t.kind = kinds;
    t.sentence = times(t.throughputRatio) + " baseline throughput (" + times(t.samplesRatio) +
                 " the samples per step, " + times(timeRatio) + " the step time); scaling efficiency " +
                 fixed(100.0 * t.efficiency, 0) + "% (" + (scale.empty() ? kinds : kinds + ", " + scale) +
                 ")";
    // Above 100%: the step's fixed costs (optimizer, gradient all-reduce, pipeline fill and drain) are
    // shared by more work, which is what more micro-batches are for.
    if (t.efficiency > 1.005) t.sentence += ", above 100%: the step's fixed costs are shared by more work";
    return t;
}

Throughput throughputVsBaseline(const ExecutionGraph& graph, const SimResult& baseline,
                                const SimKnobs& baselineKnobs, const SimResult& result,
                                const SimKnobs& knobs) {
    if (!setsWork(knobs) && !setsWork(baselineKnobs)) {
        Throughput t;
        t.baselineStep = baseline.simulatedIteration;
        t.step = result.simulatedIteration;
        return t;
    }
    // One structure for both: the baseline's counts are the trace's unless its knobs change them.
    const bool blocks = knobs.ppMicrobatches > 0 || knobs.modelLayers > 0 ||
                        baselineKnobs.ppMicrobatches > 0 || baselineKnobs.modelLayers > 0;
    const ParallelStructure s = recognizeStructure(*graph.trace, &graph, blocks);
    return throughputFrom(stepWork(s, baselineKnobs, baseline), baseline.simulatedIteration,
                          stepWork(s, knobs, result), result.simulatedIteration);
}

void addThroughputJson(nlohmann::json& iteration, const Throughput& t) {
    if (!t.applies) return;
    const auto r3 = [](double v) { return std::round(v * 1000.0) / 1000.0; };
    iteration["throughput_vs_baseline"] = r3(t.throughputRatio);
    iteration["scaling_efficiency"] = r3(t.efficiency);
    iteration["samples_per_step_vs_baseline"] = r3(t.samplesRatio);
    iteration["gpus_vs_baseline"] = r3(t.gpusRatio);
    iteration["work_per_sample_vs_baseline"] = r3(t.workRatio);
    iteration["baseline_us"] = std::round(static_cast<double>(t.baselineStep) / 10.0) / 100.0;
    iteration["throughput_note"] = t.sentence;
}

} // namespace sl
