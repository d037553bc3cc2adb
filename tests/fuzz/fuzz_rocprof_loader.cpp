// libFuzzer target: arbitrary bytes through the rocprofv3 JSON reader (io/rocprof), the execution graph of
// the ranks it gives and one replay. The only acceptable outcomes are a simulated graph, sl::LoadError (bad
// file) or sl::GraphError; anything else (a crash, a sanitizer report, another exception, a hang) is a bug.
// Seeds: tests/data/bad/*rocprof* and tests/data/formats/rocprof.
#include "graph/ExecutionGraph.h"
#include "io/LoadError.h"
#include "io/RankFinalizer.h"
#include "io/rocprof/RocprofLoader.h"
#include "sim/Simulator.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    sl::LoadOptions options;
    options.threads = 1;
    options.maxEventsPerFile = 200'000;
    options.memoryLimitBytes = 512LL << 20; // keeps gzip bombs inside libFuzzer's RSS limit
    try {
        sl::TraceSet set;
        set.ranks = sl::loadRocprofBytes(std::string_view(reinterpret_cast<const char*>(data), size),
                                         "fuzz-input.json", 0, options);
        sl::finalizeTraceSet(set);
        sl::ExecutionGraph g = sl::buildExecutionGraph(set);
        sl::SimOptions so;
        so.timeline = true;
        sl::SimResult res = sl::simulate(g, {}, so);
        volatile std::int64_t sink = res.simulatedIteration;
        (void)sink;
    } catch (const sl::LoadError&) {
    } catch (const sl::GraphError&) {
    }
    return 0;
}
