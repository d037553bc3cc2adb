#include "analysis/Throughput.h"

#include "base/Rounding.h"

#include <cmath>
#include <cstdio>

namespace sl {

namespace {

// True when the simulator said it ignored the knob `key` ("pp.microbatches=8: ...: knob ignored",
// "pp.microbatches=8 together with model.layers: ..., pp.microbatches ignored").
bool ignored(const SimResult& r, const std::string& key) {
    for (const auto& w : r.warnings)
        if (w.text.rfind(key + "=", 0) == 0 && w.text.find("ignored") != std::string::npos) return true;
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

// Why a scaling efficiency can exceed 100% when only the job's shape changed.
constexpr const char* kFixedCostsShared = ", above 100%: the step's fixed costs are shared by more work";

bool setsWork(const SimKnobs& k) {
    return k.dpDegree > 0 || k.ppMicrobatches > 0 || k.modelLayers > 0 || k.tpDegree > 0 ||
           k.parallelGpus > 0;
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
    w.tp = std::max(1, s.tp);
    // dp.degree applied: the simulated job has the knob's replicas.
    if (knobs.dpDegree > 0 && s.recognised && result.setup.edited && result.setup.dp == knobs.dpDegree &&
        !ignored(result, "dp.degree")) {
        w.dp = knobs.dpDegree;
        w.strong = knobs.dpStrong;
    }
    // tp.degree / parallel.gpus (docs/Layouts.md): the simulated job's replicas and GPUs; with
    // parallel.gpus the global batch stays.
    const bool layout = (knobs.tpDegree > 0 || knobs.parallelGpus > 0) && s.recognised && result.setup.edited;
    if (layout) {
        w.dp = result.setup.dp;
        w.tp = result.setup.tp;
        w.strong = knobs.parallelGpus > 0 || knobs.dpStrong;
    }
    if (knobs.ppMicrobatches > 0 && s.microbatches > 0 && !ignored(result, "pp.microbatches"))
        w.microbatches = knobs.ppMicrobatches;
    if (knobs.modelLayers > 0 && s.layers > 0 && !ignored(result, "model.layers"))
        w.layers = knobs.modelLayers;
    const double dpRatio = static_cast<double>(w.dp) / w.tracedDp;
    w.gpus = layout && s.world > 0 ? static_cast<double>(result.setup.world) / s.world : dpRatio;
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
    if (work.tp != base.tp) {
        add("tensor parallelism");
        if (!scale.empty()) scale += ", ";
        scale += "tp " + std::to_string(base.tp) + " -> " + std::to_string(work.tp);
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
    if (t.efficiency > 1.005) t.sentence += kFixedCostsShared;
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
    Throughput t = throughputFrom(stepWork(s, baselineKnobs, baseline), baseline.simulatedIteration,
                                  stepWork(s, knobs, result), result.simulatedIteration);
    // Knobs beyond the job's shape (a faster GPU or network beside dp.degree) make each step faster
    // too: the efficiency then holds their speed-up, and no fixed costs explain it.
    SimKnobs shapeOnly = knobs;
    shapeOnly.dpDegree = baselineKnobs.dpDegree;
    shapeOnly.dpStrong = baselineKnobs.dpStrong;
    shapeOnly.ppMicrobatches = baselineKnobs.ppMicrobatches;
    shapeOnly.modelLayers = baselineKnobs.modelLayers;
    shapeOnly.tpDegree = baselineKnobs.tpDegree;
    shapeOnly.parallelGpus = baselineKnobs.parallelGpus;
    shapeOnly.tpReshape = baselineKnobs.tpReshape;
    shapeOnly.tpResizeComm = baselineKnobs.tpResizeComm;
    shapeOnly.batchSamples = baselineKnobs.batchSamples;
    shapeOnly.batchTokens = baselineKnobs.batchTokens;
    const std::string fixedCosts = kFixedCostsShared;
    if (t.applies && !(shapeOnly == baselineKnobs))
        if (const auto at = t.sentence.find(fixedCosts); at != std::string::npos)
            t.sentence.replace(
                at, fixedCosts.size(),
                ", above 100% with the other knobs' speed-up in it (they make each step faster "
                "too)");
    return t;
}

namespace {

// 13467 -> "13,467"; 3.45e6 -> "3.45M"; 12.3 -> "12.3": three significant digits above 100,000.
std::string amount(double v) {
    if (v >= 1e5) {
        const char* suffix[] = {"k", "M", "G", "T"};
        int i = 0;
        double x = v / 1e3;
        while (x >= 1e3 && i < 3) {
            x /= 1e3;
            ++i;
        }
        return fixed(x, x < 10 ? 2 : (x < 100 ? 1 : 0)) + suffix[i];
    }
    if (v < 100) return fixed(v, v < 10 ? 2 : 1);
    std::string digits = fixed(v, 0), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace

Rate rateOf(const SimKnobs& batch, double samples, TimeNs step) {
    Rate r;
    if (step <= 0 || samples <= 0) return r;
    const double seconds = static_cast<double>(step) * 1e-9;
    if (batch.batchSamples > 0) {
        r.samplesPerStep = batch.batchSamples * samples;
        r.samplesPerSecond = r.samplesPerStep / seconds;
    }
    if (batch.batchTokens > 0) {
        r.tokensPerStep = batch.batchTokens * samples;
        r.tokensPerSecond = r.tokensPerStep / seconds;
    }
    return r;
}

std::string rateText(const Rate& r) {
    std::string s;
    if (r.samplesPerSecond > 0) s = amount(r.samplesPerSecond) + " samples/s";
    if (r.tokensPerSecond > 0) s += (s.empty() ? "" : ", ") + amount(r.tokensPerSecond) + " tokens/s";
    return s;
}

void addRateJson(nlohmann::json& iteration, const Rate& r) {
    if (!r.known()) return;
    if (r.samplesPerSecond > 0) {
        iteration["samples_per_step"] = pct(r.samplesPerStep);
        iteration["samples_per_s"] = pct(r.samplesPerSecond);
    }
    if (r.tokensPerSecond > 0) {
        iteration["tokens_per_step"] = pct(r.tokensPerStep);
        iteration["tokens_per_s"] = pct(r.tokensPerSecond);
    }
    iteration["rate_note"] = rateText(r);
}

void addThroughputJson(nlohmann::json& iteration, const Throughput& t) {
    if (!t.applies) return;
    iteration["throughput_vs_baseline"] = pct(t.throughputRatio);
    iteration["scaling_efficiency"] = pct(t.efficiency);
    iteration["samples_per_step_vs_baseline"] = pct(t.samplesRatio);
    iteration["gpus_vs_baseline"] = pct(t.gpusRatio);
    iteration["work_per_sample_vs_baseline"] = pct(t.workRatio);
    iteration["baseline_us"] = us(t.baselineStep);
    iteration["throughput_note"] = t.sentence;
}

} // namespace sl
