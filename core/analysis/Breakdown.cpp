#include "analysis/Breakdown.h"

#include "trace/AsciiText.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>

namespace sl {

namespace {

struct Span {
    TimeNs start, end;
};

// Sorted, disjoint union of intervals.
std::vector<Span> unite(std::vector<Span> spans) {
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
    std::vector<Span> out;
    for (const auto& s : spans) {
        if (s.end <= s.start) continue;
        if (!out.empty() && s.start <= out.back().end)
            out.back().end = std::max(out.back().end, s.end);
        else
            out.push_back(s);
    }
    return out;
}

TimeNs length(const std::vector<Span>& united) {
    TimeNs total = 0;
    for (const auto& s : united)
        total += s.end - s.start;
    return total;
}

// Length of the intersection of two sorted disjoint unions (two-pointer sweep).
TimeNs intersection(const std::vector<Span>& a, const std::vector<Span>& b) {
    TimeNs total = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        TimeNs lo = std::max(a[i].start, b[j].start);
        TimeNs hi = std::min(a[i].end, b[j].end);
        if (hi > lo) total += hi - lo;
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return total;
}

// The GPU op intervals of rank r, with times from timesOf (false: skip the event).
template <typename TimesOf>
std::vector<OpInterval> opsOfRank(const TraceSet& set, std::uint32_t r, TimesOf& timesOf) {
    const Rank& rank = set.ranks[r];
    std::vector<OpInterval> ops;
    // The class of a kernel depends on its name only: decided once per name (a name test per
    // event would dominate a knob change).
    struct NameClass {
        OpClass cls = OpClass::Compute;
        bool lookup = false;
    };
    std::unordered_map<StringId, NameClass> byName;
    for (std::uint32_t t = 0; t < rank.tracks.size(); ++t) {
        const Track& track = rank.tracks[t];
        if (!track.isGpu()) continue;
        for (std::uint32_t i = 0; i < track.events.size(); ++i) {
            if (!isGpuOp(track.events.kind[i])) continue;
            TimeNs start = 0, end = 0;
            if (!timesOf(r, t, i, start, end)) continue;
            auto [it, fresh] = byName.try_emplace(track.events.name[i]);
            if (fresh) {
                it->second.cls = opClassOf(rank, {t, i});
                it->second.lookup = embeddingLookupKernel(rank.name({t, i})) != EmbeddingLookup::None;
            }
            const bool kernel = track.events.kind[i] == EventKind::Kernel;
            OpClass cls = kernel ? it->second.cls : OpClass::MemcpyMemset;
            // A collective's phase depends on where it was launched, not on its name.
            EmbeddingWork work = EmbeddingWork::None;
            if (kernel && it->second.lookup)
                work = EmbeddingWork::Lookup;
            else if (kernel && cls == OpClass::Communication)
                work = embeddingWorkOf(rank, {t, i});
            ops.push_back({start, end, track.device(), cls, work});
        }
    }
    return ops;
}

// GPU ops a graph edit added to rank r (SimulatedTimeline::added): counted like traced ones.
void addAddedOps(const TraceSet& set, const SimulatedTimeline* timeline, std::uint32_t r,
                 std::vector<OpInterval>& ops) {
    if (!timeline) return;
    for (const AddedGpuOp& a : timeline->added) {
        if (a.rank != r) continue;
        const Rank& rank = set.ranks[r];
        const Track& track = rank.tracks[a.source.track];
        const OpClass cls = track.events.kind[a.source.index] == EventKind::Kernel ? opClassOf(rank, a.source)
                                                                                   : OpClass::MemcpyMemset;
        ops.push_back({a.start, a.end, track.device(), cls, embeddingWorkOf(rank, a.source)});
    }
}

template <typename TimesOf>
std::vector<RankBreakdown> breakdownOfSet(const TraceSet& set, TimesOf&& timesOf,
                                          const SimulatedTimeline* timeline = nullptr) {
    std::vector<RankBreakdown> out;
    out.reserve(set.ranks.size());
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        auto ops = opsOfRank(set, r, timesOf);
        addAddedOps(set, timeline, r, ops);
        out.push_back(breakdownOf(set.ranks[r].rank, std::move(ops)));
    }
    return out;
}

// Communication minus compute, per device, merged over the rank's devices.
std::vector<Span> exposedOf(std::vector<OpInterval> ops) {
    std::vector<Span> exposed;
    std::sort(ops.begin(), ops.end(),
              [](const OpInterval& x, const OpInterval& y) { return x.device < y.device; });
    for (std::size_t begin = 0; begin < ops.size();) {
        std::size_t end = begin;
        std::vector<Span> compute, comm;
        for (; end < ops.size() && ops[end].device == ops[begin].device; ++end) {
            if (ops[end].cls == OpClass::Compute)
                compute.push_back({ops[end].start, ops[end].end});
            else if (ops[end].cls == OpClass::Communication)
                comm.push_back({ops[end].start, ops[end].end});
        }
        auto uCompute = unite(std::move(compute));
        std::size_t j = 0;
        for (Span c : unite(std::move(comm))) {
            while (j < uCompute.size() && uCompute[j].end <= c.start)
                ++j;
            TimeNs cursor = c.start;
            for (std::size_t k = j; k < uCompute.size() && uCompute[k].start < c.end; ++k) {
                if (uCompute[k].start > cursor) exposed.push_back({cursor, uCompute[k].start});
                cursor = std::max(cursor, uCompute[k].end);
            }
            if (cursor < c.end) exposed.push_back({cursor, c.end});
        }
        begin = end;
    }
    return unite(std::move(exposed));
}

template <typename TimesOf>
std::vector<std::vector<TimeSpan>> exposedOfSet(const TraceSet& set, TimesOf&& timesOf,
                                                const SimulatedTimeline* timeline = nullptr) {
    std::vector<std::vector<TimeSpan>> out(set.ranks.size());
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        auto ops = opsOfRank(set, r, timesOf);
        addAddedOps(set, timeline, r, ops);
        for (Span s : exposedOf(std::move(ops)))
            out[r].push_back({s.start, s.end});
    }
    return out;
}

bool measuredTimes(const TraceSet& set, const ExecutionGraph* graph, std::uint32_t r, std::uint32_t t,
                   std::uint32_t i, TimeNs& start, TimeNs& end) {
    if (graph && !graph->inWindow(r, {t, i})) return false;
    const auto& ev = set.ranks[r].tracks[t].events;
    start = ev.start[i];
    end = ev.end(i);
    return true;
}

bool simulatedTimes(const SimulatedTimeline& timeline, std::uint32_t r, std::uint32_t t, std::uint32_t i,
                    TimeNs& start, TimeNs& end) {
    if (r >= timeline.ranks.size() || t >= timeline.ranks[r].size()) return false;
    const TrackTimes& times = timeline.ranks[r][t];
    if (i >= times.start.size() || times.start[i] < 0) return false;
    start = times.start[i];
    end = times.end(i);
    return true;
}

} // namespace

OpClass opClassOf(EventClass c) {
    switch (c) {
    case EventClass::CommKernel:
        return OpClass::Communication;
    case EventClass::Memcpy:
    case EventClass::Memset:
        return OpClass::MemcpyMemset;
    default:
        return OpClass::Compute;
    }
}

OpClass opClassOf(const Rank& rank, EventRef event) {
    // Only compute vs communication matters here, so the kind and the communication-name rule
    // suffice (no kernel name patterns).
    const EventKind k = rank.tracks[event.track].events.kind[event.index];
    // A Chakra node is communication by its node type, whatever its name (docs/Chakra.md): typed
    // by the Chakra reader (Rank::chakraNodes), not read from the args it wrote.
    if (!rank.hasMeasuredTimes && k == EventKind::Kernel)
        if (const ChakraNodeMeta* node = rank.chakraNode(event); node && isChakraCommType(node->type))
            return OpClass::Communication;
    return opClassOf(
        eventClassByKind(k, k == EventKind::Kernel && isCommunicationKernelName(rank.name(event))));
}

namespace {

// timeOf(n, start, end, own): the node's times; false to skip it.
template <typename TimeOf> std::vector<CommSplit> commSplit(const ExecutionGraph& g, TimeOf&& timeOf) {
    const std::size_t ranks = g.trace->ranks.size();
    std::vector<CommSplit> out(ranks);
    // Per (rank, device): compute spans, wait spans, transfer spans.
    struct Device {
        std::vector<Span> compute, wait, transfer;
    };
    std::map<std::pair<std::uint32_t, std::int64_t>, Device> devices;
    std::unordered_map<std::string_view, bool> commByName;
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        const auto& node = g.nodes[n];
        if (node.kind != NodeKind::GpuOp && node.kind != NodeKind::Collective) continue;
        const Track& t = g.rankOf(n).tracks[node.event.track];
        TimeNs s = 0, e = 0, own = 0;
        if (!timeOf(n, s, e, own)) continue;
        Device& d = devices[{node.rank, t.device()}];
        auto [it, fresh] = commByName.try_emplace(g.nodeName(n), false);
        if (fresh) it->second = isCommunicationKernelName(g.nodeName(n));
        const bool comm = node.kind == NodeKind::Collective || it->second;
        if (!comm) {
            if (t.events.kind[node.event.index] == EventKind::Kernel) d.compute.push_back({s, e});
            continue;
        }
        const TimeNs transferStart = std::max(s, e - std::max<TimeNs>(0, own));
        d.wait.push_back({s, transferStart});
        d.transfer.push_back({transferStart, e});
    }
    for (std::size_t r = 0; r < ranks; ++r)
        out[r].rank = g.trace->ranks[r].rank;
    for (auto& [key, d] : devices) {
        auto compute = unite(std::move(d.compute)), wait = unite(std::move(d.wait)),
             transfer = unite(std::move(d.transfer));
        CommSplit& c = out[key.first];
        const TimeNs w = length(wait), x = length(transfer);
        c.wait += w;
        c.transfer += x;
        c.exposedWait += w - intersection(wait, compute);
        c.exposedTransfer += x - intersection(transfer, compute);
    }
    return out;
}

} // namespace

std::vector<CommSplit> measuredCommSplit(const ExecutionGraph& g) {
    return commSplit(g, [&](NodeId n, TimeNs& s, TimeNs& e, TimeNs& own) {
        s = g.measuredStart(n);
        e = g.measuredEnd(n);
        own = g.nodes[n].duration; // the graph's transfer time of a collective
        return true;
    });
}

std::vector<CommSplit> simulatedCommSplit(const ExecutionGraph& g, const SimResult& r) {
    return commSplit(g, [&](NodeId n, TimeNs& s, TimeNs& e, TimeNs& own) {
        if (n >= r.nodes.size() || r.nodes[n].start < 0) return false;
        s = r.nodes[n].start;
        e = r.nodes[n].end;
        own = r.nodes[n].own;
        return true;
    });
}

double RankBreakdown::overlapPct() const {
    return communication > 0
               ? 100.0 * static_cast<double>(overlappedCommunication()) / static_cast<double>(communication)
               : 0.0;
}

RankBreakdown breakdownOf(int rankId, std::vector<OpInterval> ops) {
    RankBreakdown b;
    b.rank = rankId;
    std::sort(ops.begin(), ops.end(),
              [](const OpInterval& x, const OpInterval& y) { return x.device < y.device; });
    for (std::size_t begin = 0; begin < ops.size();) {
        std::size_t end = begin;
        while (end < ops.size() && ops[end].device == ops[begin].device)
            ++end;
        std::vector<Span> all, compute, comm, memory, lookup, exchange;
        TimeNs first = ops[begin].start, last = ops[begin].end;
        for (std::size_t i = begin; i < end; ++i) {
            Span s{ops[i].start, ops[i].end};
            first = std::min(first, s.start);
            last = std::max(last, s.end);
            all.push_back(s);
            if (ops[i].work == EmbeddingWork::Lookup) lookup.push_back(s);
            if (ops[i].work == EmbeddingWork::AllToAll) exchange.push_back(s);
            (ops[i].cls == OpClass::Compute         ? compute
             : ops[i].cls == OpClass::Communication ? comm
                                                    : memory)
                .push_back(s);
        }
        auto uAll = unite(std::move(all)), uCompute = unite(std::move(compute)),
             uComm = unite(std::move(comm)), uMemory = unite(std::move(memory));
        TimeNs commLength = length(uComm);
        b.span += last - first;
        b.compute += length(uCompute);
        b.communication += commLength;
        b.memory += length(uMemory);
        b.exposedCommunication += commLength - intersection(uComm, uCompute);
        b.idle += (last - first) - length(uAll);
        b.embeddingLookup += length(unite(std::move(lookup)));
        b.embeddingAllToAll += length(unite(std::move(exchange)));
        begin = end;
    }
    return b;
}

std::vector<double> htaOverlapPct(const TraceSet& set) {
    std::vector<double> out;
    out.reserve(set.ranks.size());
    for (const Rank& rank : set.ranks) {
        // HTA leaves out the last ProfilerStep of a file with several (it is often cut short):
        // GPU ops that start at or after its start do not count. Checked against HTA 0.6.1's
        // numbers on the shared traces (docs/ARCHITECTURE.md, "Analyses").
        std::unordered_map<StringId, bool> stepByName;
        int steps = 0;
        TimeNs lastStepStart = std::numeric_limits<TimeNs>::max();
        for (const Track& track : rank.tracks) {
            if (track.isGpu()) continue;
            for (std::uint32_t i = 0; i < track.events.size(); ++i) {
                auto [it, fresh] = stepByName.try_emplace(track.events.name[i], false);
                if (fresh) it->second = rank.strings.str(track.events.name[i]).rfind("ProfilerStep#", 0) == 0;
                if (!it->second) continue;
                lastStepStart =
                    ++steps == 1 ? track.events.start[i] : std::max(lastStepStart, track.events.start[i]);
            }
        }
        const TimeNs cutoff = steps >= 2 ? lastStepStart : std::numeric_limits<TimeNs>::max();
        std::unordered_map<StringId, bool> ncclByName;
        std::vector<Span> comm, compute;
        for (const Track& track : rank.tracks) {
            if (!track.isGpu()) continue;
            const auto& ev = track.events;
            for (std::uint32_t i = 0; i < ev.size(); ++i) {
                const EventKind k = ev.kind[i];
                if (!isGpuOp(k) || k == EventKind::GpuMemcpy || k == EventKind::GpuMemset) continue;
                if (ev.start[i] >= cutoff) continue;
                auto [it, fresh] = ncclByName.try_emplace(ev.name[i], false);
                if (fresh) {
                    it->second = asciiLower(rank.strings.str(ev.name[i])).find("nccl") != std::string::npos;
                }
                (it->second ? comm : compute).push_back({ev.start[i], ev.end(i)});
            }
        }
        auto uComm = unite(std::move(comm));
        const TimeNs commLength = length(uComm);
        out.push_back(commLength > 0
                          ? 100.0 * static_cast<double>(intersection(uComm, unite(std::move(compute)))) /
                                static_cast<double>(commLength)
                          : 0.0);
    }
    return out;
}

std::vector<RankBreakdown> measuredBreakdown(const TraceSet& set, const ExecutionGraph* graph) {
    return breakdownOfSet(set, [&](std::uint32_t r, std::uint32_t t, std::uint32_t i, TimeNs& start,
                                   TimeNs& end) { return measuredTimes(set, graph, r, t, i, start, end); });
}

std::vector<RankBreakdown> simulatedBreakdown(const TraceSet& set, const SimulatedTimeline& timeline) {
    return breakdownOfSet(
        set,
        [&](std::uint32_t r, std::uint32_t t, std::uint32_t i, TimeNs& start, TimeNs& end) {
            return simulatedTimes(timeline, r, t, i, start, end);
        },
        &timeline);
}

std::vector<RankBreakdown> addedRanksBreakdown(const ExecutionGraph& g, const SimResult& res) {
    const AddedRankTimes& added = res.addedRanks;
    std::vector<RankBreakdown> out;
    out.reserve(added.count());
    for (std::size_t a = 0; a < added.count(); ++a) {
        const std::uint32_t source = added.source[a];
        auto timesOf = [&](std::uint32_t r, std::uint32_t t, std::uint32_t i, TimeNs& start, TimeNs& end) {
            const NodeId n = g.nodeIndex[r][t][i];
            if (n == kNoNode || n == kOutsideWindow) return false;
            const NodeTiming nt = res.timing({n, static_cast<std::int32_t>(a)});
            if (nt.start < 0) return false;
            start = nt.start;
            end = nt.end;
            return true;
        };
        auto ops = opsOfRank(*g.trace, source, timesOf);
        out.push_back(breakdownOf(added.rankId[a], std::move(ops)));
    }
    return out;
}

std::vector<std::vector<TimeSpan>> measuredExposedCommunication(const TraceSet& set,
                                                                const ExecutionGraph* graph) {
    return exposedOfSet(set, [&](std::uint32_t r, std::uint32_t t, std::uint32_t i, TimeNs& start,
                                 TimeNs& end) { return measuredTimes(set, graph, r, t, i, start, end); });
}

std::vector<std::vector<TimeSpan>> simulatedExposedCommunication(const TraceSet& set,
                                                                 const SimulatedTimeline& timeline) {
    return exposedOfSet(
        set,
        [&](std::uint32_t r, std::uint32_t t, std::uint32_t i, TimeNs& start, TimeNs& end) {
            return simulatedTimes(timeline, r, t, i, start, end);
        },
        &timeline);
}

std::vector<StreamIdle> measuredStreamIdle(const ExecutionGraph& graph) {
    std::vector<StreamIdle> out;
    for (const Processor& p : graph.processors) {
        if (!p.gpu) continue;
        const Rank& rank = graph.trace->ranks[p.rank];
        const Track& track = rank.tracks[p.track];
        StreamIdle idle;
        idle.rank = rank.rank;
        idle.device = track.device();
        idle.stream = track.stream();
        TimeNs busyUntil = -1;
        for (NodeId n : p.nodes) {
            TimeNs start = graph.measuredStart(n), end = graph.measuredEnd(n);
            if (busyUntil >= 0 && start > busyUntil) {
                TimeNs gap = start - busyUntil;
                TimeNs host = 0;
                bool dependency = graph.nodes[n].kind == NodeKind::Collective;
                for (EdgeId e : graph.inEdges(n)) {
                    const GraphEdge& edge = graph.edges[e];
                    if (edge.kind == EdgeKind::Launch)
                        host = std::clamp(graph.measuredStart(edge.from) - busyUntil, TimeNs{0}, gap);
                    else if (edge.kind == EdgeKind::CrossStream || edge.kind == EdgeKind::Collective)
                        dependency = true;
                }
                idle.hostWait += host;
                (dependency ? idle.dependencyWait : idle.other) += gap - host;
            }
            busyUntil = std::max(busyUntil, end);
        }
        out.push_back(idle);
    }
    return out;
}

} // namespace sl
