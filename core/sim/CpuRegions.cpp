#include "sim/CpuRegions.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <unordered_map>

namespace sl {

bool isMetadataOpName(std::string_view name) {
    if (name.starts_with("aten::")) name.remove_prefix(6);
    static constexpr std::array<std::string_view, 30> kNames = {
        "view",          "_unsafe_view", "reshape",   "_reshape_alias", "t",          "transpose",
        "permute",       "expand",       "expand_as", "slice",          "select",     "narrow",
        "as_strided",    "unsqueeze",    "squeeze",   "flatten",        "unflatten",  "split",
        "chunk",         "unbind",       "detach",    "detach_",        "alias",      "empty",
        "empty_strided", "empty_like",   "resize_",   "set_",           "lift_fresh", "split_with_sizes"};
    return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

bool isHostComputeOp(EventKind kind, std::string_view name, bool launches, bool insideLaunchingCpuOp) {
    if (isDataLoaderOpName(name)) return true;
    if (launches || insideLaunchingCpuOp) return false;
    switch (kind) {
    case EventKind::CpuOp:
        return !isMetadataOpName(name);
    case EventKind::PythonFunction:
    case EventKind::UserAnnotation: {
        // The framework's own Python and annotations (module calls, hooks, the optimizer's loop,
        // zero_grad, DDP's) are dispatch; user code, numpy, decoders and data pipelines that issue
        // no GPU work are compute.
        static constexpr std::array<std::string_view, 7> kFramework = {
            "torch/",     "<built-in method",        "ProfilerStep#",
            "Optimizer.", "DistributedDataParallel", "FullyShardedDataParallel",
            "autograd::"};
        return std::none_of(kFramework.begin(), kFramework.end(),
                            [&](std::string_view p) { return name.starts_with(p); });
    }
    default:
        return false;
    }
}

namespace {

// One region of a thread: a cpu.speedup[] match, a compute op or a data wait.
struct Region {
    enum Kind : std::uint8_t { Pattern, Compute, Data } kind;
    TimeNs start, end;
    double factor; // Pattern: the region's duration factor; Data: the wait's factor
};

} // namespace

CpuRegions::CpuRegions(const ExecutionGraph& g, const std::vector<std::pair<std::string, double>>& patterns,
                       DataLoaderKnobs data, HostFactors host, const std::vector<RemovedSpan>& removedSpans)
    : g_(g), dispatch_(host.dispatch) {
    pieces_.resize(g.processors.size());
    empty_ = !host.active();
    if (patterns.empty() && !data.active() && !host.active() && removedSpans.empty()) return;
    std::vector<std::vector<RemovedSpan>> removedOn(g.processors.size());
    for (const RemovedSpan& r : removedSpans)
        if (r.processor < removedOn.size()) removedOn[r.processor].push_back(r);
    std::vector<std::regex> res;
    for (const auto& [re, x] : patterns)
        res.emplace_back(re);
    for (std::uint32_t pi = 0; pi < g.processors.size(); ++pi) {
        const auto& p = g.processors[pi];
        if (p.gpu) continue;
        const Rank& rank = g.trace->ranks[p.rank];
        const Track& track = rank.tracks[p.track];
        const auto& ev = track.events;
        // Which ops issue GPU work: every runtime or driver call marks its enclosing ops.
        std::vector<char> launches(ev.size(), 0);
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind[i] != EventKind::Runtime && ev.kind[i] != EventKind::Driver) continue;
            for (std::int32_t a = ev.parent[i]; a >= 0 && !launches[static_cast<std::size_t>(a)];
                 a = ev.parent[static_cast<std::size_t>(a)])
                launches[static_cast<std::size_t>(a)] = 1;
        }
        std::unordered_map<StringId, double> byName; // factor per name (1: no match)
        std::vector<Region> regions;
        for (const RemovedSpan& r : removedOn[pi])
            regions.push_back({Region::Pattern, r.start, r.end, 0.0});
        // Data waits (sim/DataLoaderModel.h): the stretches of them the data knobs re-time.
        if (data.active()) {
            const std::vector<DataWait> waits = findDataWaits(rank, track);
            dataWaits_ += static_cast<std::int64_t>(waits.size());
            const RankWindow& w = g.ranks[p.rank];
            for (const DataPiece& d :
                 retimeDataWaits(waits, w.measuredEnd - w.measuredStart, data, host.compute))
                regions.push_back({Region::Data, d.start, d.end, d.factor});
        }
        for (std::size_t i = 0; i < ev.size(); ++i) {
            const EventKind k = ev.kind[i];
            if (k != EventKind::CpuOp && k != EventKind::PythonFunction && k != EventKind::UserAnnotation)
                continue;
            if (ev.duration[i] <= 0) continue;
            const std::string_view name = rank.strings.str(ev.name[i]);
            if (host.active()) {
                bool insideLaunchingCpuOp = false;
                for (std::int32_t a = ev.parent[i]; a >= 0; a = ev.parent[static_cast<std::size_t>(a)])
                    if (ev.kind[static_cast<std::size_t>(a)] == EventKind::CpuOp) {
                        insideLaunchingCpuOp = launches[static_cast<std::size_t>(a)] != 0;
                        break;
                    }
                if (isHostComputeOp(k, name, launches[i] != 0, insideLaunchingCpuOp))
                    regions.push_back({Region::Compute, ev.start[i], ev.end(i), host.compute});
            }
            if (patterns.empty()) continue;
            auto [it, fresh] = byName.try_emplace(ev.name[i], 1.0);
            if (fresh) {
                std::string s(name);
                for (std::size_t r = 0; r < res.size(); ++r)
                    if (std::regex_search(s, res[r])) it->second /= patterns[r].second; // inf -> 0
            }
            if (it->second != 1.0) regions.push_back({Region::Pattern, ev.start[i], ev.end(i), it->second});
        }
        if (regions.empty()) continue;
        // Sweep the boundaries: between two of them, the innermost cpu.speedup[] region holds (a
        // removed one removes everything nested), a data wait's own factor replaces the host's,
        // compute regions take host.compute and the rest host.dispatch.
        std::vector<std::pair<TimeNs, std::size_t>> bounds; // (time, region), opens and closes
        for (std::size_t r = 0; r < regions.size(); ++r) {
            bounds.push_back({regions[r].start, r});
            bounds.push_back({regions[r].end, r});
        }
        std::sort(bounds.begin(), bounds.end());
        std::vector<char> open(regions.size(), 0);
        std::vector<std::size_t> active;
        auto& out = pieces_[pi];
        TimeNs last = bounds.front().first;
        for (std::size_t b = 0; b < bounds.size();) {
            const TimeNs t = bounds[b].first;
            if (t > last && !active.empty()) {
                double pattern = 1.0, dataF = -1;
                TimeNs innermost = std::numeric_limits<TimeNs>::min();
                bool compute = false, removed = false;
                for (std::size_t r : active) {
                    const Region& reg = regions[r];
                    if (reg.kind == Region::Compute) compute = true;
                    if (reg.kind == Region::Data) dataF = reg.factor;
                    if (reg.kind != Region::Pattern) continue;
                    removed = removed || reg.factor == 0.0;
                    if (reg.start >= innermost) {
                        innermost = reg.start;
                        pattern = reg.factor;
                    }
                }
                if (removed) pattern = 0.0;
                const double base = dataF >= 0 ? dataF : compute ? host.compute : host.dispatch;
                const Piece piece{last, t, pattern * base, pattern * host.dispatch};
                if (piece.work != host.dispatch || piece.call != host.dispatch) {
                    if (!out.empty() && out.back().end == last && out.back().work == piece.work &&
                        out.back().call == piece.call)
                        out.back().end = t;
                    else
                        out.push_back(piece);
                }
                if (compute) computeTime_ += t - last;
            }
            last = t;
            // Every boundary at t: close those that end, open those that start.
            for (; b < bounds.size() && bounds[b].first == t; ++b) {
                const std::size_t r = bounds[b].second;
                if (open[r]) {
                    open[r] = 0;
                    active.erase(std::find(active.begin(), active.end(), r));
                } else if (regions[r].end > t) {
                    open[r] = 1;
                    active.push_back(r);
                }
            }
        }
        if (!out.empty()) empty_ = false;
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
    return p ? p->call : dispatch_;
}

TimeNs CpuRegions::work(NodeId onThreadOf, TimeNs a, TimeNs b, TimeNs covered) const {
    if (empty_ || covered <= 0) return covered;
    if (b <= a) return static_cast<TimeNs>(std::llround(static_cast<double>(covered) * dispatch_));
    const auto& v = pieces_[g_.nodes[onThreadOf].processor];
    auto it = std::upper_bound(v.begin(), v.end(), a, [](TimeNs x, const Piece& p) { return x < p.start; });
    if (it != v.begin()) --it;
    // Pieces lie inside ops, so their time is covered time; the rest of `covered` is dispatch.
    double inPieces = 0, scaled = 0;
    for (; it != v.end() && it->start < b; ++it) {
        const TimeNs lo = std::max(a, it->start), hi = std::min(b, it->end);
        if (hi <= lo) continue;
        inPieces += static_cast<double>(hi - lo);
        scaled += static_cast<double>(hi - lo) * it->work;
    }
    inPieces = std::min(inPieces, static_cast<double>(covered));
    scaled += (static_cast<double>(covered) - inPieces) * dispatch_;
    return std::max<TimeNs>(0, static_cast<TimeNs>(std::llround(scaled)));
}

} // namespace sl
