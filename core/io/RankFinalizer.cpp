#include "io/RankFinalizer.h"

#include "base/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <thread>
#include <type_traits>
#include <unordered_map>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace sl {

using namespace detail;

namespace {

// The order of a track's events: by start, the longer first at equal starts (a parent before the
// children that start with it).
bool startsBefore(TimeNs start, TimeNs duration, TimeNs otherStart, TimeNs otherDuration) {
    return start != otherStart ? start < otherStart : duration > otherDuration;
}

// A stable sort for what profilers write: a thread's events in order but for a few (on a 200 MB
// Kineto trace 3 to 12 out of place in 100,000). The ordered runs are merged pairwise (stable, so
// the result is std::stable_sort's), O(n log runs); many runs go to std::stable_sort.
template <typename Before> void stableSortNearlySorted(std::vector<std::uint32_t>& order, Before before) {
    std::vector<std::size_t> bounds{0};
    for (std::size_t i = 1; i < order.size(); ++i)
        if (before(order[i], order[i - 1])) bounds.push_back(i);
    bounds.push_back(order.size());
    if (bounds.size() > 1025) {
        std::stable_sort(order.begin(), order.end(), before);
        return;
    }
    while (bounds.size() > 2) {
        std::vector<std::size_t> merged{0};
        for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
            const std::size_t end = r + 2 < bounds.size() ? bounds[r + 2] : bounds[r + 1];
            if (r + 2 < bounds.size()) {
                // Only where the two runs overlap: their first and last events stay where they are
                // (the first run's events not after the second's first, the second's not before the
                // first's last). Runs of a profiler's track overlap by a few events.
                const auto first = order.begin() + static_cast<std::ptrdiff_t>(bounds[r]);
                const auto middle = order.begin() + static_cast<std::ptrdiff_t>(bounds[r + 1]);
                const auto last = order.begin() + static_cast<std::ptrdiff_t>(end);
                std::inplace_merge(std::upper_bound(first, middle, *middle, before), middle,
                                   std::lower_bound(middle, last, *(middle - 1), before), before);
            }
            merged.push_back(end);
        }
        bounds.swap(merged);
    }
}

// Writes a track's raw events (a whole-file parse's; the pieces of a chunked parse are appended as
// they are merged) after its columns, freeing each segment once written, then sorts the columns
// by start (ties: longer first). Raw events and columns are never both whole in memory.
void fillColumns(Rank& rank, std::uint32_t trackIdx, RawSegments& segments) {
    Track& track = rank.tracks[trackIdx];
    EventColumns& ev = track.events;
    std::size_t raw = 0;
    for (const auto& seg : segments)
        raw += seg.size();
    if (raw > 0) {
        ev.reserve(ev.size() + raw);
        for (auto& seg : segments) {
            appendRawEvents(ev, seg, rank.argsFile != nullptr);
            std::vector<RawEvent>().swap(seg);
        }
    }
    RawSegments().swap(segments);
    const std::size_t n = ev.size();
    // Profilers mostly write a thread's events in order already: checking is cheaper than sorting.
    bool sorted = true;
    for (std::size_t i = 1; i < n && sorted; ++i)
        sorted = !startsBefore(ev.start[i], ev.duration[i], ev.start[i - 1], ev.duration[i - 1]);
    ev.link.assign(n, kNoLink);
    if (!sorted) {
        // A stable sort of the event order, applied to one column at a time (the extra memory is
        // one index per event plus one column).
        std::vector<std::uint32_t> order(n);
        std::iota(order.begin(), order.end(), 0u);
        auto before = [&](std::uint32_t a, std::uint32_t b) {
            return startsBefore(ev.start[a], ev.duration[a], ev.start[b], ev.duration[b]);
        };
        stableSortNearlySorted(order, before);
        // Each column gathered into a buffer of its type, which then takes the column's place; the
        // column's old buffer serves the next column of that type (fewer page faults than a new
        // buffer per column).
        auto permute = [&](auto&... columns) {
            std::remove_reference_t<decltype((columns, ...))> out;
            auto gather = [&](auto& column) {
                if (column.empty()) return;
                out.resize(n);
                for (std::size_t i = 0; i < n; ++i)
                    out[i] = column[order[i]];
                column.swap(out);
            };
            (gather(columns), ...);
        };
        permute(ev.start, ev.duration, ev.correlation);
        permute(ev.argsOffset, ev.argsFileOffset);
        permute(ev.name, ev.extra, ev.argsLength, ev.argsFileLength);
        permute(ev.kind);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t extra = ev.extra[i];
        if (extra == kNoExtra) continue;
        EventRef ref{trackIdx, static_cast<std::uint32_t>(i)};
        if (ev.kind[i] == EventKind::Kernel)
            rank.collectives[extra].kernel = ref;
        else if (ev.kind[i] == EventKind::CudaSync)
            rank.syncs[extra].event = ref;
        else
            rank.commCalls[extra].kernel = ref;
    }
}

// The number after `quoted:` in an args object's text (quoted: the key in its quotes), or -1.
double argNumber(std::string_view args, std::string_view quoted) {
    auto at = args.find(quoted);
    if (at == std::string_view::npos) return -1;
    at = args.find(':', at + quoted.size());
    if (at == std::string_view::npos) return -1;
    ++at;
    while (at < args.size() && (args[at] == ' ' || args[at] == '\t'))
        ++at;
    double v = -1;
    auto [p, ec] = std::from_chars(args.data() + at, args.data() + args.size(), v);
    (void)p;
    return ec == std::errc() ? v : -1;
}

// Total blocks of a "grid": [x, y, z] array (the product of the numbers it starts with), or -1.
double gridBlocks(std::string_view args) {
    auto at = args.find("\"grid\"");
    if (at == std::string_view::npos) return -1;
    at = args.find('[', at);
    if (at == std::string_view::npos) return -1;
    double total = 1;
    const char* p = args.data() + at + 1;
    const char* end = args.data() + args.size();
    for (int i = 0; i < 3 && p < end; ++i) {
        while (p < end && (*p == ' ' || *p == ','))
            ++p;
        long long v = 0;
        auto [q, ec] = std::from_chars(p, end, v);
        if (ec != std::errc()) break;
        total *= static_cast<double>(v);
        p = q;
    }
    return total;
}

// Rank::kernelLaunches of one GPU stream, from its kernels' args (the kept "grid" and "blocks per
// SM" of a lazily read file, the whole args otherwise). Once per load, beside the nesting, so that
// readers of the graph never parse them: a stream without any keeps an empty table.
void fillKernelLaunches(Rank& rank, std::uint32_t trackIdx) {
    const Track& track = rank.tracks[trackIdx];
    if (!track.isGpu()) return;
    const EventColumns& ev = track.events;
    std::vector<KernelLaunch>& table = rank.kernelLaunches[trackIdx];
    for (std::uint32_t i = 0; i < ev.size(); ++i) {
        if (ev.kind[i] != EventKind::Kernel || ev.argsLength[i] == 0) continue;
        const std::string_view args = rank.args({trackIdx, i});
        const double grid = gridBlocks(args), perSm = argNumber(args, "\"blocks per SM\"");
        if (grid < 0 && perSm < 0) continue;
        const KernelLaunch launch{KernelLaunch::atMost(grid), KernelLaunch::atMost(perSm)};
        if (table.empty()) table.resize(ev.size());
        table[i] = launch;
    }
}

// Nesting by containment: an event is the child of the innermost earlier event that encloses it.
void computeNesting(Track& track) {
    EventColumns& ev = track.events;
    ev.depth.assign(ev.size(), 0);
    ev.parent.assign(ev.size(), -1);
    std::vector<std::int32_t> stack;
    std::uint16_t maxDepth = 0;
    for (std::size_t i = 0; i < ev.size(); ++i) {
        TimeNs end = ev.end(i);
        while (!stack.empty() && ev.end(static_cast<std::size_t>(stack.back())) < end)
            stack.pop_back();
        // Zero-length events exactly at a parent's end still belong to it; a parent that ended
        // before this one started is popped above because its end < this end.
        while (!stack.empty() && ev.end(static_cast<std::size_t>(stack.back())) <= ev.start[i] &&
               ev.duration[i] > 0)
            stack.pop_back();
        if (!stack.empty()) ev.parent[i] = stack.back();
        auto depth = static_cast<std::uint16_t>(std::min<std::size_t>(stack.size(), 65535));
        ev.depth[i] = depth;
        maxDepth = std::max(maxDepth, depth);
        stack.push_back(static_cast<std::int32_t>(i));
    }
    track.maxDepth = maxDepth;
}

void nameTracks(Rank& rank, const ParsedRank& parsed) {
    for (auto& t : rank.tracks) {
        if (t.isGpu()) {
            t.name = "GPU " + std::to_string(t.device()) +
                     (t.stream() < 0 ? std::string(" sync") : " stream " + std::to_string(t.stream()));
            continue;
        }
        auto it = parsed.threadNames.find({false, t.pid, t.tid});
        std::string thread = it != parsed.threadNames.end() && !it->second.empty()
                                 ? it->second
                                 : "thread " + std::to_string(t.tid);
        t.name = thread;
    }
    // CPU threads first (by pid, tid), then GPU streams (by device, stream): the order users expect.
    std::vector<std::uint32_t> order(rank.tracks.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const Track& x = rank.tracks[a];
        const Track& y = rank.tracks[b];
        if (x.kind != y.kind) return x.kind == TrackKind::CpuThread;
        if (x.pid != y.pid) return x.pid < y.pid;
        return x.tid < y.tid;
    });
    bool identity = true;
    for (std::size_t i = 0; i < order.size(); ++i)
        identity = identity && order[i] == i;
    if (identity) return;
    std::vector<Track> sorted;
    std::vector<RawSegments> sortedRaw;
    sorted.reserve(order.size());
    sortedRaw.reserve(order.size());
    for (auto idx : order) {
        sorted.push_back(std::move(rank.tracks[idx]));
        sortedRaw.push_back(std::move(parsed.rawByTrack[idx]));
    }
    rank.tracks = std::move(sorted);
    parsed.rawByTrack = std::move(sortedRaw);
}

// Old traces may carry the correlation only on the ac2g flow; recover it from the flow end points.
void recoverCorrelationsFromFlows(Rank& rank, FlowSegments& flows) {
    bool none = true;
    for (const auto& seg : flows)
        none = none && seg.empty();
    if (none) return;
    // Modern traces carry the correlation in args: only build the flow index when something lacks it.
    bool anyMissing = false;
    for (const auto& t : rank.tracks)
        for (std::size_t i = 0; i < t.events.size() && !anyMissing; ++i)
            anyMissing =
                t.events.correlation[i] < 0 && (isRuntimeCall(t.events.kind[i]) || isGpuOp(t.events.kind[i]));
    if (!anyMissing) return;
    struct Key {
        std::int64_t pid, tid;
        TimeNs ts;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return std::hash<std::uint64_t>()(static_cast<std::uint64_t>(k.pid) * 7919u +
                                              static_cast<std::uint64_t>(k.tid) * 104729u +
                                              static_cast<std::uint64_t>(k.ts));
        }
    };
    std::unordered_map<Key, std::int64_t, KeyHash> byPoint;
    for (auto& seg : flows) {
        for (const auto& f : seg)
            byPoint.emplace(Key{f.pid, f.tid, f.ts}, f.id);
        std::vector<FlowPoint>().swap(seg);
    }
    for (auto& t : rank.tracks) {
        auto& ev = t.events;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (ev.correlation[i] >= 0) continue;
            EventKind k = ev.kind[i];
            if (!isRuntimeCall(k) && !isGpuOp(k)) continue;
            auto it = byPoint.find({t.pid, t.tid, ev.start[i]});
            if (it != byPoint.end()) ev.correlation[i] = it->second;
        }
    }
}

// The launch call of each correlation id: the first call, when ids repeat (a map of a 200 MB
// trace's 220,000 launches took its load 15-20 ms, serial). Kineto numbers correlations upward
// from 1, so most ids fall in few pages of 1024 consecutive ids: a slot per id of those pages
// (an index into the calls), found without hashing but for a page change. Ids spread thinner than
// 12 slots per call use a map.
class LaunchIndex {
public:
    explicit LaunchIndex(const Rank& rank) : rank_(rank) {
        std::int64_t runtimeCalls = 0;
        for (std::size_t k = 0; k < rank.eventsByKind.size(); ++k)
            if (isRuntimeCall(static_cast<EventKind>(k))) runtimeCalls += rank.eventsByKind[k];
        calls_.reserve(static_cast<std::size_t>(runtimeCalls));
        for (std::uint32_t ti = 0; ti < rank.tracks.size(); ++ti) {
            if (rank.tracks[ti].isGpu()) continue;
            const auto& ev = rank.tracks[ti].events;
            for (std::uint32_t i = 0; i < ev.size(); ++i)
                if (isRuntimeCall(ev.kind[i]) && ev.correlation[i] >= 0)
                    calls_.push_back(EventRef{ti, i}.packed());
        }
        const std::size_t maxPages = 12 * calls_.size() / kPageIds + 1;
        bool thin = false;
        std::int64_t last = -1;
        for (std::size_t c = 0; c < calls_.size() && !thin; ++c)
            if (const std::int64_t page = correlationOf(c) >> kPageBits; page != last) {
                last = page;
                thin = pageAt_.try_emplace(page, 0).second && pageAt_.size() > maxPages;
            }
        if (thin) {
            pageAt_.clear();
            byId_.reserve(calls_.size()); // rehashing a map of a million launches costs more
            for (std::uint32_t c = 0; c < calls_.size(); ++c)
                reused_ += byId_.emplace(correlationOf(c), c).second ? 0 : 1;
            return;
        }
        std::uint32_t base = 0;
        for (auto& [page, at] : pageAt_) {
            at = base;
            base += kPageIds;
        }
        slots_.assign(base, kNone);
        for (std::uint32_t c = 0; c < calls_.size(); ++c) {
            const std::int64_t id = correlationOf(c);
            pageOf(id); // every call's page has slots
            std::uint32_t& slot = slots_[slotOnPage(id)];
            if (slot == kNone)
                slot = c;
            else
                ++reused_;
        }
    }
    // EventRef::packed() of the call with this id, kNoLink when none.
    std::uint64_t find(std::int64_t correlation) {
        if (correlation < 0) return kNoLink;
        std::uint32_t c = kNone;
        if (slots_.empty()) {
            auto it = byId_.find(correlation);
            if (it != byId_.end()) c = it->second;
        } else if (pageOf(correlation)) {
            c = slots_[slotOnPage(correlation)];
        }
        return c == kNone ? kNoLink : calls_[c];
    }
    // Calls whose id an earlier call has.
    std::int64_t reused() const { return reused_; }

private:
    static constexpr int kPageBits = 10;
    static constexpr std::size_t kPageIds = std::size_t{1} << kPageBits;
    static constexpr std::uint32_t kNone = 0xffffffffu;
    // Whether id's page has slots (and it is then the cached page).
    bool pageOf(std::int64_t id) {
        const std::int64_t page = id >> kPageBits;
        if (page == cachedPage_) return true;
        auto it = pageAt_.find(page);
        if (it == pageAt_.end()) return false;
        cachedPage_ = page;
        cachedBase_ = it->second;
        return true;
    }
    // id's slot, its page being the cached one.
    std::size_t slotOnPage(std::int64_t id) const {
        return cachedBase_ + static_cast<std::size_t>(id & static_cast<std::int64_t>(kPageIds - 1));
    }
    std::int64_t correlationOf(std::size_t call) const {
        const EventRef ref = EventRef::unpack(calls_[call]);
        return rank_.tracks[ref.track].events.correlation[ref.index];
    }
    const Rank& rank_;
    // EventRef::packed() of the calls in track order, then event order: "first" is the first here.
    std::vector<std::uint64_t> calls_;
    std::unordered_map<std::int64_t, std::uint32_t> pageAt_; // page -> its first slot
    std::vector<std::uint32_t> slots_;                       // index into calls_, kNone
    std::unordered_map<std::int64_t, std::uint32_t> byId_;   // when ids are spread thin
    std::int64_t cachedPage_ = -1;
    std::uint32_t cachedBase_ = 0;
    std::int64_t reused_ = 0;
};

void linkLaunches(Rank& rank) {
    LaunchIndex launches(rank);
    // Contradictory ids: said once, with a count (GPU ops link to the first call of an id).
    if (launches.reused() > 0)
        rank.warnings.add(Warn::CorrelationIdReused,
                          std::to_string(launches.reused()) +
                              " runtime calls reuse the correlation id of an earlier call (GPU ops link to "
                              "the first)",
                          launches.reused());
    for (std::uint32_t ti = 0; ti < rank.tracks.size(); ++ti) {
        auto& track = rank.tracks[ti];
        if (!track.isGpu()) continue;
        auto& ev = track.events;
        for (std::uint32_t i = 0; i < ev.size(); ++i) {
            EventKind k = ev.kind[i];
            // GPU ops, cuda_sync and cuda_event records link to their call (only ops link back).
            if (!isGpuOp(k) && k != EventKind::CudaSync && k != EventKind::GpuEvent) continue;
            const std::uint64_t call = launches.find(ev.correlation[i]);
            if (call == kNoLink) {
                if (isGpuOp(k)) ++rank.gpuOpsWithoutLaunch;
                continue;
            }
            ev.link[i] = call;
            const EventRef launch = EventRef::unpack(call);
            auto& calls = rank.tracks[launch.track].events;
            if (calls.link[launch.index] == kNoLink && isGpuOp(k))
                calls.link[launch.index] = EventRef{ti, i}.packed();
        }
    }
}

// Kineto puts collective metadata on the record_param_comms CPU op that encloses the launch in
// older versions and on the kernel in newer ones; give every collective kernel what exists.
void attachCollectiveMetadata(Rank& rank) {
    for (auto& coll : rank.collectives) {
        if (coll.hasMetadata || !coll.kernel.valid()) continue;
        std::uint64_t link = rank.tracks[coll.kernel.track].events.link[coll.kernel.index];
        if (link == kNoLink) continue;
        EventRef launch = EventRef::unpack(link);
        const auto& cpu = rank.tracks[launch.track].events;
        for (std::int32_t p = cpu.parent[launch.index]; p >= 0; p = cpu.parent[static_cast<std::size_t>(p)]) {
            std::uint32_t extra = cpu.extra[static_cast<std::size_t>(p)];
            if (extra == kNoExtra || isRuntimeCall(cpu.kind[static_cast<std::size_t>(p)])) continue;
            const CollectiveMeta& call = rank.commCalls[extra];
            EventRef kernel = coll.kernel;
            CollectiveType fromName = coll.type;
            coll = call;
            coll.kernel = kernel;
            if (coll.type == CollectiveType::Unknown) coll.type = fromName;
            break;
        }
    }
}

void addLoaderWarnings(Rank& rank) {
    if (rank.gpuOpsWithoutLaunch > 0)
        rank.warnings.add(Warn::GpuOpNoLaunchCall,
                          std::to_string(rank.gpuOpsWithoutLaunch) +
                              " GPU ops have no launch call with the same correlation id",
                          rank.gpuOpsWithoutLaunch);
    for (const auto& [cat, count] : rank.unknownCategories)
        rank.warnings.add(Warn::UnknownEventCategory,
                          std::to_string(count) + " events of unknown category \"" + cat + "\" kept as other",
                          count);
    std::int64_t overlapping = 0;
    for (const auto& t : rank.tracks) {
        if (!t.isGpu()) continue;
        const auto& ev = t.events;
        TimeNs busyUntil = 0;
        bool any = false;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (!isGpuOp(ev.kind[i])) continue;
            if (any && ev.start[i] < busyUntil) ++overlapping;
            busyUntil = any ? std::max(busyUntil, ev.end(i)) : ev.end(i);
            any = true;
        }
    }
    if (overlapping > 0)
        rank.warnings.add(Warn::GpuOpOverlap,
                          std::to_string(overlapping) + " GPU ops overlap the previous op on their stream",
                          overlapping);
}

} // namespace

void appendRawEvents(EventColumns& ev, const std::vector<RawEvent>& raw, bool lazyArgs) {
    for (const RawEvent& r : raw) {
        ev.start.push_back(r.start);
        ev.duration.push_back(r.duration);
        ev.name.push_back(r.name);
        ev.kind.push_back(r.kind);
        ev.correlation.push_back(r.correlation);
        ev.extra.push_back(r.extra);
        ev.argsOffset.push_back(r.argsOffset);
        ev.argsLength.push_back(r.argsLength);
        if (lazyArgs) {
            ev.argsFileOffset.push_back(r.fileOffset);
            ev.argsFileLength.push_back(r.fileLength);
        }
    }
}

void finalizeRank(Rank& rank, ParsedRank parsed, std::size_t threads) {
    nameTracks(rank, parsed);
    // Largest tracks first, taken by the threads in turn: the sort of a 200 MB trace's main thread
    // and streams is most of this step, and the last serial step of a chunked load.
    std::vector<std::uint32_t> order(rank.tracks.size());
    std::iota(order.begin(), order.end(), 0u);
    auto rawSize = [&](std::uint32_t t) {
        std::size_t n = rank.tracks[t].events.size();
        for (const auto& seg : parsed.rawByTrack[t])
            n += seg.size();
        return n;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return rawSize(a) > rawSize(b); });
    parallelFor(order.size(), threads,
                [&](std::size_t i) { fillColumns(rank, order[i], parsed.rawByTrack[order[i]]); });
#if defined(__GLIBC__)
    // The sort's buffers stay in the helper threads' malloc arenas unless handed back, under the
    // launch index built next (the finish's peak).
    if (threads > 1) malloc_trim(0);
#endif
    recoverCorrelationsFromFlows(rank, parsed.flows);
    // Launch linking (link columns) beside the nesting of each track (depth and parent columns)
    // and the typed launch configuration of its kernels.
    rank.kernelLaunches.assign(rank.tracks.size(), {});
    parallelFor(order.size() + 1, threads, [&](std::size_t i) {
        if (i == 0) {
            linkLaunches(rank);
        } else {
            computeNesting(rank.tracks[order[i - 1]]);
            fillKernelLaunches(rank, order[i - 1]);
        }
    });
    attachCollectiveMetadata(rank);
    addLoaderWarnings(rank);
    if (rank.worldSize < 0 && !rank.processGroups.empty()) {
        int maxRank = 0;
        for (const auto& pg : rank.processGroups)
            for (auto r : pg.ranks)
                maxRank = std::max(maxRank, r);
        rank.worldSize = maxRank + 1;
    }
}

void finalizeTraceSet(TraceSet& set) {
    auto& ranks = set.ranks;
    std::stable_sort(ranks.begin(), ranks.end(),
                     [](const Rank& a, const Rank& b) { return a.rank < b.rank; });
    std::set<int> used;
    int nextFree = ranks.empty() ? 0 : ranks.back().rank + 1;
    for (auto& r : ranks) {
        if (used.insert(r.rank).second) continue;
        set.warnings.add(Warn::DuplicateRank, "duplicate rank " + std::to_string(r.rank) + ": " +
                                                  r.sourcePath + " is shown as rank " +
                                                  std::to_string(nextFree));
        r.rank = nextFree++;
        used.insert(r.rank);
    }
    std::stable_sort(ranks.begin(), ranks.end(),
                     [](const Rank& a, const Rank& b) { return a.rank < b.rank; });

    int worldSize = 0;
    for (const auto& r : ranks)
        worldSize = std::max(worldSize, r.worldSize);
    if (worldSize > 0 && static_cast<int>(ranks.size()) < worldSize) {
        std::vector<int> missing;
        for (int i = 0; i < worldSize; ++i)
            if (!used.count(i)) missing.push_back(i);
        std::string list;
        for (std::size_t i = 0; i < missing.size() && i < 8; ++i)
            list += (i ? ", " : "") + std::to_string(missing[i]);
        if (missing.size() > 8) list += ", ...";
        set.warnings.add(Warn::RanksMissing,
                         std::to_string(ranks.size()) + " of " + std::to_string(worldSize) +
                             " ranks loaded; missing ranks: " + list,
                         static_cast<std::int64_t>(missing.size()));
    }

    std::set<std::int64_t> bases;
    for (const auto& r : ranks)
        if (r.clockBaseNs != 0) bases.insert(r.clockBaseNs);
    if (bases.size() > 1)
        set.warnings.add(Warn::ClockBasesDiffer, "ranks have different clock bases (baseTimeNanoseconds)");
    // Ranks whose time spans do not overlap at all were almost certainly recorded with different clocks.
    for (std::size_t i = 1; i < ranks.size(); ++i) {
        if (ranks[i].eventCount() == 0 || ranks[0].eventCount() == 0) continue;
        if (ranks[i].firstStart() > ranks[0].lastEnd() || ranks[i].lastEnd() < ranks[0].firstStart()) {
            set.warnings.add(Warn::RankSpansDisjoint,
                             "rank " + std::to_string(ranks[i].rank) + "'s time span does not overlap rank " +
                                 std::to_string(ranks[0].rank) + "'s: clocks differ");
        }
    }
}

} // namespace sl
