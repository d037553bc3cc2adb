#pragma once
// Embedding tables of a recommendation model and where a plan puts them (docs/Embeddings.md):
// the tables side file (tables.json), the plan file (plan.json), their validation, and what a plan
// asks of each rank: the table shards it looks up and the bytes its all-to-alls move.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

struct EmbeddingTable {
    std::string name;
    std::int64_t rows = 0;
    int dim = 0;
    double pooling = 1; // lookups per sample (pooling factor)
    int bytesPerElement = 4;
    // Reuse histogram (optional, as in the dlrm_datasets locality statistics): pairs (distance,
    // share): `share` of the lookups hit a row last used at most `distance` distinct rows before.
    // Shares are cumulative per bucket and add up to at most 1; the rest never repeats.
    std::vector<std::pair<double, double>> reuse;
    int tracedRank = -1; // the rank the traced job holds it on (table-wise)
    double rowBytes() const { return static_cast<double>(dim) * bytesPerElement; }
};

struct EmbeddingTables {
    std::vector<EmbeddingTable> tables;
    std::int64_t batchPerRank = 0; // samples per rank and step (0: from the trace)
    // True when the tables were inferred evenly from the trace's per-rank totals (no side file).
    bool inferred = false;
    std::string source; // the side file, or "" when inferred
    int find(std::string_view name) const;
};

enum class Sharding : std::uint8_t { TableWise, RowWise, ColumnWise, DataParallel };
std::string_view shardingName(Sharding s); // "table_wise", "row_wise", "column_wise", "data_parallel"

struct TablePlacement {
    int table = -1;
    Sharding sharding = Sharding::TableWise;
    std::vector<int> ranks; // table-wise: one; row- / column-wise: the shards' ranks; data-parallel: none
};

// One placement per table, in table order.
struct EmbeddingPlan {
    std::vector<TablePlacement> placements;
    std::string source; // the plan file, or a description ("traced")
};

// The traced plan: every table table-wise on its traced rank (tables without one: an error).
EmbeddingPlan tracedPlan(const EmbeddingTables& tables);

// Parses tables.json ({"batch_per_rank": B, "tables": [{"name", "rows", "dim", "pooling",
// "rank", "bytes_per_element", "reuse": [[distance, share], ...]}]}). Throws Error (kind Format)
// naming `file` on anything malformed, a table listed twice, or a value out of range.
EmbeddingTables parseEmbeddingTables(std::string_view json, const std::string& file);

// Parses plan.json ({"tables": {"NAME": RANK | {"sharding": "row_wise", "ranks": [..]} |
// "data_parallel", ...}} or a list [{"table": NAME, "sharding": .., "ranks": [..]}]). Tables the
// plan does not name stay where the trace has them. Throws Error naming `file` for a table the side
// file does not have, a table listed twice, a rank outside 0..worldSize-1, or a bad sharding.
EmbeddingPlan parseEmbeddingPlan(std::string_view json, const std::string& file,
                                 const EmbeddingTables& tables, int worldSize);

// plan.json text of a plan (what `shard` writes and the GUI saves with a scenario).
std::string embeddingPlanJson(const EmbeddingPlan& plan, const EmbeddingTables& tables);

// A piece of a table on one rank and the work it does per step.
struct TableShard {
    int table = -1;
    int rank = 0;
    double rowShare = 1;   // share of the rows (row-wise: 1/k)
    double dimShare = 1;   // share of the dimension (column-wise: 1/k)
    double lookups = 0;    // rows read per step
    double outputRows = 0; // pooled rows written per step (samples it serves)
    bool exchanged = true; // its lookups travel through the all-to-alls (not data-parallel)
};

// Every shard of the plan, for a job of worldSize ranks and batch samples per rank.
std::vector<TableShard> planShards(const EmbeddingPlan& plan, const EmbeddingTables& tables, int worldSize,
                                   std::int64_t batchPerRank);

// Bytes one rank sends to every other rank in one embedding all-to-all (the total to the others),
// and what it receives: [rank] = {send, receive}.
struct ExchangeBytes {
    std::vector<double> send, receive;
    // The most any rank moves in either direction: what the transfer waits for.
    double peak() const;
    double total() const; // every rank's sends
};
// Pooled embeddings (forward; their gradients in backward move the same bytes the other way):
// B x dimension shard elements from each shard's rank to every other rank.
ExchangeBytes pooledExchange(const std::vector<TableShard>& shards, const EmbeddingTables& tables,
                             int worldSize, std::int64_t batchPerRank);
// Indices (8 bytes each) of each rank's samples to the ranks that hold their tables.
ExchangeBytes indexExchange(const std::vector<TableShard>& shards, const EmbeddingTables& tables,
                            int worldSize, std::int64_t batchPerRank);

} // namespace sl
