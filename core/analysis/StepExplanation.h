#pragma once
// Sentences that explain a simulated step to a person (docs/WhatIfWorkbench.md): the headline of a
// what-if against its baseline, what limits the step (from the critical path), why a knob barely
// moved the answer, and which knobs could not apply to this trace. The GUI's result card and the CLI
// print the same words because both call these functions.
#include "analysis/CriticalPath.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <map>
#include <string>
#include <vector>

namespace sl {

// A duration as people read it in a headline: "16.10 ms", "850.0 us", "1.234 s".
std::string formatStepTime(TimeNs t);

// "19.95 ms -> 16.10 ms (-19.3%, 1.24x faster)"; "... (+5.0%, 1.05x slower)"; "(no change)" when
// equal. Empty when before <= 0.
std::string resultHeadline(TimeNs before, TimeNs after);

// The profiler steps (ProfilerStep#N) the window holds: the most of any rank, 0 where none are
// marked. A window of the whole trace may hold several; then "the step" of a sentence is the window.
int windowSteps(const ExecutionGraph& graph);
// "step" for a window of one profiler step (or none marked), "window" for one of several.
std::string stepWord(const ExecutionGraph& graph);
// "2 ProfilerSteps (11.72 ms each on average)" for a window of several; empty otherwise.
// `iteration` is the window's length.
std::string windowStepsNote(const ExecutionGraph& graph, TimeNs iteration);

// What holds the most time on a critical path: the segment kind with the most time, and the rank
// (Rank::rank id) holding most of that kind ("on rank 7" when it holds 90% or more of it, else
// "most on rank 7").
struct StepLimit {
    PathLabel label = PathLabel::Idle;
    int rankId = -1;
    TimeNs time = 0;      // time of that kind on that rank along the path
    double sharePct = 0;  // of the path's length
    TimeNs lateStart = 0; // late_start time of that rank on the path (0: started on time)
    std::string sentence; // "CPU work on rank 7, which starts 8.7 ms late: 42% of the step"
};
// Empty sentence when the path is empty. `result` is the run the path was walked on: with it, time
// on a rank added by dp.degree counts for that rank (SimResult::rankId) rather than for the loaded
// rank it copies; without it every segment counts for its node's loaded rank.
StepLimit stepLimit(const ExecutionGraph& graph, const CriticalPath& path, const SimResult* result = nullptr);

// The kinds of work a segment label names in a sentence ("CPU work", "collective waits", ...).
std::string pathLabelWords(PathLabel label);

// Why a what-if changed the iteration by less than `thresholdPct` against `baseline`, in one
// sentence ("the step is bound by CPU work on rank 7; GPU compute is not on the critical path");
// empty when it changed more, or when the knobs equal the baseline's. A knob the trace gives no
// hold to (knobNotes of `whatIf`) is named with its note first.
std::string noEffectReason(const ExecutionGraph& graph, const SimResult& baseline, const SimResult& whatIf,
                           const SimKnobs& knobs, double thresholdPct = 0.5);

// The simulator's warnings that say a knob could not apply (kinds such as alpha_beta_no_size,
// dp_scale_no_collectives, block_edit_ignored: "dp.scale: no data-parallel collectives found ..."),
// their lines keyed by the knob each concerns (Warning::knob, a registry key). Warnings of no knob,
// and knob warnings that only inform (alpha_beta_calibrated), are left out. Decided by the kind,
// never by the words of the line.
std::map<std::string, std::string> knobNotes(const Warnings& warnings);

// "12% of the critical path is measured time without a cause that no knob moves, most of it ..."
// (analysis/PinnedTime.h); empty when pins are under 5% of the path.
std::string pinnedNote(const ExecutionGraph& graph, const SimResult& result, const CriticalPath& path);

// One sentence relating the critical path's length to the simulated iteration: the path is
// measured from the origin of the rank where it begins, the iteration is the longest rank's span,
// so they differ when the path starts on a rank that began earlier or later than the longest one.
std::string pathVersusIteration(const CriticalPath& path, const SimResult& result);

// "embedding lookups 3.1% and the embedding all-to-all 12.4% of the path" where the path holds
// embedding work (docs/Embeddings.md, "On the critical path"), "" where it holds none.
std::string embeddingPathNote(const CriticalPath& path);

} // namespace sl
