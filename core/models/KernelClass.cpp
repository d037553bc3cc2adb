#include "models/KernelClass.h"

#include <cctype>

namespace sl {

const std::array<const char*, kKernelClassCount> kDefaultKernelClassPatterns = {
    // gemm: cuBLAS / cuBLASLt / CUTLASS / cuDNN; rocBLAS, hipBLASLt and Tensile (Cijk_...), Composable
    // Kernel GEMMs and convolutions (device_gemm, gemm_xdl, grouped_conv_fwd), MIOpen convolutions.
    "gemm|cutlass|matmul|xmma|cublas|cudnn|convolution|conv2d|conv3d|implicit_convolve|wgrad|dgrad|"
    "sm80_xmma|sm90_xmma|rocblas|cijk_|flatmm|miopenconv|miopengroupconv|miopencvd|asmconv|naive_conv|"
    "conv_fwd|conv_bwd|conv_wrw|winograd|grouped_conv",
    // attention: flash / fused / CK (fmha, batched gemm-softmax-gemm) / Triton (_attn_fwd) kernels
    "attention|flash|fmha|sdpa|mha_|gemm_softmax_gemm|attn_fwd|attn_bwd",
    // elementwise
    "elementwise|vectorized|unrolled|gelu|relu|silu|sigmoid|tanh|dropout|add_|mul_|adam|foreach",
    // reduction
    "reduce|softmax|norm|sum_|mean_|scan|argmax|topk|cross_entropy|nll_loss",
    // memory
    "copy|memcpy|memset|fill|cat_|index|gather|scatter|embedding|transpose|permute",
    // other
    "",
};

std::string_view kernelClassName(KernelClass c) {
    static constexpr std::array<std::string_view, kKernelClassCount> names = {
        "gemm", "attention", "elementwise", "reduction", "memory", "other"};
    auto i = static_cast<std::size_t>(c);
    return i < names.size() ? names[i] : "other";
}

std::optional<KernelClass> kernelClassFromName(std::string_view name) {
    for (int i = 0; i < kKernelClassCount; ++i)
        if (kernelClassName(static_cast<KernelClass>(i)) == name) return static_cast<KernelClass>(i);
    return std::nullopt;
}

namespace {

bool isLiteralAlternation(const std::string& p) {
    for (unsigned char c : p)
        if (!(std::isalnum(c) || c == '_' || c == '|')) return false;
    return true;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

bool KernelClassifier::Matcher::matches(std::string_view lowerName, std::string_view name) const {
    if (regex) return std::regex_search(name.begin(), name.end(), *regex);
    for (const auto& l : literals)
        if (lowerName.find(l) != std::string_view::npos) return true;
    return false;
}

KernelClassifier::KernelClassifier() {
    for (int i = 0; i < kKernelClassCount; ++i)
        if (static_cast<KernelClass>(i) != KernelClass::Other)
            setPattern(static_cast<KernelClass>(i), kDefaultKernelClassPatterns[static_cast<std::size_t>(i)]);
}

void KernelClassifier::setPattern(KernelClass c, const std::string& pattern) {
    if (c == KernelClass::Other || c == KernelClass::Count) return;
    Matcher m;
    if (isLiteralAlternation(pattern)) {
        std::string p = lower(pattern);
        std::size_t b = 0;
        while (b <= p.size()) {
            std::size_t e = p.find('|', b);
            if (e == std::string::npos) e = p.size();
            if (e > b) m.literals.push_back(p.substr(b, e - b));
            b = e + 1;
        }
    } else {
        m.regex = std::make_shared<const std::regex>(pattern, std::regex::ECMAScript | std::regex::icase |
                                                                  std::regex::optimize);
    }
    patterns_[static_cast<std::size_t>(c)] = pattern;
    matchers_[static_cast<std::size_t>(c)] = std::move(m);
    isDefault_[static_cast<std::size_t>(c)] =
        pattern == kDefaultKernelClassPatterns[static_cast<std::size_t>(c)];
}

namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

// True when name (lower case) has word as one of its '_'-separated parts ("triton_tem_fused_mm_0").
bool hasPart(std::string_view name, std::string_view word) {
    for (std::size_t at = name.find(word); at != std::string_view::npos; at = name.find(word, at + 1)) {
        bool before = at == 0 || name[at - 1] == '_';
        std::size_t end = at + word.size();
        bool after = end == name.size() || name[end] == '_';
        if (before && after) return true;
    }
    return false;
}

} // namespace

std::optional<KernelClass> KernelClassifier::tritonClass(std::string_view lowerName) const {
    if (!startsWith(lowerName, "triton_")) return std::nullopt;
    std::string_view kindPart = lowerName.substr(7, 4); // "poi_", "red_", "per_", "tem_", "for_"
    if (kindPart == "poi_" || kindPart == "for_") return KernelClass::Elementwise;
    if (kindPart == "red_" || kindPart == "per_") return KernelClass::Reduction;
    const auto& attention = matchers_[static_cast<std::size_t>(KernelClass::Attention)];
    if (kindPart == "tem_") {
        // Templates: GEMMs (mm, addmm, bmm), flex attention, convolutions.
        if (isDefault_[static_cast<std::size_t>(KernelClass::Attention)] &&
            attention.matches(lowerName, lowerName))
            return KernelClass::Attention;
        return KernelClass::Gemm;
    }
    for (std::string_view word : {"mm", "bmm", "addmm", "baddbmm", "matmul", "gemm"})
        if (hasPart(lowerName, word)) return KernelClass::Gemm;
    return std::nullopt;
}

KernelClass KernelClassifier::classify(std::string_view name, EventKind kind) const {
    if (kind == EventKind::GpuMemcpy || kind == EventKind::GpuMemset) return KernelClass::Memory;
    std::string l = lower(name.substr(0, 512));
    std::string_view ln = l;
    if (startsWith(ln, "void ")) ln.remove_prefix(5);
    // 1. Triton (torch.compile / Inductor) names say what they are in their prefix; the rule yields to
    //    a replaced pattern of the class it would pick.
    if (auto c = tritonClass(ln); c && isDefault_[static_cast<std::size_t>(*c)]) return *c;
    // 2. The patterns, in their fixed order.
    static constexpr KernelClass order[] = {KernelClass::Attention, KernelClass::Gemm, KernelClass::Reduction,
                                            KernelClass::Memory, KernelClass::Elementwise};
    for (KernelClass c : order) {
        const auto& m = matchers_[static_cast<std::size_t>(c)];
        if ((!m.literals.empty() || m.regex) && m.matches(l, name)) return c;
    }
    // 3. Library families whose names rarely say "gemm" or "conv": what no pattern claimed of
    //    Composable Kernel (ck::) and MIOpen is their GEMM / convolution work, except pooling,
    //    activation, LRN and tensor ops.
    if (isDefault_[static_cast<std::size_t>(KernelClass::Gemm)] &&
        (startsWith(ln, "ck::") || l.find("miopen") != std::string::npos)) {
        bool notGemm = false;
        for (std::string_view word : {"pool", "activ", "lrn", "tensorop"})
            notGemm = notGemm || l.find(word) != std::string::npos;
        if (!notGemm) return KernelClass::Gemm;
    }
    return KernelClass::Other;
}

} // namespace sl
