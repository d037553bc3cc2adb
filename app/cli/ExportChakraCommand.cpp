// sightline-cli export-chakra: one Chakra .et file per rank of a loaded trace set (docs/Chakra.md).
#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/ChakraExport.h"
#include "base/Error.h"
#include "graph/ExecutionGraph.h"
#include "io/chakra/ChakraReader.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace sl::cli {

namespace {

Command makeExportChakraCommand() {
    return {"export-chakra", "write one Chakra execution trace (.et) per rank",
            "usage: sightline-cli export-chakra PATH... --out DIR [--et F|DIR]... [--step N]\n"
            "\n"
            "Builds the execution graph of the traces and writes DIR/chakra.<rank>.et for every rank: the\n"
            "Chakra schema's length-delimited protobuf (GlobalMetadata, then Node messages), as ASTRA-sim\n"
            "and the Chakra tools read it. CPU calls and GPU ops become COMP nodes (is_cpu_op, tid = thread\n"
            "or stream); collectives COMM_COLL with comm_type, comm_size and pg_name; matched sends and\n"
            "receives COMM_SEND / COMM_RECV with comm_src, comm_dst, comm_tag and comm_size; the graph's\n"
            "dependencies data_deps; CPU work and waits between nodes COMP nodes of that duration.\n"
            "Durations are whole microseconds (the schema's unit). Importing the folder again\n"
            "(sightline-cli simulate DIR) replays the same workload.\n"
            "\n"
            "Process groups: pg_name is \"\" for a group of every rank (ASTRA-sim's default communicator)\n"
            "and an integer for any other; DIR/comm_group.json lists those groups' ranks in ASTRA-sim's\n"
            "format ({\"1\": [0, 1], ...}; pass it as --comm-group-configuration). A collective without a\n"
            "size in the trace (a Kineto trace without collective metadata and without --et) gets one\n"
            "estimated from its measured transfer time and the set's calibrated bandwidth (the 150 GB/s,\n"
            "5 us defaults without sized collectives to fit), marked comm_size_estimated. A send or\n"
            "receive without its peer in the set is written as GPU compute of its measured duration.\n"
            "\n"
            "What ASTRA-sim will serialise: it runs at most one CPU op, one GPU compute op and one\n"
            "communication op at a time per rank, whatever their threads and streams. Several host\n"
            "threads (autograd's backward beside the main thread) and overlapping compute streams are\n"
            "run one node after another there, and a wait on a stream occupies the GPU as compute; its\n"
            "per-rank times can differ from Sightline's replay of the same files (docs/Chakra.md).\n"
            "\n"
            "  --out DIR      output folder (created)\n"
            "  --et F|DIR     PyTorch execution traces (repeatable): sizes for collectives the Kineto\n"
            "                 trace lacks (better than the estimate)\n"
            "  --step N       only ProfilerStep#N\n",
            [](Args& args) {
                auto out = args.option("--out");
                if (!out) throw UsageError{"export-chakra needs --out DIR"};
                SimSetup setup = parseSimSetup(args, "export-chakra", false);
                TraceSet set = loadWithProgress(setup.paths);
                ExecutionGraph graph = buildGraphForCli(set, setup);
                std::error_code ec;
                std::filesystem::create_directories(*out, ec);
                if (ec || !std::filesystem::is_directory(*out, ec))
                    throw WriteError(*out, "cannot create the output folder");
                const ChakraExportPlan plan = planChakraExport(graph);
                ChakraExportStats total;
                for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
                    ChakraExportStats s;
                    ChakraFile f = chakraFromGraph(graph, r, plan, &s);
                    const std::string path = (std::filesystem::path(*out) /
                                              ("chakra." + std::to_string(set.ranks[r].rank) + ".et"))
                                                 .string();
                    writeChakraFile(path, f);
                    std::printf("%s: %zu nodes (%lld graph nodes, %lld delay nodes, %lld collectives)\n",
                                path.c_str(), f.nodes.size(), static_cast<long long>(s.nodes),
                                static_cast<long long>(s.delayNodes), static_cast<long long>(s.collectives));
                    total.estimated += s.estimated;
                    total.unmatchedP2p += s.unmatchedP2p;
                    total.droppedEdges += s.droppedEdges;
                    total.droppedDelay += s.droppedDelay;
                }
                const std::string groups = (std::filesystem::path(*out) / "comm_group.json").string();
                if (!plan.groups.empty()) {
                    std::ofstream g(groups, std::ios::trunc);
                    g << chakraCommGroupJson(plan);
                    if (!g) throw WriteError(groups, "cannot write the file");
                    std::printf("%s: %zu process groups (ASTRA-sim: --comm-group-configuration=%s)\n",
                                groups.c_str(), plan.groups.size(), groups.c_str());
                } else {
                    std::filesystem::remove(groups, ec); // a stale one from an earlier export would mislead
                }
                if (total.estimated)
                    std::fprintf(
                        stderr,
                        "warning: %lld collectives have no size in the trace (pass --et with the execution "
                        "traces): comm_size estimated from the measured transfer time at %.1f GB/s and "
                        "%.1f us latency (%s), marked comm_size_estimated\n",
                        static_cast<long long>(total.estimated), plan.estimateGBps, plan.estimateLatencyUs,
                        plan.estimateCalibrated ? "calibrated on the set's sized collectives"
                                                : "defaults, nothing sized to calibrate on");
                if (total.unmatchedP2p)
                    std::fprintf(
                        stderr,
                        "warning: %lld sends / receives have no peer in the set: written as GPU compute of "
                        "their measured duration\n",
                        static_cast<long long>(total.unmatchedP2p));
                if (total.droppedEdges)
                    std::fprintf(
                        stderr,
                        "note: %lld dependencies across threads / streams carried a delay Chakra cannot hold "
                        "(%.1f us in all): written without it\n",
                        static_cast<long long>(total.droppedEdges),
                        std::round(static_cast<double>(total.droppedDelay) / 100.0) / 10.0);
                return kExitOk;
            }};
}

CommandRegistrar registerExportChakra{makeExportChakraCommand()};

} // namespace

} // namespace sl::cli
