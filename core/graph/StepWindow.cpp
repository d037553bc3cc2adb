// The step window of each rank and the clock every rank is simulated in.
#include "graph/GraphBuilder.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace sl::graph_build {

namespace {

// Distinct ProfilerStep#N ranges on the rank's CPU threads that are in the window.
int countProfilerSteps(const Rank& rank, const std::vector<std::vector<NodeId>>& idx) {
    std::vector<bool> isStep(rank.strings.size(), false);
    bool any = false;
    for (StringId id = 0; id < rank.strings.size(); ++id)
        if (rank.strings.str(id).starts_with("ProfilerStep#")) any = isStep[id] = true;
    if (!any) return 0;
    std::unordered_set<StringId> seen;
    for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
        const auto& t = rank.tracks[ti];
        if (t.isGpu()) continue;
        for (std::size_t i = 0; i < t.events.size(); ++i)
            if (t.events.name[i] < isStep.size() && isStep[t.events.name[i]] && idx[ti][i] != kOutsideWindow)
                seen.insert(t.events.name[i]);
    }
    return static_cast<int>(seen.size());
}

} // namespace

void Builder::findWindows() {
    g.ranks.resize(set.ranks.size());
    g.nodeIndex.resize(set.ranks.size());
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        g.ranks[r].rankId = set.ranks[r].rank;
    // Every GPU time below is on the host clock.
    estimateGpuClockOffsets();
    const std::string stepName = "ProfilerStep#" + std::to_string(opt.step);
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        RankWindow& w = g.ranks[r];
        w.windowStart = std::numeric_limits<TimeNs>::min();
        w.windowEnd = std::numeric_limits<TimeNs>::max();
        if (opt.step >= 0) {
            bool found = false;
            StringId id = rank.strings.find(stepName);
            for (const auto& t : rank.tracks) {
                if (t.isGpu() || id == StringTable::kNone) continue;
                for (std::size_t i = 0; i < t.events.size(); ++i) {
                    if (t.events.name[i] != id) continue;
                    if (!found || t.events.start[i] < w.windowStart) {
                        w.windowStart = t.events.start[i];
                        w.windowEnd = t.events.end(i);
                    }
                    found = true;
                }
            }
            if (!found)
                throw GraphError(rank.sourcePath, stepName + " not found (the trace has no such step)");
            w.hasStep = true;
        }
        // Window membership: CPU events by start; GPU events by their launch, else by start.
        auto& idx = g.nodeIndex[r];
        idx.resize(rank.tracks.size());
        auto inCpuWindow = [&](TimeNs t) { return t >= w.windowStart && t <= w.windowEnd; };
        TimeNs gpuEnd = w.windowEnd;
        for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
            const auto& t = rank.tracks[ti];
            const auto& ev = t.events;
            idx[ti].assign(ev.size(), kNoNode);
            if (!w.hasStep) continue;
            const TimeNs shift = g.clockShift(static_cast<std::uint32_t>(r), t);
            for (std::size_t i = 0; i < ev.size(); ++i) {
                bool in;
                if (!t.isGpu()) {
                    in = inCpuWindow(ev.start[i]);
                } else if (ev.link[i] != kNoLink) {
                    EventRef l = EventRef::unpack(ev.link[i]);
                    in = inCpuWindow(rank.tracks[l.track].events.start[l.index]);
                    if (in && w.windowEnd != std::numeric_limits<TimeNs>::max())
                        gpuEnd = std::max(gpuEnd, ev.end(i) - shift);
                } else {
                    continue; // decided below
                }
                if (!in) idx[ti][i] = kOutsideWindow;
            }
        }
        for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
            const auto& t = rank.tracks[ti];
            if (!t.isGpu() || !w.hasStep) continue;
            const TimeNs shift = g.clockShift(static_cast<std::uint32_t>(r), t);
            for (std::size_t i = 0; i < t.events.size(); ++i)
                if (t.events.link[i] == kNoLink &&
                    !(t.events.start[i] - shift >= w.windowStart && t.events.start[i] - shift <= gpuEnd))
                    idx[ti][i] = kOutsideWindow;
        }
        // Measured span of the window.
        TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
        for (std::size_t ti = 0; ti < rank.tracks.size(); ++ti) {
            const auto& ev = rank.tracks[ti].events;
            const TimeNs shift = g.clockShift(static_cast<std::uint32_t>(r), rank.tracks[ti]);
            for (std::size_t i = 0; i < ev.size(); ++i) {
                if (idx[ti][i] == kOutsideWindow || ev.kind[i] == EventKind::Instant) continue;
                lo = std::min(lo, ev.start[i] - shift);
                hi = std::max(hi, ev.end(i) - shift);
            }
        }
        if (lo > hi) lo = hi = 0;
        w.measuredStart = lo;
        w.measuredEnd = hi;
        w.profilerSteps = countProfilerSteps(rank, idx);
    }
    // One clock for all ranks unless clock bases differ or starts lie far apart.
    bool sameClock = true;
    TimeNs minStart = std::numeric_limits<TimeNs>::max(), maxStart = std::numeric_limits<TimeNs>::min();
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        if (set.ranks[r].clockBaseNs != set.ranks[0].clockBaseNs) sameClock = false;
        minStart = std::min(minStart, g.ranks[r].measuredStart);
        maxStart = std::max(maxStart, g.ranks[r].measuredStart);
    }
    if (!set.ranks.empty() && maxStart - minStart > 60'000'000'000LL) sameClock = false;
    for (auto& w : g.ranks)
        w.origin = sameClock ? minStart : w.measuredStart;
    if (!sameClock)
        g.warnings.add(Warn::RankClocksAligned,
                       "rank clocks differ (different clock bases or starts over 60 s apart): each rank "
                       "is aligned at its first event");
}

} // namespace sl::graph_build
