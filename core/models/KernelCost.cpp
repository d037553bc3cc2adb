#include "models/KernelCost.h"

#include "trace/Collective.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace sl {

std::string_view costMissingName(CostMissing m) {
    static constexpr std::array<std::string_view, 6> names = {
        "none", "no_launch", "no_shapes", "unknown_op", "host_copy", "auxiliary_of_matrix_op"};
    return names[static_cast<std::size_t>(m)];
}

std::string_view opFamilyName(OpFamily f) {
    static constexpr std::array<std::string_view, 8> names = {
        "gemm", "conv", "attention", "elementwise", "reduction", "embedding", "copy", "unknown"};
    return names[static_cast<std::size_t>(f)];
}

namespace {

PeakType peakOf(DType t, bool fp32AsTf32) {
    switch (t) {
    case DType::BF16:
        return PeakType::Bf16;
    case DType::F16:
        return PeakType::Fp16;
    case DType::F8:
        return PeakType::Fp8;
    default:
        return fp32AsTf32 ? PeakType::Tf32 : PeakType::Fp32;
    }
}

// "True" / "False" of a Concrete Inputs entry; fallback when absent or not a boolean.
bool concreteBool(const OpShapes& s, std::size_t i, bool fallback) {
    if (i >= s.concrete.size()) return fallback;
    if (s.concrete[i] == "True" || s.concrete[i] == "true") return true;
    if (s.concrete[i] == "False" || s.concrete[i] == "false") return false;
    return fallback;
}

// Integers of a Concrete Inputs entry ("[1, 1]", "2"); empty when absent.
std::vector<std::int64_t> concreteInts(const OpShapes& s, std::size_t i) {
    std::vector<std::int64_t> out;
    if (i >= s.concrete.size()) return out;
    const std::string& t = s.concrete[i];
    const char* p = t.data();
    const char* end = t.data() + t.size();
    while (p < end) {
        if ((*p >= '0' && *p <= '9') || *p == '-') {
            std::int64_t v = 0;
            auto r = std::from_chars(p, end, v);
            if (r.ec != std::errc()) break;
            out.push_back(v);
            p = r.ptr;
        } else {
            ++p;
        }
    }
    return out;
}

double prod(const std::vector<std::int64_t>& v, std::size_t from = 0, std::size_t to = ~std::size_t{0}) {
    double n = 1;
    for (std::size_t i = from; i < std::min(to, v.size()); ++i)
        n *= static_cast<double>(v[i]);
    return n;
}

// operandBytes < 0: both operands are batch x [m, k] and [k, n].
std::optional<OpCost> gemm(double batch, double m, double k, double n, DType t, double extraBytes,
                           double operandBytes = -1) {
    if (m <= 0 || k <= 0 || n <= 0 || batch <= 0) return std::nullopt;
    OpCost c;
    c.family = OpFamily::Gemm;
    c.flops = 2.0 * batch * m * n * k;
    if (operandBytes < 0) operandBytes = batch * (m * k + k * n) * dtypeBytes(t);
    c.bytes = operandBytes + batch * m * n * dtypeBytes(t) + extraBytes;
    c.matrix = true;
    c.peak = peakOf(t, false); // PyTorch runs FP32 matmuls in full FP32 unless TF32 is enabled
    return c;
}

std::optional<OpCost> gemmCost(std::string_view op, const OpShapes& s) {
    auto rank = [&](std::size_t i) { return s.isTensor(i) ? s.dims[i].size() : 0; };
    auto d = [&](std::size_t i, int fromEnd) {
        return static_cast<double>(s.dims[i][s.dims[i].size() - static_cast<std::size_t>(fromEnd)]);
    };
    if (op == "mm" || op == "_scaled_mm") {
        if (rank(0) != 2 || rank(1) != 2) return std::nullopt;
        return gemm(1, d(0, 2), d(0, 1), d(1, 1), s.dtype(0), 0);
    }
    if (op == "addmm" || op == "_addmm_activation") {
        if (rank(1) != 2 || rank(2) != 2) return std::nullopt;
        return gemm(1, d(1, 2), d(1, 1), d(2, 1), s.dtype(1), s.tensorBytes(0));
    }
    if (op == "bmm") {
        if (rank(0) != 3 || rank(1) != 3) return std::nullopt;
        return gemm(d(0, 3), d(0, 2), d(0, 1), d(1, 1), s.dtype(0), 0);
    }
    if (op == "baddbmm") {
        if (rank(1) != 3 || rank(2) != 3) return std::nullopt;
        return gemm(d(1, 3), d(1, 2), d(1, 1), d(2, 1), s.dtype(1), s.tensorBytes(0));
    }
    if (op == "linear") { // input [..., K], weight [N, K], bias [N]
        if (rank(0) < 1 || rank(1) != 2) return std::nullopt;
        double k = d(0, 1);
        return gemm(1, prod(s.dims[0]) / std::max(1.0, k), k, d(1, 2), s.dtype(0), s.tensorBytes(2));
    }
    if (op == "matmul") { // broadcasting batch dims; 1-D operands are vectors
        if (rank(0) < 1 || rank(1) < 1) return std::nullopt;
        double m = rank(0) >= 2 ? d(0, 2) : 1, k = d(0, 1), n = rank(1) >= 2 ? d(1, 1) : 1;
        double batchA = rank(0) > 2 ? prod(s.dims[0], 0, rank(0) - 2) : 1;
        double batchB = rank(1) > 2 ? prod(s.dims[1], 0, rank(1) - 2) : 1;
        // A broadcast operand is read once.
        return gemm(std::max(batchA, batchB), m, k, n, s.dtype(0), 0, s.tensorBytes(0) + s.tensorBytes(1));
    }
    if (op == "mv" || op == "addmv") { // [M, N] x [N]
        std::size_t a = op == "mv" ? 0 : 1;
        if (rank(a) != 2) return std::nullopt;
        return gemm(1, d(a, 2), d(a, 1), 1, s.dtype(a), op == "addmv" ? s.tensorBytes(0) : 0);
    }
    return std::nullopt;
}

// Convolutions: FLOPs = 2 x N x Cout x prod(output spatial) x Cin / groups x prod(kernel spatial).
std::optional<OpCost> convCost(std::string_view op, const OpShapes& s) {
    const bool backward = op == "convolution_backward" || op == "cudnn_convolution_backward";
    const std::size_t in = backward ? 1 : 0, w = backward ? 2 : 1;
    if (!s.isTensor(in) || !s.isTensor(w)) return std::nullopt;
    const auto& x = s.dims[in];
    const auto& k = s.dims[w];
    if (x.size() < 3 || k.size() != x.size()) return std::nullopt;
    const std::size_t spatial = x.size() - 2;
    // Argument positions of stride / padding / dilation / groups in each schema.
    std::size_t iStride = 3, iPad = 4, iDil = 5, iGroups = 8;
    if (op == "conv1d" || op == "conv2d" || op == "conv3d") iGroups = 6;
    if (op == "cudnn_convolution") iPad = 2, iStride = 3, iDil = 4, iGroups = 5;
    if (backward) iStride = 4, iPad = 5, iDil = 6, iGroups = 9;
    auto stride = concreteInts(s, iStride), pad = concreteInts(s, iPad), dil = concreteInts(s, iDil);
    auto groupsV = concreteInts(s, iGroups);
    double groups =
        !groupsV.empty() && groupsV[0] > 0
            ? static_cast<double>(groupsV[0])
            : std::max(1.0, static_cast<double>(x[1]) / std::max<double>(1, static_cast<double>(k[1])));
    auto at = [](const std::vector<std::int64_t>& v, std::size_t i, std::int64_t dflt) {
        if (v.empty()) return dflt;
        return v.size() == 1 ? v[0] : (i < v.size() ? v[i] : dflt);
    };
    double outSpatial = 1;
    if (backward && s.isTensor(0) && s.dims[0].size() == x.size()) {
        outSpatial = prod(s.dims[0], 2);
    } else {
        for (std::size_t i = 0; i < spatial; ++i) {
            std::int64_t ks = k[2 + i], di = at(dil, i, 1), st = at(stride, i, 1);
            // Without Concrete Inputs: stride 1 and "same" padding (the output keeps the input size).
            std::int64_t pa = at(pad, i, (ks - 1) * di / 2);
            std::int64_t o = (x[2 + i] + 2 * pa - di * (ks - 1) - 1) / std::max<std::int64_t>(1, st) + 1;
            outSpatial *= static_cast<double>(std::max<std::int64_t>(o, 1));
        }
    }
    const double n = static_cast<double>(x[0]), cout = static_cast<double>(k[0]);
    OpCost c;
    c.family = OpFamily::Conv;
    c.flops = 2.0 * n * cout * outSpatial * (static_cast<double>(x[1]) / groups) * prod(k, 2);
    const double eb = dtypeBytes(s.dtype(in));
    const double outBytes = n * cout * outSpatial * eb;
    if (backward) { // grad input and grad weight: twice the forward FLOPs
        c.flops *= 2;
        c.bytes = outBytes + 2 * s.tensorBytes(in) + 2 * s.tensorBytes(w);
    } else {
        c.bytes = s.tensorBytes(in) + s.tensorBytes(w) + outBytes + (s.isTensor(2) ? s.tensorBytes(2) : 0);
    }
    c.matrix = true;
    c.peak = peakOf(s.dtype(in), true); // cuDNN convolutions use TF32 for FP32 by default
    return c;
}

struct AttentionSchema {
    std::string_view name;
    std::size_t q;      // index of the query
    std::size_t causal; // index of is_causal
    bool bshd;          // [batch, seq, heads, dim] instead of [batch, heads, seq, dim]
    bool backward;
};
constexpr std::array<AttentionSchema, 10> kAttention = {{
    {"scaled_dot_product_attention", 0, 5, false, false},
    {"_scaled_dot_product_flash_attention", 0, 4, false, false},
    {"_scaled_dot_product_efficient_attention", 0, 6, false, false},
    {"_scaled_dot_product_cudnn_attention", 0, 6, false, false},
    {"_flash_attention_forward", 0, 8, true, false},
    {"_efficient_attention_forward", 0, 10, true, false},
    {"_scaled_dot_product_flash_attention_backward", 1, 11, false, true},
    {"_scaled_dot_product_efficient_attention_backward", 1, 11, false, true},
    {"_scaled_dot_product_cudnn_attention_backward", 1, 14, false, true},
    {"_flash_attention_backward", 1, 11, true, true},
}};

// Attention: the two matmuls (Q K^T and P V) take 2 x B x H x Sq x Skv x (Dqk + Dv) FLOPs, half of
// that when causal; the backward takes 2.5 x the forward (five matmuls instead of two, FlashAttention-2).
std::optional<OpCost> attentionCost(const AttentionSchema& a, const OpShapes& s) {
    const std::size_t q = a.q, k = q + 1, v = q + 2;
    if (!s.isTensor(q) || !s.isTensor(k) || !s.isTensor(v)) return std::nullopt;
    if (s.dims[q].size() != 4 || s.dims[k].size() != 4 || s.dims[v].size() != 4) return std::nullopt;
    auto dim = [&](std::size_t t, char what) -> double {
        const auto& d = s.dims[t];
        switch (what) {
        case 'b':
            return static_cast<double>(d[0]);
        case 'h':
            return static_cast<double>(a.bshd ? d[2] : d[1]);
        case 's':
            return static_cast<double>(a.bshd ? d[1] : d[2]);
        default:
            return static_cast<double>(d[3]);
        }
    };
    const double b = dim(q, 'b'), h = dim(q, 'h'), sq = dim(q, 's'), skv = dim(k, 's');
    const double dqk = dim(q, 'd'), dv = dim(v, 'd');
    OpCost c;
    c.family = OpFamily::Attention;
    c.flops = 2.0 * b * h * sq * skv * (dqk + dv);
    if (concreteBool(s, a.causal, false)) c.flops *= 0.5;
    const double out = b * h * sq * dv * dtypeBytes(s.dtype(q));
    const double qkv = s.tensorBytes(q) + s.tensorBytes(k) + s.tensorBytes(v);
    if (a.backward) {
        c.flops *= 2.5;
        c.bytes = 2 * qkv + 2 * out; // reads q, k, v, out, grad out; writes grad q, k, v
    } else {
        c.bytes = qkv + out;
    }
    c.matrix = true;
    c.peak = peakOf(s.dtype(q), false);
    return c;
}

// Every tensor argument read, the largest written (out-of-place) or updated in place.
std::optional<OpCost> elementwiseCost(const OpShapes& s, double flopsPerElement) {
    double read = 0, outNumel = 0, outBytes = 0;
    for (std::size_t i = 0; i < s.dims.size(); ++i)
        if (s.isTensor(i)) {
            read += s.tensorBytes(i);
            if (static_cast<double>(s.numel(i)) > outNumel) {
                outNumel = static_cast<double>(s.numel(i));
                outBytes = s.tensorBytes(i);
            }
        }
    if (outNumel <= 0) return std::nullopt;
    OpCost c;
    c.family = OpFamily::Elementwise;
    c.flops = outNumel * flopsPerElement;
    c.bytes = read + outBytes;
    return c;
}

// Reductions, softmax and norms: every tensor read; `fullOutput` ones also write the first
// argument's size (softmax, norms, their backward), reductions a negligible result.
std::optional<OpCost> reductionCost(const OpShapes& s, double flopsPerElement, bool fullOutput) {
    if (!s.isTensor(0) && !s.isTensor(1)) return std::nullopt;
    const std::size_t first = s.isTensor(0) ? 0 : 1;
    double read = 0;
    for (std::size_t i = 0; i < s.dims.size(); ++i)
        read += s.tensorBytes(i);
    double largest = 0;
    for (std::size_t i = 0; i < s.dims.size(); ++i)
        largest = std::max(largest, static_cast<double>(s.numel(i)));
    OpCost c;
    c.family = OpFamily::Reduction;
    c.flops = largest * flopsPerElement;
    c.bytes = read + (fullOutput ? s.tensorBytes(first) : 0);
    return c;
}

std::optional<OpCost> embeddingCost(std::string_view op, const OpShapes& s) {
    OpCost c;
    c.family = OpFamily::Embedding;
    if (op == "embedding") { // weight [V, D], indices [...]: gather rows, write them
        if (!s.isTensor(0) || !s.isTensor(1) || s.dims[0].size() != 2) return std::nullopt;
        double rows = static_cast<double>(s.numel(1)), d = static_cast<double>(s.dims[0][1]);
        c.bytes = 2 * rows * d * dtypeBytes(s.dtype(0)) + s.tensorBytes(1);
        return c;
    }
    if (op == "index_select") { // self, dim, index
        if (!s.isTensor(0) || !s.isTensor(2) || s.dims[0].empty()) return std::nullopt;
        auto dimV = concreteInts(s, 1);
        std::size_t dim = dimV.empty() ? 0 : static_cast<std::size_t>(std::max<std::int64_t>(0, dimV[0]));
        dim = std::min(dim, s.dims[0].size() - 1);
        double slice = prod(s.dims[0]) / std::max<double>(1, static_cast<double>(s.dims[0][dim]));
        c.bytes = 2 * static_cast<double>(s.numel(2)) * slice * dtypeBytes(s.dtype(0)) + s.tensorBytes(2);
        return c;
    }
    if (op == "embedding_dense_backward" || op == "embedding_backward") {
        // grad [..., D], indices, num_weights: read the gradient, write the [num_weights, D] result
        if (!s.isTensor(0) || s.dims[0].empty()) return std::nullopt;
        double d = static_cast<double>(s.dims[0].back());
        auto nw = concreteInts(s, 2);
        double table = nw.empty() ? 0 : static_cast<double>(nw[0]) * d * dtypeBytes(s.dtype(0));
        c.bytes = s.tensorBytes(0) + s.tensorBytes(1) + table;
        return c;
    }
    if (op == "embedding_bag" || op == "_embedding_bag") { // weight, indices, offsets
        if (!s.isTensor(0) || !s.isTensor(1) || s.dims[0].size() != 2) return std::nullopt;
        double d = static_cast<double>(s.dims[0][1]);
        double bags = s.isTensor(2) ? static_cast<double>(s.numel(2)) : 1;
        c.flops = static_cast<double>(s.numel(1)) * d;
        c.bytes = (static_cast<double>(s.numel(1)) + bags) * d * dtypeBytes(s.dtype(0)) + s.tensorBytes(1) +
                  s.tensorBytes(2);
        return c;
    }
    return std::nullopt;
}

std::optional<OpCost> copyCost(std::string_view op, const OpShapes& s) {
    OpCost c;
    c.family = OpFamily::Copy;
    if (op == "copy_" || op == "_copy_from") { // self (dst), src
        if (!s.isTensor(0) || !s.isTensor(1)) return std::nullopt;
        c.bytes = s.tensorBytes(0) + s.tensorBytes(1);
        return c;
    }
    if (op == "fill_" || op == "zero_" || op == "zeros_like" || op == "ones_like" || op == "full_like") {
        if (!s.isTensor(0)) return std::nullopt;
        c.bytes = s.tensorBytes(0); // written only
        return c;
    }
    if (op == "clone" || op == "contiguous" || op == "_to_copy" || op == "to") {
        if (!s.isTensor(0)) return std::nullopt;
        c.bytes = 2 * s.tensorBytes(0);
        return c;
    }
    return std::nullopt;
}

bool oneOf(std::string_view op, std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), op) != names.end();
}

} // namespace

std::optional<OpCost> opCost(std::string_view opName, const OpShapes& s, KernelClass kernelClass) {
    std::string_view op = opName;
    if (op.starts_with("aten::")) op.remove_prefix(6);
    if (auto c = gemmCost(op, s)) return c;
    if (oneOf(op, {"convolution", "_convolution", "conv1d", "conv2d", "conv3d", "cudnn_convolution",
                   "convolution_backward", "cudnn_convolution_backward"}))
        return convCost(op, s);
    for (const auto& a : kAttention)
        if (op == a.name) return attentionCost(a, s);
    if (oneOf(op, {"embedding", "index_select", "embedding_dense_backward", "embedding_backward",
                   "embedding_bag", "_embedding_bag"}))
        return embeddingCost(op, s);
    if (auto c = copyCost(op, s)) return c;
    if (oneOf(op, {"softmax", "_softmax", "log_softmax", "_log_softmax"})) return reductionCost(s, 5, true);
    if (oneOf(op, {"_softmax_backward_data", "_log_softmax_backward_data"})) return reductionCost(s, 3, true);
    if (oneOf(op, {"layer_norm", "native_layer_norm", "group_norm", "native_group_norm", "batch_norm",
                   "native_batch_norm", "_batch_norm_impl_index", "cudnn_batch_norm", "rms_norm",
                   "_fused_rms_norm"}))
        return reductionCost(s, 8, true);
    if (oneOf(op, {"native_layer_norm_backward", "native_group_norm_backward", "native_batch_norm_backward",
                   "cudnn_batch_norm_backward", "_fused_rms_norm_backward"}))
        return reductionCost(s, 12, true);
    // clang-format off
    if (oneOf(op, {"sum", "mean", "amax", "amin", "max", "min", "prod", "norm", "linalg_vector_norm", "var", "std",
                   "var_mean", "std_mean", "argmax", "argmin", "logsumexp", "cumsum"}))
        return reductionCost(s, 1, op == "cumsum");
    // clang-format on
    if (oneOf(op, {"nll_loss_forward", "nll_loss", "nll_loss_nd", "nll_loss2d_forward"}) && s.isTensor(0) &&
        s.isTensor(1)) { // self [N, C], target [N]: reads the target and one entry of self per target
        OpCost c;
        c.family = OpFamily::Reduction;
        c.flops = static_cast<double>(s.numel(1));
        c.bytes = s.tensorBytes(1) + static_cast<double>(s.numel(1)) * dtypeBytes(s.dtype(0));
        return c;
    }
    if (oneOf(op, {"nll_loss_backward", "nll_loss2d_backward"}) && s.isTensor(1) && s.isTensor(2)) {
        OpCost c; // grad_output, self, target: writes the whole grad input, reads the target
        c.family = OpFamily::Reduction;
        c.flops = static_cast<double>(s.numel(2));
        c.bytes = s.tensorBytes(1) + s.tensorBytes(2);
        return c;
    }
    // clang-format off
    if (oneOf(op, {"add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_", "relu", "relu_", "gelu",
                   "gelu_backward", "silu", "silu_", "silu_backward", "sigmoid", "sigmoid_backward", "tanh",
                   "tanh_backward", "threshold_backward", "clamp", "clamp_", "clamp_min", "clamp_min_", "neg", "exp",
                   "exp_", "log", "log_", "sqrt", "rsqrt", "pow", "where", "addcmul_", "addcdiv_", "lerp_",
                   "masked_fill", "masked_fill_", "dropout", "native_dropout", "native_dropout_backward",
                   "remainder", "abs", "sign", "lt", "gt", "le", "ge", "eq", "ne", "maximum", "minimum"}))
        // clang-format on
        return elementwiseCost(s, 1);
    if (kernelClass == KernelClass::Elementwise) return elementwiseCost(s, 1);
    return std::nullopt;
}

std::vector<KernelCostEntry> kernelCosts(const Rank& rank, const KernelClassifier* classifier) {
    static const KernelClassifier kDefault;
    const KernelClassifier& cls = classifier ? *classifier : kDefault;
    std::vector<KernelCostEntry> out;
    // Per launching op: its cost (nullopt: unknown family).
    struct OpInfo {
        std::optional<OpCost> cost;
        bool fromEt = false; // the shapes came from a linked execution-trace node
    };
    std::unordered_map<std::uint64_t, OpInfo> ops;
    std::vector<TimeNs> durations;
    for (std::uint32_t ti = 0; ti < rank.tracks.size(); ++ti) {
        const Track& track = rank.tracks[ti];
        if (!track.isGpu()) continue;
        const auto& ev = track.events;
        for (std::uint32_t i = 0; i < ev.size(); ++i) {
            const EventKind kind = ev.kind[i];
            if (!isGpuOp(kind)) continue;
            const std::string_view name = rank.strings.str(ev.name[i]);
            if (kind == EventKind::Kernel && isCommunicationKernelName(name)) continue;
            KernelCostEntry e;
            e.gpuOp = {ti, i};
            e.cls = cls.classify(name, kind);
            if (kind != EventKind::Kernel) { // memcpy / memset: bytes on the op itself
                auto bytes = nlohmann::json::parse(rank.args(e.gpuOp), nullptr, false);
                double b = 0;
                if (bytes.is_object() && bytes.contains("bytes") && bytes["bytes"].is_number())
                    b = bytes["bytes"].get<double>();
                const bool device =
                    kind == EventKind::GpuMemset || name.find("DtoD") != std::string_view::npos;
                if (!device) {
                    e.missing = CostMissing::HostCopy;
                } else if (b <= 0) {
                    e.missing = CostMissing::NoShapes;
                } else {
                    e.cost.family = OpFamily::Copy;
                    e.cost.bytes = kind == EventKind::GpuMemset ? b : 2 * b;
                }
                out.push_back(e);
                durations.push_back(ev.duration[i]);
                continue;
            }
            e.missing = CostMissing::NoLaunch;
            if (ev.link[i] != kNoLink) {
                const EventRef call = EventRef::unpack(ev.link[i]);
                e.missing = CostMissing::NoShapes;
                if (call.track < rank.tracks.size() && !rank.tracks[call.track].isGpu()) {
                    const auto& cev = rank.tracks[call.track].events;
                    for (std::int32_t p = call.index < cev.size() ? cev.parent[call.index] : -1; p >= 0;
                         p = cev.parent[static_cast<std::size_t>(p)]) {
                        if (cev.kind[static_cast<std::size_t>(p)] != EventKind::CpuOp) continue;
                        EventRef opRef{call.track, static_cast<std::uint32_t>(p)};
                        auto [it, fresh] = ops.try_emplace(opRef.packed());
                        if (fresh) {
                            // Its own args' shapes, else the attached ET's (one source: Rank::opShapes).
                            auto shapes = rank.opShapes(opRef, &it->second.fromEt);
                            if (!shapes) { // no shapes at all: look further out
                                ops.erase(it);
                                continue;
                            }
                            it->second.cost = opCost(rank.name(opRef), *shapes, e.cls);
                        }
                        e.op = opRef;
                        e.shapesFromEt = it->second.fromEt;
                        e.missing = it->second.cost ? CostMissing::None : CostMissing::UnknownOp;
                        break;
                    }
                }
            }
            out.push_back(e);
            durations.push_back(ev.duration[i]);
        }
    }
    // Share each op's FLOPs and bytes among its kernels by duration (equally when all are 0 long).
    // A GEMM, convolution or attention op's math runs in its GEMM / attention kernels; the other
    // kernels it launches (bias copy, split-K reduce, layout transforms) are auxiliary: they get no
    // share and are counted apart, when the op launched at least one matrix kernel.
    auto matrixKernel = [](KernelClass c) { return c == KernelClass::Gemm || c == KernelClass::Attention; };
    struct Share {
        TimeNs time = 0;
        int kernels = 0;
        bool matrixOnly = false;
    };
    std::unordered_map<std::uint64_t, Share> shares;
    for (std::size_t k = 0; k < out.size(); ++k)
        if (out[k].op.valid() && out[k].missing == CostMissing::None &&
            ops.at(out[k].op.packed()).cost->matrix && matrixKernel(out[k].cls))
            shares[out[k].op.packed()].matrixOnly = true;
    auto counts = [&](const KernelCostEntry& e) {
        return !shares[e.op.packed()].matrixOnly || matrixKernel(e.cls);
    };
    for (std::size_t k = 0; k < out.size(); ++k) {
        auto& e = out[k];
        if (!e.op.valid() || e.missing != CostMissing::None) continue;
        if (!counts(e)) {
            e.missing = CostMissing::Auxiliary;
            continue;
        }
        Share& sh = shares[e.op.packed()];
        sh.time += durations[k];
        ++sh.kernels;
    }
    for (std::size_t k = 0; k < out.size(); ++k) {
        auto& e = out[k];
        if (!e.op.valid() || e.missing != CostMissing::None) continue;
        const Share& sh = shares.at(e.op.packed());
        const double share =
            sh.time > 0 ? static_cast<double>(durations[k]) / static_cast<double>(sh.time) : 1.0 / sh.kernels;
        e.cost = *ops.at(e.op.packed()).cost;
        e.cost.flops *= share;
        e.cost.bytes *= share;
    }
    return out;
}

} // namespace sl
