#pragma once
// Graph edits that add or remove blocks of work (docs/Structure.md, "model.layers"): model.layers
// repeats or drops the recognised layer blocks of every forward and backward block of every rank,
// with their launches, their TP collectives (cloned consistently on every rank of the group) and
// the gradient buckets DDP all-reduces inside them. The edit builds a copy of the execution graph
// in which a clone node refers to the same trace event as its source (so its duration and every
// knob apply as to the source), splices the clones into each CPU thread and GPU stream order, and
// bypasses dropped nodes; the simulator then runs on the copy, and the result is mapped back onto
// the caller's graph.
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "structure/Structure.h"

#include <memory>
#include <string>
#include <vector>

namespace sl {

struct BlockEditKnobs {
    int layers = 0; // model.layers: layer blocks of the whole model (0 = as traced)
};

struct BlockEdit {
    bool active = false;            // false: nothing to edit, or the edit was ignored (see warnings)
    ExecutionGraph graph;           // the edited copy (same TraceSet); adjacency built, validated
    std::vector<NodeId> nodeOf;     // per caller node: its node in `graph`, kNoNode when dropped
    std::vector<NodeId> sourceOf;   // per node of `graph`: the caller's node it is or copies
    std::vector<EdgeId> edgeOrigin; // per edge of `graph`: the caller's edge it is, kNoEdge when new
    std::size_t kept = 0;           // graph.nodes[0, kept) are the caller's nodes, the rest clones
    std::vector<std::string> notes; // what the edit did
    Warnings warnings;              // why (part of) it could not be done
    ParallelStructure structure;    // what the edit was planned on (the layout it keeps)
    // pp.degree (docs/Layouts.md): the stages of each trace rank's column (0: no pipeline edit), and
    // per node of `graph` the stage (lane) it runs on.
    int stages = 0;
    std::vector<std::uint8_t> laneOf;
};

// The edit of `g` for the knobs (inactive when every block knob is as traced).
BlockEdit editBlocks(const ExecutionGraph& g, const BlockEditKnobs& knobs);

// The edit of pp.microbatches: every rank's forward / backward micro-batch blocks (per step) in
// the 1F1B order of the new count; micro-batch m runs as traced block m (m < traced - 1), the
// traced last block (m = new - 1, which carries the gradient all-reduces) or a copy of an
// interior block; copies of a stage's sends meet the copies of the next stage's receives.
// Inactive (with a warning) without micro-batch markers or when a rank's order is not 1F1B.
BlockEdit editMicrobatches(const ExecutionGraph& g, int microbatches);

// The edit of pp.degree (docs/Layouts.md, "pp.degree"): every rank of a trace of T stages becomes the
// column of knobs.ppDegree / T stages of its place (its traced sends and receives on the column's
// ends), the layers split evenly, each stage on a lane of its own (copies of the rank's threads and streams)
// in its 1F1B order with the traced micro-batches (knobs.ppMicrobatches of them by pp.microbatches' rule when
// set), stage-to-stage transfers timed by the collective model of `knobs`. Inactive with a note at the traced
// degree; throws KnobError (one line) for a layout it cannot make.
BlockEdit editPipeline(const ExecutionGraph& g, const SimKnobs& knobs);

// A run with block knobs set (the first stage of simulate(), sim/Simulator.cpp): the edit of g for
// model.layers, else pp.microbatches, and the other knobs the edited graph runs with.
struct BlockEditRun {
    std::shared_ptr<const BlockEdit> edit; // kept by the result (SimResult::edited)
    SimKnobs knobs;                        // the caller's without the block knobs
};
BlockEditRun planBlockEditRun(const ExecutionGraph& g, const SimKnobs& knobs);

// The result of simulating run.edit.graph (or g, when the edit is inactive) with run.knobs, parallel
// to `g` (docs/Structure.md, "Reports after a block edit"): per-rank summaries, iteration and setup
// notes of the edited job; res.nodes / the timeline give the caller's nodes their times in the
// edited run (dropped ones none); clones are not drawn, their GPU ops are in
// SimulatedTimeline::added so that breakdowns count them.
SimResult mapBlockEditResult(const ExecutionGraph& g, const BlockEditRun& run, SimResult r,
                             const SimOptions& options);

} // namespace sl
