#include "CliCommon.h"

#include "models/EmbeddingPlan.h"
#include "sim/EmbeddingWhatIf.h"

#include "synth/Generator.h"

#include <charconv>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace sl::cli {

namespace {

int intOption(Args& args, const std::string& name, int fallback) {
    auto v = args.option(name);
    if (!v) return fallback;
    int out = 0;
    auto [ptr, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (ec != std::errc() || ptr != v->data() + v->size())
        throw UsageError{name + " needs an integer, not '" + *v + "'"};
    return out;
}

double doubleOption(Args& args, const std::string& name, double fallback) {
    auto v = args.option(name);
    if (!v) return fallback;
    try {
        std::size_t used = 0;
        double out = std::stod(*v, &used);
        if (used == v->size()) return out;
    } catch (const std::exception&) {
    }
    throw UsageError{name + " needs a number, not '" + *v + "'"};
}

Command makeGenerateCommand() {
    return {"generate", "write a synthetic multi-rank Kineto trace set",
            "usage: sightline-cli generate --out DIR [options]\n"
            "\n"
            "Writes DIR/rank-N.json for every rank of a synthetic transformer training job: the JSON\n"
            "PyTorch's profiler writes (CPU ops, launches with ac2g flows, compute and NCCL streams,\n"
            "cudaEventRecord / cudaStreamWaitEvent with cuda_sync events, collective metadata,\n"
            "ProfilerStep annotations, distributedInfo with process groups). Kernel times come from a\n"
            "roofline model of the GPU, communication from an alpha-beta model (core/synth/README.md).\n"
            "\n"
            "  --layers N            transformer layers (4)\n"
            "  --hidden H            hidden size (4096); --heads N attention heads (32)\n"
            "  --seq S               sequence length (2048)\n"
            "  --microbatch B        micro-batch size (1)\n"
            "  --vocab V             vocabulary size (32000)\n"
            "  --dp N --tp N --pp N  data / tensor / pipeline parallel degrees (8, 1, 1)\n"
            "  --microbatches M      micro-batches per step, 1F1B schedule when --pp > 1 (1)\n"
            "  --stage-layers A,B,.. layers of each pipeline stage (--pp counts; default: even)\n"
            "  --steps K             profiler steps (1)\n"
            "  --gpu h100|a100|mi300x  GPU model (h100)\n"
            "  --gpus-per-node N     GPUs per node (8)\n"
            "  --intra-GBps X        intra-node bus bandwidth per GPU, GB/s (450)\n"
            "  --inter-GBps X        inter-node bus bandwidth per GPU, GB/s (50)\n"
            "  --latency-us X        per-collective latency (10)\n"
            "  --launch-latency-us X launch call end to earliest kernel start (5)\n"
            "  --bucket-mb X         DDP gradient bucket size (25)\n"
            "  --straggler-rank R    slow down this rank's GPU kernels\n"
            "  --straggler-slowdown X  by this factor (1.5 when --straggler-rank is given)\n"
            "  --jitter X            relative spread of durations (0.02)\n"
            "Variants (the physical changes the what-if knobs predict; core/synth/README.md):\n"
            "  --gpu-speedup X       every compute kernel X times faster (1)\n"
            "  --cpu-speedup X       every host cost X times faster (1)\n"
            "  --host-dispatch-speedup X  host calls, dispatch and Python X times faster (1)\n"
            "  --host-compute-speedup X   host CPU compute (in-process data loading) X times faster (1)\n"
            "  --measured-efficiency  kernels at the GPU table's measured efficiency (docs/GpuModel.md)\n"
            "  --cpu-slow-rank R --cpu-slowdown X   one rank's host X times slower\n"
            "  --rank-spread X       per-rank kernel time spread, uneven ranks (0)\n"
            "  --backward-thread     backward on autograd's own thread\n"
            "  --item-syncs N        blocking .item() calls per forward (0)\n"
            "  --data-loader-us X    data loading on the main thread per step (0)\n"
            "  --data-workers N      ... done by N DataLoader workers (0: in-process)\n"
            "  --data-cores K        ... that share K cores with the main thread (0: enough cores)\n"
            "  --data-main-us X      pin-memory work per batch on the main thread (0)\n"
            "  --prewindow-ops K     the first K GPU ops were launched before the window (0)\n"
            "  --no-overlap          the compute stream waits for every collective\n"
            "  --python-stacks       Python between modules as python_function ranges\n"
            "  --record-shapes       ops carry Input Dims / Input type, as with record_shapes=True\n"
            "  --sequence-parallel   Megatron sequence parallelism (all-gather / reduce-scatter, tp > 1)\n"
            "Recommendation job (docs/Embeddings.md; needs --tp 1 --pp 1, --dp = ranks):\n"
            "  --rec-tables F        embedding tables (tables.json, with batch_per_rank and each rank)\n"
            "  --rec-plan F          their placement (plan.json; default: each table on its rank)\n"
            "  --seed S              random seed; the same seed gives the same files (1)\n"
            "  --gzip                write rank-N.json.gz\n"
            "  --quiet               print nothing on success\n",
            [](Args& args) {
                synth::SynthConfig c;
                auto out = args.option("--out");
                c.layers = intOption(args, "--layers", c.layers);
                c.hidden = intOption(args, "--hidden", c.hidden);
                c.heads = intOption(args, "--heads", c.heads);
                c.seq = intOption(args, "--seq", c.seq);
                c.microbatch = intOption(args, "--microbatch", c.microbatch);
                c.vocab = intOption(args, "--vocab", c.vocab);
                c.dp = intOption(args, "--dp", c.dp);
                c.tp = intOption(args, "--tp", c.tp);
                c.pp = intOption(args, "--pp", c.pp);
                c.microbatches = intOption(args, "--microbatches", c.microbatches);
                if (auto v = args.option("--stage-layers")) {
                    std::stringstream in(*v);
                    for (std::string item; std::getline(in, item, ',');) {
                        int n = 0;
                        auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), n);
                        if (ec != std::errc() || ptr != item.data() + item.size())
                            throw UsageError{"--stage-layers needs integers such as 3,1, not '" + *v + "'"};
                        c.stageLayers.push_back(n);
                    }
                }
                c.steps = intOption(args, "--steps", c.steps);
                if (auto g = args.option("--gpu")) c.gpu = *g;
                c.gpusPerNode = intOption(args, "--gpus-per-node", c.gpusPerNode);
                c.intraNodeGBps = doubleOption(args, "--intra-GBps", c.intraNodeGBps);
                c.interNodeGBps = doubleOption(args, "--inter-GBps", c.interNodeGBps);
                c.latencyUs = doubleOption(args, "--latency-us", c.latencyUs);
                c.launchLatencyUs = doubleOption(args, "--launch-latency-us", c.launchLatencyUs);
                c.ddpBucketMB = doubleOption(args, "--bucket-mb", c.ddpBucketMB);
                c.stragglerRank = intOption(args, "--straggler-rank", c.stragglerRank);
                c.stragglerSlowdown =
                    doubleOption(args, "--straggler-slowdown", c.stragglerRank >= 0 ? 1.5 : 1.0);
                c.jitter = doubleOption(args, "--jitter", c.jitter);
                c.gpuSpeedup = doubleOption(args, "--gpu-speedup", c.gpuSpeedup);
                c.cpuSpeedup = doubleOption(args, "--cpu-speedup", c.cpuSpeedup);
                c.hostDispatchSpeedup = doubleOption(args, "--host-dispatch-speedup", c.hostDispatchSpeedup);
                c.hostComputeSpeedup = doubleOption(args, "--host-compute-speedup", c.hostComputeSpeedup);
                c.measuredEfficiency = args.flag("--measured-efficiency");
                c.cpuSlowRank = intOption(args, "--cpu-slow-rank", c.cpuSlowRank);
                c.cpuSlowdown = doubleOption(args, "--cpu-slowdown", c.cpuSlowRank >= 0 ? 1.5 : 1.0);
                c.rankSpread = doubleOption(args, "--rank-spread", c.rankSpread);
                c.backwardThread = args.flag("--backward-thread");
                c.itemSyncs = intOption(args, "--item-syncs", c.itemSyncs);
                c.dataLoaderUs = doubleOption(args, "--data-loader-us", c.dataLoaderUs);
                c.dataWorkers = intOption(args, "--data-workers", c.dataWorkers);
                c.dataCores = intOption(args, "--data-cores", c.dataCores);
                c.dataMainUs = doubleOption(args, "--data-main-us", c.dataMainUs);
                c.prewindowOps = intOption(args, "--prewindow-ops", c.prewindowOps);
                c.commOverlap = !args.flag("--no-overlap");
                c.pythonStacks = args.flag("--python-stacks");
                c.recordShapes = args.flag("--record-shapes");
                c.sequenceParallel = args.flag("--sequence-parallel");
                if (auto t = args.option("--rec-tables")) {
                    std::string file;
                    c.recTables = parseEmbeddingTables(embeddingKnobText(*t, file), file);
                    c.recordShapes = true; // the lookup op's shapes tell the simulator the tables
                    if (auto p = args.option("--rec-plan"))
                        c.recPlan = parseEmbeddingPlan(embeddingKnobText(*p, file), file, c.recTables, c.dp);
                    else
                        c.recPlan = tracedPlan(c.recTables);
                }
                auto seed = intOption(args, "--seed", 1);
                if (seed < 0) throw UsageError{"--seed must not be negative"};
                c.seed = static_cast<std::uint64_t>(seed);
                c.gzip = args.flag("--gzip");
                bool quiet = args.flag("--quiet");
                auto rest = args.positional();
                if (!rest.empty())
                    throw UsageError{"generate takes no positional arguments ('" + rest[0] + "')"};
                if (!out || out->empty()) throw UsageError{"generate needs --out DIR"};
                try {
                    c.validate();
                } catch (const std::invalid_argument& e) {
                    throw UsageError{e.what()};
                }
                synth::GenerateResult r;
                try {
                    r = synth::generate(c, *out);
                } catch (const std::runtime_error& e) {
                    std::cerr << "error: " << *out << ": " << e.what() << "\n";
                    return kExitBadInput;
                }
                if (!quiet)
                    std::cout << "wrote " << r.files.size() << " ranks to " << *out << " ("
                              << r.bytesWritten / 1000000 << " MB JSON, about " << r.events
                              << " events); step time " << static_cast<long long>(r.stepTimeUs) << " us\n";
                return kExitOk;
            }};
}

CommandRegistrar registerGenerate{makeGenerateCommand()};

} // namespace

} // namespace sl::cli
