#pragma once
// The graph splicer of the block edits (docs/Structure.md, "Block edits"): a rank's run of blocks
// rewritten into a new order of traced blocks and copies, spliced into a copy of the execution
// graph. Used by the layer edit (LayerEdit.cpp) and the micro-batch edit (MicrobatchEdit.cpp).
#include "sim/BlockEdits.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace sl::edits {

constexpr std::uint32_t kNoGroup = 0xffffffffu;

// v scaled by f, rounded to the nearest nanosecond.
TimeNs scaledNs(TimeNs v, double f);

constexpr std::uint32_t kOriginal = 0xffffffffu;

// A run of blocks of one rank whose order an edit rewrites (docs/Structure.md, "Block edits").
// `sequence` is the new order: (block, label); kOriginal stands for the traced block itself (each
// at most once; one left out is dropped), any other label for a copy. Copies with the same label
// on different ranks are the same block of the new job: their collectives meet.
//
// Lanes (pp.degree, docs/Layouts.md): `lane[k]` puts entry k on a copy of the rank's threads and
// streams (lane 0: the traced ones); each lane runs its entries in sequence order, and an edge between
// two blocks of the run joins only entries of one lane. Empty: every entry on lane 0.
struct BlockRun {
    std::uint32_t rank = 0;
    std::vector<std::vector<NodeId>> units; // each block's nodes, by measured start
    std::vector<std::pair<int, std::uint32_t>> sequence;
    std::vector<std::uint8_t> lane; // per sequence entry, or empty
};

struct Applied {
    std::int64_t copiedGroups = 0, unmatchedCopies = 0, phantoms = 0;
    // Lanes: per node of out.graph its lane (empty without lanes), and the traced edges between
    // two lanes that no rule of applyRuns carries (dropped).
    std::vector<std::uint8_t> laneOf;
    std::int64_t crossLaneDropped = 0;
    // Per run and sequence entry: its nodes in out.graph (the traced block's or its copy's).
    std::vector<std::vector<std::vector<NodeId>>> instances;
};

// The nodes of a block: the runtime calls of thread P that start inside [ts, te) and the GPU ops
// they launch, by measured start.
std::vector<NodeId> blockNodes(const ExecutionGraph& g, const Processor& P, TimeNs ts, TimeNs te);

// Builds out.graph (adjacency included, not validated), nodeOf, sourceOf, edgeOrigin and kept
// from the caller's graph and the runs.
Applied applyRuns(const ExecutionGraph& g, const std::vector<BlockRun>& runs, BlockEdit& out,
                  const std::vector<std::uint8_t>& notCopied = {});

} // namespace sl::edits
