#pragma once
// embedding.plan: the trace's embedding lookups and all-to-alls re-timed for another placement of
// the tables (docs/Embeddings.md). What the trace says about its tables (per rank: the lookup ops'
// shapes, the lookup kernels, the all-to-all phases), the tables (a side file, else inferred evenly
// from those totals), the lookup model calibrated on the traced plan's measured kernels, and the
// new durations of the lookup kernels and of the index and pooled-embedding all-to-alls.
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "models/EmbeddingCost.h"
#include "models/EmbeddingPlan.h"
#include "trace/EmbeddingWork.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sl {

struct SimKnobs; // sim/Knobs.h

// One rank's embedding work as traced.
struct RankEmbedding {
    int rank = 0;
    // The model-parallel lookup op (FBGEMM split TBE, or embedding_bag): tables, weights (rows x dim
    // summed over its tables), total dimension, lookups (indices), samples looked up (per table).
    int tables = 0;
    std::int64_t weights = 0;
    std::int64_t totalDim = 0; // 0: unknown
    std::int64_t lookups = 0;
    std::int64_t samples = 0;
    // Data-parallel lookups (FBGEMM's dense TBE): tables and weights.
    int denseTables = 0;
    std::int64_t denseWeights = 0;
    // Lookup kernels and their measured time.
    std::vector<NodeId> forward, backward;
    TimeNs forwardTime = 0, backwardTime = 0;
};

struct EmbeddingExchangeCall {
    EmbeddingExchange phase = EmbeddingExchange::None;
    std::vector<NodeId> members;  // the collective's kernels, one per rank
    std::vector<int> memberRanks; // Rank::rank of each member
    // Per member: elements sent and received as the trace's metadata (or an attached ET) gives
    // them, -1 where unknown.
    std::vector<std::int64_t> inElems, outElems;
    // Per member: elements sent to and received from each peer (by its place in the group), from
    // an attached execution trace's split sizes; empty where the trace has none.
    std::vector<std::vector<std::int64_t>> sentTo, receivedFrom;
    TimeNs transfer = 0; // mean measured transfer
    // Elements rank `from` sent to rank `to` (rank ids; the all-to-alls of the embedding span every
    // rank, so a rank's place in the group is its id) as its split sizes say, -1 where unknown.
    std::int64_t pairElements(int from, int to) const;
};

struct EmbeddingInventory {
    int worldSize = 0;
    std::vector<RankEmbedding> ranks; // by rank id
    std::vector<EmbeddingExchangeCall> exchanges;
    std::int64_t batchPerRank = 0; // samples per rank (samples looked up / world size), 0: unknown
    bool any() const;
};

// Reads the graph. Ranks must be 0..N-1.
EmbeddingInventory embeddingInventory(const ExecutionGraph& graph);

// The tables: the side file at `tablesPath` checked against the trace (one rank's tables, rows x dim
// or lookups disagreeing is an Error naming the file), else inferred evenly from each rank's totals
// (EmbeddingTables::inferred). Throws Error.
EmbeddingTables embeddingTablesFor(const EmbeddingInventory& inventory, const std::string& tablesPath);

struct EmbeddingModelOptions {
    bool calibrate = true;       // fit the lookup model on the traced plan (false: the raw model)
    bool resizeExchanges = true; // re-size the all-to-alls (false: keep them as measured)
};

struct EmbeddingWhatIf {
    // The factor on the own time of every re-timed node (lookup kernels, all-to-all transfers).
    std::vector<std::pair<NodeId, double>> nodeFactors;
    // Per rank: modelled lookup time (forward + backward, calibrated) under the traced and the new plan.
    std::vector<double> tracedLookupUs, lookupUs;
    ExchangeBytes pooled, indices;             // the new plan's
    ExchangeBytes tracedPooled, tracedIndices; // the traced plan's
    // lookup time = a + c x model, per direction ([0] forward, [1] backward)
    double fitA[2] = {0, 0}, fitC[2] = {1, 1};
    std::string machine; // the GPU the model used
};

// Re-times the inventory's lookups and all-to-alls for `plan`: the model calibrated on `machine`
// (the traced GPU) predicts on `target` (gpu.target; null: the same). Throws Error naming
// plan.source when the plan puts lookups on a rank without lookup kernels to re-time.
EmbeddingWhatIf planEmbeddingWhatIf(const EmbeddingInventory& inventory, const EmbeddingTables& tables,
                                    const EmbeddingPlan& plan, const EmbeddingMachine& machine,
                                    const EmbeddingModelOptions& options = {},
                                    const EmbeddingMachine* target = nullptr);

// The whole chain for the knobs embedding.plan / embedding.tables / embedding.calibrate /
// embedding.resize_comm (and gpu.target for the machine). Empty when embedding.plan is not set
// (the other three then change nothing, which a warning says).
EmbeddingWhatIf embeddingWhatIfForKnobs(const ExecutionGraph& graph, const SimKnobs& knobs,
                                        Warnings& warnings);

// Reads a plan or tables knob's value: a file path, or JSON text starting with '{' or '['.
std::string embeddingKnobText(const std::string& value, std::string& fileForErrors);

} // namespace sl
