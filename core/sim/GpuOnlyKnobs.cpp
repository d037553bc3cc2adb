#include "sim/GpuOnlyKnobs.h"

#include <string>
#include <utility>
#include <vector>

namespace sl {

void warnHostKnobsOnGpuOnlyRanks(const ExecutionGraph& g, const SimKnobs& knobs, Warnings& out) {
    if (!g.trace) return;
    std::vector<int> gpuOnly;
    for (const Rank& r : g.trace->ranks) {
        const std::int64_t calls = r.eventsByKind[static_cast<std::size_t>(EventKind::Runtime)] +
                                   r.eventsByKind[static_cast<std::size_t>(EventKind::Driver)];
        if (calls == 0 && r.hasMeasuredTimes) gpuOnly.push_back(r.rank);
    }
    if (gpuOnly.empty()) return;
    const SimKnobs defaults;
    const std::pair<const char*, bool> hostKnobs[] = {
        {"cpu.speedup", knobs.cpuSpeedup != defaults.cpuSpeedup},
        {"cpu.speedup[<regex>]", !knobs.cpuRegionSpeedup.empty()},
        {"launch.latency_us", knobs.launchLatencyUs != defaults.launchLatencyUs},
        {"host.dispatch", knobs.hostDispatch != defaults.hostDispatch},
        {"host.compute", knobs.hostCompute != defaults.hostCompute},
        {"data.workers", knobs.dataWorkers != defaults.dataWorkers},
        {"data.speedup", knobs.dataSpeedup != defaults.dataSpeedup},
        {"data.cores", knobs.dataCores != defaults.dataCores},
    };
    std::string ranks;
    for (std::size_t i = 0; i < gpuOnly.size() && i < 8; ++i)
        ranks += (i ? ", " : "") + std::to_string(gpuOnly[i]);
    if (gpuOnly.size() > 8) ranks += ", ...";
    const bool all = gpuOnly.size() == g.trace->ranks.size();
    for (const auto& [key, set] : hostKnobs) {
        if (!set) continue;
        out.addForKnob(
            key, Warn::KnobNoEffect,
            std::string("knob ") + key + " cannot act on " + (all ? "this set" : "rank(s) " + ranks) +
                ": loaded GPU-only, without CPU-side records (no runtime calls, no host work), its GPU "
                "queues replay in stream order",
            static_cast<std::int64_t>(gpuOnly.size()));
    }
}

} // namespace sl
