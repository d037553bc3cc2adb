#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/KnobEffect.h"
#include "analysis/PinnedTime.h"
#include "analysis/SimulatedTraceExport.h"
#include "analysis/Throughput.h"
#include "base/Rounding.h"
#include "graph/ChakraGraph.h"
#include "graph/ExecutionGraph.h"
#include "report/Report.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>

namespace sl::cli {

namespace {

// A set without measured times (Chakra input, docs/Chakra.md): the simulated times alone.
void printUnmeasuredTable(const ExecutionGraph& g, const SimResult& res) {
    std::printf("%-6s %14s\n", "rank", "simulated_us");
    for (const auto& s : res.ranks)
        std::printf("%-6d %14.2f\n", s.rank, us(s.simulated()));
    std::printf("%-6s %14.2f\n", "job", us(res.simulatedIteration));
    std::printf("\nno measured times in this input (a Chakra execution trace): nothing to compare with\n");
    std::printf("graph: %zu nodes, %zu edges, %lld collectives matched\n", g.nodes.size(), g.edges.size(),
                static_cast<long long>(g.stats.collectivesMatched));
    if (g.warnings.size() + res.warnings.size()) std::printf("\nwarnings:\n");
    for (const Warnings* list : {&g.warnings, &res.warnings})
        for (const auto& w : *list)
            std::printf("  %s\n", w.text.c_str());
}

void printTable(const ExecutionGraph& g, const SimResult& res, const SimKnobs& knobs,
                const SimResult* replay) {
    if (isUnmeasuredSet(*g.trace)) return printUnmeasuredTable(g, res);
    std::printf("%-6s %14s %14s %9s %11s %15s %9s %8s\n", "rank", "measured_us", "simulated_us", "error_%",
                "gpu_span_%", "unexplained_us", "prewindow", "pinned_%");
    const std::vector<RankPinnedTime> pins = pinnedTime(g, res);
    for (std::size_t r = 0; r < res.ranks.size(); ++r) {
        const auto& s = res.ranks[r];
        std::printf("%-6d %14.2f %14.2f %9.3f %11.3f %15.2f %9lld %8.1f\n", s.rank, us(s.measured()),
                    us(s.simulated()), s.errorPct(), s.gpuSpanErrorPct(), us(g.ranks[r].unexplainedWait),
                    static_cast<long long>(g.ranks[r].prewindowOps),
                    r < pins.size() ? pins[r].sharePct() : 0.0);
    }
    std::printf("%-6s %14.2f %14.2f %9.3f\n", "job", us(res.measuredIteration), us(res.simulatedIteration),
                res.iterationErrorPct());
    std::printf("\nkernel start error: median %.3f us, p90 %.3f us (%lld GPU ops); of the iteration: median "
                "%.3f%%, p90 %.3f%%, %.1f%% of ops within 1%%\n",
                res.kernelStartError.medianUs, res.kernelStartError.p90Us,
                static_cast<long long>(res.kernelStartError.count), res.kernelStartError.medianPct,
                res.kernelStartError.p90Pct, 100.0 * res.kernelStartError.within1PctShare);
    // Pinned time (measured time without a cause on the critical path): the largest pin per rank
    // where it is a noticeable share, so a user sees what no knob will move.
    for (std::size_t r = 0; r < pins.size(); ++r)
        if (pins[r].sharePct() >= 5.0)
            std::printf("pinned: rank %d, %.1f%% of its critical path; largest: %s\n", pins[r].rank,
                        pins[r].sharePct(), describePin(g, pins[r].largest).c_str());
    if (replay) {
        const KnobEffect effect = explainKnobEffect(g, *replay, res, knobs);
        std::printf("what-if: %s\n", effect.note.c_str());
        if (!effect.hostNote.empty()) std::printf("host: %s\n", effect.hostNote.c_str());
    }
    if (res.dataLoader.applies) std::printf("data loader: %s\n", res.dataLoader.note.c_str());
    // Throughput (docs/Scaling.md): samples/s where batch.samples / batch.tokens give the batch, and
    // against the replay where the work per step differs.
    {
        std::string line = rateText(rateOf(knobs, stepWork(g, knobs, res).samples, res.simulatedIteration));
        if (replay) {
            const Throughput t = throughputVsBaseline(g, *replay, SimKnobs{}, res, knobs);
            if (t.applies) line += (line.empty() ? "" : "; ") + t.sentence;
        }
        if (!line.empty()) std::printf("throughput: %s\n", line.c_str());
    }
    if (res.setup.edited) {
        std::printf("setup: dp %d x tp %d x pp %d = %d ranks (%zu added, %zu measured ranks dropped)\n",
                    res.setup.dp, res.setup.tp, res.setup.pp, res.setup.world, res.setup.added(),
                    res.setup.droppedCount());
        for (const auto& n : res.setup.notes)
            std::printf("  %s\n", n.c_str());
        // Added ranks are simulated on their own: the slowest and the fastest of them.
        const AddedRankTimes& added = res.addedRanks;
        if (!added.empty()) {
            std::size_t slow = 0, fast = 0;
            for (std::size_t a = 1; a < added.count(); ++a) {
                if (added.summary[a].simulated() > added.summary[slow].simulated()) slow = a;
                if (added.summary[a].simulated() < added.summary[fast].simulated()) fast = a;
            }
            std::printf(
                "  added ranks: slowest rank %d (runs rank %d's program) %.2f us, fastest rank %d %.2f us\n",
                added.rankId[slow], g.trace->ranks[added.source[slow]].rank,
                us(added.summary[slow].simulated()), added.rankId[fast], us(added.summary[fast].simulated()));
        }
    }
    std::printf("graph: %zu nodes, %zu edges, %lld collectives matched, %lld inferred cross-stream edges\n",
                g.nodes.size(), g.edges.size(), static_cast<long long>(g.stats.collectivesMatched),
                static_cast<long long>(g.stats.inferredCrossStream));
    std::size_t nw = g.warnings.size() + res.warnings.size();
    if (nw) std::printf("\nwarnings:\n");
    for (const Warnings* list : {&g.warnings, &res.warnings})
        for (const auto& w : *list)
            std::printf("  %s\n", w.text.c_str());
}

Command makeSimulateCommand() {
    return {
        "simulate", "replay a trace set in the simulator (what-if with knobs)",
        "usage: sightline-cli simulate PATH... [--step N] [--json] [--export-trace OUT.json]\n"
        "                              [--config F.json] [--set key=value]...\n"
        "\n"
        "Builds the execution graph of the traces (files, or folders of per-rank files) and replays it\n"
        "in the discrete-event simulator. Prints per rank the measured and simulated iteration time and\n"
        "the error, the per-kernel start-time error, and warnings.\n"
        "\n"
        "  --step N            restrict to ProfilerStep#N\n"
        "  --json              print one JSON object\n"
        "  --export-trace F    write the simulated timeline as Chrome trace JSON (opens in Perfetto)\n"
        "  --config F.json     knobs from a JSON file\n"
        "  --set key=value     one knob (repeatable), e.g. compute.speedup=2, cpu.speedup=1.5; every knob\n"
        "                      with its valid values: sightline-cli knobs\n"
        "  --et F|DIR          PyTorch execution traces (repeatable) for collective sizes the Kineto\n"
        "                      trace lacks; matched to ranks by the number in the file name\n"
        "\n"
        "JSON fields: iteration.{measured_us, simulated_us, error_pct}; ranks[] with rank, measured_us,\n"
        "simulated_us, error_pct, the SIMULATED breakdown at the top level (compute_us, comm_us,\n"
        "exposed_comm_us, memory_us, idle_us, gpu_span_us, overlap_pct; HTA definitions), the same\n"
        "fields MEASURED in ranks[].measured, stream_idle[] (measured idle per GPU stream: host_wait_us,\n"
        "dependency_wait_us, other_us), typical_launch_latency_us, launch_latency_by_api_us,\n"
        "cross_stream_delay_us; critical_path.{length_us, by_kind.<label>.{us, pct}, top_events[]}\n"
        "(the path crosses ranks through collectives, see `critical-path --help`);\n"
        "kernel_start_error_us.{median, p90, max, count}; kernel_start_error_pct.{median, p90,\n"
        "within_1pct_share} (of the rank's iteration, pre-window ops excluded); per rank also\n"
        "gpu_span_error_pct, exposed_comm_error_pct, idle_error_pct, by_class_us (and\n"
        "measured.by_class_us), unexplained_wait_us, prewindow_ops; knob_effect.{iteration_change_pct,\n"
        "target_share_of_critical_path_pct, note} when knobs are set; gpu_swap.{source, target,\n"
        "link_ratio, by_class[], top_kernels[], without_shapes, shapes_from_et} with gpu.target=NAME "
        "(docs/GpuModel.md);\n"
        "iteration.{throughput_vs_baseline, scaling_efficiency, throughput_note} when the work per step\n"
        "differs from the replay's; iteration.{samples_per_step, samples_per_s, tokens_per_step,\n"
        "tokens_per_s, rate_note} with --set batch.samples=N / batch.tokens=N (docs/Scaling.md);\n"
        "data_loader.{workers, cores (null: unknown), iteration_is (free_cores), free_cores_iteration_us,\n"
        "busy_cores, busy_cores_iteration_us, note} with data.workers and data.cores unknown;\n"
        "graph; knobs; warnings[] (the lines); warning_stats[].{key, severity, count, lines, message,\n"
        "example} (one per kind of warning, as info's; docs/Diagnostics.md).\n",
        [](Args& args) {
            bool json = args.flag("--json");
            auto exportPath = args.option("--export-trace");
            SimSetup setup = parseSimSetup(args, "simulate", true);
            const SimKnobs& knobs = setup.knobs;
            TraceSet set = loadWithProgress(setup.paths);
            ExecutionGraph graph = buildGraphForCli(set, setup);
            SimOptions options;
            options.timeline = json || exportPath; // the report's simulated breakdown, the export
            SimResult res = simulate(graph, knobs, options);
            if (exportPath) writeSimulatedChromeTraceFile(*exportPath, *graph.trace, res.timeline);
            // The replay too, so that a what-if can say how much it moved the answer, and why.
            SimResult replay;
            if (!knobs.isReplay()) {
                SimOptions so;
                so.timeline = false;
                replay = simulate(graph, SimKnobs{}, so);
            }
            if (json) {
                ReportInputs inputs;
                inputs.graph = &graph;
                inputs.result = &res;
                inputs.knobs = knobs;
                inputs.replay = knobs.isReplay() ? nullptr : &replay;
                std::cout << buildReport(inputs).numbers.dump(2) << "\n";
            } else
                printTable(graph, res, knobs, knobs.isReplay() ? nullptr : &replay);
            return kExitOk;
        }};
}

CommandRegistrar registerSimulate{makeSimulateCommand()};

} // namespace

} // namespace sl::cli
