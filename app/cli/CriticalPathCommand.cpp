#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/CriticalPath.h"
#include "base/Rounding.h"
#include "report/PathReport.h"
#include "sim/Simulator.h"

#include <cmath>
#include <cstdio>
#include <iostream>

namespace sl::cli {

namespace {

// The path's embedding lookup and all-to-all time, as parts of the kinds above (none: no line).
void printEmbeddingShares(const CriticalPath& cp) {
    for (const auto& [work, t] : {std::pair{EmbeddingWork::Lookup, cp.embeddingLookup},
                                  std::pair{EmbeddingWork::AllToAll, cp.embeddingAllToAll}})
        if (t > 0)
            std::printf("  of which %-20s %12.2f us %6.2f %%\n", std::string(embeddingWorkName(work)).c_str(),
                        us(t), cp.sharePct(t));
}

Command makeCriticalPathCommand() {
    return {"critical-path", "print the critical path of the simulated schedule as a table",
            "usage: sightline-cli critical-path PATH... [--rank R] [--step N] [--by name] [--json]\n"
            "                                   [--config F.json] [--set key=value]...\n"
            "\n"
            "Replays the traces (with knobs, if given) and walks the critical path back from the node\n"
            "that finishes last, through the dependency that released each node. The path crosses\n"
            "ranks through collectives: a collective that ended when its latest participant arrived\n"
            "continues on that participant's rank. Each segment is labelled gpu_compute, gpu_comm,\n"
            "collective_wait, cpu, launch_latency, sync, idle, late_start (before a rank's first\n"
            "modelled event) or unexplained_wait (CPU time between calls that no cpu_op covers).\n"
            "Embedding lookup kernels and the collectives of TorchRec's embedding all-to-all are\n"
            "named \"embedding lookup: ...\" and \"embedding all-to-all: ...\", their time summed last.\n"
            "Times are microseconds from the simulated origin (the first event of the job).\n"
            "\n"
            "  --rank R     end the path at the last node of rank R (default: the job's last node)\n"
            "  --by name    sum the path by name (which ops bound the step), longest first: CPU time\n"
            "               between calls under the innermost cpu_op / python_function / annotation\n"
            "               that ran then (before a rank's first call too), time no op covers under\n"
            "               unexplained_wait (late_start before the rank's first event), other gaps\n"
            "               under the event that waited\n"
            "  --step N     restrict to ProfilerStep#N\n"
            "  --json       print {length_us, by_kind, segments[]} instead of the table (a segment's\n"
            "               name is its event, op the innermost op that ran in a CPU gap)\n"
            "  --config F   knobs from a JSON file;  --set key=value  one knob (repeatable)\n"
            "  --et F|DIR   PyTorch execution traces for collective sizes (see simulate --help)\n",
            [](Args& args) {
                bool json = args.flag("--json");
                auto by = args.option("--by");
                if (by && *by != "name") throw UsageError{"--by takes 'name', got '" + *by + "'"};
                auto rankText = args.option("--rank");
                SimSetup setup = parseSimSetup(args, "critical-path", true);
                const int rankId = rankText ? nonNegativeInt("--rank", *rankText) : -1;
                TraceSet set = loadWithProgress(setup.paths);
                ExecutionGraph g = buildGraphForCli(set, setup);
                SimOptions so;
                so.timeline = false;
                SimResult res = simulate(g, setup.knobs, so);
                SimNodeRef end = res.last();
                if (rankId >= 0) {
                    const Rank* rk = set.findRank(rankId);
                    if (!rk)
                        throw UsageError{"--rank " + std::to_string(rankId) + ": no such rank in the set"};
                    end = {lastNodeOfRank(g, res, static_cast<std::uint32_t>(rk - set.ranks.data())), -1};
                }
                CriticalPath cp = criticalPathFrom(g, res, end);
                TimeNs origin =
                    cp.segments.empty() ? 0 : g.ranks[g.nodes[cp.segments.front().node].rank].origin;
                if (by && json) {
                    std::cout << criticalPathByNameJson(g, cp).dump(2) << "\n";
                    return kExitOk;
                }
                if (by) {
                    std::vector<PathNameShare> shares = criticalPathByName(g, cp);
                    std::printf("%12s %6s %8s  %-16s %s\n", "us", "%", "segments", "mostly", "name");
                    for (const auto& sh : shares)
                        std::printf("%12.2f %6.2f %8lld  %-16s %s\n", us(sh.time), cp.sharePct(sh.time),
                                    static_cast<long long>(sh.segments),
                                    std::string(pathLabelName(sh.label)).c_str(),
                                    withEmbeddingWork(sh.work, sh.name).substr(0, 90).c_str());
                    std::printf("\ncritical path: %.2f us, %zu names\n", us(cp.length), shares.size());
                    printEmbeddingShares(cp);
                    return kExitOk;
                }
                if (json) {
                    std::cout << criticalPathJson(g, res, cp).dump(2) << "\n";
                    return kExitOk;
                }
                std::printf("%12s %10s %6s  %-15s %4s  %-12s %s\n", "start_us", "dur_us", "%", "kind", "rank",
                            "track", "event (CPU gaps: the op that ran; other gaps: the event that waited)");
                for (const auto& s : cp.segments) {
                    const double share = cp.sharePct(s.end - s.start);
                    std::string name =
                        withEmbeddingWork(pathSegmentWork(g, s),
                                          s.op.valid() ? g.rankOf(s.node).name(s.op) : g.nodeName(s.node))
                            .substr(0, 70);
                    std::printf("%12.2f %10.2f %6.2f  %-15s %4d  %-12s %s\n", us(s.start - origin),
                                us(s.end - s.start), share, std::string(pathLabelName(s.label)).c_str(),
                                res.rankId(g, s.ref()), pathTrackName(g, s.node).c_str(), name.c_str());
                }
                std::printf("\ncritical path: %.2f us, %zu segments\n", us(cp.length), cp.segments.size());
                for (int l = 0; l < kPathLabelCount; ++l) {
                    TimeNs t = cp.byLabel[static_cast<std::size_t>(l)];
                    if (t == 0) continue;
                    std::printf("  %-15s %12.2f us %6.2f %%\n",
                                std::string(pathLabelName(static_cast<PathLabel>(l))).c_str(), us(t),
                                cp.sharePct(t));
                }
                printEmbeddingShares(cp);
                return kExitOk;
            }};
}

CommandRegistrar registerCriticalPath{makeCriticalPathCommand()};

} // namespace

} // namespace sl::cli
