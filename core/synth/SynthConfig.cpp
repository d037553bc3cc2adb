#include "synth/SynthConfig.h"

#include "models/GpuTable.h"

#include <stdexcept>

namespace sl::synth {

GpuSpec gpuSpec(const std::string& name, bool measured) {
    GpuSpec g;
    if (name == "h100") {
        // H100 SXM5: 989 TFLOP/s dense BF16, 67 TFLOP/s FP32, 3.35 TB/s HBM3, 132 SMs, 80 GB.
        g = {"NVIDIA H100 80GB HBM3", 989, 67, 3350, 0.70, 0.80, 2.0, 85'520'809'984LL, 9, 0, 132};
    } else if (name == "a100") {
        // A100 SXM4 80 GB: 312 TFLOP/s dense BF16, 19.5 TFLOP/s FP32, 2.04 TB/s HBM2e, 108 SMs.
        g = {"NVIDIA A100-SXM4-80GB", 312, 19.5, 2039, 0.70, 0.80, 2.5, 85'089'730'560LL, 8, 0, 108};
    } else if (name == "mi300x") {
        // MI300X: 1307.4 TFLOP/s dense BF16, 163.4 TFLOP/s FP32 (vector), 5.3 TB/s HBM3, 304 CUs,
        // 192 GB; gfx942.
        g = {"AMD Instinct MI300X", 1307.4, 163.4, 5300, 0.70, 0.80, 2.0, 206'141'652'992LL, 9, 4, 304};
    } else {
        throw std::invalid_argument("--gpu must be h100, a100 or mi300x, not '" + name + "'");
    }
    if (measured) {
        const sl::GpuSpec* table = sl::GpuTable::builtin().match(
            sl::DeviceProperties{-1, g.name, g.memoryBytes, g.computeMajor, g.computeMinor, g.numSms});
        if (!table) throw std::invalid_argument("the GPU table has no entry for " + g.name);
        // The family each generated class's kernels fall in (models/KernelFamily.h): cuBLAS-named
        // GEMMs, flash attention, and the non-matrix families by their ops.
        static constexpr const char* kFamilies[5] = {"gemm.blas", "attention.flash", "elementwise",
                                                     "reduction", "copy"};
        // A family the table has not measured keeps the generator's default for its class.
        for (int c = 0; c < 5; ++c)
            g.classEfficiency[c] = table->familyEfficiency(kFamilies[c]).value_or(0.0);
        if (table->minKernelUs > 0) g.kernelFloorUs = table->minKernelUs;
    }
    return g;
}

namespace {
void require(bool ok, const std::string& message) {
    if (!ok) throw std::invalid_argument(message);
}
} // namespace

void SynthConfig::validate() const {
    require(layers >= 1 && layers <= 1024, "--layers must be between 1 and 1024");
    require(hidden >= 64 && hidden <= 65536, "--hidden must be between 64 and 65536");
    require(heads >= 1 && hidden % heads == 0, "--hidden must be a multiple of the number of heads");
    require(seq >= 1 && seq <= 1'048'576, "--seq must be between 1 and 1048576");
    require(microbatch >= 1 && microbatch <= 4096, "--microbatch must be between 1 and 4096");
    require(dp >= 1 && tp >= 1 && pp >= 1, "--dp, --tp and --pp must be at least 1");
    require(worldSize() <= 65536, "dp x tp x pp must be at most 65536 ranks");
    require(tp <= heads && heads % tp == 0, "--tp must divide the number of attention heads");
    if (stageLayers.empty()) {
        require(layers % pp == 0, "--layers must be a multiple of --pp");
    } else {
        int sum = 0;
        for (int n : stageLayers) {
            require(n >= 1, "every pipeline stage needs a layer");
            sum += n;
        }
        require(static_cast<int>(stageLayers.size()) == pp && sum == layers,
                "the layers per stage must be --pp counts summing to --layers");
    }
    require(microbatches >= 1 && microbatches <= 4096, "--microbatches must be between 1 and 4096");
    require(pp == 1 || microbatches >= 1, "pipeline parallelism needs micro-batches");
    require(steps >= 1 && steps <= 1000, "--steps must be between 1 and 1000");
    require(gpusPerNode >= 1 && gpusPerNode <= 64, "--gpus-per-node must be between 1 and 64");
    require(intraNodeGBps > 0 && interNodeGBps > 0, "--intra-GBps and --inter-GBps must be positive");
    require(latencyUs >= 0 && launchLatencyUs >= 0, "latencies must not be negative");
    require(stragglerRank < worldSize(),
            "--straggler-rank must be below the world size (" + std::to_string(worldSize()) + ")");
    require(stragglerSlowdown >= 1.0 && stragglerSlowdown <= 100.0,
            "--straggler-slowdown must be between 1 and 100");
    require(jitter >= 0 && jitter < 0.5, "jitter must be in [0, 0.5)");
    require(ddpBucketMB > 0, "the DDP bucket size must be positive");
    auto factor = [](double f) { return f >= 0.01 && f <= 100.0; };
    require(factor(gpuSpeedup) && factor(cpuSpeedup), "GPU and CPU speedups must be between 0.01 and 100");
    require(factor(hostDispatchSpeedup) && factor(hostComputeSpeedup),
            "host dispatch and compute speedups must be between 0.01 and 100");
    for (double f : classSpeedup)
        require(factor(f), "kernel class speedups must be between 0.01 and 100");
    require(cpuSlowRank < worldSize(),
            "the slow-CPU rank must be below the world size (" + std::to_string(worldSize()) + ")");
    require(cpuSlowdown >= 1.0 && cpuSlowdown <= 100.0, "the CPU slowdown must be between 1 and 100");
    require(rankSpread >= 0 && rankSpread < 0.5, "the per-rank spread must be in [0, 0.5)");
    require(itemSyncs >= 0 && itemSyncs <= layers / pp,
            "item syncs per forward must be between 0 and the layers of a stage");
    require(dataLoaderUs >= 0 && dataLoaderUs <= 1e7, "the data-loader time must be between 0 and 10 s");
    require(dataWorkers >= 0 && dataWorkers <= 1024, "data-loader workers must be between 0 and 1024");
    require(dataCores >= 0 && dataCores <= 4096, "data-loader cores must be between 0 and 4096");
    require(dataCores == 0 || dataWorkers > 0, "data-loader cores need data-loader workers");
    require(dataMainUs >= 0 && dataMainUs <= 1e7,
            "the data-loader main-thread time must be between 0 and 10 s");
    require(dataMainUs == 0 || dataLoaderUs > 0, "the data-loader main-thread time needs a data-loader time");
    require(prewindowOps >= 0 && prewindowOps <= 64, "pre-window ops must be between 0 and 64");
    if (recommendation()) {
        require(tp == 1 && pp == 1 && dp >= 2,
                "a recommendation job is data parallel only, on 2 or more ranks");
        require(recTables.batchPerRank >= 1, "a recommendation job needs a batch per rank");
        require(recPlan.placements.size() == recTables.tables.size(), "the plan must place every table");
        require(recMlpLayers >= 1 && recMlpHidden >= 16, "the dense MLP needs a layer of 16 or more");
        for (const auto& p : recPlan.placements)
            for (int r : p.ranks)
                require(r >= 0 && r < worldSize(), "the plan puts a table on rank " + std::to_string(r) +
                                                       ", outside the job's " + std::to_string(worldSize()) +
                                                       " ranks");
    }
    gpuSpec(gpu); // validates the name
}

RankCoord rankCoord(const SynthConfig& c, int rank) {
    RankCoord r;
    r.tp = rank % c.tp;
    r.dp = (rank / c.tp) % c.dp;
    r.pp = rank / (c.tp * c.dp);
    return r;
}

int rankOf(const SynthConfig& c, RankCoord coord) {
    return (coord.pp * c.dp + coord.dp) * c.tp + coord.tp;
}

} // namespace sl::synth
