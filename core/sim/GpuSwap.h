#pragma once
// gpu.target: the trace replayed as if it ran on another GPU of the table (docs/GpuModel.md).
//
// Every kernel with a cost (models/KernelCost.h) moves from its family's achieved efficiency on the
// source GPU to the family's efficiency on the target (models/KernelFamily.h, the table's
// `efficiency`), keeping how far it stood from its family:
//
//   predicted = measured x roofline(target) / roofline(source) x efficiency(source) / efficiency(target)
//
// Kernels without shapes take the median of that ratio over their twins (the same kernel name with
// a cost: kernels queued before the window), else over the kernels of their class that have one
// (without any: the memory-bandwidth ratio, or for GEMM / attention the matrix-peak ratio of the
// data type most of the trace's matrix ops use, BF16 without any). No kernel gets shorter than the
// target's shortest kernel (min_kernel_us, else kMinKernelUs; launch ramp and tail do not scale with
// peak figures); copies between host and device keep their time (the host link is not the GPU). Collective
// transfers on links inside a node scale their bandwidth term by the link ratio (CollectiveModel's alpha-beta
// split). With the target equal to the source every factor is exactly 1: the replay is reproduced.
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "models/CollectiveModel.h"
#include "models/GpuTable.h"
#include "models/KernelClass.h"
#include "models/KernelCost.h"

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <vector>

namespace sl {

constexpr double kMinKernelUs = 2.0;

struct GpuSwapRow {
    std::string name; // kernel name (top kernels) or class name
    KernelClass cls = KernelClass::Other;
    std::int64_t kernels = 0;
    std::int64_t withShapes = 0; // of those, how many had a cost of their own
    TimeNs measured = 0;         // sum of the graph's durations
    TimeNs predicted = 0;        // the same under the swap
    double speedup() const {
        return predicted > 0 ? static_cast<double>(measured) / static_cast<double>(predicted) : 1.0;
    }
};

// One kernel family of the swap: its key on the source and on the target (models/KernelFamily.h),
// the efficiencies the two GPUs' tables give them (0: not measured) and the kernels of the family.
struct GpuSwapFamily {
    std::string family, targetFamily;
    double source = 0, target = 0;
    // The source GPU's table has no efficiency for the family: the trace's own (its kernels'
    // roofline time over their measured time) stands for it.
    bool sourceFromTrace = false;
    // The efficiencies differ by more than a family's efficiency moves between GPUs: the ratio is
    // held to that bound (the cost model misjudges the family's kernels).
    bool clamped = false;
    std::int64_t kernels = 0;
    TimeNs measured = 0;
};

struct GpuSwap {
    const GpuSpec* source = nullptr;
    const GpuSpec* target = nullptr;
    // Per graph node: the duration factor of GPU ops (1 for CPU calls and communication kernels).
    std::vector<double> nodeFactor;
    double linkRatio = 1.0; // target link bandwidth / source link bandwidth
    std::array<GpuSwapRow, kKernelClassCount> classes{};
    std::vector<GpuSwapRow> kernels; // by name over all ranks, longest measured first
    std::int64_t withoutShapes = 0;  // compute kernels / device copies without a cost of their own
    TimeNs withoutShapesTime = 0;
    // Of the kernels with a cost, how many took their op's shapes from an attached execution trace
    // (the Kineto trace was recorded without them; models/KernelCost.h).
    std::int64_t shapesFromEt = 0;
    // Of the kernels without a cost, how many took the ratio of their twins (same name with one).
    std::int64_t fromTwins = 0;
    // Families of the kernels with their efficiencies; kernels whose family has no efficiency on
    // one of the GPUs keep the source's own.
    std::vector<GpuSwapFamily> families;
    std::int64_t withoutEfficiency = 0;
    // The shortest kernel of each GPU (its table's min_kernel_us, else kMinKernelUs).
    double sourceMinKernelUs = kMinKernelUs, targetMinKernelUs = kMinKernelUs;
    Warnings warnings;

    // The duration factor of a kernel that took `measured` on the source, whose work scales by
    // `ratio`: max(measured x ratio, the target's shortest kernel x min(1, measured / the source's)).
    double factorFor(TimeNs measured, double ratio) const;

    bool active() const { return source && target && !nodeFactor.empty(); }
    // Transfer time on the target of a collective that took `measured` on the source, with
    // `busBytes` (bytes x bus factor; <= 0 when unknown) over an intra-node link whose calibrated
    // bus bandwidth is `intra` (bytes per ns; <= 0 when unknown): the bandwidth term scales by the
    // link ratio, the latency stays; without bytes or bandwidth the whole transfer scales.
    TimeNs collectiveTime(TimeNs measured, double busBytes, double intraGBps) const;
};

// Plans the swap of every GPU op of the graph to `target` (a table name or alias). The source GPU
// comes from `source` when not empty, else from the trace's deviceProperties. Throws GpuTableError
// for an unknown target or source (what() asks for gpu.source=NAME where the device is unknown).
GpuSwap planGpuSwap(const ExecutionGraph& graph, const std::string& target, const std::string& source,
                    const KernelClassifier& classifier, const GpuTable& table = GpuTable::builtin());

// The swap for reports: {"source", "target", "link_ratio", "by_class": [{class, kernels, with_shapes,
// measured_us, predicted_us, speedup}], "top_kernels": [the same per kernel name, longest first,
// `topKernels` of them], "without_shapes": {kernels, time_us}, "shapes_from_et": kernels}.
nlohmann::json gpuSwapJson(const GpuSwap& swap, int topKernels = 15);

} // namespace sl
