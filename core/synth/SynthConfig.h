#pragma once
// Configuration of a synthetic transformer training job (see core/synth/README.md).
#include "models/EmbeddingPlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl::synth {

// Peak numbers of one GPU used by the roofline model.
struct GpuSpec {
    std::string name;          // deviceProperties name, e.g. "NVIDIA H100 80GB HBM3"
    double peakTflops = 0;     // dense BF16 tensor-core TFLOP/s
    double vectorTflops = 0;   // non-tensor-core (FP32 CUDA-core) TFLOP/s, for elementwise math
    double hbmGBps = 0;        // HBM bandwidth, GB/s
    double gemmEfficiency = 0; // fraction of peak a large GEMM reaches
    double memEfficiency = 0;  // fraction of HBM bandwidth a streaming kernel reaches
    double kernelFloorUs = 0;  // smallest kernel duration (launch ramp, tail)
    std::int64_t memoryBytes = 0;
    int computeMajor = 0;
    int computeMinor = 0;
    int numSms = 0;
    // Per kernel class (Gemm .. DataMovement: trace/EventClass.h), the fraction of its roofline the
    // class reaches; 0: gemmEfficiency for Gemm and Attention, memEfficiency for the others.
    double classEfficiency[5] = {0, 0, 0, 0, 0};
};

// "h100", "a100" or "mi300x"; throws std::invalid_argument otherwise. `measured`: per-class efficiencies and
// the kernel floor from the GPU table's measurements (SynthConfig::measuredEfficiency).
GpuSpec gpuSpec(const std::string& name, bool measured = false);

struct SynthConfig {
    // Model.
    int layers = 4;
    int hidden = 4096;
    int heads = 32;
    int seq = 2048;
    int microbatch = 1;
    int vocab = 32000;
    // Parallelism: world size = dp * tp * pp. Rank layout (Megatron order): tp fastest, then dp, then pp.
    int dp = 8;
    int tp = 1;
    int pp = 1;
    int microbatches = 1; // per step and pipeline (1F1B when pp > 1)
    // Layers of each pipeline stage (pp counts, each >= 1, summing to layers); empty: layers / pp each.
    std::vector<int> stageLayers;
    int layersOfStage(int stage) const {
        return stageLayers.empty() ? layers / pp : stageLayers[static_cast<std::size_t>(stage)];
    }
    int steps = 1;
    // Hardware.
    std::string gpu = "h100";
    int gpusPerNode = 8;
    double intraNodeGBps = 450; // NVLink bus bandwidth per GPU (H100 NVLink4: 900 GB/s bidirectional)
    double interNodeGBps = 50;  // InfiniBand per GPU (400 Gb/s NDR)
    double latencyUs = 10;      // alpha of the alpha-beta model, per collective
    double launchLatencyUs = 5; // launch call end -> earliest GPU start
    double ddpBucketMB = 25;    // DistributedDataParallel bucket_cap_mb
    // Straggler: this rank's GPU kernels run slowdown x longer (-1: none).
    int stragglerRank = -1;
    double stragglerSlowdown = 1.0;
    std::uint64_t seed = 1;
    double jitter = 0.02; // relative spread of kernel and CPU durations (uniform +-)
    bool gzip = false;    // write rank-N.json.gz instead of rank-N.json

    // Variants of the job and of the machine (README: "Variants"). The defaults reproduce the plain
    // job byte for byte; a variant never changes the random draws, so two configurations that differ
    // in one of these describe the same run under one physical change.
    //
    // Machine: every compute kernel runs gpuSpeedup x faster (roofline peaks and HBM bandwidth x f,
    // kernel floor / f); the kernels of one class (gemm, attention, elementwise, reduction,
    // data_movement: trace/EventClass.h) classSpeedup[class] x faster; every host CPU cost (calls,
    // dispatch, Python between modules) cpuSpeedup x faster (wake-up and launch latencies stay).
    double gpuSpeedup = 1.0;
    double classSpeedup[5] = {1.0, 1.0, 1.0, 1.0, 1.0};
    double cpuSpeedup = 1.0;
    // The host split in two, on top of cpuSpeedup: hostDispatchSpeedup x faster calls, dispatch and
    // Python between modules; hostComputeSpeedup x faster CPU compute (the in-process data loading).
    double hostDispatchSpeedup = 1.0;
    double hostComputeSpeedup = 1.0;
    // Uneven ranks: rank cpuSlowRank's host runs cpuSlowdown x slower; every rank's kernels run
    // (1 + rankSpread x u) x longer, u in [-1, 1] drawn per rank from the seed.
    int cpuSlowRank = -1;
    double cpuSlowdown = 1.0;
    double rankSpread = 0.0;
    // Host behaviour: backward on autograd's own thread (the main thread hands it over and waits);
    // itemSyncs blocking `.item()` calls per forward micro-batch (after evenly spaced layers);
    // dataLoaderUs of data loading on the main thread at the start of every step.
    bool backwardThread = false;
    int itemSyncs = 0;
    double dataLoaderUs = 0;
    // The loading runs in this many DataLoader worker processes (a warm pool in steady state): the
    // main thread's __next__ takes a batch from the queue (20 us), waiting while the pool has none
    // ready; the pool makes a batch every dataLoaderUs / workers, slower when the workers and the
    // main thread outnumber dataCores (0: cores enough for all).
    int dataWorkers = 0;
    int dataCores = 0;
    // Per batch, the main thread pins the batch it got (an aten::pin_memory op nested in __next__, in
    // process or with workers): work that stays on the main thread.
    double dataMainUs = 0;
    // The profiler window opens after the launches of the first prewindowOps GPU ops of the
    // first step: their launch calls (and all host events before them) are not in the file.
    int prewindowOps = 0;
    // false: every collective is waited for on the compute stream right after it is issued.
    bool commOverlap = true;
    // The Python between modules is written as python_function ranges (a with_stack=True
    // profile) instead of being left uncovered.
    bool pythonStacks = false;
    // A profile with record_shapes=True: the ops that launch kernels carry "Input Dims", "Input type"
    // (and "Concrete Inputs" where PyTorch writes scalars the cost needs), as real traces do.
    bool recordShapes = false;
    // Megatron's sequence parallelism (tp > 1): layer norms and residual adds on the sequence split
    // over the tensor-parallel ranks; each tensor-parallel region entered by an all-gather and left by
    // a reduce-scatter instead of an all-reduce (forward and backward).
    bool sequenceParallel = false;
    // The GPU's kernels reach the achieved efficiency per family and the shortest kernel time that the
    // GPU table measured on real traces of that GPU (resources/gpus.json, docs/GpuModel.md), instead
    // of the generator's datasheet-style defaults (gemmEfficiency, memEfficiency, kernelFloorUs).
    bool measuredEfficiency = false;

    // A recommendation job instead of the transformer (README: "Recommendation jobs"): embedding
    // tables placed by `recPlan` (with `recTables.batchPerRank` samples per rank), looked up by one
    // TBE-like kernel per rank and direction, index and pooled-embedding all-to-alls sized by the
    // plan, and a dense MLP of recMlpLayers x recMlpHidden, data parallel over every rank (dp).
    EmbeddingTables recTables;
    EmbeddingPlan recPlan;
    int recMlpLayers = 3;
    int recMlpHidden = 1024;
    bool recommendation() const { return !recTables.tables.empty(); }

    int worldSize() const { return dp * tp * pp; }
    // Throws std::invalid_argument with a readable message when a value is out of range.
    void validate() const;
};

// Coordinates of a rank in the (pp, dp, tp) grid and back.
struct RankCoord {
    int pp = 0, dp = 0, tp = 0;
};
RankCoord rankCoord(const SynthConfig& c, int rank);
int rankOf(const SynthConfig& c, RankCoord coord);

} // namespace sl::synth
