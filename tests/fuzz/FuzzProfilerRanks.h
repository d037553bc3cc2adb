#pragma once
// The body of the fuzz entry points of the profiler readers that give ranks (rocprofv3, XSpace):
// the ranks read from the bytes, their execution graph and one replay. Acceptable outcomes: a
// simulated graph, sl::LoadError (bad file) or sl::GraphError; anything else is a bug.
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"
#include "io/RankFinalizer.h"
#include "sim/Simulator.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

template <typename Read>
int fuzzProfilerRanks(const std::uint8_t* data, std::size_t size, const std::string& name, Read read) {
    sl::LoadOptions options;
    options.threads = 1;
    options.maxEventsPerFile = 200'000;
    options.memoryLimitBytes = 512LL << 20; // keeps gzip bombs inside libFuzzer's RSS limit
    try {
        sl::TraceSet set;
        set.ranks = read(std::string_view(reinterpret_cast<const char*>(data), size), name, 0, options);
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
