// libFuzzer target: bytes -> Kineto loader -> execution graph -> simulator.
// The input holds up to 4 rank files separated by "\n--rank--\n" (sharing one trace between ranks
// makes collectives match; different parts exercise mismatches). The first byte picks knobs.
// Acceptable outcomes: LoadError, GraphError, or a finished simulation; anything else is a bug.
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"
#include "io/RankFinalizer.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::uint8_t selector = data[0];
    std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
    std::vector<std::string_view> parts;
    constexpr std::string_view kSeparator = "\n--rank--\n";
    while (parts.size() < 3) {
        auto pos = input.find(kSeparator);
        if (pos == std::string_view::npos) break;
        parts.push_back(input.substr(0, pos));
        input.remove_prefix(pos + kSeparator.size());
    }
    parts.push_back(input);
    if (parts.size() == 1 && (selector & 1)) parts.push_back(parts[0]); // two identical ranks

    sl::LoadOptions options;
    options.threads = 1;
    options.maxEventsPerFile = 100'000;
    options.memoryLimitBytes = 256LL << 20;
    try {
        sl::TraceSet set;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            set.ranks.push_back(sl::loadKinetoBytes(parts[i], "rank-" + std::to_string(i) + ".json",
                                                    static_cast<int>(i), options));
            set.ranks.back().rank = static_cast<int>(i);
        }
        sl::finalizeTraceSet(set);
        sl::GraphOptions gopt;
        gopt.inferCrossStream = (selector & 2) == 0;
        gopt.matchCollectives = (selector & 4) == 0;
        if (selector & 8) gopt.step = selector >> 4;
        sl::ExecutionGraph graph = sl::buildExecutionGraph(set, gopt);
        sl::SimKnobs knobs;
        if (selector & 16) {
            knobs.computeSpeedup = 2.0;
            knobs.commOverlap = false;
            knobs.stragglerRank = 0;
            knobs.stragglerSlowdown = 3.0;
        }
        if (selector & 32) {
            knobs.commModel = sl::CommModel::AlphaBeta;
            knobs.commIntraNodeGBps = 100;
            knobs.commInterNodeGBps = 10;
            knobs.dpScale = 4.0;
        }
        sl::SimResult res = sl::simulate(graph, knobs);
        volatile std::int64_t sink = res.simulatedIteration;
        (void)sink;
    } catch (const sl::LoadError&) {
    } catch (const sl::GraphError&) {
    } catch (const sl::KnobError&) { // straggler.rank=0 on a set without rank 0: a clear error
    }
    return 0;
}
