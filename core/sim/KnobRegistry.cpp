#include "sim/KnobRegistry.h"

#include "models/GpuTable.h"
#include "models/KernelClass.h"
#include "sim/EmbeddingKnobs.h"
#include "sim/KnobText.h"
#include "sim/LayoutKnobs.h"
#include "sim/SetupEdits.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <regex>
#include <sstream>
#include <type_traits>

namespace sl {

namespace {

const std::vector<std::string> kCommTypes = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all",
                                             "broadcast",  "reduce",     "send_recv"};
const std::vector<std::string> kCommParams = {"intra_node_GBps", "inter_node_GBps", "latency_us",
                                              "inter_node_latency_us"};

bool contains(const std::vector<std::string>& words, const std::string& w) {
    for (const auto& x : words)
        if (x == w) return true;
    return false;
}

std::string joined(const std::vector<std::string>& words, const char* sep) {
    std::string s;
    for (const auto& w : words)
        s += (s.empty() ? "" : sep) + w;
    return s;
}

double parseDouble(const std::string& key, const std::string& value) {
    const char* b = value.c_str();
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(b, &end);
    if (end == b || *end != '\0' || errno == ERANGE || !std::isfinite(v))
        throw KnobError("knob " + key + ": '" + value + "' is not a finite number");
    return v;
}

// "3,7,100..120" (also "100-120" and spaces): rank ids, each >= 0, in the given order, each once.
std::vector<int> parseRankList(const std::string& key, const std::string& value) {
    std::vector<int> ids;
    auto number = [&](const std::string& text) {
        std::size_t used = 0;
        long v = -1;
        try {
            v = std::stol(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != text.size() || v < 0 || v > (1 << 24))
            throw KnobError("knob " + key + ": '" + text +
                            "' is not a rank id (a list such as 3,7,100..120)");
        return static_cast<int>(v);
    };
    std::string item;
    std::stringstream in(value);
    while (std::getline(in, item, ',')) {
        item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
        if (item.empty()) continue;
        std::size_t dots = item.find(".."), dash = item.find('-', 1), cut = std::string::npos, width = 0;
        if (dots != std::string::npos) {
            cut = dots;
            width = 2;
        } else if (dash != std::string::npos) {
            cut = dash;
            width = 1;
        }
        if (cut == std::string::npos) {
            ids.push_back(number(item));
            continue;
        }
        const int a = number(item.substr(0, cut)), b = number(item.substr(cut + width));
        if (b < a) throw KnobError("knob " + key + ": the range '" + item + "' runs backwards");
        if (b - a > (1 << 20)) throw KnobError("knob " + key + ": the range '" + item + "' is too long");
        for (int r = a; r <= b; ++r)
            ids.push_back(r);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

double parseSpeedup(const std::string& key, const std::string& value) {
    double v = parseDouble(key, value);
    if (v <= 0 || v > 1e6)
        throw KnobError("knob " + key + ": must be a factor in (0, 1e6] (1 = unchanged), got '" + value +
                        "'");
    return v;
}

void checkRegex(const std::string& key, const std::string& re) {
    try {
        std::regex check(re);
    } catch (const std::regex_error&) {
        throw KnobError("knob " + key + ": invalid regular expression '" + re + "'");
    }
}

// "<prefix><param>" with a non-empty param.
std::function<std::optional<std::string>(const std::string&)> prefixed(std::string prefix) {
    return [prefix](const std::string& key) -> std::optional<std::string> {
        if (key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0)
            return key.substr(prefix.size());
        return std::nullopt;
    };
}

// "<prefix>[<param>]".
std::function<std::optional<std::string>(const std::string&)> bracketed(std::string prefix) {
    return [prefix](const std::string& key) -> std::optional<std::string> {
        const std::string open = prefix + "[";
        if (key.size() > open.size() + 1 && key.compare(0, open.size(), open) == 0 && key.back() == ']')
            return key.substr(open.size(), key.size() - open.size() - 1);
        return std::nullopt;
    };
}

KnobSpec factor(std::string key, std::string label, double SimKnobs::*member, double max, std::string help) {
    KnobSpec s;
    s.key = std::move(key);
    s.label = std::move(label);
    s.type = KnobType::Factor;
    s.unit = "x";
    s.min = 0;
    s.max = max;
    s.member = member;
    s.help = std::move(help);
    return s;
}

KnobSpec number(std::string key, std::string label, double SimKnobs::*member, std::string unit, double min,
                double max, std::string help) {
    KnobSpec s;
    s.key = std::move(key);
    s.label = std::move(label);
    s.type = KnobType::Number;
    s.unit = std::move(unit);
    s.min = min;
    s.max = max;
    s.member = member;
    s.help = std::move(help);
    return s;
}

// An integer knob whose 0 means `zeroText` (as traced, from the trace).
KnobSpec integer(std::string key, std::string label, int SimKnobs::*member, double min, double max,
                 std::string zeroText, std::string help) {
    KnobSpec s;
    s.key = std::move(key);
    s.label = std::move(label);
    s.type = KnobType::Integer;
    s.min = min;
    s.max = max;
    s.sentinel = 0;
    s.sentinelText = std::move(zeroText);
    s.member = member;
    s.help = std::move(help);
    return s;
}

KnobSpec choice(std::string key, std::string label, std::string SimKnobs::*member,
                std::vector<std::string> choices, std::string help) {
    KnobSpec s;
    s.key = std::move(key);
    s.label = std::move(label);
    s.type = KnobType::Choice;
    s.choices = std::move(choices);
    s.member = member;
    s.help = std::move(help);
    return s;
}

// A choice stored as an enum: `words` name its values in the enum's order.
template <typename E>
KnobSpec enumChoice(std::string key, std::string label, E SimKnobs::*member, std::vector<std::string> words,
                    std::string help) {
    KnobSpec s = choice(std::move(key), std::move(label), nullptr, std::move(words), std::move(help));
    s.member = KnobEnumMember{[member](const SimKnobs& k) { return static_cast<std::size_t>(k.*member); },
                              [member](SimKnobs& k, std::size_t i) { k.*member = static_cast<E>(i); }};
    return s;
}

std::vector<KnobSpec> buildSpecs() {
    std::vector<KnobSpec> specs;
    specs.push_back(factor("compute.speedup", "GPU compute", &SimKnobs::computeSpeedup, 1e6,
                           "Every GPU compute kernel takes its measured time / this factor, as on a faster "
                           "GPU. Typical: 1.5 to 3 (one GPU generation)."));
    specs.push_back(
        factor("comm.speedup", "Communication", &SimKnobs::commSpeedup, 1e6,
               "Collective transfers (all-reduce, all-gather, ...) take their time / this factor, "
               "as on a faster network. Typical: 2 (an NVLink generation, 2x InfiniBand)."));
    specs.push_back(
        enumChoice("comm.model", "Network model", &SimKnobs::commModel, {"measured", "alpha-beta"},
                   "measured: collectives keep their measured transfer time; alpha-beta: latency + "
                   "bytes / bandwidth from the collective's size, group and algorithm."));
    specs.push_back(integer("comm.gpus_per_node", "GPUs per node", &SimKnobs::commGpusPerNode, 1, 4096,
                            "from the trace",
                            "GPUs per node for the alpha-beta model (which ranks talk over NVLink and which "
                            "over the network). 0: from the trace's device count, else 8."));
    for (auto [key, label, member, where] :
         {std::tuple{"comm.intra_node_GBps", "NVLink bandwidth", &SimKnobs::commIntraNodeGBps,
                     "inside a node (NVLink)"},
          std::tuple{"comm.inter_node_GBps", "Network bandwidth", &SimKnobs::commInterNodeGBps,
                     "between nodes (network)"}}) {
        KnobSpec s = number(key, label, member, "GB/s", 0, 1e6,
                            std::string("Effective bus bandwidth of the alpha-beta model ") + where +
                                ". 0: calibrated from the trace's own transfers.");
        s.min = 0;
        specs.push_back(s);
    }
    {
        KnobSpec s = number("comm.latency_us", "Collective latency", &SimKnobs::commLatencyUs, "us", 0, 1e6,
                            "Latency (alpha) of one collective in the alpha-beta model. -1: calibrated from "
                            "the trace.");
        s.sentinel = -1;
        s.sentinelText = "calibrated";
        specs.push_back(s);
    }
    specs.push_back(enumChoice("comm.algorithm", "Collective algorithm", &SimKnobs::commAlgorithm,
                               {"ring", "tree"}, "Collective algorithm of the alpha-beta model."));
    {
        KnobSpec s;
        s.key = "comm.overlap";
        s.label = "Overlap";
        s.type = KnobType::Bool;
        s.member = &SimKnobs::commOverlap;
        s.help = "Off: collectives wait for the compute stream to drain, as without communication overlap "
                 "(no separate stream). Typical: on.";
        specs.push_back(s);
    }
    specs.push_back(factor("cpu.speedup", "CPU", &SimKnobs::cpuSpeedup, 1e6,
                           "CPU work between runtime calls and the calls themselves take their time / this "
                           "factor, as with a faster host or less Python overhead. Typical: 1.2 to 2."));
    specs.push_back(
        factor("host.dispatch", "Host dispatch", &SimKnobs::hostDispatch, 1e6,
               "Launch and dispatch on the host (runtime and driver calls, framework dispatch, the "
               "Python around them) take their time / this factor; below 1 the host is slower. "
               "Typical: 0.8 to 1.2 for another server."));
    specs.push_back(
        factor("host.compute", "Host compute", &SimKnobs::hostCompute, 1e6,
               "CPU compute on the host (data loading, decode, numpy, ops on CPU tensors: CPU work "
               "that issues no GPU work) takes its time / this factor; below 1 the host is "
               "slower. Typical: 0.5 to 2 for another server's CPU."));
    {
        KnobSpec s = number("launch.latency_us", "Launch latency", &SimKnobs::launchLatencyUs, "us", 0, 1e6,
                            "Time from a kernel launch call to the kernel's earliest start. -1 (from trace) "
                            "(from the trace) measures it per launch. Typical: 5 to 20 us.");
        s.sentinel = -1;
        s.sentinelText = "from the trace";
        specs.push_back(s);
    }
    {
        KnobSpec s;
        s.key = "straggler.rank";
        s.label = "Straggler rank";
        s.type = KnobType::Integer;
        s.min = 0;
        s.max = 1 << 24;
        s.sentinel = -1;
        s.sentinelText = "none";
        s.member = &SimKnobs::stragglerRank;
        s.help = "One rank whose CPU and GPU work all run slower (a throttled GPU, a busy host); the others "
                 "wait for it in every collective. -1: no straggler.";
        specs.push_back(s);
    }
    {
        KnobSpec s = number("straggler.slowdown", "Straggler slowdown", &SimKnobs::stragglerSlowdown, "x", 1,
                            1e6, "Every duration of the straggler rank x this factor. Typical: 1.1 to 1.5.");
        specs.push_back(s);
    }
    {
        KnobSpec s =
            number("jitter.pct", "Jitter", &SimKnobs::jitterPct, "%", 0, 50,
                   "Per-rank noise on GPU compute: each rank's kernels run x a factor drawn once per "
                   "rank, uniform within +- this percentage (jitter.seed picks the draw). The slowest "
                   "rank holds every collective. Typical: 1 to 5.");
        specs.push_back(s);
    }
    {
        KnobSpec s;
        s.key = "jitter.seed";
        s.label = "Jitter seed";
        s.type = KnobType::Integer;
        s.min = 0;
        s.max = 999999; // six digits keep the knob panel narrow
        s.member = &SimKnobs::jitterSeed;
        s.help = "Seed of the jitter.pct draw: the same seed gives the same per-rank factors.";
        specs.push_back(s);
    }
    specs.push_back(integer("data.workers", "Data workers", &SimKnobs::dataWorkers, 1, 1024, "as traced",
                            "DataLoader worker processes: they take over the loading the trace shows inside "
                            "the DataLoader iterator "
                            "ops (in-process: the fetch), while the main thread keeps its receive, collate "
                            "and pin-memory work; N "
                            "workers prefetch ahead and the step waits only when the pool falls behind "
                            "(steady state: a batch every "
                            "load / N, slower when the workers share data.cores with the main thread). 0: as "
                            "traced. Typical: 4 to "
                            "8."));
    specs.push_back(
        integer("data.cores", "Data cores", &SimKnobs::dataCores, 1, 4096, "unknown",
                "CPU cores the DataLoader workers and the main thread share (the machine's cores / ranks per "
                "machine). "
                "When workers + 1 exceed them, the scheduler shares them: the pool runs at workers x cores / "
                "(workers "
                "+ 1). Unknown (Kineto traces do not record it): the workers get free cores, and the result "
                "gives the "
                "range to the cores the trace shows busy. Needs data.workers. Typical: 8 to 32."));
    specs.push_back(factor("data.speedup", "Data loading", &SimKnobs::dataSpeedup, 1e6,
                           "Every batch loads this many times faster (a faster decode, cached data); with "
                           "data.workers, per worker. Typical: 2."));
    specs.push_back(enumChoice(
        "peers.model", "Missing peers", &SimKnobs::peersModel, {"follow", "measured"},
        "Ranks missing from the loaded set (one rank of a larger job): follow = each missing peer reaches "
        "a collective the measured skew after this rank does, so job-wide knobs move it too (it assumes "
        "the peers run the same program on the same hardware; a straggler on this rank leaves them as "
        "measured); measured = the peers arrive when they did in the trace, under every knob."));
    specs.push_back(number("dp.scale", "Data-parallel scale", &SimKnobs::dpScale, "x", 1, 1e5,
                           "Re-times the data-parallel collectives for a group this many times larger (a "
                           "ring all-reduce gets longer with more ranks). Typical: 2 to 8."));
    specs.push_back(integer("dp.degree", "DP replicas", &SimKnobs::dpDegree, 1, 1 << 20, "as traced",
                            "Data-parallel replicas of the predicted job: new ones are clones of traced "
                            "replicas, and every collective spanning replicas is re-timed for its new group "
                            "(docs/Structure.md). 0: as traced. Typical: 2x or 4x the traced degree."));
    {
        KnobSpec s;
        s.key = "dp.strong";
        s.label = "Strong scaling";
        s.type = KnobType::Bool;
        s.member = &SimKnobs::dpStrong;
        s.help =
            "With dp.degree: keep the global batch (each replica's micro-batch work and activations "
            "shrink by traced / new degree) instead of each replica's work. Typical: off (weak scaling).";
        specs.push_back(s);
    }
    specs.push_back(
        integer("tp.degree", "TP degree", &SimKnobs::tpDegree, 1, 1024, "as traced",
                "Tensor-parallel degree of the predicted job: sharded GEMMs, attention and their "
                "activations re-shaped by the kernel model, TP all-reduces re-sized, ranks = DP x "
                "TP x PP (docs/Layouts.md). 0: as traced. Typical: 1, 2, 4, 8."));
    specs.push_back(integer("parallel.gpus", "GPUs", &SimKnobs::parallelGpus, 1, 1 << 20, "as the layout",
                            "GPUs of the predicted job: with tp.degree the data-parallel degree becomes "
                            "GPUs / (TP x PP) and the global batch stays (docs/Layouts.md). 0: the job "
                            "grows with the layout."));
    specs.push_back(
        integer("model.layers", "Model layers", &SimKnobs::modelLayers, 1, 1 << 16, "as traced",
                "Layer blocks of the predicted model: the recognised repeated layer blocks of every "
                "forward and backward block are copied or dropped, with their TP collectives and "
                "gradient buckets; the optimizer's kernels follow the parameter count "
                "(docs/Structure.md). 0: as traced. Typical: 2x the traced layers."));
    specs.push_back(
        integer("pp.microbatches", "Micro-batches", &SimKnobs::ppMicrobatches, 1, 1 << 16, "as traced",
                "Micro-batches per step of the predicted job: the forward / backward micro-batch "
                "blocks of every rank are copied or dropped and each pipeline stage's 1F1B order is "
                "rebuilt, with the sends and receives between stages (docs/Structure.md). 0: as "
                "traced. Typical: 2x the traced micro-batches."));
    specs.push_back(integer("pp.degree", "PP degree", &SimKnobs::ppDegree, 1, 1024, "as traced",
                            "Pipeline stages of the predicted job: the traced layers split over the stages "
                            "as pp.split says (evenly by default), each stage's 1F1B order with the traced "
                            "micro-batches, stage-to-stage transfers modelled (docs/Layouts.md). 0: as "
                            "traced. Typical: 2, 4."));
    // The traced job's batch (docs/Scaling.md): a description, not a what-if.
    for (auto [key, label, member, unit, help] :
         {std::tuple{"batch.samples", "Batch (samples)", &SimKnobs::batchSamples, "samples",
                     "Samples per step of the traced job (its global batch; a Kineto trace does not "
                     "carry it): throughput is then shown in samples/s, scaled by dp.degree and "
                     "pp.microbatches like the work per step. 0: not given (throughput x baseline only)."},
          std::tuple{"batch.tokens", "Batch (tokens)", &SimKnobs::batchTokens, "tokens",
                     "Tokens per step of the traced job (global batch x sequence length): throughput "
                     "is then shown in tokens/s too. 0: not given."}}) {
        KnobSpec s = number(key, label, member, unit, 0, 1e12, help);
        s.sentinel = 0;
        s.sentinelText = "not given";
        specs.push_back(s);
    }
    for (auto [key, label, member, help] :
         {std::tuple{"gpu.target", "Target GPU", &SimKnobs::gpuTarget,
                     "Replays the trace on another GPU of the table (resources/gpus.json): each kernel's "
                     "roofline time from its op's shapes, with the efficiency it showed on the traced GPU; "
                     "intra-node links at the target's bandwidth. Empty: as traced."},
          std::tuple{"gpu.source", "Traced GPU", &SimKnobs::gpuSource,
                     "The traced GPU, for gpu.target, when the trace's deviceProperties do not name one of "
                     "the table. Empty: from deviceProperties."}}) {
        KnobSpec s = choice(key, label, member, {}, help);
        s.choicesFn = [] { // "" (as traced), every GPU of the table, then their aliases ("H100")
            std::vector<std::string> words{""};
            for (const auto& g : GpuTable::builtin().gpus())
                words.push_back(g.name);
            for (const auto& g : GpuTable::builtin().gpus())
                words.insert(words.end(), g.aliases.begin(), g.aliases.end());
            return words;
        };
        specs.push_back(s);
    }
    for (KnobSpec& spec : specs)
        spec.group = knobGroupOf(spec.key);
    return specs;
}

// The <class> of compute.speedup.<class> and kernel.class.<class>: the names of the kernel classes
// (models/KernelClass.h), in their order, which the simulator looks the knobs up by.
std::vector<std::string> kernelClassNames(bool withOther) {
    std::vector<std::string> names;
    for (int i = 0; i < kKernelClassCount; ++i) {
        const auto c = static_cast<KernelClass>(i);
        if (withOther || c != KernelClass::Other) names.emplace_back(kernelClassName(c));
    }
    return names;
}

std::vector<KnobFamily> buildFamilies() {
    std::vector<KnobFamily> f;
    const std::vector<std::string> classes = kernelClassNames(true);
    f.push_back(
        {"compute.speedup.<" + joined(classes, "|") + ">",
         "Kernels of one class run duration / factor, on top of compute.speedup.",
         prefixed("compute.speedup."),
         [classes](SimKnobs& k, const std::string& key, const std::string& cls, const std::string& value) {
             if (!contains(classes, cls))
                 throw KnobError("knob " + key + ": unknown kernel class (" + joined(classes, ", ") + ")");
             k.computeClassSpeedup[*kernelClassFromName(cls)] = parseSpeedup(key, value);
         },
         [](const SimKnobs& k, nlohmann::json& j) {
             for (int c = 0; c < kKernelClassCount; ++c)
                 if (const double v = k.computeClassSpeedup.factor[static_cast<std::size_t>(c)]; v != 1.0)
                     j["compute.speedup." + std::string(kernelClassName(static_cast<KernelClass>(c)))] = v;
         }});
    f.push_back({"kernel.speedup[<regex>]",
                 "Kernels whose name matches (ECMAScript search) run duration / factor; applied in order, on "
                 "top of the class speed-ups.",
                 bracketed("kernel.speedup"),
                 [](SimKnobs& k, const std::string& key, const std::string& re, const std::string& value) {
                     checkRegex(key, re);
                     k.kernelSpeedup.emplace_back(re, parseSpeedup(key, value));
                 },
                 [](const SimKnobs& k, nlohmann::json& j) {
                     for (const auto& [re, v] : k.kernelSpeedup)
                         j["kernel.speedup[" + re + "]"] = v;
                 }});
    const std::vector<std::string> patternClasses = kernelClassNames(false); // "other" matches none
    f.push_back({"kernel.class.<" + joined(patternClasses, "|") + ">",
                 "A regular expression that replaces the default name pattern of a kernel class.",
                 prefixed("kernel.class."),
                 [patternClasses](SimKnobs& k, const std::string& key, const std::string& cls,
                                  const std::string& value) {
                     if (!contains(patternClasses, cls))
                         throw KnobError("knob " + key + ": unknown kernel class (" +
                                         joined(patternClasses, ", ") + "; other is what matches none)");
                     try {
                         KernelClassifier c;
                         c.setPattern(*kernelClassFromName(cls), value);
                     } catch (const std::regex_error&) {
                         throw KnobError("knob " + key + ": invalid regular expression '" + value + "'");
                     }
                     k.kernelClassPattern[cls] = value;
                 },
                 [](const SimKnobs& k, nlohmann::json& j) {
                     for (const auto& [c, re] : k.kernelClassPattern)
                         j["kernel.class." + c] = re;
                 }});
    f.push_back(embeddingKnobFamily()); // sim/EmbeddingKnobs.cpp
    f.push_back(layoutSwitchFamily());  // sim/LayoutKnobs.cpp
    f.push_back(pipelineSwitchFamily());
    f.push_back(pipelineSplitFamily());
    f.push_back(
        {"comm.<" + joined(kCommTypes, "|") + ">.<" + joined(kCommParams, "|") + ">",
         "Alpha-beta parameters of one collective type; they override comm.intra_node_GBps, "
         "comm.inter_node_GBps and comm.latency_us for that type.",
         [](const std::string& key) -> std::optional<std::string> {
             if (key.rfind("comm.", 0) != 0) return std::nullopt;
             auto dot = key.find('.', 5);
             if (dot == std::string::npos || !contains(kCommTypes, key.substr(5, dot - 5)))
                 return std::nullopt;
             return key.substr(5);
         },
         [](SimKnobs& k, const std::string& key, const std::string& typeParam, const std::string& value) {
             std::string param = typeParam.substr(typeParam.find('.') + 1);
             if (!contains(kCommParams, param))
                 throw KnobError("knob " + key + ": unknown parameter (" + joined(kCommParams, ", ") + ")");
             double v = parseDouble(key, value);
             bool latency = param.find("latency_us") != std::string::npos;
             if (latency && (v < 0 || v > 1e6))
                 throw KnobError("knob " + key + ": must be in [0, 1e6] us, got '" + value + "'");
             if (!latency && (v <= 0 || v > 1e6))
                 throw KnobError("knob " + key + ": must be a bandwidth in (0, 1e6] GB/s, got '" + value +
                                 "'");
             k.commPerType[typeParam] = v;
         },
         [](const SimKnobs& k, nlohmann::json& j) {
             for (const auto& [tp, v] : k.commPerType)
                 j["comm." + tp] = v;
         }});
    f.push_back({"straggler.ranks",
                 "Ranks of the simulated job (loaded or added by dp.degree) that run straggler.slowdown "
                 "times slower, as a list of ids and ranges: 3,7,100..120 (or 100-120).",
                 [](const std::string& key) -> std::optional<std::string> {
                     if (key == "straggler.ranks") return std::string();
                     return std::nullopt;
                 },
                 [](SimKnobs& k, const std::string& key, const std::string&, const std::string& value) {
                     k.stragglerRanks = parseRankList(key, value);
                 },
                 [](const SimKnobs& k, nlohmann::json& j) {
                     if (!k.stragglerRanks.empty()) j["straggler.ranks"] = idRangesText(k.stragglerRanks);
                 }});
    f.push_back({"node.slowdown[<node>]",
                 "Every rank of node <node> (rank id / GPUs per node, comm.gpus_per_node) runs this many "
                 "times slower, CPU and GPU, as a straggler does.",
                 bracketed("node.slowdown"),
                 [](SimKnobs& k, const std::string& key, const std::string& node, const std::string& value) {
                     int id = -1;
                     try {
                         std::size_t used = 0;
                         id = std::stoi(node, &used);
                         if (used != node.size()) id = -1;
                     } catch (const std::exception&) {
                         id = -1;
                     }
                     if (id < 0) throw KnobError("knob " + key + ": the node must be a number >= 0");
                     const double v = parseDouble(key, value);
                     if (!(v >= 1.0 && v <= 1e6))
                         throw KnobError("knob " + key + ": must be a slowdown in [1, 1e6], got '" + value +
                                         "'");
                     k.nodeSlowdown[id] = v;
                 },
                 [](const SimKnobs& k, nlohmann::json& j) {
                     for (const auto& [node, v] : k.nodeSlowdown)
                         j["node.slowdown[" + std::to_string(node) + "]"] = v;
                 }});
    f.push_back({"cpu.speedup[<regex>]",
                 "CPU ops, annotations and Python functions whose name matches (with everything nested in "
                 "them) run this many times faster, any X > 0 (below 1: slower); inf removes them (a host "
                 "sync inside no "
                 "longer waits).",
                 bracketed("cpu.speedup"),
                 [](SimKnobs& k, const std::string& key, const std::string& re, const std::string& value) {
                     checkRegex(key, re);
                     double v = value == "inf" || value == "Infinity"
                                    ? std::numeric_limits<double>::infinity()
                                    : parseSpeedup(key, value);
                     k.cpuRegionSpeedup.emplace_back(re, v);
                 },
                 [](const SimKnobs& k, nlohmann::json& j) {
                     // JSON has no infinity: "inf" is written as a string (and read back by set).
                     for (const auto& [re, v] : k.cpuRegionSpeedup)
                         j["cpu.speedup[" + re + "]"] =
                             std::isinf(v) ? nlohmann::json("inf") : nlohmann::json(v);
                 }});
    return f;
}

} // namespace

std::string KnobSpec::valueText(const SimKnobs& k) const {
    return knobValueText(toJson(k));
}

nlohmann::json KnobSpec::toJson(const SimKnobs& k) const {
    return std::visit(
        [&](const auto& m) -> nlohmann::json {
            if constexpr (std::is_same_v<std::remove_cvref_t<decltype(m)>, KnobEnumMember>)
                return choices.at(m.get(k));
            else
                return k.*m;
        },
        member);
}

std::string KnobSpec::rangeText() const {
    switch (type) {
    case KnobType::Bool:
        return "true | false";
    case KnobType::Choice:
        return joined(validChoices(), " | ");
    case KnobType::Factor:
        return "(" + knobNumberText(min) + ", " + knobNumberText(max) + "]";
    case KnobType::Number:
    case KnobType::Integer:
        break;
    }
    std::string r = "[" + knobNumberText(min) + ", " + knobNumberText(max) + "]";
    if (sentinel) r += " (" + knobNumberText(*sentinel) + " = " + sentinelText + ")";
    return r;
}

void KnobSpec::set(SimKnobs& k, const std::string& value) const {
    auto outOfRange = [&] {
        std::string what = type == KnobType::Integer ? "an integer in " : "a value in ";
        std::string u = unit.empty() || unit == "x" ? "" : " " + unit;
        return KnobError("knob " + key + ": must be " + what + rangeText() + u + ", got '" + value + "'");
    };
    switch (type) {
    case KnobType::Bool: {
        bool v;
        if (value == "true" || value == "1" || value == "on" || value == "yes")
            v = true;
        else if (value == "false" || value == "0" || value == "off" || value == "no")
            v = false;
        else
            throw KnobError("knob " + key + ": expected true or false, got '" + value + "'");
        k.*std::get<bool SimKnobs::*>(member) = v;
        return;
    }
    case KnobType::Choice: {
        const auto words = validChoices();
        if (!contains(words, value))
            throw KnobError("knob " + key + ": expected " + joined(words, " or ") + ", got '" + value + "'");
        if (const auto* e = std::get_if<KnobEnumMember>(&member))
            e->set(k, static_cast<std::size_t>(std::find(words.begin(), words.end(), value) - words.begin()));
        else
            k.*std::get<std::string SimKnobs::*>(member) = value;
        return;
    }
    case KnobType::Factor:
    case KnobType::Number:
    case KnobType::Integer:
        break;
    }
    double v = parseDouble(key, value);
    const bool isSentinel = sentinel && v == *sentinel;
    if (!isSentinel) {
        if (type == KnobType::Integer && v != std::floor(v))
            throw KnobError("knob " + key + ": expected an integer, got '" + value + "'");
        if (v < min || v > max || (type == KnobType::Factor && v == min)) throw outOfRange();
    }
    if (type == KnobType::Integer)
        k.*std::get<int SimKnobs::*>(member) = static_cast<int>(v);
    else
        k.*std::get<double SimKnobs::*>(member) = v;
}

const std::vector<KnobSpec>& knobSpecs() {
    static const std::vector<KnobSpec> specs = buildSpecs();
    return specs;
}

const std::vector<KnobFamily>& knobFamilies() {
    static const std::vector<KnobFamily> families = buildFamilies();
    return families;
}

const KnobSpec* findKnobSpec(const std::string& key) {
    for (const auto& s : knobSpecs())
        if (s.key == key) return &s;
    return nullptr;
}

std::string knobReferenceText() {
    const SimKnobs defaults;
    std::ostringstream os;
    for (const auto& s : knobSpecs()) {
        os << s.key << " = " << s.valueText(defaults) << (s.unit.empty() || s.unit == "x" ? "" : " " + s.unit)
           << "    valid: " << s.rangeText() << "\n    " << s.help << "\n";
    }
    for (const auto& f : knobFamilies())
        os << f.pattern << "\n    " << f.help << "\n";
    return os.str();
}

nlohmann::json knobReferenceJson() {
    const SimKnobs defaults;
    nlohmann::json all = nlohmann::json::array();
    static const char* const kTypeNames[] = {"factor", "number", "integer", "bool", "choice"};
    for (const auto& s : knobSpecs()) {
        nlohmann::json j{{"key", s.key},
                         {"type", kTypeNames[static_cast<int>(s.type)]},
                         {"default", s.toJson(defaults)},
                         {"valid", s.rangeText()},
                         {"help", s.help}};
        if (!s.unit.empty()) j["unit"] = s.unit;
        if (s.type == KnobType::Choice) j["choices"] = s.validChoices();
        if (s.sentinel) j["sentinel"] = {{"value", *s.sentinel}, {"meaning", s.sentinelText}};
        all.push_back(std::move(j));
    }
    for (const auto& f : knobFamilies())
        all.push_back({{"key", f.pattern}, {"type", "family"}, {"help", f.help}});
    return all;
}

} // namespace sl
