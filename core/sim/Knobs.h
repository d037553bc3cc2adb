#pragma once
// What-if knobs of the simulator (docs/ARCHITECTURE.md, "Simulator"). Default values mean replay.
// Every knob's key, range, help and parsing live in one table, sim/KnobRegistry.h.
// A config is JSON ({"compute.speedup": 2, "comm.model": "alpha-beta", ...} or nested objects),
// and every knob is also settable as key=value.
#include "base/Error.h"
#include "models/KernelClass.h"

#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sl {

// compute.speedup.<class>: a speed-up per kernel class (models/KernelClass.h), indexed by the class;
// 1 = unchanged.
struct ClassSpeedups {
    std::array<double, kKernelClassCount> factor = filled(1.0);

    double& operator[](KernelClass c) { return factor[static_cast<std::size_t>(c)]; }
    double operator[](KernelClass c) const { return factor[static_cast<std::size_t>(c)]; }
    // By the class's name ("gemm"); throws std::out_of_range for a name that is no class.
    double& operator[](std::string_view name) { return (*this)[classNamed(name)]; }
    double at(std::string_view name) const { return (*this)[classNamed(name)]; }
    // Every class unchanged.
    bool empty() const { return factor == filled(1.0); }
    bool operator==(const ClassSpeedups&) const = default;

private:
    static constexpr std::array<double, kKernelClassCount> filled(double v) {
        std::array<double, kKernelClassCount> a{};
        a.fill(v);
        return a;
    }
    static KernelClass classNamed(std::string_view name) {
        if (auto c = kernelClassFromName(name)) return *c;
        throw std::out_of_range("no kernel class " + std::string(name));
    }
};

// The knobs whose value is one of a fixed set of words, as enums: the registry (sim/KnobRegistry.cpp)
// parses the word once and writes it back; the words are listed there in the enum's order.
// comm.model: "measured" keeps each collective's measured transfer time, "alpha-beta" models it.
enum class CommModel { Measured, AlphaBeta };
// comm.algorithm: "ring" | "tree" (the alpha-beta model's collective algorithm).
enum class CommAlgorithm { Ring, Tree };
// peers.model: "follow" | "measured" (GraphNode::phantomArrival).
enum class PeersModel { Follow, Measured };
// pp.split (docs/Layouts.md, "pp.degree"): how pp.degree gives the layers to its stages: equal counts,
// contiguous stages balanced by the layers' measured GPU time, or the counts given.
enum class PipelineSplit { Even, Time, Counts };

struct SimKnobs {
    // GPU compute kernels: duration / speedup.
    double computeSpeedup = 1.0;
    // Per kernel class: gemm, attention, elementwise, reduction, memory, other (1.0 = unchanged).
    ClassSpeedups computeClassSpeedup;
    // kernel.speedup[<regex>]: kernels whose name matches (std::regex, ECMAScript search) run
    // duration / speedup; applied in order, on top of the class speedups.
    std::vector<std::pair<std::string, double>> kernelSpeedup;

    // kernel.class.<class>=<regex>: replaces the default name pattern of a kernel class
    // (models/KernelClass.h documents the defaults and the matching order).
    std::map<std::string, std::string> kernelClassPattern;

    // Communication (models/CollectiveModel.h).
    double commSpeedup = 1.0; // collective transfer time / speedup
    CommModel commModel = CommModel::Measured;
    int commGpusPerNode = 0; // 0: from the trace (deviceProperties count), else 8
    // Effective bus bandwidth and latency for alpha-beta. 0 / < 0: not set, calibrated from the
    // measured transfers of the trace itself.
    double commIntraNodeGBps = 0;
    double commInterNodeGBps = 0;
    double commLatencyUs = -1;
    // Per collective type: "<type>.intra_node_GBps", "<type>.inter_node_GBps", "<type>.latency_us"
    // (both localities) and "<type>.inter_node_latency_us" (inter-node only), with type all_reduce,
    // all_gather, reduce_scatter, all_to_all, broadcast, reduce, send_recv (knob comm.<type>.<param>); they
    // override the values above for that type.
    std::map<std::string, double> commPerType;
    CommAlgorithm commAlgorithm = CommAlgorithm::Ring;
    bool commOverlap = true; // false: collectives wait for the compute stream

    // Host.
    double cpuSpeedup = 1.0; // CPU work between calls and call durations / speedup
    // cpu.speedup[<regex>]: CPU ops / annotations / python functions whose name matches (and
    // everything nested in them, runtime calls included) run X times faster; X = inf removes them
    // (their host syncs no longer wait either). Applied in order, on top of cpu.speedup.
    std::vector<std::pair<std::string, double>> cpuRegionSpeedup;
    double launchLatencyUs = -1.0; // < 0: launch latency from the trace
    // The host split in two (sim/CpuRegions.h, docs/ARCHITECTURE.md "Host work"): launch and dispatch
    // (runtime and driver calls, framework dispatch and the Python around it) and CPU compute (data
    // loading, decode, numpy, ops on CPU tensors) each run X times faster; X < 1 is a slower host.
    // Both multiply cpu.speedup and cpu.speedup[<regex>].
    double hostDispatch = 1.0;
    double hostCompute = 1.0;

    // Stragglers: every CPU and GPU duration of those ranks (rank ids of the simulated job, loaded
    // or added by dp.degree) x slowdown; straggler.ranks takes a list ("3,7,100..120").
    int stragglerRank = -1;
    double stragglerSlowdown = 1.0;
    std::vector<int> stragglerRanks;
    // node.slowdown[<node>]: every rank of that node (rank id / GPUs per node) runs slower, as a
    // straggler does (sim/RankVariation.h).
    std::map<int, double> nodeSlowdown;
    // Per-rank noise on GPU compute: each rank's kernels x a factor drawn once per rank and run,
    // uniform in [1 - pct/100, 1 + pct/100], from jitter.seed and the rank id.
    double jitterPct = 0;
    int jitterSeed = 1;

    // Data loading (sim/CpuRegions.h): worker processes of the DataLoader (0 = as traced) and the
    // per-batch load time / dataSpeedup.
    int dataWorkers = 0;
    double dataSpeedup = 1.0;
    // The cores the workers and the main process share (0: unknown; sim/DataLoaderModel.h).
    int dataCores = 0;

    // Peers missing from the rank set (GraphNode::phantomArrival): "follow" = they arrive the
    // measured skew after this rank's simulated arrival; "measured" = at their traced time.
    PeersModel peersModel = PeersModel::Follow;

    // Data-parallel scale: re-times collectives for a group dp.scale times larger.
    double dpScale = 1.0;
    // Setup edits (sim/SetupEdits.h, docs/Structure.md): data-parallel replicas of the predicted job
    // (0 = as traced), and strong scaling (the global batch stays) instead of weak scaling.
    int dpDegree = 0;
    bool dpStrong = false;
    // Parallel layout (docs/Layouts.md): the tensor-parallel degree of the predicted job (0 = as
    // traced), and the GPUs it keeps (0 = the job grows or shrinks with the layout; else the
    // data-parallel degree follows, global batch fixed).
    int tpDegree = 0;
    int parallelGpus = 0;
    // Switches of tp.degree's model (checks show what each part contributes): re-shape the sharded
    // kernels; re-size the tensor-parallel collectives.
    bool tpReshape = true;
    bool tpResizeComm = true;
    // Block edits (sim/BlockEdits.h, docs/Structure.md): layer blocks of the predicted model
    // (0 = as traced); recognised layer blocks are repeated or dropped.
    int modelLayers = 0;
    // pp.microbatches: micro-batches per step of the predicted job (0 = as traced); the 1F1B order
    // of each pipeline stage is rebuilt.
    int ppMicrobatches = 0;
    // pp.degree: pipeline stages of the predicted job (0 = as traced); each trace rank becomes the
    // column of stages of its (data, tensor) place (docs/Layouts.md, "pp.degree"). pp.transfers=false
    // makes the modelled stage-to-stage transfers free (an ablation of the model).
    int ppDegree = 0;
    bool ppTransfers = true;
    // pp.split: even (default), time, or a,b,... (layers per stage, in ppSplitLayers).
    PipelineSplit ppSplit = PipelineSplit::Even;
    std::vector<int> ppSplitLayers;

    // Hardware (sim/GpuSwap.h, docs/GpuModel.md): the GPU of resources/gpus.json the trace is
    // replayed on ("" = as traced), and the source GPU where deviceProperties do not name a known one.
    std::string gpuTarget;
    std::string gpuSource;

    // Embedding tables (sim/EmbeddingWhatIf.h, docs/Embeddings.md): the plan to predict (a plan.json
    // path or its JSON text; "" = as traced), the tables side file ("" = inferred from the trace), and
    // two switches of the model: calibrate the lookup model on the trace, re-size the all-to-alls.
    std::string embeddingPlan;
    std::string embeddingTables;
    bool embeddingCalibrate = true;
    bool embeddingResizeComm = true;

    // The traced job's global batch per step, in samples and in tokens (0 = not given): a Kineto
    // trace does not carry it. No simulation reads them; they turn throughput into samples/s and
    // tokens/s (analysis/Throughput.h, docs/Scaling.md) and do not make a setting a what-if.
    double batchSamples = 0;
    double batchTokens = 0;

    // Every knob at its default; batch.samples / batch.tokens describe the trace and do not count.
    bool isReplay() const;
    // Knobs set away from their defaults that this build does not simulate yet (named by key);
    // empty since every knob of docs/ARCHITECTURE.md is simulated.
    std::vector<std::string> unsupported() const;
    // Every valid key (patterns written as compute.speedup.<class>, kernel.speedup[<regex>]...).
    static std::string validKeys();
    // The knobs as a flat JSON object {"compute.speedup": 1, ...}.
    nlohmann::json toJson() const;
    // Value equality, knob by knob (a scenario's knobs against the ones a result ran with).
    bool operator==(const SimKnobs&) const = default;
};

// A bad knob name or value (base/Error.h, kind Usage); what() names the knob.
class KnobError : public Error {
public:
    explicit KnobError(const std::string& message) : Error(ErrorKind::Usage, std::string(), message) {}
};

// Sets one knob from text ("compute.speedup", "2"; "kernel.speedup[gemm]", "1.5";
// "comm.overlap", "false"). Throws KnobError.
void setKnob(SimKnobs& knobs, const std::string& key, const std::string& value);
// Parses "key=value". Throws KnobError.
void setKnobAssignment(SimKnobs& knobs, const std::string& assignment);
// Applies a JSON config (flat dotted keys or nested objects). Top-level "name", "description"
// (presets) and "calibration" (fit details written by `sightline-cli calibrate`) are informative
// and ignored. Throws KnobError.
void applyKnobsJson(SimKnobs& knobs, const nlohmann::json& config);

} // namespace sl
