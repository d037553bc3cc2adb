#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/LayoutPlan.h"
#include "base/Rounding.h"

#include <cstdio>
#include <iostream>

namespace sl::cli {

namespace {

Command makePlanCommand() {
    return {"plan", "parallel layouts of a GPU count, predicted from one transformer trace, best first",
            "usage: sightline-cli plan PATH... --gpus N [--microbatches M,...] [--pp P,...] [--json]\n"
            "                          [--step N]\n"
            "                          [--set key=value]...\n"
            "\n"
            "Every DP x TP x PP layout of N GPUs (TP within a node, dividing the heads and the hidden\n"
            "size; PP as traced, or each of --pp) is predicted from the trace with tp.degree and "
            "parallel.gpus (the\n"
            "global batch stays: each replica runs its share of the micro-batches), simulated in\n"
            "parallel, and listed best first: step time, tokens per second, exposed communication,\n"
            "pipeline bubble and the memory each GPU holds (weights, gradients, Adam state,\n"
            "activations from the shapes); layouts that do not fit the GPU are marked and listed after\n"
            "those that do (docs/Layouts.md).\n"
            "\n"
            "  --gpus N   GPUs of the job\n"
            "  --microbatches M,...  micro-batches per replica to try with each layout (the global\n"
            "             batch is then dp x M micro-batches; ranked by tokens per second)\n"
            "  --pp P,...  pipeline degrees to try (pp.degree: the layers split evenly over P stages;\n"
            "             default: as traced)\n"
            "  --json     {gpus, gpu, model, traced, layouts[], notes} instead of the table\n",
            [](Args& args) {
                const bool json = args.flag("--json");
                const auto gpusText = args.option("--gpus");
                if (!gpusText) throw UsageError("plan: --gpus N is required");
                const int gpus = nonNegativeInt("--gpus", *gpusText);
                // A list of positive counts "2,4,8" (empty when the option is absent).
                auto counts = [&](const char* option) {
                    std::vector<int> out;
                    if (auto list = args.option(option)) {
                        std::size_t b = 0;
                        while (b <= list->size()) {
                            std::size_t e = list->find(',', b);
                            if (e == std::string::npos) e = list->size();
                            const int m = nonNegativeInt(option, list->substr(b, e - b));
                            if (m <= 0)
                                throw UsageError(std::string("plan: ") + option +
                                                 " values must be at least 1");
                            out.push_back(m);
                            b = e + 1;
                        }
                    }
                    return out;
                };
                const std::vector<int> microbatches = counts("--microbatches");
                const std::vector<int> pipelines = counts("--pp");
                if (gpus <= 0) throw UsageError("plan: --gpus must be at least 1");
                SimSetup setup = parseSimSetup(args, "plan", true);
                TraceSet set = loadWithProgress(setup.paths);
                ExecutionGraph g = buildGraphForCli(set, setup);
                LayoutPlan plan;
                try {
                    plan = planLayouts(g, gpus, setup.knobs, microbatches, {}, pipelines);
                } catch (const KnobError& e) {
                    throw Error(ErrorKind::Format, setup.paths.front(), e.what());
                }
                if (json) {
                    std::cout << layoutPlanJson(plan).dump(2) << "\n";
                    return kExitOk;
                }
                std::printf(
                    "plan: %d GPUs (%d per node, %s, %.0f GB); model: hidden %lld, %lld heads, %d layers, "
                    "%lld tokens per micro-batch; traced dp %d x tp %d x pp %d, %d micro-batches\n",
                    plan.gpus, plan.gpusPerNode, plan.gpu.c_str(), plan.gpuMemoryGB,
                    static_cast<long long>(plan.hidden), static_cast<long long>(plan.heads), plan.layers,
                    static_cast<long long>(plan.tokens), plan.tracedDp, plan.tracedTp, plan.tracedPp,
                    plan.tracedMicrobatches);
                std::printf("%3s %4s %3s %3s %4s %13s %12s %16s %9s %10s %s\n", "#", "dp", "tp", "pp", "mb",
                            "step_us", "tokens/s", "exposed_comm_us", "bubble_%", "memory_GB", "fits");
                for (std::size_t i = 0; i < plan.rows.size(); ++i) {
                    const LayoutRow& r = plan.rows[i];
                    if (!r.error.empty()) {
                        std::printf("%3zu %4d %3d %3d %4d  error: %s\n", i + 1, r.dp, r.tp, r.pp,
                                    r.microbatches, r.error.c_str());
                        continue;
                    }
                    std::printf("%3zu %4d %3d %3d %4d %13.2f %12.0f %16.2f %9.2f %10.2f %s\n", i + 1, r.dp,
                                r.tp, r.pp, r.microbatches, us(r.step), r.tokensPerSecond,
                                us(static_cast<TimeNs>(r.exposed.meanNs)), r.bubblePct,
                                r.memory.total() / 1e9, r.fits ? "yes" : "NO (exceeds the GPU)");
                }
                for (const LayoutRow& r : plan.rows)
                    if (!r.modelled.empty()) {
                        std::printf("modelled for dp %d x tp %d x pp %d, %d micro-batches:", r.dp, r.tp, r.pp,
                                    r.microbatches);
                        for (std::size_t k = 0; k < r.modelled.size(); ++k)
                            std::printf("%s %s", k ? ";" : "", r.modelled[k].c_str());
                        std::printf("\n");
                    }
                for (const auto& n : plan.notes)
                    std::printf("note: %s\n", n.c_str());
                return kExitOk;
            }};
}

CommandRegistrar registerPlan{makePlanCommand()};

} // namespace

} // namespace sl::cli
