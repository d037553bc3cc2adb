#pragma once
// pp.microbatches' rule (docs/Structure.md, "pp.microbatches"), shared by the micro-batch edit and
// pp.degree's (docs/Layouts.md, "pp.degree"): micro-batch m of a job of `wanted` micro-batches runs as
// traced block m (m < traced - 1), as the traced last block (m = wanted - 1: it carries the gradient
// all-reduces), or as a copy of an interior block (of block 0 with two or one traced micro-batches).
// Copies never repeat a gradient all-reduce: gradients are synchronised once per step.
#include "graph/ExecutionGraph.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sl::edits {

class MicrobatchSources {
public:
    MicrobatchSources(int traced, int wanted);
    int source(int m) const;         // the traced block micro-batch m runs as, or copies
    bool original(int m) const;      // m runs as the traced block itself
    std::vector<int> copied() const; // the sources of the copies, in micro-batch order

private:
    int traced_, wanted_;
    std::vector<int> interior_;
};

// The label of the copy of micro-batch m's forward or backward block in step `step` (the same on
// every rank, so the copies' collectives meet).
std::uint32_t microbatchCopyLabel(std::size_t step, bool backward, int m);

// Per node of g: 1 for the gradient all-reduces and reduce-scatters of data-parallel groups, which
// copies leave out.
std::vector<std::uint8_t> gradientCollectives(const ExecutionGraph& g);

} // namespace sl::edits
