#pragma once
// What the GUI's "Embedding tables" panel shows (docs/Embeddings.md, "In the GUI"): for the plan a
// scenario's knobs name (or the traced one), each rank's modelled lookup time and the pooled
// embedding bytes it sends per step, split by the table shards it holds; and the plan with one
// table moved, which the panel sets as the scenario's embedding.plan knob.
#include "sim/EmbeddingWhatIf.h"
#include "sim/Knobs.h"

#include <string>
#include <vector>

namespace sl {

struct EmbeddingShardShare {
    int table = -1;       // index into EmbeddingPlanView::tables.tables
    int rank = 0;         // rank id
    double lookupUs = 0;  // its part of the rank's lookup time (forward + backward), calibrated
    double sentBytes = 0; // pooled embedding bytes it sends to the other ranks per step (forward)
};

struct EmbeddingPlanView {
    int worldSize = 0;
    EmbeddingTables tables;
    EmbeddingPlan plan;                      // the knobs' embedding.plan, else the traced plan
    bool traced = true;                      // plan is the traced one
    std::vector<double> lookupUs, sentBytes; // per rank id
    std::vector<EmbeddingShardShare> shards; // rank by rank, tables in order
    std::string error; // the knobs' plan or tables could not be read (then the traced plan)
    bool any() const { return worldSize > 0 && !tables.tables.empty(); }
};

// The view for `knobs` (embedding.plan, embedding.tables, gpu.target) on a trace whose inventory
// is `inventory`; empty (any() false) when the trace has no embedding lookups. Never throws: a plan
// or tables the model cannot read leaves the traced plan shown, with `error` saying why.
EmbeddingPlanView embeddingPlanView(const ExecutionGraph& graph, const EmbeddingInventory& inventory,
                                    const SimKnobs& knobs);

// The plan with `table` table-wise on `rank` (every other table as it was), as plan.json text
// naming only the tables away from their traced place; "" when none is (the traced plan).
std::string planWithTableOn(const EmbeddingPlanView& view, int table, int rank);

} // namespace sl
