#include "synth/CostModel.h"

#include <algorithm>

namespace sl::synth {

double kernelTimeUs(const GpuSpec& gpu, KernelClass cls, double flops, double bytes) {
    bool tensor = cls == KernelClass::Gemm || cls == KernelClass::Attention;
    const auto c = static_cast<std::size_t>(cls);
    const double measured = c < 5 ? gpu.classEfficiency[c] : 0.0;
    if (measured > 0) { // the fraction of the roofline the class reaches (SynthConfig::measuredEfficiency)
        const double peak = (tensor ? gpu.peakTflops : gpu.vectorTflops) * 1e12;
        const double rooflineUs = std::max(flops / peak, bytes / (gpu.hbmGBps * 1e9)) * 1e6;
        return std::max(rooflineUs / measured, gpu.kernelFloorUs);
    }
    double peak = (tensor ? gpu.peakTflops * gpu.gemmEfficiency : gpu.vectorTflops * 0.5) * 1e12;
    double computeUs = flops / peak * 1e6;
    double memoryUs = bytes / (gpu.hbmGBps * gpu.memEfficiency * 1e9) * 1e6;
    return std::max({computeUs, memoryUs, gpu.kernelFloorUs});
}

const char* collectiveName(CommKind kind) {
    switch (kind) {
    case CommKind::AllReduce:
        return "allreduce";
    case CommKind::AllGather:
        return "_allgather_base";
    case CommKind::ReduceScatter:
        return "_reduce_scatter_base";
    case CommKind::Send:
        return "send";
    case CommKind::Recv:
        return "recv";
    case CommKind::AllToAll:
        return "all_to_all";
    }
    return "allreduce";
}

double busFactor(CommKind kind, int groupSize) {
    double n = std::max(groupSize, 1);
    switch (kind) {
    case CommKind::AllReduce:
        return 2.0 * (n - 1) / n;
    case CommKind::AllGather:
    case CommKind::ReduceScatter:
    case CommKind::AllToAll:
        return (n - 1) / n;
    case CommKind::Send:
    case CommKind::Recv:
        return 1.0;
    }
    return 1.0;
}

double collectiveTimeUs(const SynthConfig& c, CommKind kind, double bytes,
                        const std::vector<int>& groupRanks) {
    bool oneNode = true;
    for (int r : groupRanks)
        oneNode = oneNode && r / c.gpusPerNode == groupRanks.front() / c.gpusPerNode;
    double gbps = oneNode ? c.intraNodeGBps : c.interNodeGBps;
    int n = static_cast<int>(groupRanks.size());
    return c.latencyUs + bytes * busFactor(kind, n) / (gbps * 1e9) * 1e6;
}

} // namespace sl::synth
