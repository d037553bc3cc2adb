#include "synth/KernelNames.h"

namespace sl::synth {

const char* gemmKernel(const GpuSpec& gpu, bool nt) {
    if (gpu.name.find("AMD") != std::string::npos) // hipBLASLt (Tensile) names
        return nt ? "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI32x32x8x1_SN_1LDSB1_NT"
                  : "Cijk_Ailk_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI32x32x8x1_SN_1LDSB1_TN";
    if (gpu.computeMajor >= 9)
        return nt ? "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x256x64_warpgroupsize2x1x1_execute_"
                    "segment_k_off_kernel__5x_cublas"
                  : "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_"
                    "segment_k_off_kernel__5x_cublas";
    return nt ? "ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_nt"
              : "ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_tn";
}

std::string ncclKernelName(CommKind k, const char* dtype, const SynthConfig& c, int groupSize) {
    const char* dt = std::string(dtype) == "Float" ? "f32" : "bf16";
    bool multiNode = groupSize > c.gpusPerNode;
    const char* proto = multiNode ? "RING_SIMPLE" : "RING_LL";
    switch (k) {
    case CommKind::AllReduce:
        return std::string("ncclDevKernel_AllReduce_Sum_") + dt + "_" + proto +
               "(ncclDevKernelArgsStorage<4096ul>)";
    case CommKind::AllGather:
        return std::string("ncclDevKernel_AllGather_") + proto + "(ncclDevKernelArgsStorage<4096ul>)";
    case CommKind::ReduceScatter:
        return std::string("ncclDevKernel_ReduceScatter_Sum_") + dt + "_" + proto +
               "(ncclDevKernelArgsStorage<4096ul>)";
    case CommKind::Send:
    case CommKind::Recv:
    case CommKind::AllToAll: // NCCL runs all-to-all as grouped sends and receives
        return "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";
    }
    return "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)";
}

} // namespace sl::synth
