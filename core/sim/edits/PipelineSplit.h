#pragma once
// pp.split (docs/Layouts.md, "pp.degree"): how many of the traced layers each new pipeline stage runs:
// equal counts, contiguous stages balanced by the layers' measured GPU time, or the counts given.
#include "sim/Knobs.h"
#include "sim/edits/StageUnits.h"

#include <functional>
#include <string>
#include <vector>

namespace sl::edits {

// Measured GPU time of the units a stage runs (compute kernels; collectives are left out since their
// time is mostly waiting for peers), summed over every rank, step and micro-batch: per layer (its
// forward and backward blocks), and of what the first stage adds (the embedding: forward prefix,
// backward suffix) and the last (final norm, LM head, loss: forward suffix, backward prefix).
struct LayerTimes {
    std::vector<TimeNs> layer;
    TimeNs first = 0;
    TimeNs last = 0;
};
LayerTimes measuredLayerTimes(const ExecutionGraph& g, const std::vector<StepUnits>& steps, int layers);

// The contiguous split of the layers into `stages` stages of at least one layer each (layers >=
// stages) whose largest stage time is the least; of equal ones, the one with the longest last stage.
std::vector<int> balancedSplit(const LayerTimes& t, int stages);

// The layers of each of the `stages` new stages that knobs.ppSplit asks for, from a trace of
// `tracedStages` stages of `layers` layers in all. `times` is called for pp.split=time only. Throws
// KnobError (one line, beginning with `knob`): an even split the stages do not divide, a list of
// another length or sum, more stages than layers, an uneven split of a pipelined trace.
std::vector<int> stageLayerCounts(const SimKnobs& knobs, int layers, int stages, int tracedStages,
                                  const std::function<LayerTimes()>& times, const std::string& knob);

} // namespace sl::edits
