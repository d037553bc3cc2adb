#include "CliCommon.h"

#include "analysis/TraceInfo.h"

#include <iostream>

namespace sl::cli {

namespace {

Command makeInfoCommand() {
    return {"info", "JSON summary of a trace or rank set",
            "usage: sightline-cli info PATH... [--compact]\n"
            "\n"
            "Loads Kineto traces (.json or .json.gz; files, or folders of per-rank files) and prints one\n"
            "JSON object: per rank its id, device, world size, events by kind, CPU threads and GPU\n"
            "streams with event counts, time span (us), collective kernels by type, GPU ops without a\n"
            "launch call, and warnings.\n"
            "\n"
            "  --compact   print the JSON on one line\n",
            [](Args& args) {
                bool compact = args.flag("--compact");
                auto paths = args.positional();
                if (paths.empty()) throw UsageError{"info needs at least one PATH"};
                TraceSet set = loadWithProgress(paths);
                std::cout << traceInfoJson(set).dump(compact ? -1 : 2) << "\n";
                return kExitOk;
            }};
}

CommandRegistrar registerInfo{makeInfoCommand()};

} // namespace

} // namespace sl::cli
