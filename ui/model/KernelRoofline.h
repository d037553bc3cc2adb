#pragma once
// A GPU kernel's place on its GPU's roofline, for the details panel (docs/GpuModel.md): its op's
// FLOPs and bytes (its share), arithmetic intensity, achieved TFLOP/s and TB/s as fractions of the
// datasheet peaks, and the bound; or why it has no cost.
#include "models/KernelCost.h"
#include "trace/TraceSet.h"

#include <QString>

#include <unordered_map>
#include <vector>

namespace sl::ui {

class KernelRoofline {
public:
    // An HTML fragment for the GPU op `gpuOp` of rank index `rank` of `set`; empty for other events.
    // The costs of a rank are computed on its first kernel and kept until the set changes.
    QString html(const TraceSet& set, int rank, EventRef gpuOp);

private:
    const TraceSet* set_ = nullptr;
    std::unordered_map<int, std::unordered_map<std::uint64_t, KernelCostEntry>> costs_;
};

} // namespace sl::ui
