// libFuzzer target: arbitrary bytes through the Nsight Systems SQLite reader (io/nsys, docs/Formats.md),
// the execution graph and one replay. SQLite itself opens the bytes (a malformed database is its
// job); what is fuzzed here is everything the reader does with what SQLite returns: missing
// tables and columns, NULLs, ids that name nothing, times out of order, huge counts. The only
// acceptable outcomes are a simulated set, sl::LoadError (bad file) or sl::GraphError; anything
// else (a crash, a sanitizer report, another exception, a hang) is a bug. Seeds: tests/data/bad
// (the *nsys* entries: a minimal export, truncated, flipped and foreign databases).
#include "graph/ExecutionGraph.h"
#include "io/LoadError.h"
#include "io/RankFinalizer.h"
#include "io/nsys/NsysLoader.h"
#include "sim/Simulator.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    sl::LoadOptions options;
    options.threads = 1;
    options.maxEventsPerFile = 200'000;
    try {
        sl::TraceSet set;
        set.ranks = sl::loadNsysBytes(std::string_view(reinterpret_cast<const char*>(data), size),
                                      "fuzz-input.sqlite", 0, options);
        sl::finalizeTraceSet(set);
        sl::ExecutionGraph g = sl::buildExecutionGraph(set);
        sl::SimResult res = sl::simulate(g, {}, {});
        volatile std::int64_t sink = res.simulatedIteration;
        (void)sink;
    } catch (const sl::LoadError&) {
    } catch (const sl::GraphError&) {
    }
    return 0;
}
