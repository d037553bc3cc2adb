// libFuzzer target: arbitrary bytes through the Chakra .et reader, the Chakra rank and graph
// builders and one replay (docs/Chakra.md). The only acceptable outcomes are a simulated graph,
// sl::LoadError (bad file) or sl::GraphError (a graph that cannot be valid, e.g. collectives in
// inconsistent orders); anything else (a crash, a sanitizer report, another exception, a hang) is
// a bug. Seeds: tests/data/bad/*.et and ../shared/traces/chakra.
#include "graph/ExecutionGraph.h"
#include "io/LoadError.h"
#include "io/chakra/ChakraReader.h"
#include "io/chakra/ChakraTraceSet.h"
#include "sim/Simulator.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    sl::ChakraLimits limits;
    limits.maxNodes = 200'000;
    try {
        sl::ChakraFile f = sl::readChakraBytes(std::string_view(reinterpret_cast<const char*>(data), size),
                                               "fuzz-input.0.et", limits);
        sl::TraceSet set;
        // Two copies of the rank: collective matching across ranks runs too.
        set.ranks.push_back(sl::chakraRank(f, 0, 2));
        set.ranks.push_back(sl::chakraRank(f, 1, 2));
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
