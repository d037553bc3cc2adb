#pragma once
// Kernel and collective durations of the synthetic workload (see core/synth/README.md).
#include "synth/SynthConfig.h"
#include "trace/EventClass.h"

#include <cstdint>
#include <vector>

namespace sl::synth {

// The class of a generated kernel: what it is (trace/EventClass.h), written by the generator with
// each kernel it emits; Gemm .. DataMovement index SynthConfig::classSpeedup.
using KernelClass = EventClass;

// Roofline: max(flops / (peak x efficiency), bytes / (HBM x efficiency), floor).
// Gemm and Attention use the tensor-core peak, the others the vector peak.
double kernelTimeUs(const GpuSpec& gpu, KernelClass cls, double flops, double bytes);

enum class CommKind : std::uint8_t { AllReduce, AllGather, ReduceScatter, Send, Recv, AllToAll };

// The "Collective name" PyTorch writes for a kind ("allreduce", "_allgather_base", "send", ...).
const char* collectiveName(CommKind kind);

// Bus-bandwidth factor: all-reduce 2(n-1)/n, all-gather / reduce-scatter / all-to-all (n-1)/n,
// send / recv 1.
double busFactor(CommKind kind, int groupSize);

// Alpha-beta: latency + bytes x busFactor / bandwidth, where bandwidth is the intra-node one when
// every member of the group sits on one node (rank / gpusPerNode equal), else the inter-node one.
double collectiveTimeUs(const SynthConfig& c, CommKind kind, double bytes,
                        const std::vector<int>& groupRanks);

} // namespace sl::synth
