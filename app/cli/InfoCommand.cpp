#include "CliCommon.h"

#include "io/EtFolder.h"
#include "report/ToolSetup.h"

#include <cstdio>
#include <iostream>

namespace sl::cli {

namespace {

Command makeInfoCommand() {
    return {"info", "JSON summary of a trace or rank set",
            "usage: sightline-cli info PATH... [--et ET_PATH]... [--compact | --stats]\n"
            "\n"
            "Loads traces (files, or folders of per-rank files; the format is read from the content:\n"
            "Kineto .json / .json.gz, Nsight Systems .sqlite exports, Chakra .et; docs/Formats.md) and\n"
            "prints one JSON object: per rank its id, format and profiler (with the version the file\n"
            "records), device, world size, events by kind, CPU threads and GPU\n"
            "streams with event counts, time span (us), collective kernels by type, GPU ops without a\n"
            "launch call, what the replay keeps as measured (prewindow_ops: GPU ops launched before the\n"
            "window; threads_released_at_measured; unexplained_wait_us and unexplained_gpu_wait_us), a\n"
            "graph object with the repairs the execution graph made, a structure object (the parallel\n"
            "layout dp x tp x pp and each rank's place, micro-batches, layer blocks; docs/Structure.md),\n"
            "a roofline object (the GPU's datasheet peaks and, per kernel class and top kernel, FLOPs and\n"
            "bytes from the ops' recorded shapes, intensity, achieved TFLOP/s and TB/s as fractions of\n"
            "peak, compute- or memory-bound; docs/GpuModel.md), the warnings (their lines) and\n"
            "warning_stats (one counter per kind of warning: key, severity, count, lines, message, example;\n"
            "docs/Diagnostics.md).\n"
            "\n"
            "  --et ET_PATH  PyTorch execution traces (files or folders) of the same run: collectives\n"
            "                without Kineto sizes and ops recorded without shapes take them from the\n"
            "                linked ET nodes (the roofline's with_shapes counts grow)\n"
            "  --compact   print the JSON on one line\n"
            "  --stats     print the warning counters as a table instead of the JSON\n",
            [](Args& args) {
                bool compact = args.flag("--compact");
                bool stats = args.flag("--stats");
                auto etPaths = args.options("--et");
                auto paths = args.positional();
                if (paths.empty()) throw UsageError{"info needs at least one PATH"};
                etPaths = etPathsOrRunFolder(paths, std::move(etPaths));
                TraceSet set = loadWithProgress(paths);
                EtApplied et = applyExecutionTraces(set, etPaths);
                if (et.files > 0) std::fprintf(stderr, "note: %s\n", et.summary().c_str());
                Warnings warnings;
                const nlohmann::json j = traceInfoReport(set, et.warnings, &warnings);
                if (stats) {
                    std::cout << statsTable(warnings.stats());
                    return kExitOk;
                }
                std::cout << j.dump(compact ? -1 : 2) << "\n";
                return kExitOk;
            }};
}

CommandRegistrar registerInfo{makeInfoCommand()};

} // namespace

} // namespace sl::cli
