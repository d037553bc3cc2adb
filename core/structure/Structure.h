#pragma once
// Structure recognition (docs/Structure.md): the parallel layout of a training job (its data-,
// tensor- and pipeline-parallel groups and every loaded rank's place in the dp x tp x pp grid),
// its pipeline micro-batches and its repeated layer blocks, recognised from the trace set (and
// from the execution graph's matched collectives where the trace carries no group metadata).
// The graph edits of core/sim/SetupEdits.h build new setups from this description.
#include "graph/ExecutionGraph.h"
#include "trace/GroupRole.h"
#include "trace/TraceSet.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sl {

struct ParallelGroup {
    GroupRole role = GroupRole::Other;
    std::string description;         // pg_desc, or how the group was found
    std::vector<std::int32_t> ranks; // rank ids, sorted
};

// A loaded rank's coordinates in the dp x tp x pp grid (known = the layout places it).
struct RankPlace {
    int rank = 0; // Rank::rank id
    int dp = 0, tp = 0, pp = 0;
    bool known = false;
};

// Micro-batch blocks and layer blocks of one loaded rank, in its first step.
struct RankBlocks {
    int forward = 0;  // forward micro-batch blocks (forward_step#m annotations)
    int backward = 0; // backward micro-batch blocks
    // Measured span of the micro-batch blocks of the first step (first block start, last block
    // end); -1 without. stepSpans: the same for every step with blocks.
    TimeNs blocksStart = -1, blocksEnd = -1;
    std::vector<std::pair<TimeNs, TimeNs>> stepSpans;
    int layers = 0;      // repeated layer blocks in the first forward block (or step)
    int layerOps = 0;    // top-level ops per layer block
    std::string layerOp; // the first op of a layer block
};

struct ParallelStructure {
    int world = 0;                     // ranks of the job (distributedInfo world_size, else loaded ranks)
    int dp = 1, tp = 1, pp = 1;        // degrees; world = dp x tp x pp when recognised
    bool recognised = false;           // every loaded rank has a place
    bool megatronOrder = false;        // rank id = (pp x dp + d) x tp + t for every loaded rank
    std::string source;                // "pg_config", "collective metadata", "matched collectives", "ranks"
    std::vector<ParallelGroup> groups; // distinct groups seen by the loaded ranks
    std::vector<RankPlace> places;     // parallel to TraceSet::ranks
    // Micro-batches per step (forward blocks of a rank), 0 when no micro-batch markers were found.
    int microbatches = 0;
    std::vector<RankBlocks> blocks; // parallel to TraceSet::ranks
    // Layer blocks of the whole model: the sum over pipeline stages (one rank per stage), 0 when
    // no repeated block was found.
    int layers = 0;
    std::vector<std::string> notes; // what could not be recognised and why

    // The Megatron-order rank id of a coordinate under degrees (dp, tp) (pp is the slowest axis).
    static int megatronRank(int pp, int d, int t, int dpDegree, int tpDegree) {
        return (pp * dpDegree + d) * tpDegree + t;
    }
    // The place of a rank id: a loaded rank's, else (Megatron order only) computed; nullptr /
    // known=false when unknown.
    RankPlace placeOf(int rankId) const;
};

// Recognises the structure of a trace set. `graph` (optional) supplies matched collectives for
// traces without process-group metadata and the step window for the block search.
// `blocks` = false skips the micro-batch and layer block search (the layout alone).
ParallelStructure recognizeStructure(const TraceSet& set, const ExecutionGraph* graph = nullptr,
                                     bool blocks = true);

// {"world", "dp", "tp", "pp", "recognised", "megatron_order", "source", "groups": [{role,
// description, ranks}], "grid": [{rank, dp, tp, pp}], "microbatches", "layers", "stages":
// [{stage, rank, forward_blocks, backward_blocks, layers, ops_per_layer, layer_starts_with}],
// "notes"}.
nlohmann::json structureJson(const ParallelStructure& s);

// The longest run of consecutive repetitions of one block in a sequence (at least two
// repetitions of a block of at least minBlock items): count, block length and first index.
// Ties prefer more coverage, then the shorter block. count = 0 when none.
struct Repetition {
    int count = 0;
    int length = 0;
    std::size_t first = 0;
};
Repetition longestRepetition(const std::vector<std::uint32_t>& seq, int minBlock);

// One block of a rank's CPU thread that layer blocks repeat in: a forward or backward micro-batch
// block, or a ProfilerStep#N when the rank has no micro-batch markers. `children` are the event
// indices of its direct host-range children in order; `rep` the layer repetition over their
// names, where a trailing "#N" is ignored (DDP's reduce_bucket#0, #1, ... inside the backward
// layers of the last micro-batch are the same child). rep.count = 0 when nothing repeats.
struct LayerRegion {
    std::uint32_t track = 0;
    std::uint32_t parent = 0; // event index of the block on `track`
    bool backward = false;
    std::vector<std::uint32_t> children;
    Repetition rep;
};
// Every layer region of a rank, by start time (the k-th region of two ranks of one pipeline stage
// is the same block of the schedule).
std::vector<LayerRegion> layerRegions(const Rank& rank);

} // namespace sl
