#include "trace/EventClass.h"

#include "trace/AsciiText.h"
#include "trace/Collective.h"

#include <cctype>

namespace sl {

const std::array<const char*, kComputeKernelClassCount> kDefaultKernelPatterns = {
    // gemm: cuBLAS / cuBLASLt / CUTLASS / cuDNN convolutions (xmma, implicit gemm, scudnn); rocBLAS,
    // hipBLASLt and Tensile (Cijk_...), Composable Kernel GEMMs and convolutions (device_gemm,
    // gemm_xdl, grouped_conv_fwd), MIOpen convolutions. Not the bare word "cudnn": cuDNN also names
    // its batch-norm kernels (cudnn::bn_fw_tr_*) and layout transposes (cudnn::ops::nchwToNhwcKernel),
    // which are memory-bound and belong to reduction and data movement.
    "gemm|cutlass|matmul|xmma|cublas|scudnn|convolution|conv2d|conv3d|"
    "implicit_convolve|wgrad|dgrad|"
    "sm80_xmma|sm90_xmma|rocblas|cijk_|flatmm|miopenconv|miopengroupconv|"
    "miopencvd|asmconv|naive_conv|"
    "conv_fwd|conv_bwd|conv_wrw|winograd|grouped_conv",
    // attention: flash / fused / CK (fmha, batched gemm-softmax-gemm) /
    // Triton (_attn_fwd) kernels
    "attention|flash|fmha|sdpa|mha_|gemm_softmax_gemm|attn_fwd|attn_bwd",
    // elementwise
    "elementwise|vectorized|unrolled|gelu|relu|silu|sigmoid|tanh|dropout|"
    "add_|mul_|adam|foreach",
    // reduction
    "reduce|softmax|norm|bn_fw|bn_bw|sum_|mean_|scan|argmax|topk|cross_entropy|nll_"
    "loss",
    // data movement
    "copy|memcpy|memset|fill|cat_|index|gather|scatter|embedding|transpose|"
    "permute|nchwtonhwc|nhwctonchw",
    // embedding lookup: FBGEMM TBE (split / dense codegen, the indices' bounds check), aten's
    // EmbeddingBag and embedding backward kernels (trace/EmbeddingWork.h names the same)
    "split_embedding|dense_embedding_codegen|bounds_check_indices|embeddingbag|embedding_bag|"
    "embedding_backward|embedding_dense_backward",
    // other kernel
    "",
};

std::string_view eventClassName(EventClass c) {
    static constexpr std::array<std::string_view, kEventClassCount> names = {
        "gemm",         "attention",   "elementwise", "reduction", "data_movement",  "embedding_lookup",
        "other_kernel", "comm_kernel", "memcpy",      "memset",    "gpu_annotation", "gpu_event",
        "sync",         "cpu_op",      "comm_op",     "python",    "annotation",     "runtime_call",
        "instant",      "other"};
    auto i = static_cast<std::size_t>(c);
    return i < names.size() ? names[i] : "other";
}

bool isCommunicationOpName(std::string_view name) {
    return isCollectiveKernelName(name) || name.starts_with("c10d::") || name.starts_with("nccl:") ||
           name == "record_param_comms";
}

EventClass eventClassByKind(EventKind kind, bool communicationName) {
    switch (kind) {
    case EventKind::Kernel:
        return communicationName ? EventClass::CommKernel : EventClass::OtherKernel;
    case EventKind::GpuMemcpy:
        return EventClass::Memcpy;
    case EventKind::GpuMemset:
        return EventClass::Memset;
    case EventKind::GpuUserAnnotation:
        return EventClass::GpuAnnotation;
    case EventKind::GpuEvent:
        return EventClass::GpuEvent;
    case EventKind::CudaSync:
        return EventClass::Sync;
    case EventKind::CpuOp:
        return communicationName ? EventClass::CommOp : EventClass::CpuOp;
    case EventKind::UserAnnotation:
        return communicationName ? EventClass::CommOp : EventClass::Annotation;
    case EventKind::PythonFunction:
        return communicationName ? EventClass::CommOp : EventClass::Python;
    case EventKind::Runtime:
    case EventKind::Driver:
        return EventClass::RuntimeCall;
    case EventKind::Instant:
        return EventClass::Instant;
    default:
        return EventClass::Other;
    }
}

namespace {

bool isLiteralAlternation(const std::string& p) {
    for (char ch : p) {
        const auto c = static_cast<unsigned char>(ch);
        if (!(std::isalnum(c) || c == '_' || c == '|')) return false;
    }
    return true;
}

// True when name (lower case) has word as one of its '_'-separated parts
// ("triton_tem_fused_mm_0").
bool hasPart(std::string_view name, std::string_view word) {
    for (std::size_t at = name.find(word); at != std::string_view::npos; at = name.find(word, at + 1)) {
        bool before = at == 0 || name[at - 1] == '_';
        std::size_t end = at + word.size();
        bool after = end == name.size() || name[end] == '_';
        if (before && after) return true;
    }
    return false;
}

constexpr std::size_t idx(EventClass c) {
    return static_cast<std::size_t>(c);
}

} // namespace

bool EventClassifier::Matcher::matches(std::string_view lowerName, std::string_view name) const {
    if (regex) return std::regex_search(name.begin(), name.end(), *regex);
    for (const auto& l : literals)
        if (lowerName.find(l) != std::string_view::npos) return true;
    return false;
}

EventClassifier::EventClassifier() {
    for (int i = 0; i < kComputeKernelClassCount; ++i)
        if (static_cast<EventClass>(i) != EventClass::OtherKernel)
            setPattern(static_cast<EventClass>(i), kDefaultKernelPatterns[static_cast<std::size_t>(i)]);
}

void EventClassifier::setPattern(EventClass c, const std::string& pattern) {
    if (!isComputeKernel(c) || c == EventClass::OtherKernel) return;
    Matcher m;
    if (isLiteralAlternation(pattern)) {
        std::string p = asciiLower(pattern);
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
    patterns_[idx(c)] = pattern;
    matchers_[idx(c)] = std::move(m);
    isDefault_[idx(c)] = pattern == kDefaultKernelPatterns[idx(c)];
}

const std::string& EventClassifier::pattern(EventClass c) const {
    static const std::string none;
    return isComputeKernel(c) ? patterns_[idx(c)] : none;
}

std::optional<EventClass> EventClassifier::tritonClass(std::string_view lowerName) const {
    if (!lowerName.starts_with("triton_")) return std::nullopt;
    std::string_view kindPart = lowerName.substr(7, 4); // "poi_", "red_", "per_", "tem_", "for_"
    if (kindPart == "poi_" || kindPart == "for_") return EventClass::Elementwise;
    if (kindPart == "red_" || kindPart == "per_") return EventClass::Reduction;
    const auto& attention = matchers_[idx(EventClass::Attention)];
    if (kindPart == "tem_") {
        // Templates: GEMMs (mm, addmm, bmm), flex attention, convolutions.
        if (isDefault_[idx(EventClass::Attention)] && attention.matches(lowerName, lowerName))
            return EventClass::Attention;
        return EventClass::Gemm;
    }
    for (std::string_view word : {"mm", "bmm", "addmm", "baddbmm", "matmul", "gemm"})
        if (hasPart(lowerName, word)) return EventClass::Gemm;
    return std::nullopt;
}

EventClass EventClassifier::computeKernelClass(std::string_view name) const {
    std::string l = asciiLower(name.substr(0, 512));
    std::string_view ln = l;
    if (ln.starts_with("void ")) ln.remove_prefix(5);
    // 1. Triton (torch.compile / Inductor) names say what they are in their
    // prefix; the rule yields to
    //    a replaced pattern of the class it would pick.
    if (auto c = tritonClass(ln); c && isDefault_[idx(*c)]) return *c;
    // 2. The patterns, in their fixed order.
    static constexpr EventClass order[] = {
        EventClass::EmbeddingLookup, EventClass::Attention,    EventClass::Gemm,
        EventClass::Reduction,       EventClass::DataMovement, EventClass::Elementwise};
    for (EventClass c : order) {
        const auto& m = matchers_[idx(c)];
        if ((!m.literals.empty() || m.regex) && m.matches(l, name)) return c;
    }
    // 3. Library families whose names rarely say "gemm" or "conv": what no
    // pattern claimed of
    //    Composable Kernel (ck::) and MIOpen is their GEMM / convolution work,
    //    except pooling, activation, LRN and tensor ops.
    if (isDefault_[idx(EventClass::Gemm)] &&
        (ln.starts_with("ck::") || l.find("miopen") != std::string::npos)) {
        bool notGemm = false;
        for (std::string_view word : {"pool", "activ", "lrn", "tensorop"})
            notGemm = notGemm || l.find(word) != std::string::npos;
        if (!notGemm) return EventClass::Gemm;
    }
    return EventClass::OtherKernel;
}

EventClass EventClassifier::classify(EventKind kind, std::string_view name) const {
    switch (kind) {
    case EventKind::Kernel:
        return isCommunicationKernelName(name) ? EventClass::CommKernel : computeKernelClass(name);
    case EventKind::CpuOp:
    case EventKind::UserAnnotation:
    case EventKind::PythonFunction:
        return eventClassByKind(kind, isCommunicationOpName(name));
    default:
        return eventClassByKind(kind, false);
    }
}

EventClass eventClassOf(EventKind kind, std::string_view name) {
    static const EventClassifier defaults;
    return defaults.classify(kind, name);
}

} // namespace sl
