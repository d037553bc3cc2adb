// sightline-cli export-chakra: one Chakra .et file per rank of a loaded trace set (docs/Chakra.md).
#include "CliCommon.h"
#include "SimSetup.h"

#include "analysis/ChakraExport.h"
#include "graph/ExecutionGraph.h"
#include "io/LoadError.h"
#include "io/chakra/ChakraReader.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace sl::cli {

namespace {

Command makeExportChakraCommand() {
    return {
        "export-chakra", "write one Chakra execution trace (.et) per rank",
        "usage: sightline-cli export-chakra PATH... --out DIR [--et F|DIR]... [--step N]\n"
        "\n"
        "Builds the execution graph of the traces and writes DIR/chakra.<rank>.et for every rank: the\n"
        "Chakra schema's length-delimited protobuf (GlobalMetadata, then Node messages), as ASTRA-sim\n"
        "and the Chakra tools read it. CPU calls and GPU ops become COMP nodes (is_cpu_op, tid = thread\n"
        "or stream), collectives COMM_COLL / COMM_SEND / COMM_RECV with comm_type, comm_size and\n"
        "pg_name, the graph's dependencies data_deps; CPU work and waits between nodes become COMP\n"
        "nodes of that duration. Durations are whole microseconds (the schema's unit). Importing the\n"
        "folder again (sightline-cli simulate DIR) replays the same workload.\n"
        "\n"
        "  --out DIR      output folder (created)\n"
        "  --et F|DIR     PyTorch execution traces (repeatable): sizes for collectives the Kineto\n"
        "                 trace lacks (a collective without a size is written without comm_size)\n"
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
                throw LoadError(*out, "cannot create the output folder");
            ChakraExportStats total;
            for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
                ChakraExportStats s;
                ChakraFile f = chakraFromGraph(graph, r, &s);
                const std::string path =
                    (std::filesystem::path(*out) / ("chakra." + std::to_string(set.ranks[r].rank) + ".et"))
                        .string();
                writeChakraFile(path, f);
                std::printf("%s: %zu nodes (%lld graph nodes, %lld delay nodes, %lld collectives)\n",
                            path.c_str(), f.nodes.size(), static_cast<long long>(s.nodes),
                            static_cast<long long>(s.delayNodes), static_cast<long long>(s.collectives));
                total.unsized += s.unsized;
                total.droppedEdges += s.droppedEdges;
                total.droppedDelay += s.droppedDelay;
            }
            if (total.unsized)
                std::fprintf(
                    stderr,
                    "warning: %lld collectives have no size (pass --et with the execution traces): written "
                    "without comm_size, they replay as plain ops\n",
                    static_cast<long long>(total.unsized));
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
