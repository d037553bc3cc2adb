#pragma once
// Candidate plans for `sightline-cli shard` (docs/Embeddings.md, "Picking a plan"), as TorchRec's
// planner proposes them: the traced plan, a greedy table-wise plan by modelled lookup cost, that
// plan with the largest table row-wise over every rank, with the widest table column-wise over two
// ranks, and a round robin by size. Each is simulated afterwards; this only proposes.
#include "models/EmbeddingCost.h"
#include "models/EmbeddingPlan.h"

#include <string>
#include <vector>

namespace sl {

struct NamedPlan {
    std::string name;
    EmbeddingPlan plan;
};

std::vector<NamedPlan> candidatePlans(const EmbeddingTables& tables, int worldSize,
                                      const EmbeddingMachine& machine);

} // namespace sl
