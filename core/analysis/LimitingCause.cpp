#include "analysis/LimitingCause.h"

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
    // Every GPU op of the job (the graph's on their own ranks, then each added rank's copies of its
    // source's), with whether it is a collective (else compute: communication kernels left out).
    // Classified once per graph node: an added rank repeats its source's ops (16,384 ranks: tens
    // of millions of visits).
    template <class F> void forEachGpuOp(F&& f) const {
        std::vector<std::vector<std::pair<NodeId, bool>>> ops(loaded);
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
            ops[gn.rank].push_back({n, collective});
        }
        for (std::size_t k = 0; k < loaded; ++k)
            for (const auto& [n, collective] : ops[k])
                f(SimNodeRef{n, -1}, collective);
        const AddedRankTimes& added = res.addedRanks;
        for (std::size_t a = 0; a < added.count(); ++a)
            for (const auto& [n, collective] : ops[added.source[a]])
                f(SimNodeRef{n, static_cast<std::int32_t>(a)}, collective);
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
        forEachGpuOp([&](SimNodeRef r, bool collective) {
            const NodeTiming t = res.timing(r);
            if (t.start < 0) return;
            const std::uint32_t k = slot(r);
            if (!collective) {
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
    // The rank's GPU compute over the median of the ranks that waited for it (of all other ranks
    // when none did): "runs 1.3x slower than the others".
    double slowdown(std::uint32_t k) const {
        std::vector<std::uint32_t> peers = heldRanks[k];
        std::sort(peers.begin(), peers.end());
        peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
        std::erase(peers, k);
        if (peers.empty())
            for (std::uint32_t o = 0; o < size(); ++o)
                if (o != k) peers.push_back(o);
        if (peers.empty()) return 1.0;
        std::vector<TimeNs> others;
        for (std::uint32_t o : peers)
            others.push_back(compute[o]);
        std::nth_element(others.begin(), others.begin() + static_cast<std::ptrdiff_t>(others.size() / 2),
                         others.end());
        const TimeNs median = others[others.size() / 2];
        return median > 0 ? static_cast<double>(compute[k]) / static_cast<double>(median) : 1.0;
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
    out.sharePct = pctOf(most->second + out.beforeFirstCall, path.length);
    TimeNs opTime = 0;
    for (const auto& [name, t] : byOp)
        if (t > opTime) {
            opTime = t;
            out.beforeOp = name;
        }
    const std::string rank = "rank " + std::to_string(out.rankId);
    if (first != r && out.enteredAfter > 0)
        out.sentence = rank + " enters the step " + formatStepTime(out.enteredAfter) + " after rank " +
                       std::to_string(out.earliestRankId);
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
    out.sentence += ": " + percent(out.sharePct) + " of the step";
    return true;
}

// The rank the others wait for (GPU compute under the run's knobs against the median of the ranks
// that waited for it; "last": it held the collective's end). Either one rank holds half the path
// or more and runs slower and arrives last at most of its collectives where someone waited, or
// arrives last at three quarters of them or more (a rank slow on the host); or, where the path
// crosses many ranks, a rank holding a tenth of it or more that runs slower and arrives last at most
// of its collectives, the one that makes the others wait longest (dp8 x tp4 x pp2 with a straggler
// at rank 37: rank 37 holds 19% of the path, the replicas' gradient all-reduce 73%). Arriving last
// at most collectives alone is common without a straggler (a pipeline's last stage; the slowest of
// evenly loaded ranks by a few percent), and the ranks that wait for a rank may run another
// pipeline stage, so neither test alone names a rank.
bool slowRank(const JobRanks& job, const CriticalPath& path, const StepLimit& limit, LimitingCause& out) {
    if (job.size() < 2 || job.res.nodes.size() != job.g.nodes.size()) return false;
    auto slower = [&](std::uint32_t k) { return job.slowdown(k) >= 1.1; };
    auto lastMostly = [&](std::uint32_t k) { return job.last[k] > 0 && job.last[k] * 2 > job.waitedAt[k]; };
    auto lastNearlyAlways = [&](std::uint32_t k) {
        return job.last[k] > 0 && job.last[k] * 4 >= job.waitedAt[k] * 3;
    };
    const std::uint32_t most = static_cast<std::uint32_t>(
        std::max_element(job.onPath.begin(), job.onPath.end()) - job.onPath.begin());
    std::uint32_t r = most;
    if (job.onPath[most] * 2 < path.length ||
        !((slower(most) && lastMostly(most)) || lastNearlyAlways(most))) {
        r = static_cast<std::uint32_t>(job.size());
        for (std::uint32_t k = 0; k < job.size(); ++k) {
            if (job.onPath[k] * 10 < path.length || !slower(k) || !lastMostly(k)) continue;
            if (r == job.size() || job.madeWait[k] > job.madeWait[r]) r = k;
        }
        if (r == job.size()) return false;
    }
    out.kind = LimitingCause::Kind::SlowRank;
    out.rankId = job.rankId[r];
    out.slowdown = job.slowdown(r);
    out.collectivesLast = job.last[r];
    out.collectivesWaited = job.waitedAt[r];
    out.sharePct = pctOf(job.onPath[r], path.length);
    const std::string rank = "rank " + std::to_string(out.rankId);
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.1fx", out.slowdown);
    std::string waits;
    if (out.collectivesLast > 0)
        waits = out.collectivesLast == out.collectivesWaited
                    ? "every collective waits for it"
                    : std::to_string(out.collectivesLast) + " of " + std::to_string(out.collectivesWaited) +
                          " collectives wait for it";
    if (out.slowdown >= 1.1)
        out.sentence =
            rank + " runs " + factor + " slower than the others" + (waits.empty() ? "" : " and " + waits);
    else
        out.sentence = rank + " arrives last: " + waits;
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
