#pragma once
// Roofline times of kernels on a GPU of the table (docs/GpuModel.md):
//
//   compute = FLOPs / peak          peak: the matrix peak of the op's data type for GEMMs,
//                                         convolutions and attention, else the FP32 vector peak
//   memory  = bytes / memory bandwidth
//   time    = max(compute, memory)  (the kernel is compute-bound when compute >= memory)
//
// and what a measured kernel achieved against it on its own GPU: FLOP/s and bytes/s, as fractions
// of the peaks, and its arithmetic intensity (FLOPs per byte).
#include "models/GpuTable.h"
#include "models/KernelCost.h"

#include <nlohmann/json.hpp>

namespace sl {

struct RooflineTime {
    double computeUs = 0;
    double memoryUs = 0;
    double us() const { return computeUs > memoryUs ? computeUs : memoryUs; }
    bool computeBound() const { return computeUs >= memoryUs; }
};

// The peak (TFLOP/s) that bounds an op of this cost on this GPU.
double peakTflopsFor(const GpuSpec& gpu, const OpCost& cost);
RooflineTime rooflineTime(const GpuSpec& gpu, const OpCost& cost);

struct Achieved {
    double tflops = 0;          // FLOPs / measured time
    double tbps = 0;            // bytes / measured time (TB/s)
    double computeFraction = 0; // tflops / peak
    double memoryFraction = 0;  // tbps / memory bandwidth
    double intensity = 0;       // FLOPs per byte (0 without bytes)
    double efficiency = 0;      // roofline time / measured time (the larger fraction)
};
Achieved achieved(const GpuSpec& gpu, const OpCost& cost, double measuredUs);

// The roofline view of a trace set on its source GPU, for `info`: the GPU and its peaks, per kernel
// class the time, FLOPs, bytes and the fraction of the time in kernels with shapes, and the top
// kernels by time (by name, summed over ranks) with FLOPs, bytes, arithmetic intensity, achieved
// TFLOP/s and TB/s and the fractions of peak, compute- or memory-bound. A set whose GPU is not in
// the table gets {"error": "..."} instead.
// What the kernels of a trace achieved on its GPU (docs/GpuModel.md, "Achieved efficiency"): the
// shortest kernel time (5th percentile of the compute kernels) and, per kernel family
// (models/KernelFamily.h), roofline time over measured time of the kernels with a cost above twice
// that: {"kernels", "min_kernel_us", "by_family": {key: {kernels, time_us, roofline_us, efficiency,
// in_table}}}. The figures the GPU table's `efficiency` and `min_kernel_us` are calibrated from.
nlohmann::json achievedEfficiencyJson(const TraceSet& set, const GpuSpec& gpu);

nlohmann::json rooflineJson(const TraceSet& set, const GpuTable& table = GpuTable::builtin(),
                            const std::string& sourceName = {}, int topKernels = 15);

} // namespace sl
