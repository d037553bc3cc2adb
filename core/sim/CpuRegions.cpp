#include "sim/CpuRegions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>

namespace sl {

CpuRegions::CpuRegions(const ExecutionGraph& g, const std::vector<std::pair<std::string, double>>& patterns)
    : g_(g) {
    pieces_.resize(g.processors.size());
    if (patterns.empty()) return;
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
        for (std::size_t i = 0; i < ev.size(); ++i) {
            EventKind k = ev.kind[i];
            if (k != EventKind::CpuOp && k != EventKind::PythonFunction && k != EventKind::UserAnnotation)
                continue;
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
