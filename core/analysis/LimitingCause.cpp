#include "analysis/LimitingCause.h"

#include "analysis/StepExplanation.h"

#include <algorithm>
#include <cstdio>
#include <map>

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

int rankIdOf(const ExecutionGraph& g, std::uint32_t r) {
    return r < g.ranks.size() ? g.ranks[r].rankId : static_cast<int>(r);
}

// A late start that holds a quarter of the path or more is the answer: the rank came late and
// everything after waited for it (the DLRM step: rank 7 enters 7.5 ms after rank 1).
bool lateStart(const ExecutionGraph& g, const CriticalPath& path, const SimResult& res, LimitingCause& out) {
    std::map<std::uint32_t, TimeNs> late;
    for (const PathSegment& s : path.segments)
        if (s.label == PathLabel::LateStart && s.node < g.nodes.size())
            late[g.nodes[s.node].rank] += s.end - s.start;
    if (late.empty()) return false;
    const auto most = std::max_element(late.begin(), late.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    if (most->second * 4 < path.length) return false;
    const std::uint32_t r = most->first;
    // Where each rank's first event lies in the job's clock.
    auto entry = [&](std::uint32_t k) { return g.ranks[k].measuredStart - g.ranks[k].origin; };
    std::uint32_t first = r;
    for (std::uint32_t k = 0; k < g.ranks.size(); ++k)
        if (entry(k) < entry(first)) first = k;
    out.kind = LimitingCause::Kind::LateStart;
    out.rankId = rankIdOf(g, r);
    out.earliestRankId = rankIdOf(g, first);
    out.enteredAfter = entry(r) - entry(first);
    // What the rank ran between its first event and its first call: the root's lead-in pieces
    // (CPU work and waits before the call starts; the root follows the rank's first event,
    // docs/ARCHITECTURE.md "Boundary conditions").
    std::map<std::string, TimeNs> byOp;
    for (const PathSegment& s : path.segments) {
        if (s.node >= g.nodes.size() || g.nodes[s.node].rank != r || s.edge != kNoEdge ||
            s.label == PathLabel::LateStart || s.node >= res.nodes.size() || s.end > res.nodes[s.node].start)
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

// One rank holds most of the path and the others wait for it: it is slower (GPU compute under the
// run's knobs against the median of the other ranks) or arrives last at the collectives (simulated
// starts of the collective kernels, which start when they may and wait for their peers inside).
bool slowRank(const ExecutionGraph& g, const CriticalPath& path, const SimResult& res, LimitingCause& out) {
    if (g.ranks.size() < 2 || res.nodes.size() != g.nodes.size()) return false;
    std::vector<TimeNs> onPath(g.ranks.size(), 0), compute(g.ranks.size(), 0);
    for (const PathSegment& s : path.segments)
        if (s.node < g.nodes.size()) onPath[g.nodes[s.node].rank] += s.end - s.start;
    const std::uint32_t r =
        static_cast<std::uint32_t>(std::max_element(onPath.begin(), onPath.end()) - onPath.begin());
    if (onPath[r] * 2 < path.length) return false;
    for (NodeId n = 0; n < g.nodes.size(); ++n)
        if (g.nodes[n].kind == NodeKind::GpuOp && !isCommunicationKernelName(g.nodeName(n)))
            compute[g.nodes[n].rank] += res.nodes[n].own;
    std::vector<TimeNs> others;
    for (std::uint32_t k = 0; k < g.ranks.size(); ++k)
        if (k != r) others.push_back(compute[k]);
    std::nth_element(others.begin(), others.begin() + static_cast<std::ptrdiff_t>(others.size() / 2),
                     others.end());
    const TimeNs median = others[others.size() / 2];
    out.slowdown = median > 0 ? static_cast<double>(compute[r]) / static_cast<double>(median) : 1.0;
    constexpr TimeNs kTogether = 1000; // arrivals within 1 us: nobody waited
    for (const CollectiveGroup& grp : g.collectives) {
        if (!grp.complete || grp.members.size() < 2) continue;
        NodeId last = grp.members.front();
        TimeNs firstStart = res.nodes[last].start;
        for (NodeId m : grp.members) {
            firstStart = std::min(firstStart, res.nodes[m].start);
            if (res.nodes[m].start > res.nodes[last].start) last = m;
        }
        if (res.nodes[last].start - firstStart <= kTogether) continue;
        out.collectivesWaited++;
        if (g.nodes[last].rank == r) out.collectivesLast++;
    }
    const bool slower = out.slowdown >= 1.1;
    const bool waitedFor = out.collectivesLast * 2 > out.collectivesWaited;
    if (!slower && !waitedFor) return false;
    out.kind = LimitingCause::Kind::SlowRank;
    out.rankId = rankIdOf(g, r);
    out.sharePct = pctOf(onPath[r], path.length);
    const std::string rank = "rank " + std::to_string(out.rankId);
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.1fx", out.slowdown);
    std::string waits;
    if (out.collectivesLast > 0)
        waits = out.collectivesLast == out.collectivesWaited
                    ? "every collective waits for it"
                    : std::to_string(out.collectivesLast) + " of " + std::to_string(out.collectivesWaited) +
                          " collectives wait for it";
    if (slower)
        out.sentence =
            rank + " runs " + factor + " slower than the others" + (waits.empty() ? "" : " and " + waits);
    else
        out.sentence = rank + " arrives last: " + waits;
    out.sentence += "; " + percent(out.sharePct) + " of the critical path runs on it";
    return true;
}

} // namespace

LimitingCause limitingCause(const ExecutionGraph& g, const CriticalPath& path, const SimResult& result) {
    LimitingCause out;
    if (path.length <= 0 || path.segments.empty()) return out;
    if (lateStart(g, path, result, out) || slowRank(g, path, result, out)) return out;
    const StepLimit limit = stepLimit(g, path);
    out.kind = LimitingCause::Kind::PathKind;
    out.rankId = limit.rankId;
    out.sharePct = limit.sharePct;
    out.sentence = limit.sentence;
    return out;
}

} // namespace sl
