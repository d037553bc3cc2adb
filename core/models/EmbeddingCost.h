#pragma once
// The cost of embedding lookups on one GPU (docs/Embeddings.md, "The lookup model"), after Lin et
// al.: a lookup reads one row; rows that stay in L2 across the batch's lookups cost L2 bandwidth,
// the others DRAM bandwidth. Each shard of a rank gets the share of L2 its traffic claims, and its
// hit rate is the share of lookups whose reuse distance fits in it (uniform access without a reuse
// histogram: cached rows / rows). The result is a time at full bandwidth; the trace's own lookup
// kernels calibrate it (sim/EmbeddingWhatIf.h), so only the ratios between plans need be right.
#include "models/EmbeddingPlan.h"

#include <string_view>
#include <vector>

namespace sl {

struct GpuSpec; // models/GpuTable.h

struct EmbeddingMachine {
    double dramGBps = 2000;
    double l2Bytes = 40e6;
    double l2GBps = 6000;
    std::string_view name; // the GPU it stands for ("" when assumed)
};

// The memory figures of a GPU of the table (bandwidth from it; L2 size from the GPU's datasheet by
// name, 40 MB where unknown; L2 bandwidth 3 x DRAM, an assumption the calibration absorbs).
EmbeddingMachine embeddingMachine(const GpuSpec* gpu);

// Hit rate of a shard's lookups in `cacheBytes` of L2.
double l2HitRate(const EmbeddingTable& table, const TableShard& shard, double cacheBytes);

struct LookupTime {
    double forwardNs = 0, backwardNs = 0;
};

// Modelled forward and backward lookup time of every rank ([rank]) for the shards.
std::vector<LookupTime> lookupTimes(const std::vector<TableShard>& shards, const EmbeddingTables& tables,
                                    int worldSize, const EmbeddingMachine& machine);

} // namespace sl
