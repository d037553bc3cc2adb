#include "models/KernelClass.h"

#include <cctype>

namespace sl {

const std::array<const char*, kKernelClassCount> kDefaultKernelClassPatterns = {
    // gemm
    "gemm|cutlass|matmul|xmma|cublas|cudnn|convolution|conv2d|conv3d|implicit_convolve|wgrad|dgrad|"
    "sm80_xmma|sm90_xmma",
    // attention
    "attention|flash|fmha|sdpa|mha_",
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
}

KernelClass KernelClassifier::classify(std::string_view name, EventKind kind) const {
    if (kind == EventKind::GpuMemcpy || kind == EventKind::GpuMemset) return KernelClass::Memory;
    std::string l = lower(name.substr(0, 512));
    static constexpr KernelClass order[] = {KernelClass::Attention, KernelClass::Gemm, KernelClass::Reduction,
                                            KernelClass::Memory, KernelClass::Elementwise};
    for (KernelClass c : order) {
        const auto& m = matchers_[static_cast<std::size_t>(c)];
        if ((!m.literals.empty() || m.regex) && m.matches(l, name)) return c;
    }
    return KernelClass::Other;
}

} // namespace sl
