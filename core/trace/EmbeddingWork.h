#pragma once
// Embedding work of recommendation models (docs/Embeddings.md, "What counts as embedding work"):
// which GPU kernels are table lookups (FBGEMM's table-batched embedding, aten::embedding_bag /
// aten::embedding) and which host ranges are the phases of TorchRec's all-to-alls (the index
// exchange before the lookups, the pooled embeddings after them and their gradients in backward).
// By name only, like the other classifiers of trace/.
#include <cstdint>
#include <string>
#include <string_view>

namespace sl {

struct Rank;
struct EventRef;

enum class EmbeddingLookup : std::uint8_t { None, Forward, Backward };

// A GPU kernel of an embedding lookup (EventClass::EmbeddingLookup: FBGEMM TBE kernels
// split_embedding_codegen_forward_*, split_embedding_backward_codegen_*, dense_embedding_codegen_*,
// bounds_check_indices; aten's EmbeddingBag and embedding backward kernels), forward or backward.
EmbeddingLookup embeddingLookupKernel(std::string_view kernelName);

// A host op that runs embedding lookups (fbgemm::split_embedding_codegen_lookup_*,
// fbgemm::dense_embedding_codegen_lookup_*, aten::embedding_bag, aten::_embedding_bag,
// aten::embedding).
bool isEmbeddingLookupOp(std::string_view opName);

// The phase of TorchRec's embedding all-to-all a host range stands for.
enum class EmbeddingExchange : std::uint8_t {
    None,
    Indices,        // KJTAllToAll*, all2all_data:kjt values: the sparse features' indices to the tables
    Pooled,         // alltoall_fwd_single, PooledEmbeddingsAwaitable, All2All_Pooled_Req: lookups back
    PooledBackward, // alltoall_bwd_single, All2All_Pooled_*Backward: their gradients to the tables
    Splits,         // all2all_data:kjt splits / lengths and the like: small, kept as measured
};

// The phase named by an enclosing range (user annotation or cpu_op), None for any other name.
EmbeddingExchange embeddingExchangeOf(std::string_view rangeName);

// "embedding lookup" / "embedding all-to-all": the names reports and views use.
inline constexpr std::string_view kEmbeddingLookupName = "embedding lookup";
inline constexpr std::string_view kEmbeddingAllToAllName = "embedding all-to-all";

// The phase of the embedding all-to-all a GPU op (a collective kernel) of `rank` belongs to: the
// innermost host range around its launch call that names one; None for an op launched elsewhere
// or without a recorded launch.
EmbeddingExchange embeddingExchangeOfLaunch(const Rank& rank, EventRef gpuOp);

// What embedding work a GPU op does, as views name it: a lookup kernel, or a collective of one of
// the all-to-all's phases (the split and length exchanges too: they are part of it).
enum class EmbeddingWork : std::uint8_t { None, Lookup, AllToAll };
EmbeddingWork embeddingWorkOf(const Rank& rank, EventRef gpuOp);
// kEmbeddingLookupName, kEmbeddingAllToAllName, or "" for None.
std::string_view embeddingWorkName(EmbeddingWork work);
// "embedding all-to-all: ncclKernel_SendRecv" for embedding work, the name alone otherwise: how
// path tables name a segment.
std::string withEmbeddingWork(EmbeddingWork work, std::string_view name);

} // namespace sl
