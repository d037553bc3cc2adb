#include "trace/EmbeddingWork.h"

#include "trace/AsciiText.h"
#include "trace/EventClass.h"

#include <string>

namespace sl {

namespace {

bool has(std::string_view s, std::string_view w) {
    return s.find(w) != std::string_view::npos;
}

} // namespace

EmbeddingLookup embeddingLookupKernel(std::string_view kernelName) {
    // Whether it is a lookup is the event classifier's answer (one look at the name); the direction
    // is in the kernel's name. bounds_check_indices validates the forward lookup's indices.
    if (eventClassOf(EventKind::Kernel, kernelName) != EventClass::EmbeddingLookup)
        return EmbeddingLookup::None;
    const std::string n = asciiLower(kernelName.substr(0, 256));
    return has(n, "backward") || has(n, "_bwd") || has(n, "grad") ? EmbeddingLookup::Backward
                                                                  : EmbeddingLookup::Forward;
}

bool isEmbeddingLookupOp(std::string_view opName) {
    return opName.starts_with("fbgemm::split_embedding_codegen_lookup") ||
           opName.starts_with("fbgemm::dense_embedding_codegen_lookup") || opName == "aten::embedding_bag" ||
           opName == "aten::_embedding_bag" || opName == "aten::embedding";
}

EmbeddingExchange embeddingExchangeOf(std::string_view rangeName) {
    if (has(rangeName, "alltoall_bwd_single") ||
        (has(rangeName, "All2All_Pooled") && has(rangeName, "Backward")))
        return EmbeddingExchange::PooledBackward;
    if (has(rangeName, "alltoall_fwd_single") || has(rangeName, "PooledEmbeddingsAwaitable") ||
        has(rangeName, "All2All_Pooled"))
        return EmbeddingExchange::Pooled;
    // The lengths and the split sizes are small and do not follow the pooling: kept as measured.
    if (has(rangeName, "all2all_data:") && !has(rangeName, "kjt values")) return EmbeddingExchange::Splits;
    if (has(rangeName, "KJTAllToAll") || has(rangeName, "all2all_data:kjt values"))
        return EmbeddingExchange::Indices;
    return EmbeddingExchange::None;
}

} // namespace sl
