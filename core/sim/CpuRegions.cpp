#include "sim/CpuRegions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>

namespace sl {

bool isDataLoaderOpName(std::string_view name) {
    return name.find("DataLoader") != std::string_view::npos &&
           (name.find("__next__") != std::string_view::npos || name.starts_with("enumerate("));
}

namespace {

// The factor of one data wait under a worker pool. A batch takes `load` to make in-process (the op's
// measured time); `workers` processes, each with batches prefetched ahead (PyTorch's default
// prefetch factor 2), deliver a batch every load / workers once they are busy, so in steady state
// the host waits only for what the pool has not made while the rest of the step (`other`) ran.
double dataWaitFactor(TimeNs load, TimeNs other, const DataLoaderKnobs& d) {
    if (load <= 0) return 1.0;
    const double perBatch = static_cast<double>(load) / d.speedup;
    if (d.workers <= 0) return perBatch / static_cast<double>(load);
    const double wait = std::max(0.0, perBatch / d.workers - static_cast<double>(std::max<TimeNs>(0, other)));
    return wait / static_cast<double>(load);
}

} // namespace

CpuRegions::CpuRegions(const ExecutionGraph& g, const std::vector<std::pair<std::string, double>>& patterns,
                       DataLoaderKnobs data)
    : g_(g) {
    pieces_.resize(g.processors.size());
    if (patterns.empty() && !data.active()) return;
    std::vector<std::regex> res;
    for (const auto& [re, x] : patterns)
        res.emplace_back(re);
    for (std::uint32_t pi = 0; pi < g.processors.size(); ++pi) {
        const auto& p = g.processors[pi];
        if (p.gpu) continue;
        const Rank& rank = g.trace->ranks[p.rank];
        const Track& track = rank.tracks[p.track];
        const auto& ev = track.events;
        std::unordered_map<StringId, double> byName; // factor per name (1: no match)
        // Boundaries of matching regions: (time, +factor opens / -factor closes).
        std::vector<std::pair<TimeNs, double>> opens, closes;
        // Data waits: the end of the previous one on this thread (the rest of the step runs between).
        TimeNs lastDataEnd = std::numeric_limits<TimeNs>::min();
        const RankWindow& w = g.ranks[p.rank];
        for (std::size_t i = 0; i < ev.size(); ++i) {
            EventKind k = ev.kind[i];
            if (k != EventKind::CpuOp && k != EventKind::PythonFunction && k != EventKind::UserAnnotation)
                continue;
            if (data.active() && ev.start[i] >= lastDataEnd && ev.duration[i] > 0 &&
                isDataLoaderOpName(rank.strings.str(ev.name[i]))) {
                // The first wait of the window: assume the step before it was as long as this one
                // (steady state), so the rest of the step is the window minus this wait.
                const TimeNs other = lastDataEnd == std::numeric_limits<TimeNs>::min()
                                         ? (w.measuredEnd - w.measuredStart) - ev.duration[i]
                                         : ev.start[i] - lastDataEnd;
                lastDataEnd = ev.end(i);
                ++dataWaits_;
                const double f = dataWaitFactor(ev.duration[i], other, data);
                if (f != 1.0) { // slower loading (data.speedup < 1) lengthens the wait
                    opens.push_back({ev.start[i], f});
                    closes.push_back({ev.end(i), f});
                }
            }
            if (patterns.empty()) continue;
            auto [it, fresh] = byName.try_emplace(ev.name[i], 1.0);
            if (fresh) {
                std::string name(rank.strings.str(ev.name[i]));
                for (std::size_t r = 0; r < res.size(); ++r)
                    if (std::regex_search(name, res[r])) it->second /= patterns[r].second; // inf -> 0
            }
            if (it->second >= 1.0 || ev.duration[i] <= 0) continue;
            opens.push_back({ev.start[i], it->second});
            closes.push_back({ev.end(i), it->second});
        }
        if (opens.empty()) continue;
        empty_ = false;
        std::sort(closes.begin(), closes.end());
        // Sweep: the strongest (smallest) active factor holds between consecutive boundaries.
        std::multiset<double> active;
        std::size_t oi = 0, ci = 0;
        TimeNs last = 0;
        auto& out = pieces_[pi];
        while (oi < opens.size() || ci < closes.size()) {
            bool open = ci >= closes.size() || (oi < opens.size() && opens[oi].first < closes[ci].first);
            TimeNs t = open ? opens[oi].first : closes[ci].first;
            if (!active.empty() && t > last) {
                double f = *active.begin();
                if (!out.empty() && out.back().end == last && out.back().factor == f)
                    out.back().end = t;
                else
                    out.push_back({last, t, f});
            }
            last = t;
            if (open)
                active.insert(opens[oi++].second);
            else
                active.erase(active.find(closes[ci++].second));
        }
    }
}

const CpuRegions::Piece* CpuRegions::pieceAt(std::uint32_t processor, TimeNs t) const {
    const auto& v = pieces_[processor];
    auto it = std::upper_bound(v.begin(), v.end(), t, [](TimeNs x, const Piece& p) { return x < p.start; });
    if (it == v.begin()) return nullptr;
    --it;
    return t < it->end ? &*it : nullptr;
}

double CpuRegions::nodeFactor(NodeId n) const {
    if (empty_) return 1.0;
    const auto& node = g_.nodes[n];
    // A call nested in a region: its midpoint lies inside it.
    TimeNs mid = g_.measuredStart(n) + (g_.measuredEnd(n) - g_.measuredStart(n)) / 2;
    const Piece* p = pieceAt(node.processor, mid);
    return p ? p->factor : 1.0;
}

TimeNs CpuRegions::saved(NodeId onThreadOf, TimeNs a, TimeNs b) const {
    if (empty_ || b <= a) return 0;
    const auto& v = pieces_[g_.nodes[onThreadOf].processor];
    auto it = std::upper_bound(v.begin(), v.end(), a, [](TimeNs x, const Piece& p) { return x < p.start; });
    if (it != v.begin()) --it;
    double saved = 0;
    for (; it != v.end() && it->start < b; ++it) {
        TimeNs lo = std::max(a, it->start), hi = std::min(b, it->end);
        if (hi > lo) saved += static_cast<double>(hi - lo) * (1.0 - it->factor);
    }
    return static_cast<TimeNs>(std::llround(saved));
}

} // namespace sl
