#include "analysis/RunComparison.h"

#include "base/DurationText.h"

#include "analysis/Breakdown.h"
#include "sim/DataLoaderModel.h"
#include "trace/Collective.h"
#include "trace/RuntimeApi.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <unordered_map>

namespace sl {

namespace {

// Host time by cause on the CPU threads of one rank, within the graph's window (RankFigures).
void hostCauses(const ExecutionGraph& g, std::uint32_t rankIndex, RankFigures& f) {
    const Rank& rank = g.trace->ranks[rankIndex];
    const RankWindow& w = g.ranks[rankIndex];
    for (const Track& t : rank.tracks) {
        if (t.isGpu()) continue;
        const EventColumns& ev = t.events;
        TimeNs loadingEnd = std::numeric_limits<TimeNs>::min(); // nested DataLoader ops count once
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (ev.duration[i] <= 0 || ev.start[i] < w.windowStart || ev.start[i] > w.windowEnd) continue;
            const std::string_view name = rank.strings.str(ev.name[i]);
            if (ev.kind[i] == EventKind::Runtime || ev.kind[i] == EventKind::Driver) {
                const RuntimeApiInfo api = runtimeApiInfo(name);
                if (waitsForGpu(api))
                    f.syncs += ev.duration[i];
                else if (launchesGpuWork(api.api))
                    f.launches += ev.duration[i];
            } else if (ev.start[i] >= loadingEnd && isDataLoaderOpName(name)) {
                f.dataLoading += ev.duration[i];
                loadingEnd = ev.end(i);
            }
        }
    }
}

// How a figure row is said in the verdict.
std::string figureWords(std::string_view key) {
    if (key == "idle") return "GPU idle";
    if (key == "data_loading") return "host data loading";
    if (key == "syncs") return "host syncs";
    if (key == "launches") return "host launch calls";
    if (key == "exposed_comm") return "exposed communication";
    if (key == "wait") return "collective waits";
    return std::string(key);
}

// What alignment and the tables read of one GPU op.
struct OpInfo {
    NodeId node = kNoNode;
    std::string_view name;
    std::string_view shapes; // the launching op's Input Dims
    EventRef cpuOp;
    std::string_view cpuOpName; // "" without a launching op
    EventClass cls = EventClass::OtherKernel;
    TimeNs duration = 0;
    std::int32_t unit = -1; // index into RankComparison::units
};

// The class of each kernel name, decided once for both runs and all ranks (the name patterns cost
// microseconds per name; ranks share their names).
using ClassCache = std::unordered_map<std::string_view, EventClass>;

// Per rank of one graph: its GPU ops.
std::vector<OpInfo> opInfos(const ExecutionGraph& g, std::uint32_t rankIndex,
                            const std::vector<NodeId>& nodes, ClassCache& classes) {
    const Rank& rank = g.trace->ranks[rankIndex];
    std::vector<OpInfo> out;
    out.reserve(nodes.size());
    for (NodeId n : nodes) {
        const GraphNode& node = g.nodes[n];
        const Track& t = rank.tracks[node.event.track];
        OpInfo o;
        o.node = n;
        o.name = rank.name(node.event);
        o.duration = g.measuredEnd(n) - g.measuredStart(n);
        auto [it, fresh] = classes.try_emplace(o.name, EventClass::OtherKernel);
        if (fresh) it->second = eventClassOf(t.events.kind[node.event.index], o.name);
        o.cls = node.kind == NodeKind::Collective ? EventClass::CommKernel : it->second;
        o.cpuOp = launchingCpuOp(rank, node.event);
        if (o.cpuOp.valid()) {
            o.cpuOpName = rank.name(o.cpuOp);
            o.shapes = inputDimsText(rank.args(o.cpuOp)); // compared as text only: no parse
        }
        out.push_back(o);
    }
    return out;
}

std::string joinKey(std::string_view a, std::string_view b) {
    std::string k;
    k.reserve(a.size() + b.size() + 1);
    k.append(a);
    k.push_back('\x1f');
    k.append(b);
    return k;
}

// Takes the k-th op of a key on one side with the k-th of the same key on the other, among the ops
// not aligned yet (pass 1 and 2 of the header).
template <class KeyFn>
void alignByKey(std::vector<OpInfo>& a, std::vector<OpInfo>& b, RankComparison& rc, AlignedBy by, KeyFn key) {
    std::unordered_map<std::string, std::pair<std::vector<std::uint32_t>, std::size_t>> queue;
    for (std::uint32_t i = 0; i < b.size(); ++i)
        if (b[i].unit < 0) queue[key(b[i])].first.push_back(i);
    for (auto& op : a) {
        if (op.unit >= 0) continue;
        auto it = queue.find(key(op));
        if (it == queue.end() || it->second.second >= it->second.first.size()) continue;
        OpInfo& other = b[it->second.first[it->second.second++]];
        op.unit = other.unit = static_cast<std::int32_t>(rc.units.size());
        rc.units.push_back({{op.node}, {other.node}, by, op.duration, other.duration});
    }
}

// Pass 3: the unaligned kernels of the k-th instance of a CPU op (by name + shapes, then by name)
// on each side as one unit.
void alignThroughCpuOp(std::vector<OpInfo>& a, std::vector<OpInfo>& b, RankComparison& rc) {
    struct Group {
        std::uint64_t op;
        std::vector<std::uint32_t> ops;
        bool taken = false;
    };
    auto groups = [](const std::vector<OpInfo>& side) {
        std::vector<Group> out;
        std::unordered_map<std::uint64_t, std::size_t> index;
        for (std::uint32_t i = 0; i < side.size(); ++i) {
            if (side[i].unit >= 0 || !side[i].cpuOp.valid()) continue;
            auto [it, fresh] = index.try_emplace(side[i].cpuOp.packed(), out.size());
            if (fresh) out.push_back({side[i].cpuOp.packed(), {}, false});
            out[it->second].ops.push_back(i);
        }
        return out;
    };
    std::vector<Group> ga = groups(a), gb = groups(b);
    for (bool withShapes : {true, false}) {
        auto key = [&](const std::vector<OpInfo>& side, const Group& g) {
            const OpInfo& first = side[g.ops.front()];
            return withShapes ? joinKey(first.cpuOpName, first.shapes) : std::string(first.cpuOpName);
        };
        std::unordered_map<std::string, std::pair<std::vector<std::size_t>, std::size_t>> queue;
        for (std::size_t i = 0; i < gb.size(); ++i)
            if (!gb[i].taken) queue[key(b, gb[i])].first.push_back(i);
        for (Group& g : ga) {
            if (g.taken) continue;
            auto it = queue.find(key(a, g));
            if (it == queue.end() || it->second.second >= it->second.first.size()) continue;
            Group& other = gb[it->second.first[it->second.second++]];
            g.taken = other.taken = true;
            AlignedUnit u;
            u.by = AlignedBy::CpuOp;
            const auto unit = static_cast<std::int32_t>(rc.units.size());
            for (std::uint32_t i : g.ops) {
                a[i].unit = unit;
                u.before.push_back(a[i].node);
                u.beforeTime += a[i].duration;
            }
            for (std::uint32_t i : other.ops) {
                b[i].unit = unit;
                u.after.push_back(b[i].node);
                u.afterTime += b[i].duration;
            }
            rc.units.push_back(std::move(u));
        }
    }
}

// A row being summed: times, counts and the noise variance of its aligned `before` ops.
struct RowAcc {
    TimeNs before = 0, after = 0;
    std::int64_t countBefore = 0, countAfter = 0;
    double var = 0;
};
using RowMap = std::map<std::string, RowAcc, std::less<>>;

TimeRow toRow(std::string key, const RowAcc& acc) {
    TimeRow r;
    r.key = std::move(key);
    r.before = acc.before;
    r.after = acc.after;
    r.countBefore = acc.countBefore;
    r.countAfter = acc.countAfter;
    r.noise = static_cast<TimeNs>(std::llround(3.0 * std::sqrt(acc.var)));
    return r;
}

std::vector<TimeRow> rows(const RowMap& m, bool byDelta) {
    std::vector<TimeRow> out;
    out.reserve(m.size());
    for (const auto& [k, acc] : m)
        out.push_back(toRow(k, acc));
    if (byDelta)
        std::stable_sort(out.begin(), out.end(), [](const TimeRow& x, const TimeRow& y) {
            return std::llabs(x.delta()) > std::llabs(y.delta());
        });
    return out;
}

// Class rows in class order (gemm, attention, ..., comm_kernel, memcpy, memset).
std::vector<TimeRow> classRows(const std::map<EventClass, RowAcc>& m) {
    std::vector<TimeRow> out;
    for (const auto& [c, acc] : m)
        out.push_back(toRow(std::string(eventClassName(c)), acc));
    return out;
}

// Iteration per rank: first to last modelled node (docs/ARCHITECTURE.md, "Analyses").
std::vector<TimeNs> iterations(const ExecutionGraph& g) {
    std::vector<TimeNs> lo(g.trace->ranks.size(), std::numeric_limits<TimeNs>::max()),
        hi(g.trace->ranks.size(), std::numeric_limits<TimeNs>::min());
    for (NodeId n = 0; n < g.nodes.size(); ++n) {
        const std::uint32_t r = g.nodes[n].rank;
        lo[r] = std::min(lo[r], g.measuredStart(n));
        hi[r] = std::max(hi[r], g.measuredEnd(n));
    }
    std::vector<TimeNs> out(lo.size(), 0);
    for (std::size_t r = 0; r < lo.size(); ++r)
        out[r] = hi[r] > lo[r] ? hi[r] - lo[r] : 0;
    return out;
}

// "22.132 ms", or "812.40 us" under a millisecond.
std::string duration(TimeNs ns) {
    return durationText(static_cast<double>(ns), true, {.ms = 3, .us = 2});
}

std::string signedPct(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", v);
    return buf;
}

} // namespace

double TimeRow::deltaPct() const {
    return before > 0 ? 100.0 * static_cast<double>(delta()) / static_cast<double>(before) : 0.0;
}

bool TimeRow::changed() const {
    return countBefore != countAfter || timeChanged(); // other work, whatever the time says
}

bool TimeRow::timeChanged() const {
    const TimeNs d = std::llabs(delta());
    const double floor = kMinChangePct / 100.0 * static_cast<double>(std::max(before, after));
    return d > noise && static_cast<double>(d) > floor;
}

double RankComparison::alignedSharePct() const {
    const std::int64_t all = before.gpuOps + after.gpuOps;
    return all > 0 ? 100.0 * static_cast<double>(alignedBefore + alignedAfter) / static_cast<double>(all)
                   : 0.0;
}

const TimeRow* RankComparison::figure(std::string_view key) const {
    for (const auto& r : figures)
        if (r.key == key) return &r;
    return nullptr;
}

double RunComparison::alignedSharePct() const {
    const std::int64_t all = opsBefore + opsAfter;
    return all > 0 ? 100.0 * static_cast<double>(alignedBefore + alignedAfter) / static_cast<double>(all)
                   : 0.0;
}

std::string RunComparison::alignmentNote() const {
    char buf[256];
    if (ranks.empty()) return "no rank of the two runs could be paired";
    std::snprintf(
        buf, sizeof buf,
        "%.1f%% of GPU ops aligned (%lld of %lld before, %lld of %lld after; units by name + shapes "
        "%lld, by name %lld, through the CPU op %lld)",
        alignedSharePct(), static_cast<long long>(alignedBefore), static_cast<long long>(opsBefore),
        static_cast<long long>(alignedAfter), static_cast<long long>(opsAfter),
        static_cast<long long>(unitsBy[0]), static_cast<long long>(unitsBy[1]),
        static_cast<long long>(unitsBy[2]));
    std::string s = buf;
    if (!comparable())
        s += ": the two runs do not look like one program (under " +
             std::to_string(static_cast<int>(kMinAlignedSharePct)) + "% aligned), so no table is shown";
    return s;
}

std::string RunComparison::verdict() const {
    if (!comparable()) return alignmentNote();
    std::string s = "iteration " + duration(iterationBefore) + " -> " + duration(iterationAfter);
    if (iterationBefore > 0)
        s += " (" +
             signedPct(100.0 * static_cast<double>(iterationAfter - iterationBefore) /
                       static_cast<double>(iterationBefore)) +
             ")";
    // What moved beyond the noise, largest first: the host's causes and the GPU's idle time beside
    // the kernel classes, so that a run that only loads data faster says so first.
    struct Mover {
        std::string words;
        TimeNs delta = 0;
    };
    std::vector<Mover> movers;
    auto said = [](const TimeRow& r, std::string words) {
        return Mover{std::move(words) + " " + (r.before > 0 ? signedPct(r.deltaPct()) : std::string("new")),
                     r.delta()};
    };
    // Communication kernels also stretch with the waits for peers: only compute classes say whether
    // the kernels themselves changed.
    bool computeClassChanged = false;
    for (const auto& r : byClass)
        if (r.changed()) {
            movers.push_back(said(r, r.key));
            for (std::size_t c = 0; c < kEventClassCount; ++c)
                if (eventClassName(static_cast<EventClass>(c)) == r.key &&
                    isComputeKernel(static_cast<EventClass>(c)))
                    computeClassChanged = true;
        }
    // A figure moves by its time alone (a count of GPU ops that changed says nothing of the host).
    for (const auto& r : figures)
        if ((r.key == "idle" || r.key == "data_loading" || r.key == "syncs" || r.key == "launches") &&
            r.timeChanged())
            movers.push_back(said(r, figureWords(r.key)));
    std::stable_sort(movers.begin(), movers.end(), [](const Mover& a, const Mover& b) {
        return std::llabs(a.delta) > std::llabs(b.delta);
    });
    std::vector<int> computeRanks;
    for (const auto& rc : ranks)
        if (const TimeRow* c = rc.figure("compute"); c && c->changed()) computeRanks.push_back(rc.afterRank);
    char noise[160];
    std::snprintf(noise, sizeof noise, "kernels vary by +-%.1f%% between the runs", noisePct);
    if (movers.empty() && computeRanks.empty())
        return s + "; no GPU time changed beyond the run-to-run noise (" + noise + ")";
    if (!movers.empty()) {
        s += "; changed beyond noise, largest first: ";
        for (std::size_t i = 0; i < movers.size() && i < 6; ++i)
            s += (i ? ", " : "") + movers[i].words;
        if (movers.size() > 6) s += " and " + std::to_string(movers.size() - 6) + " more";
    }
    if (!computeClassChanged) s += std::string("; compute kernels unchanged within noise (") + noise + ")";
    if (!computeRanks.empty()) {
        if (computeRanks.size() == ranks.size())
            s += "; compute changed on every rank";
        else {
            s += "; compute changed on rank";
            s += computeRanks.size() > 1 ? "s " : " ";
            for (std::size_t i = 0; i < computeRanks.size(); ++i)
                s += (i ? "," : "") + std::to_string(computeRanks[i]);
        }
    } else if (computeClassChanged)
        s += "; compute unchanged on every rank";
    return s;
}

EventRef launchingCpuOp(const Rank& rank, EventRef gpuOp) {
    if (gpuOp.track >= rank.tracks.size()) return {};
    const EventColumns& ev = rank.tracks[gpuOp.track].events;
    if (gpuOp.index >= ev.size() || ev.link[gpuOp.index] == kNoLink) return {};
    const EventRef call = EventRef::unpack(ev.link[gpuOp.index]);
    if (call.track >= rank.tracks.size() || rank.tracks[call.track].isGpu()) return {};
    const EventColumns& cev = rank.tracks[call.track].events;
    if (call.index >= cev.size()) return {};
    for (std::int32_t p = cev.parent[call.index]; p >= 0; p = cev.parent[static_cast<std::size_t>(p)])
        if (cev.kind[static_cast<std::size_t>(p)] == EventKind::CpuOp)
            return {call.track, static_cast<std::uint32_t>(p)};
    return {};
}

std::vector<std::vector<NodeId>> gpuOpNodesByRank(const ExecutionGraph& g) {
    std::vector<std::vector<NodeId>> out(g.trace->ranks.size());
    for (NodeId n = 0; n < g.nodes.size(); ++n)
        if (g.nodes[n].kind == NodeKind::GpuOp || g.nodes[n].kind == NodeKind::Collective)
            out[g.nodes[n].rank].push_back(n);
    for (auto& v : out)
        std::stable_sort(v.begin(), v.end(),
                         [&](NodeId x, NodeId y) { return g.measuredStart(x) < g.measuredStart(y); });
    return out;
}

RunComparison compareRuns(const ExecutionGraph& before, const ExecutionGraph& after) {
    RunComparison out;
    const TraceSet& sa = *before.trace;
    const TraceSet& sb = *after.trace;

    // Ranks: by id when the runs share one, else by order.
    std::vector<std::pair<int, int>> pairs;
    for (std::size_t i = 0; i < sa.ranks.size(); ++i)
        for (std::size_t j = 0; j < sb.ranks.size(); ++j)
            if (sa.ranks[i].rank == sb.ranks[j].rank)
                pairs.emplace_back(static_cast<int>(i), static_cast<int>(j));
    if (pairs.empty() && !sa.ranks.empty() && !sb.ranks.empty()) {
        out.ranksById = false;
        for (std::size_t i = 0; i < std::min(sa.ranks.size(), sb.ranks.size()); ++i)
            pairs.emplace_back(static_cast<int>(i), static_cast<int>(i));
        out.warnings.add(Warn::CompareRanksByOrder, "the runs share no rank id: ranks paired by order");
    }
    std::vector<bool> pairedA(sa.ranks.size()), pairedB(sb.ranks.size());
    for (auto [i, j] : pairs) {
        pairedA[static_cast<std::size_t>(i)] = true;
        pairedB[static_cast<std::size_t>(j)] = true;
    }
    for (std::size_t i = 0; i < sa.ranks.size(); ++i)
        if (!pairedA[i]) out.onlyBefore.push_back(sa.ranks[i].rank);
    for (std::size_t j = 0; j < sb.ranks.size(); ++j)
        if (!pairedB[j]) out.onlyAfter.push_back(sb.ranks[j].rank);
    if (!out.onlyBefore.empty())
        out.warnings.add(Warn::CompareRanksUnpaired,
                         std::to_string(out.onlyBefore.size()) + " rank(s) only in the run before",
                         static_cast<std::int64_t>(out.onlyBefore.size()));
    if (!out.onlyAfter.empty())
        out.warnings.add(Warn::CompareRanksUnpaired,
                         std::to_string(out.onlyAfter.size()) + " rank(s) only in the run after",
                         static_cast<std::int64_t>(out.onlyAfter.size()));
    if (!sa.ranks.empty() && !sb.ranks.empty() &&
        sa.ranks.front().deviceName() != sb.ranks.front().deviceName())
        out.warnings.add(Warn::CompareGpusDiffer, "GPUs differ: " + sa.ranks.front().deviceName() +
                                                      " before, " + sb.ranks.front().deviceName() + " after");

    const auto opsA = gpuOpNodesByRank(before), opsB = gpuOpNodesByRank(after);
    const auto itA = iterations(before), itB = iterations(after);
    const auto bdA = measuredBreakdown(sa, &before), bdB = measuredBreakdown(sb, &after);
    const auto csA = measuredCommSplit(before), csB = measuredCommSplit(after);

    // Align every rank pair; keep the op infos for the tables.
    std::vector<std::vector<OpInfo>> infoA, infoB;
    ClassCache classes;
    for (auto [i, j] : pairs) {
        const auto ia = static_cast<std::uint32_t>(i), jb = static_cast<std::uint32_t>(j);
        RankComparison rc;
        rc.beforeIndex = i;
        rc.afterIndex = j;
        rc.beforeRank = sa.ranks[ia].rank;
        rc.afterRank = sb.ranks[jb].rank;
        std::vector<OpInfo> a = opInfos(before, ia, opsA[ia], classes),
                            b = opInfos(after, jb, opsB[jb], classes);
        alignByKey(a, b, rc, AlignedBy::NameShapes,
                   [](const OpInfo& o) { return joinKey(o.name, o.shapes); });
        alignByKey(a, b, rc, AlignedBy::Name, [](const OpInfo& o) { return std::string(o.name); });
        alignThroughCpuOp(a, b, rc);
        for (const auto& u : rc.units) {
            ++rc.unitsBy[static_cast<int>(u.by)];
            rc.alignedBefore += static_cast<std::int64_t>(u.before.size());
            rc.alignedAfter += static_cast<std::int64_t>(u.after.size());
        }
        auto figures = [](RankFigures& f, TimeNs it, const RankBreakdown& bd, const CommSplit& cs,
                          const RankWindow& w, std::size_t ops) {
            f.iteration = it;
            f.compute = bd.compute;
            f.communication = bd.communication;
            f.exposedCommunication = bd.exposedCommunication;
            f.idle = bd.idle;
            f.wait = cs.wait;
            f.unexplainedWait = w.unexplainedWait;
            f.gpuOps = static_cast<std::int64_t>(ops);
        };
        figures(rc.before, itA[ia], bdA[ia], csA[ia], before.ranks[ia], a.size());
        figures(rc.after, itB[jb], bdB[jb], csB[jb], after.ranks[jb], b.size());
        hostCauses(before, ia, rc.before);
        hostCauses(after, jb, rc.after);
        out.ranks.push_back(std::move(rc));
        infoA.push_back(std::move(a));
        infoB.push_back(std::move(b));
    }

    // Run-to-run noise per class: the spread of the relative change within a (rank, kernel name)
    // around the group's own mean, pooled (header).
    struct Welford {
        double n = 0, mean = 0, m2 = 0;
        EventClass cls = EventClass::OtherKernel;
        void add(double x) {
            n += 1;
            const double d = x - mean;
            mean += d / n;
            m2 += d * (x - mean);
        }
    };
    std::array<double, kEventClassCount> ss{}, df{};
    double ssAll = 0, dfAll = 0, ssCompute = 0, dfCompute = 0;
    for (std::size_t p = 0; p < out.ranks.size(); ++p) {
        // A kernel whose count changed (more layers, another schedule) aligns instances that are
        // not the same work: its spread is structure, not noise.
        std::unordered_map<std::string_view, std::int64_t> countDiff;
        for (const OpInfo& o : infoA[p])
            ++countDiff[o.name];
        for (const OpInfo& o : infoB[p])
            --countDiff[o.name];
        std::unordered_map<std::string_view, Welford> groups;
        for (const OpInfo& o : infoA[p]) {
            if (countDiff[o.name] != 0) continue;
            if (o.unit < 0 || o.duration <= 0) continue;
            const AlignedUnit& u = out.ranks[p].units[static_cast<std::size_t>(o.unit)];
            if (u.before.size() != 1 || u.after.size() != 1) continue;
            Welford& w = groups[o.name];
            w.cls = o.cls;
            w.add(static_cast<double>(u.afterTime - u.beforeTime) / static_cast<double>(o.duration));
        }
        for (const auto& [name, w] : groups) {
            if (w.n < 2) continue;
            const auto c = static_cast<std::size_t>(w.cls);
            ss[c] += w.m2;
            df[c] += w.n - 1;
            ssAll += w.m2;
            dfAll += w.n - 1;
            if (isComputeKernel(w.cls)) {
                ssCompute += w.m2;
                dfCompute += w.n - 1;
            }
        }
    }
    const double sigmaAll = dfAll > 0 ? std::sqrt(ssAll / dfAll) : 0.0;
    std::array<double, kEventClassCount> sigma{};
    for (std::size_t c = 0; c < sigma.size(); ++c)
        sigma[c] = df[c] > 0 ? std::sqrt(ss[c] / df[c]) : sigmaAll;
    out.noisePct = 100.0 * (dfCompute > 0 ? std::sqrt(ssCompute / dfCompute) : sigmaAll);

    // Tables.
    std::map<EventClass, RowAcc> jobClass;
    RowMap jobKernel, jobCpuOp;
    for (std::size_t p = 0; p < out.ranks.size(); ++p) {
        RankComparison& rc = out.ranks[p];
        std::map<EventClass, RowAcc> rankClass;
        double varAll = 0, varCompute = 0, varComm = 0;
        auto opVar = [&](const OpInfo& o) {
            if (o.unit < 0) return 0.0;
            const double s = sigma[static_cast<std::size_t>(o.cls)] * static_cast<double>(o.duration);
            return s * s;
        };
        for (const OpInfo& o : infoA[p]) {
            const double v = opVar(o);
            for (RowAcc* acc : {&rankClass[o.cls], &jobClass[o.cls], &jobKernel[std::string(o.name)],
                                &jobCpuOp[o.cpuOpName.empty() ? std::string("(no launching op)")
                                                              : std::string(o.cpuOpName)]}) {
                acc->before += o.duration;
                ++acc->countBefore;
                acc->var += v;
            }
            varAll += v;
            if (isComputeKernel(o.cls)) varCompute += v;
            if (o.cls == EventClass::CommKernel) varComm += v;
        }
        for (const OpInfo& o : infoB[p])
            for (RowAcc* acc : {&rankClass[o.cls], &jobClass[o.cls], &jobKernel[std::string(o.name)],
                                &jobCpuOp[o.cpuOpName.empty() ? std::string("(no launching op)")
                                                              : std::string(o.cpuOpName)]}) {
                acc->after += o.duration;
                ++acc->countAfter;
            }
        rc.byClass = classRows(rankClass);
        auto fig = [&](const char* key, TimeNs b, TimeNs a, double var) {
            RowAcc acc;
            acc.before = b;
            acc.after = a;
            acc.countBefore = rc.before.gpuOps;
            acc.countAfter = rc.after.gpuOps;
            acc.var = var;
            rc.figures.push_back(toRow(key, acc));
        };
        fig("iteration", rc.before.iteration, rc.after.iteration, varAll);
        fig("compute", rc.before.compute, rc.after.compute, varCompute);
        fig("communication", rc.before.communication, rc.after.communication, varComm);
        fig("exposed_comm", rc.before.exposedCommunication, rc.after.exposedCommunication, varComm);
        fig("idle", rc.before.idle, rc.after.idle, varAll);
        fig("wait", rc.before.wait, rc.after.wait, varComm);
        fig("unexplained_wait", rc.before.unexplainedWait, rc.after.unexplainedWait, 0);
        // Host causes: no instance pairs, so kHostNoisePct of the row is taken as its noise, and the
        // GPU op counts (other work on the GPU) do not make them a change.
        auto host = [&](const char* key, TimeNs b, TimeNs a) {
            RowAcc acc;
            acc.before = b;
            acc.after = a;
            const double n = kHostNoisePct / 100.0 * static_cast<double>(std::max(a, b)) / 3.0;
            acc.var = n * n;
            rc.figures.push_back(toRow(key, acc));
        };
        host("data_loading", rc.before.dataLoading, rc.after.dataLoading);
        host("syncs", rc.before.syncs, rc.after.syncs);
        host("launches", rc.before.launches, rc.after.launches);
        out.opsBefore += rc.before.gpuOps;
        out.opsAfter += rc.after.gpuOps;
        out.alignedBefore += rc.alignedBefore;
        out.alignedAfter += rc.alignedAfter;
        for (int k = 0; k < 3; ++k)
            out.unitsBy[k] += rc.unitsBy[k];
        out.iterationBefore = std::max(out.iterationBefore, rc.before.iteration);
        out.iterationAfter = std::max(out.iterationAfter, rc.after.iteration);
    }
    // The job's figures: each rank's rows summed (their noise adds in quadrature).
    for (const RankComparison& rc : out.ranks)
        for (std::size_t k = 0; k < rc.figures.size(); ++k) {
            if (out.figures.size() <= k) out.figures.push_back(TimeRow{rc.figures[k].key});
            TimeRow& job = out.figures[k];
            job.before += rc.figures[k].before;
            job.after += rc.figures[k].after;
            job.countBefore += rc.figures[k].countBefore;
            job.countAfter += rc.figures[k].countAfter;
            const double n =
                std::hypot(static_cast<double>(job.noise), static_cast<double>(rc.figures[k].noise));
            job.noise = static_cast<TimeNs>(std::llround(n));
        }
    out.byClass = classRows(jobClass);
    out.byKernel = rows(jobKernel, true);
    out.byCpuOp = rows(jobCpuOp, true);
    if (!out.ranks.empty() && !out.comparable())
        out.warnings.add(Warn::CompareNotOneProgram, out.alignmentNote());
    return out;
}

} // namespace sl
