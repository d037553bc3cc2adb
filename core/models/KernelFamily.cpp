#include "models/KernelFamily.h"

#include "trace/AsciiText.h"

namespace sl {

namespace {

bool has(const std::string& lower, std::string_view what) {
    return lower.find(what) != std::string::npos;
}

std::string_view familyOf(OpFamily op, KernelClass cls) {
    switch (op) {
    case OpFamily::Gemm:
        return "gemm";
    case OpFamily::Conv:
        return "conv";
    case OpFamily::Attention:
        return "attention";
    case OpFamily::Elementwise:
        return "elementwise";
    case OpFamily::Reduction:
        return "reduction";
    case OpFamily::Embedding:
        return "embedding";
    case OpFamily::Copy:
        return "copy";
    case OpFamily::Unknown:
        break;
    }
    switch (cls) {
    case KernelClass::Gemm:
        return "gemm";
    case KernelClass::Attention:
        return "attention";
    case KernelClass::Elementwise:
        return "elementwise";
    case KernelClass::Reduction:
        return "reduction";
    case KernelClass::Memory:
        return "copy";
    default:
        return "other";
    }
}

// Which implementation runs matrix work, from the kernel's name (docs/GpuModel.md lists the
// patterns and where they were seen).
std::string_view implementationOf(std::string_view family, const std::string& n) {
    if (has(n, "triton")) return "triton";
    if (family == "attention") {
        if (has(n, "cudnn")) return "cudnn";
        if (has(n, "fmha_cutlass") || has(n, "efficient_attention") || has(n, "mem_eff"))
            return "mem_efficient";
        if (has(n, "flash") || has(n, "fmha_fwd") || has(n, "fmha_bwd") || has(n, "aiter")) return "flash";
        if (has(n, "ck_tile") || has(n, "ck::")) return "ck";
        return {};
    }
    if (family == "conv") return has(n, "triton") ? "triton" : "dnn";
    // GEMMs: CUTLASS templates (PyTorch's own and cuBLAS's older sm80 kernels, which keep their
    // names), Composable Kernel, else the vendor's BLAS.
    if (has(n, "cutlass")) return "cutlass";
    if (has(n, "ck::") || has(n, "ck_tile") || has(n, "device_gemm")) return "ck";
    return "blas";
}

} // namespace

std::string kernelFamilyKey(std::string_view kernelName, OpFamily op, KernelClass cls) {
    const std::string_view family = familyOf(op, cls);
    std::string key(family);
    if (family != "gemm" && family != "attention" && family != "conv") return key;
    std::string lower(kernelName);
    for (char& c : lower)
        c = asciiLower(c);
    const std::string_view impl = implementationOf(family, lower);
    if (!impl.empty()) key += "." + std::string(impl);
    return key;
}

std::string targetFamilyKey(const std::string& sourceKey, std::string_view sourceVendor,
                            std::string_view targetVendor) {
    if (sourceVendor == targetVendor) return sourceKey;
    const auto dot = sourceKey.find('.');
    if (dot == std::string::npos) return sourceKey;
    const std::string family = sourceKey.substr(0, dot), impl = sourceKey.substr(dot + 1);
    if (impl == "triton" || impl == "flash") return sourceKey;
    if (family == "gemm") return "gemm.blas";
    if (family == "conv") return "conv.dnn";
    return family;
}

} // namespace sl
