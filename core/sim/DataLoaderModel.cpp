#include "sim/DataLoaderModel.h"

#include "base/Rounding.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace sl {

bool isDataLoaderOpName(std::string_view name) {
    return name.find("DataLoader") != std::string_view::npos &&
           (name.find("__next__") != std::string_view::npos || name.starts_with("enumerate("));
}

bool isMainProcessDataWorkName(std::string_view name) {
    for (std::string_view part : {"pin_memory", "collate", "_process_data", "rebuild_"})
        if (name.find(part) != std::string_view::npos) return true;
    return name == "aten::stack";
}

double workerParallelism(int workers, int cores) {
    if (workers <= 0) return 0;
    if (cores <= 0 || workers + 1 <= cores) return workers;
    return static_cast<double>(workers) * cores / (workers + 1);
}

namespace {

bool isHostWork(EventKind k) {
    return k == EventKind::CpuOp || k == EventKind::PythonFunction || k == EventKind::UserAnnotation;
}

// Adds [a, b) to sorted disjoint intervals that only grow to the right (nested ops start in order).
void addKept(DataWait& w, TimeNs a, TimeNs b) {
    if (b <= a) return;
    if (!w.kept.empty() && a <= w.kept.back().second) {
        if (b > w.kept.back().second) {
            w.keptTime += b - w.kept.back().second;
            w.kept.back().second = b;
        }
        return;
    }
    w.kept.push_back({a, b});
    w.keptTime += b - a;
}

} // namespace

std::vector<DataWait> findDataWaits(const Rank& rank, const Track& track) {
    std::vector<DataWait> waits;
    const auto& ev = track.events;
    for (std::size_t i = 0; i < ev.size(); ++i) {
        if (!isHostWork(ev.kind[i]) || ev.duration[i] <= 0) continue;
        const std::string_view name = rank.strings.str(ev.name[i]);
        if (!waits.empty() && ev.start[i] < waits.back().end) {
            if (isMainProcessDataWorkName(name))
                addKept(waits.back(), ev.start[i], std::min(ev.end(i), waits.back().end));
            continue;
        }
        if (isDataLoaderOpName(name)) waits.push_back({ev.start[i], ev.end(i), {}, 0});
    }
    return waits;
}

std::vector<DataPiece> retimeDataWaits(const std::vector<DataWait>& waits, TimeNs window,
                                       const DataLoaderKnobs& k, double compute) {
    std::vector<DataPiece> out;
    for (std::size_t i = 0; i < waits.size(); ++i) {
        const DataWait& w = waits[i];
        const TimeNs moved = w.duration() - w.keptTime; // what workers take over (in-process: the fetch)
        if (moved <= 0) continue;
        double factor = compute / k.speedup;
        if (k.workers > 0) {
            // The rest of the step before the next batch is asked for: the time since the previous
            // wait; for the first one, the time until the next (steady state: the step before it as
            // long as the step after), or the window without the wait when it is the only one.
            const TimeNs other = i > 0              ? w.start - waits[i - 1].end
                                 : waits.size() > 1 ? waits[1].start - w.end
                                                    : window - w.duration();
            // In steady state the pool delivers a batch every (load / speedup) / parallelism; the main
            // thread asks again after its kept work and the rest of the step, and waits for the rest.
            const double interval =
                static_cast<double>(moved) * compute / k.speedup / workerParallelism(k.workers, k.cores);
            const double wait = std::max(0.0, interval - static_cast<double>(std::max<TimeNs>(0, other)) -
                                                  static_cast<double>(w.keptTime));
            factor = wait / static_cast<double>(moved);
        }
        TimeNs at = w.start;
        for (const auto& [a, b] : w.kept) {
            if (a > at) out.push_back({at, a, factor});
            at = std::max(at, b);
        }
        if (w.end > at) out.push_back({at, w.end, factor});
    }
    return out;
}

int busyCpuThreads(const ExecutionGraph& g) {
    int most = 0;
    for (const Rank& rank : g.trace->ranks) {
        std::vector<std::pair<TimeNs, int>> edges; // +1 at a busy stretch's start, -1 at its end
        for (const Track& track : rank.tracks) {
            if (track.isGpu()) continue;
            const auto& ev = track.events;
            TimeNs from = 0, to = std::numeric_limits<TimeNs>::min();
            for (std::size_t i = 0; i < ev.size(); ++i) {
                const EventKind k = ev.kind[i];
                if (!isHostWork(k) && k != EventKind::Runtime && k != EventKind::Driver) continue;
                // The step markers cover the whole step whether the thread works or waits.
                if (rank.strings.str(ev.name[i]).starts_with("ProfilerStep#")) continue;
                if (ev.start[i] > to) {
                    if (to > from) edges.push_back({from, 1}), edges.push_back({to, -1});
                    from = ev.start[i];
                }
                to = std::max(to, ev.end(i));
            }
            if (to > from) edges.push_back({from, 1}), edges.push_back({to, -1});
        }
        std::sort(edges.begin(), edges.end()); // an end before a start at the same time
        int busy = 0;
        for (const auto& e : edges)
            most = std::max(most, busy += e.second);
    }
    return std::max(1, most);
}

std::string dataLoaderRangeNote(const DataLoaderRange& r) {
    char text[480];
    const char* cores = r.busyCores == 1 ? "" : "s";
    if (r.busyCoresIteration == r.freeCoresIteration)
        std::snprintf(text, sizeof text,
                      "data.workers=%d with the machine's cores unknown (the trace does not record them; set "
                      "data.cores): %.1f us with the workers on free cores, the same if they share the %d "
                      "core%s the trace shows busy (the pool keeps pace either way)",
                      r.workers, us(r.freeCoresIteration), r.busyCores, cores);
    else
        std::snprintf(
            text, sizeof text,
            "data.workers=%d with the machine's cores unknown (the trace does not record them; set "
            "data.cores): %.1f us with the workers on free cores (the number shown), %.1f us if they "
            "share the %d core%s the trace shows busy",
            r.workers, us(r.freeCoresIteration), us(r.busyCoresIteration), r.busyCores, cores);
    return text;
}

} // namespace sl
