#include "analysis/StepExplanation.h"

#include "base/DurationText.h"

#include "analysis/KnobEffect.h"
#include "analysis/PinnedTime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace sl {

namespace {

std::string printf1(const char* format, double v) {
    char b[48];
    std::snprintf(b, sizeof b, format, v);
    return b;
}

double pct(TimeNs part, TimeNs whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

} // namespace

std::string formatStepTime(TimeNs t) {
    return durationText(static_cast<double>(t), true, {.s = 3, .ms = 2, .us = 1, .ns = 0});
}

int windowSteps(const ExecutionGraph& g) {
    int steps = 0;
    for (const RankWindow& w : g.ranks)
        steps = std::max(steps, w.profilerSteps);
    return steps;
}

std::string stepWord(const ExecutionGraph& g) {
    return windowSteps(g) > 1 ? "window" : "step";
}

std::string windowStepsNote(const ExecutionGraph& g, TimeNs iteration) {
    const int steps = windowSteps(g);
    if (steps < 2) return {};
    std::string note = std::to_string(steps) + " ProfilerSteps";
    if (iteration > 0) note += " (" + formatStepTime(iteration / steps) + " each on average)";
    return note;
}

std::string resultHeadline(TimeNs before, TimeNs after) {
    if (before <= 0) return {};
    std::string s = formatStepTime(before) + " -> " + formatStepTime(after) + " (";
    const double change = pct(after - before, before);
    // A change that prints as 0.0% is no change to the reader ("-0.0%" reads as a bug).
    if (after == before || printf1("%.1f", std::abs(change)) == "0.0") return s + "no change)";
    s += printf1(change > 0 ? "+%.1f%%" : "%.1f%%", change);
    if (after > 0) {
        const double ratio = after < before ? static_cast<double>(before) / static_cast<double>(after)
                                            : static_cast<double>(after) / static_cast<double>(before);
        // A ratio that prints as 1.00x says nothing the percentage did not.
        const std::string r = printf1("%.2fx", ratio);
        if (r != "1.00x") s += ", " + r + (after < before ? " faster" : " slower");
    }
    return s + ")";
}

std::string pathLabelWords(PathLabel label) {
    switch (label) {
    case PathLabel::GpuCompute:
        return "GPU compute";
    case PathLabel::GpuComm:
        return "communication kernels";
    case PathLabel::CollectiveWait:
        return "collective waits";
    case PathLabel::Cpu:
        return "CPU work";
    case PathLabel::LaunchLatency:
        return "kernel launch latency";
    case PathLabel::Sync:
        return "host syncs";
    case PathLabel::Idle:
        return "idle gaps";
    case PathLabel::LateStart:
        return "a late start";
    case PathLabel::UnexplainedWait:
        return "unexplained CPU waits";
    case PathLabel::Count:
        break;
    }
    return "other time";
}

StepLimit stepLimit(const ExecutionGraph& g, const CriticalPath& path, const SimResult* result) {
    StepLimit out;
    if (path.length <= 0 || path.segments.empty()) return out;
    // The kind holding the most time on the path (a late start only when there is nothing else),
    // then the rank holding most of that kind.
    int label = -1;
    for (int l = 0; l < kPathLabelCount; ++l) {
        if (l == static_cast<int>(PathLabel::LateStart) || path.byLabel[static_cast<std::size_t>(l)] <= 0)
            continue;
        if (label < 0 ||
            path.byLabel[static_cast<std::size_t>(l)] > path.byLabel[static_cast<std::size_t>(label)])
            label = l;
    }
    if (label < 0) label = static_cast<int>(PathLabel::LateStart);
    // By the rank id of the job: an added rank's segments are its own, not its source's.
    auto rankIdOf = [&](const PathSegment& s) {
        if (result && (s.added < 0 || static_cast<std::size_t>(s.added) < result->addedRanks.count()))
            return result->rankId(g, s.ref());
        const std::uint32_t r = g.nodes[s.node].rank;
        return g.trace && r < g.trace->ranks.size() ? g.trace->ranks[r].rank : static_cast<int>(r);
    };
    std::map<int, TimeNs> byRank, lateByRank;
    for (const PathSegment& s : path.segments) {
        if (s.node == kNoNode || s.node >= g.nodes.size()) continue;
        if (static_cast<int>(s.label) == label) byRank[rankIdOf(s)] += s.end - s.start;
        if (s.label == PathLabel::LateStart) lateByRank[rankIdOf(s)] += s.end - s.start;
    }
    if (byRank.empty()) return out;
    auto most = std::max_element(byRank.begin(), byRank.end(),
                                 [](const auto& x, const auto& y) { return x.second < y.second; });
    out.label = static_cast<PathLabel>(label);
    out.time = path.byLabel[static_cast<std::size_t>(label)];
    out.sharePct = pct(out.time, path.length);
    out.rankId = most->first;
    if (out.label != PathLabel::LateStart) {
        auto late = lateByRank.find(most->first);
        if (late != lateByRank.end()) out.lateStart = late->second;
    }
    const std::string rank = "rank " + std::to_string(out.rankId);
    // One rank holds (nearly) all of it: "on rank 7"; several share it: "most on rank 7".
    const bool alone = most->second * 10 >= out.time * 9;
    if (out.label == PathLabel::LateStart)
        out.sentence = "the late start of " + rank;
    else
        out.sentence = pathLabelWords(out.label) + (alone ? " on " + rank : " (most on " + rank + ")");
    // A late start under 1% of the path is no part of the story ("starts 12.0 us late: 78%").
    if (out.lateStart > 0 && out.lateStart * 100 >= path.length)
        out.sentence += ", which starts " + formatStepTime(out.lateStart) + " late";
    out.sentence += ": " + printf1("%.0f%%", out.sharePct) + " of the " + stepWord(g);
    return out;
}

std::map<std::string, std::string> knobNotes(const Warnings& warnings) {
    // The kinds that say a knob found nothing to act on or was ignored (docs/Diagnostics.md); other
    // knob warnings only inform (alpha_beta_calibrated, layer_edit_rounded, ...).
    static constexpr Warn kCannotApply[] = {
        Warn::KnobNotSimulated,     Warn::KnobNoEffect,         Warn::SetupEditIgnored,
        Warn::DpScaleNoCollectives, Warn::AlphaBetaNoSize,      Warn::GpuTargetUnknown,
        Warn::DataKnobsNoLoader,    Warn::HostComputeNone,      Warn::NoOverlapUnavailable,
        Warn::BlockEditIgnored,     Warn::BlockEditsNotCombined};
    std::map<std::string, std::string> out;
    for (const Warning& w : warnings) {
        if (w.knob.empty() ||
            std::find(std::begin(kCannotApply), std::end(kCannotApply), w.kind) == std::end(kCannotApply))
            continue;
        std::string& note = out[w.knob];
        note += (note.empty() ? "" : "; ") + w.text;
    }
    return out;
}

std::string noEffectReason(const ExecutionGraph& g, const SimResult& baseline, const SimResult& whatIf,
                           const SimKnobs& knobs, double thresholdPct) {
    if (knobs.isReplay() || baseline.simulatedIteration <= 0) return {};
    const double change =
        pct(whatIf.simulatedIteration - baseline.simulatedIteration, baseline.simulatedIteration);
    if (std::abs(change) >= thresholdPct) return {};
    std::string reason;
    // A knob that could not apply says so first: that is the whole answer for it.
    for (const auto& [key, note] : knobNotes(whatIf.warnings))
        reason += (reason.empty() ? "" : "; ") + note;
    const CriticalPath path = criticalPath(g, baseline, 1);
    const StepLimit limit = stepLimit(g, path, &baseline);
    if (limit.sentence.empty()) return reason;
    // What the knobs act on, as kinds of the path, and their share of it.
    const std::set<PathLabel> targets = knobTargets(knobs);
    TimeNs onPath = 0;
    std::string words;
    for (PathLabel l : targets) {
        onPath += path.byLabel[static_cast<std::size_t>(l)];
        if (l == PathLabel::LateStart || l == PathLabel::Idle || l == PathLabel::UnexplainedWait) continue;
        if (words.size() < 60) words += (words.empty() ? "" : " and ") + pathLabelWords(l);
    }
    const std::string bound = "the " + stepWord(g) + " is bound by " +
                              limit.sentence.substr(0, limit.sentence.rfind(": ")) +
                              printf1(" (%.0f%% of the critical path)", limit.sharePct);
    const bool plural = !words.empty() && (words.find(" and ") != std::string::npos || words.back() == 's');
    std::string acted;
    if (words.empty())
        acted = "the knobs act on nothing on the critical path";
    else if (pct(onPath, path.length) < 1.0)
        acted = words + (plural ? " are" : " is") + " not on the critical path";
    else if (pct(onPath, path.length) < 50.0)
        acted = words + (plural ? " are" : " is") + printf1(" only %.1f%% of it", pct(onPath, path.length));
    else // most of the path, and still little change: the knobs shorten little of that time
        acted = words + (plural ? " hold" : " holds") + printf1(" %.0f%% of it", pct(onPath, path.length)) +
                ", but the knobs shorten little of that time";
    std::string out = reason + (reason.empty() ? "" : "; ") + bound + "; " + acted;
    // Measured time without a cause holds part of the path: name the largest pin.
    const std::string pins = pinnedNote(g, baseline, path);
    if (!pins.empty()) out += "; " + pins;
    return out;
}

std::string pinnedNote(const ExecutionGraph& g, const SimResult& result, const CriticalPath& path) {
    const RankPinnedTime pins = pinsOnPath(g, result, path);
    if (pins.sharePct() < 5.0 || pins.largest.node == kNoNode) return {};
    return printf1("%.0f%%", pins.sharePct()) +
           " of the critical path is measured time without a cause that no knob moves, most of it " +
           describePin(g, pins.largest);
}

std::string pathVersusIteration(const CriticalPath& path, const SimResult& result) {
    if (path.length <= 0 || result.simulatedIteration <= 0) return {};
    const TimeNs diff = path.length - result.simulatedIteration;
    const std::string both = "critical path " + formatStepTime(path.length) + ", iteration " +
                             formatStepTime(result.simulatedIteration);
    if (std::llabs(diff) * 1000 <= result.simulatedIteration) return both + ": the path spans the whole step";
    if (diff > 0)
        return both + ": the path begins on a rank that started " + formatStepTime(diff) +
               " before the longest rank's first event, so it is longer than any one rank's step";
    return both + ": the path begins " + formatStepTime(-diff) +
           " after the longest rank's first event (that rank's first work did not hold the end)";
}

std::string embeddingPathNote(const CriticalPath& path) {
    if (path.length <= 0 || (path.embeddingLookup <= 0 && path.embeddingAllToAll <= 0)) return {};
    const auto share = [&](TimeNs t) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f%%", path.sharePct(t));
        return std::string(buf);
    };
    std::string out;
    if (path.embeddingLookup > 0)
        out.append(kEmbeddingLookupName).append("s ").append(share(path.embeddingLookup));
    if (path.embeddingAllToAll > 0) {
        if (!out.empty()) out.append(" and ");
        out.append("the ").append(kEmbeddingAllToAllName).append(" ").append(share(path.embeddingAllToAll));
    }
    return out.append(" of the path");
}

} // namespace sl
