#pragma once
// A prediction held against the run that was made (docs/Compare.md): the run BEFORE simulated with
// knobs (the what-if that was meant to describe the change) against the run AFTER as measured, on
// the alignment of analysis/RunComparison.h. Per rank the predicted and actual iteration; per kernel
// class and per aligned kernel the predicted and actual GPU time, and the worst-predicted kernels.
#include "analysis/RunComparison.h"
#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"

#include <string>
#include <vector>

namespace sl {

// A prediction whose error exceeds the error of assuming no change (the run before as it was) by
// more than 0.1 points: the knobs moved it the wrong way, or too far. Below that margin the rows the
// knobs leave alone (a collective re-timed to within a microsecond) would be flagged for noise.
bool worseThanNoChange(double errorPct, double unchangedErrorPct);

struct PredictedRow {
    std::string key;
    TimeNs before = 0;    // measured in the run before
    TimeNs predicted = 0; // the run before, simulated with the knobs
    TimeNs actual = 0;    // measured in the run after
    std::int64_t count = 0;

    TimeNs error() const { return predicted - actual; }
    double errorPct() const; // |predicted - actual| / actual x 100 (0 when both are 0)
    // The error of assuming no change (before against actual): what the prediction improves on.
    double unchangedErrorPct() const;
    bool worseThanNoChange() const { return sl::worseThanNoChange(errorPct(), unchangedErrorPct()); }
};

struct RankPrediction {
    int beforeRank = 0, afterRank = 0;
    TimeNs before = 0, predicted = 0, actual = 0; // iterations
    double errorPct() const;
    double unchangedErrorPct() const;
    bool worseThanNoChange() const { return sl::worseThanNoChange(errorPct(), unchangedErrorPct()); }
};

struct PredictionCheck {
    TimeNs beforeIteration = 0, predictedIteration = 0, actualIteration = 0; // the longest rank
    std::vector<RankPrediction> ranks;
    std::vector<PredictedRow> byClass;  // class order
    std::vector<PredictedRow> byKernel; // worst predicted first (largest |error|)
    Warnings warnings;                  // base/Diagnostics.h: the compare_* kinds

    double iterationErrorPct() const;
    double iterationUnchangedErrorPct() const;
    bool iterationWorseThanNoChange() const {
        return worseThanNoChange(iterationErrorPct(), iterationUnchangedErrorPct());
    }
    double worstRankErrorPct() const;
};

// `predicted` is simulate(before, knobs) with its timeline; `cmp` is compareRuns(before, after).
// Kernels by name over every GPU op of the paired ranks; ops aligned only through their CPU op
// (other kernel names after) by that op, keyed "<cpu op> (via CPU op)". GPU ops a setup edit added
// (model.layers clones) count in their class and under their source kernel's name.
PredictionCheck checkPrediction(const RunComparison& cmp, const ExecutionGraph& before,
                                const SimResult& predicted, const ExecutionGraph& after);

} // namespace sl
