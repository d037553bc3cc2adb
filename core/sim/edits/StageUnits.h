#pragma once
// The units pp.degree moves between pipeline stages (docs/Layouts.md, "pp.degree"): per rank and
// ProfilerStep, the step's head (before the first micro-batch block) and tail (after the last: DDP's
// finalize, the optimizer, loss.item()), and per forward / backward micro-batch block its prefix
// (forward: the embedding; backward: the loss, LM head and final norm gradients), its layers and its
// suffix (forward: final norm, LM head, loss; backward: the embedding gradient). A unit is a range
// of the rank's main thread: its runtime calls and the GPU ops they launch (edits::blockNodes).
#include "graph/ExecutionGraph.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sl::edits {

struct MicrobatchUnits {
    int microbatch = 0;
    bool backward = false;
    int prefix = -1;         // unit index (into StepUnits::units)
    std::vector<int> layers; // by layer: forward layer l, backward layer l (traced order is descending)
    int suffix = -1;
};

struct StepUnits {
    std::uint32_t rank = 0;
    std::uint32_t thread = 0; // processor of the main thread
    std::vector<std::vector<NodeId>> units;
    int head = -1, tail = -1;
    std::vector<MicrobatchUnits> blocks;              // in traced order
    std::vector<std::pair<TimeNs, TimeNs>> optimizer; // measured spans of Optimizer.step* ranges in the tail
};

// The index a block annotation ends with (forward_step#3 -> 3), -1 without.
int trailingIndex(std::string_view name);
// The ProfilerStep#N ranges of a rank's CPU tracks by start (the whole trace when it has none).
std::vector<std::pair<TimeNs, TimeNs>> profilerSteps(const Rank& rank);

// Every step of every rank, with `layers` layer blocks in every micro-batch block. Throws KnobError
// (one line beginning with `knob`) when a rank has no micro-batch blocks, when a block's layer
// repetition is not `layers` long, or when a forward and a backward block do not pair.
std::vector<StepUnits> stageUnits(const ExecutionGraph& g, int layers, const std::string& knob);

} // namespace sl::edits
