#include "trace/EmbeddingWork.h"

#include "trace/AsciiText.h"
#include "trace/Collective.h"
#include "trace/EventClass.h"
#include "trace/TraceSet.h"

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

EmbeddingExchange embeddingExchangeOfLaunch(const Rank& rank, EventRef gpuOp) {
    if (!gpuOp.valid() || gpuOp.track >= rank.tracks.size()) return EmbeddingExchange::None;
    const auto& gpu = rank.tracks[gpuOp.track].events;
    if (gpuOp.index >= gpu.size() || gpu.link[gpuOp.index] == kNoLink) return EmbeddingExchange::None;
    const EventRef call = EventRef::unpack(gpu.link[gpuOp.index]);
    if (call.track >= rank.tracks.size() || rank.tracks[call.track].isGpu()) return EmbeddingExchange::None;
    const auto& ev = rank.tracks[call.track].events;
    if (call.index >= ev.size() || ev.parent.size() != ev.size()) return EmbeddingExchange::None;
    for (std::int32_t p = ev.parent[call.index]; p >= 0; p = ev.parent[static_cast<std::size_t>(p)]) {
        const EmbeddingExchange phase =
            embeddingExchangeOf(rank.name(EventRef{call.track, static_cast<std::uint32_t>(p)}));
        if (phase != EmbeddingExchange::None) return phase;
    }
    return EmbeddingExchange::None;
}

EmbeddingWork embeddingWorkOf(const Rank& rank, EventRef gpuOp) {
    if (!gpuOp.valid() || gpuOp.track >= rank.tracks.size()) return EmbeddingWork::None;
    const auto& ev = rank.tracks[gpuOp.track].events;
    if (gpuOp.index >= ev.size() || ev.kind[gpuOp.index] != EventKind::Kernel) return EmbeddingWork::None;
    const std::string_view name = rank.name(gpuOp);
    if (embeddingLookupKernel(name) != EmbeddingLookup::None) return EmbeddingWork::Lookup;
    // Only collective kernels can be a phase of the exchange (the parent walk is for them alone).
    if (!isCommunicationKernelName(name)) return EmbeddingWork::None;
    return embeddingExchangeOfLaunch(rank, gpuOp) != EmbeddingExchange::None ? EmbeddingWork::AllToAll
                                                                             : EmbeddingWork::None;
}

std::string_view embeddingWorkName(EmbeddingWork work) {
    switch (work) {
    case EmbeddingWork::Lookup:
        return kEmbeddingLookupName;
    case EmbeddingWork::AllToAll:
        return kEmbeddingAllToAllName;
    case EmbeddingWork::None:
        break;
    }
    return {};
}

std::string withEmbeddingWork(EmbeddingWork work, std::string_view name) {
    std::string out;
    if (work != EmbeddingWork::None) out.append(embeddingWorkName(work)).append(": ");
    out.append(name);
    return out;
}

} // namespace sl
