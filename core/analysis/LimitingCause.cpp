#include "analysis/LimitingCause.h"

#include "analysis/CollectiveArrivals.h"
#include "analysis/StepExplanation.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace sl {

namespace {

double pctOf(TimeNs part, TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string percent(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", v);
    return buf;
}

// The ranks of the simulated job: the loaded ranks (slot = TraceSet index), then the ranks a setup
// edit added (slot = loaded count + AddedRankTimes index), so a straggler among the added ranks is
// named by its own id and not by its source's (docs/AddedRanks.md).
struct JobRanks {
    const ExecutionGraph& g;
    const SimResult& res;
    std::size_t loaded = 0;
    std::vector<int> rankId;                           // per slot
    std::vector<TimeNs> onPath;                        // time of the critical path on the rank
    std::vector<TimeNs> compute;                       // GPU compute under the run's knobs
    std::vector<TimeNs> madeWait;                      // sum of the waits of the peers that arrived before it
    std::vector<int> joined;                           // collectives the rank took part in
    std::vector<int> waitedAt;                         // ... where someone waited (for it, or it for someone)
    std::vector<int> last;                             // ... where someone waited for it
    std::vector<std::vector<std::uint32_t>> heldRanks; // the ranks that waited for it (repeats)
    mutable std::vector<TimeNs> host;                  // host CPU time, -1 until asked (hostTime)
    mutable std::vector<std::vector<NodeId>> cpuNodes; // per loaded rank, filled on first use

    JobRanks(const ExecutionGraph& graph, const SimResult& result) : g(graph), res(result) {
        loaded = g.ranks.size();
        const std::size_t n = loaded + res.addedRanks.count();
        rankId.resize(n);
        for (std::size_t k = 0; k < loaded; ++k)
            rankId[k] = g.ranks[k].rankId;
        for (std::size_t a = 0; a < res.addedRanks.count(); ++a)
            rankId[loaded + a] = res.addedRanks.rankId[a];
        onPath.assign(n, 0);
        compute.assign(n, 0);
        madeWait.assign(n, 0);
        joined.assign(n, 0);
        waitedAt.assign(n, 0);
        last.assign(n, 0);
        heldRanks.assign(n, {});
        host.assign(n, -1);
    }
    std::size_t size() const { return rankId.size(); }
    std::uint32_t slot(SimNodeRef r) const {
        return static_cast<std::uint32_t>(r.added >= 0 ? loaded + static_cast<std::size_t>(r.added)
                                                       : g.nodes[r.node].rank);
    }
    // The loaded rank whose nodes (and boundary conditions) the slot runs.
    std::uint32_t source(std::uint32_t slot) const {
        return slot < loaded ? slot : res.addedRanks.source[slot - loaded];
    }
    enum class Op : std::uint8_t { Compute, Collective, PointToPoint };
    bool pointToPoint(const GraphNode& gn) const {
        if (gn.collective >= g.collectives.size()) return false;
        const CollectiveGroup& c = g.collectives[gn.collective];
        return isPointToPoint(c.type, std::max(static_cast<int>(c.members.size()), c.expectedParticipants));
    }
    // Every GPU op of the job (the graph's on their own ranks, then each added rank's copies of its
    // source's), as compute (communication kernels left out), collective or point-to-point transfer.
    // Classified once per graph node: an added rank repeats its source's ops (16,384 ranks: tens
    // of millions of visits).
    template <class F> void forEachGpuOp(F&& f) const {
        std::vector<std::vector<std::pair<NodeId, Op>>> ops(loaded);
        // Names are interned per rank: one check per distinct name (the check is case-insensitive).
        std::unordered_map<const char*, bool> comm;
        for (NodeId n = 0; n < g.nodes.size(); ++n) {
            const GraphNode& gn = g.nodes[n];
            if (gn.kind != NodeKind::GpuOp && gn.kind != NodeKind::Collective) continue;
            const bool collective =
                gn.kind == NodeKind::Collective || gn.collective != 0xffffffffu || gn.phantomArrival >= 0;
            if (!collective) {
                const std::string_view name = g.nodeName(n);
                auto [it, fresh] = comm.try_emplace(name.data(), false);
                if (fresh) it->second = isCommunicationKernelName(name);
                if (it->second) continue;
            }
            ops[gn.rank].push_back({n, !collective        ? Op::Compute
                                       : pointToPoint(gn) ? Op::PointToPoint
                                                          : Op::Collective});
        }
        for (std::size_t k = 0; k < loaded; ++k)
            for (const auto& [n, op] : ops[k])
                f(SimNodeRef{n, -1}, op);
        const AddedRankTimes& added = res.addedRanks;
        for (std::size_t a = 0; a < added.count(); ++a)
            for (const auto& [n, op] : ops[added.source[a]])
                f(SimNodeRef{n, static_cast<std::int32_t>(a)}, op);
    }
    // The rank's host CPU time under the run's knobs: its calls' own time and the CPU time between
    // consecutive calls of a thread where that gap released the next call (the work nothing else
    // delayed: aten dispatch, Python, an unexplained wait; a sync's wait for the GPU is not in it).
    TimeNs hostTime(std::uint32_t k) const {
        if (host[k] >= 0) return host[k];
        if (cpuNodes.empty()) {
            cpuNodes.resize(loaded);
            for (NodeId n = 0; n < g.nodes.size(); ++n)
                if (g.nodes[n].kind == NodeKind::CpuCall || g.nodes[n].kind == NodeKind::SyncCall)
                    cpuNodes[g.nodes[n].rank].push_back(n);
        }
        const std::int32_t added = k < loaded ? -1 : static_cast<std::int32_t>(k - loaded);
        TimeNs sum = 0;
        for (NodeId n : cpuNodes[source(k)]) {
            const NodeTiming t = res.timing(SimNodeRef{n, added});
            if (t.start < 0) continue;
            sum += t.own;
            if (t.startBoundBy == kNoEdge || t.startBoundBy == kAddedRankPeer) continue;
            const GraphEdge& e = res.edge(g, t.startBoundBy);
            if (e.kind != EdgeKind::ThreadOrder) continue;
            const NodeTiming from = res.timing(SimNodeRef{e.from, added});
            if (from.end >= 0 && t.start > from.end) sum += t.start - from.end;
        }
        return host[k] = sum;
    }
    // The peer whose late arrival held a collective's end; invalid when nobody of the job did.
    SimNodeRef holder(SimNodeRef r, const NodeTiming& t) const {
        if (t.endBoundBy == kAddedRankPeer) return res.heldBy(r);
        if (r.added >= 0 || t.endBoundBy == kNoEdge || t.endBoundBy == kPhantomPeers) return {};
        const GraphEdge& e = res.edge(g, t.endBoundBy);
        return e.kind == EdgeKind::Collective ? SimNodeRef{e.from, -1} : SimNodeRef{};
    }

    void fill(const CriticalPath& path) {
        for (const PathSegment& s : path.segments)
            if (s.node < g.nodes.size() &&
                (s.added < 0 || static_cast<std::size_t>(s.added) < res.addedRanks.count()))
                onPath[slot(s.ref())] += s.end - s.start;
        // Who waited for whom, in simulated starts: a collective kernel starts when it may and waits
        // for its peers inside, so the peer that held its end arrived (started) last.
        constexpr TimeNs kTogether = 1000; // arrivals within 1 us: nobody waited
        std::unordered_set<std::uint64_t> holders;
        std::vector<std::pair<SimNodeRef, bool>> collectives; // and whether it waited
        forEachGpuOp([&](SimNodeRef r, Op op) {
            if (op == Op::PointToPoint) return;
            const NodeTiming t = res.timing(r);
            if (t.start < 0) return;
            const std::uint32_t k = slot(r);
            if (op == Op::Compute) {
                compute[k] += t.own;
                return;
            }
            joined[k]++;
            const SimNodeRef h = holder(r, t);
            bool waited = false;
            if (h.valid()) {
                const TimeNs wait = res.timing(h).start - t.start;
                if (wait > kTogether) {
                    waited = true;
                    holders.insert(AddedRankTimes::key(h));
                    const std::uint32_t hk = slot(h);
                    madeWait[hk] += wait;
                    heldRanks[hk].push_back(k);
                }
            }
            collectives.push_back({r, waited});
        });
        for (const auto& [r, waited] : collectives) {
            const bool held = holders.contains(AddedRankTimes::key(r));
            if (waited || held) waitedAt[slot(r)]++;
            if (held) last[slot(r)]++;
        }
    }
    // The ranks a rank is held against: those that waited for it at a collective (of its own
    // pipeline stage: sends and receives are left out), or every other rank when none did; at most
    // 64 of them, evenly spread (the median of 16,384 host times would cost more than the card).
    std::vector<std::uint32_t> peers(std::uint32_t k) const {
        std::vector<std::uint32_t> peers = heldRanks[k];
        std::sort(peers.begin(), peers.end());
        peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
        std::erase(peers, k);
        if (peers.empty())
            for (std::uint32_t o = 0; o < size(); ++o)
                if (o != k) peers.push_back(o);
        constexpr std::size_t kMaxPeers = 64;
        if (peers.size() > kMaxPeers) {
            std::vector<std::uint32_t> some;
            for (std::size_t i = 0; i < kMaxPeers; ++i)
                some.push_back(peers[i * peers.size() / kMaxPeers]);
            peers.swap(some);
        }
        return peers;
    }
    // The rank's time by `of` over the median of its peers': "runs 1.3x slower than the others".
    template <class Of> double ratio(std::uint32_t k, Of&& of) const {
        std::vector<TimeNs> others;
        for (std::uint32_t o : peers(k))
            others.push_back(of(o));
        if (others.empty()) return 1.0;
        std::nth_element(others.begin(), others.begin() + static_cast<std::ptrdiff_t>(others.size() / 2),
                         others.end());
        const TimeNs median = others[others.size() / 2];
        return median > 0 ? static_cast<double>(of(k)) / static_cast<double>(median) : 1.0;
    }
    // GPU compute under the run's knobs against the peers'.
    double slowdown(std::uint32_t k) const {
        return ratio(k, [&](std::uint32_t o) { return compute[o]; });
    }
    // Host CPU time against the peers' (a rank whose host is slow: its launches come late).
    double hostSlowdown(std::uint32_t k) const {
        return ratio(k, [&](std::uint32_t o) { return hostTime(o); });
    }
};

// A late start that holds a quarter of the path or more is the answer: the rank came late and
// everything after waited for it (the DLRM step: rank 7 enters 7.5 ms after rank 1).
bool lateStart(const JobRanks& job, const CriticalPath& path, LimitingCause& out) {
    const ExecutionGraph& g = job.g;
    const SimResult& res = job.res;
    std::map<std::uint32_t, TimeNs> late; // by slot
    for (const PathSegment& s : path.segments)
        if (s.label == PathLabel::LateStart && s.node < g.nodes.size())
            late[job.slot(s.ref())] += s.end - s.start;
    if (late.empty()) return false;
    const auto most = std::max_element(late.begin(), late.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    if (most->second * 4 < path.length) return false;
    const std::uint32_t k = most->first;
    const std::uint32_t r = job.source(k); // an added rank enters as its source does
    // Where each rank's first event lies in the job's clock.
    auto entry = [&](std::uint32_t x) { return g.ranks[x].measuredStart - g.ranks[x].origin; };
    std::uint32_t first = r;
    for (std::uint32_t x = 0; x < g.ranks.size(); ++x)
        if (entry(x) < entry(first)) first = x;
    out.kind = LimitingCause::Kind::LateStart;
    out.rankId = job.rankId[k];
    out.earliestRankId = g.ranks[first].rankId;
    out.enteredAfter = entry(r) - entry(first);
    // What the rank ran between its first event and its first call: the root's lead-in pieces
    // (CPU work and waits before the call starts; the root follows the rank's first event,
    // docs/ARCHITECTURE.md "Boundary conditions").
    std::map<std::string, TimeNs> byOp;
    for (const PathSegment& s : path.segments) {
        if (s.node >= g.nodes.size() || job.slot(s.ref()) != k || s.edge != kNoEdge ||
            s.label == PathLabel::LateStart || s.end > res.timing(s.ref()).start)
            continue;
        out.beforeFirstCall += s.end - s.start;
        if (s.op.valid()) byOp[std::string(pathSegmentName(g, s))] += s.end - s.start;
    }
    // Entering a hair after another rank (under 1% of the path) with little CPU work before the first
    // call is no late start, whatever the path calls late: "enters 18.0 us after rank 0: 88% of the
    // step" would contradict itself.
    if (first != r && out.enteredAfter * 100 < path.length && out.beforeFirstCall * 4 < path.length) {
        out = LimitingCause{};
        return false;
    }
    out.sharePct = pctOf(most->second + out.beforeFirstCall, path.length);
    TimeNs opTime = 0;
    for (const auto& [name, t] : byOp)
        if (t > opTime) {
            opTime = t;
            out.beforeOp = name;
        }
    const std::string rank = "rank " + std::to_string(out.rankId);
    if (first != r && out.enteredAfter > 0)
        out.sentence = rank + " enters the " + stepWord(g) + " " + formatStepTime(out.enteredAfter) +
                       " after rank " + std::to_string(out.earliestRankId);
    else
        out.sentence = rank + " starts " + formatStepTime(most->second) + " late";
    // Only worth saying when it is a visible part of the late start.
    if (out.beforeFirstCall * 20 >= most->second) {
        out.sentence +=
            ", then runs " + formatStepTime(out.beforeFirstCall) + " of CPU work before its first GPU call";
        if (!out.beforeOp.empty()) {
            const bool data = out.beforeOp.find("DataLoader") != std::string::npos;
            out.sentence += std::string(data ? ", most of it loading data (" : ", most of it in ") +
                            out.beforeOp + (data ? ", " : " (") + formatStepTime(opTime) + ")";
        }
    }
    out.sentence += ": " + percent(out.sharePct) + " of the " + stepWord(g);
    return true;
}

// The rank the others wait for: it arrives last at most of the collectives where someone waited
// ("last": it held the collective's end; a pipeline's sends and receives left out, where the
// receiver waits by the schedule) and runs slower than the ranks that waited for it, on the GPU
// (GPU compute under the run's knobs, 1.1x or more) or on the host (host CPU time, 1.2x or more:
// its launches come late, rank 3 of `generate --cpu-slow-rank 3 --cpu-slowdown 2`). Either it holds
// half the path or more, or, where the path crosses many ranks, it holds a tenth of it or more and
// makes the others wait longest (dp8 x tp4 x pp2 with a straggler at rank 37: rank 37 holds 19% of
// the path, the replicas' gradient all-reduce 73%). Arriving last alone is common without a
// straggler (the slowest of evenly loaded ranks by a few percent), and being slower alone names
// a rank nobody waits for, so neither test alone names a rank.
bool slowRank(const JobRanks& job, const CriticalPath& path, const StepLimit& limit, LimitingCause& out) {
    if (job.size() < 2 || job.res.nodes.size() != job.g.nodes.size()) return false;
    auto gpuSlower = [&](std::uint32_t k) { return job.slowdown(k) >= 1.1; };
    auto hostSlower = [&](std::uint32_t k) { return job.hostSlowdown(k) >= 1.2; };
    auto lastMostly = [&](std::uint32_t k) { return job.last[k] > 0 && job.last[k] * 2 > job.waitedAt[k]; };
    // Host times are summed only for the ranks that pass the cheap tests (and their peers).
    auto named = [&](std::uint32_t k) { return lastMostly(k) && (gpuSlower(k) || hostSlower(k)); };
    const std::uint32_t most = static_cast<std::uint32_t>(
        std::max_element(job.onPath.begin(), job.onPath.end()) - job.onPath.begin());
    std::uint32_t r = most;
    if (job.onPath[most] * 2 < path.length || !named(most)) {
        r = static_cast<std::uint32_t>(job.size());
        for (std::uint32_t k = 0; k < job.size(); ++k) {
            if (job.onPath[k] * 10 < path.length || !named(k)) continue;
            if (r == job.size() || job.madeWait[k] > job.madeWait[r]) r = k;
        }
        if (r == job.size()) return false;
    }
    out.slowdown = job.slowdown(r);
    out.hostSlowdown = job.hostSlowdown(r);
    out.kind = out.slowdown >= 1.1 ? LimitingCause::Kind::SlowRank : LimitingCause::Kind::SlowHost;
    out.rankId = job.rankId[r];
    out.collectivesLast = job.last[r];
    out.collectivesWaited = job.waitedAt[r];
    out.sharePct = pctOf(job.onPath[r], path.length);
    const std::string rank = "rank " + std::to_string(out.rankId);
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.1fx",
                  out.kind == LimitingCause::Kind::SlowRank ? out.slowdown : out.hostSlowdown);
    // Of the collectives where someone waited (the others queued behind those on the stream).
    const std::string waits = out.collectivesLast == out.collectivesWaited
                                  ? "every collective waits for it"
                                  : std::to_string(out.collectivesLast) + " of " +
                                        std::to_string(out.collectivesWaited) + " collectives wait for it";
    if (out.kind == LimitingCause::Kind::SlowRank)
        out.sentence = rank + " runs " + factor + " slower than the others and " + waits;
    else
        out.sentence = rank + "'s host runs " + factor + " slower than the others' and " + waits;
    out.sentence += "; " + percent(out.sharePct) + " of the critical path runs on it";
    // The rank holds less than half the path: say what holds most of it, unless that is the rank.
    if (job.onPath[r] * 2 < path.length && !limit.sentence.empty() && limit.rankId != out.rankId)
        out.sentence +=
            ", " + percent(limit.sharePct) + " is " + limit.sentence.substr(0, limit.sentence.rfind(": "));
    return true;
}

} // namespace

LimitingCause limitingCause(const ExecutionGraph& g, const CriticalPath& path, const SimResult& result) {
    LimitingCause out;
    if (path.length <= 0 || path.segments.empty()) return out;
    JobRanks job(g, result);
    job.fill(path);
    const StepLimit limit = stepLimit(g, path, &result);
    if (lateStart(job, path, out) || slowRank(job, path, limit, out)) return out;
    out.kind = LimitingCause::Kind::PathKind;
    out.rankId = limit.rankId;
    out.sharePct = limit.sharePct;
    out.sentence = limit.sentence;
    return out;
}

} // namespace sl
