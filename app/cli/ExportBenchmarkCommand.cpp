// sightline-cli export-benchmark: a standalone PyTorch script re-creating one rank's GPU work
// (docs/Chakra.md, "Benchmark export").
#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/BenchmarkExport.h"
#include "base/Error.h"

#include <cstdio>
#include <fstream>

namespace sl::cli {

namespace {

Command makeExportBenchmarkCommand() {
    return {"export-benchmark", "write a PyTorch benchmark re-creating one rank's GPU work",
            "usage: sightline-cli export-benchmark PATH... --rank R --out bench.py [--et F|DIR]...\n"
            "\n"
            "Writes a standalone PyTorch script for rank R: the innermost aten:: ops that launched the\n"
            "rank's GPU work, in launch order, with their recorded input shapes and dtypes (Kineto Input\n"
            "Dims / Input type), each on the stream its GPU op ran on; collective kernels as\n"
            "torch.distributed calls of the same type and size (sizes from --et where the Kineto trace\n"
            "lacks them); a warm-up and a timed loop under torch.profiler that writes its own trace.\n"
            "Run it with torchrun --nproc_per_node=N bench.py and open its trace beside the original.\n"
            "\n"
            "  --rank R       the rank id to re-create\n"
            "  --out F        the script to write\n"
            "  --et F|DIR     PyTorch execution traces (repeatable) for collective sizes\n",
            [](Args& args) {
                auto out = args.option("--out");
                auto rankText = args.option("--rank");
                if (!out) throw UsageError{"export-benchmark needs --out FILE"};
                if (!rankText) throw UsageError{"export-benchmark needs --rank R"};
                const int rankId = nonNegativeInt("--rank", *rankText);
                SimSetup setup = parseSimSetup(args, "export-benchmark", false);
                TraceSet set = loadWithProgress(setup.paths);
                EtApplied et = applyExecutionTraces(set, setup.etPaths);
                if (et.files > 0) std::fprintf(stderr, "note: %s\n", et.summary().c_str());
                std::uint32_t index = 0;
                while (index < set.ranks.size() && set.ranks[index].rank != rankId)
                    ++index;
                if (index == set.ranks.size())
                    throw UsageError{"rank " + std::to_string(rankId) + " is not in the trace set"};
                BenchPlan plan = benchmarkPlan(set, index);
                std::ofstream f(*out, std::ios::trunc);
                if (!f) throw WriteError(*out, "cannot write the file");
                f << benchmarkScript(plan, set.ranks[index].sourcePath);
                if (!f) throw WriteError(*out, "write error");
                std::printf(
                    "%s: rank %d, %zu ops (%lld GPU ops; %lld launched outside an aten:: op with shapes, "
                    "not re-created; %lld collectives without a size)\n",
                    out->c_str(), rankId, plan.ops.size(), static_cast<long long>(plan.gpuOps),
                    static_cast<long long>(plan.gpuOpsWithoutAtenOp),
                    static_cast<long long>(plan.collectivesWithoutSize));
                return kExitOk;
            }};
}

CommandRegistrar registerExportBenchmark{makeExportBenchmarkCommand()};

} // namespace

} // namespace sl::cli
