#pragma once
// Kernel families of the achieved-efficiency table (docs/GpuModel.md, "Achieved efficiency"): what a
// kernel computes (the family of its op's cost, else its kernel class) and, for matrix work, which
// implementation runs it, as a dotted key: "gemm.blas" (the vendor's BLAS: cuBLAS, cuBLASLt,
// hipBLASLt, rocBLAS), "gemm.cutlass", "gemm.triton", "gemm.ck", "conv.dnn", "attention.flash",
// "attention.mem_efficient", "attention.triton", "attention.cudnn", "attention.ck", "elementwise",
// "reduction", "embedding", "copy", "other". The GPU table looks a key up by its longest measured
// prefix (GpuSpec::familyEfficiency).
#include "models/KernelClass.h"
#include "models/KernelCost.h"

#include <string>
#include <string_view>

namespace sl {

// The family key of a kernel named `kernelName` whose op has the cost family `op` (OpFamily::Unknown
// when the kernel has no cost) and whose kernel class is `cls`.
std::string kernelFamilyKey(std::string_view kernelName, OpFamily op, KernelClass cls);

// The key the same work has on a GPU of `targetVendor` when it was traced on `sourceVendor`:
// libraries of one vendor (CUTLASS, cuDNN, the mem-efficient attention kernels) become the
// target's own (its BLAS, its DNN library, its generic attention); Triton and flash attention exist
// on both. The key itself when the vendors are the same.
std::string targetFamilyKey(const std::string& sourceKey, std::string_view sourceVendor,
                            std::string_view targetVendor);

} // namespace sl
