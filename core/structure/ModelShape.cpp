#include "structure/ModelShape.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace sl {

std::string_view bareOpName(std::string_view op) {
    return op.rfind("aten::", 0) == 0 ? op.substr(6) : op;
}

std::int64_t leadingDims(const std::vector<std::int64_t>& d) {
    std::int64_t p = 1;
    for (std::size_t i = 0; i + 1 < d.size(); ++i)
        p *= d[i];
    return p;
}

std::optional<GemmDims> gemmDims(std::string_view op, const OpShapes& s) {
    auto has = [&](std::size_t i, std::size_t minRank) {
        return i < s.dims.size() && s.dims[i].size() >= minRank;
    };
    if (op == "addmm" && has(1, 2) && has(2, 2)) return GemmDims{s.dims[1][0], s.dims[1][1], s.dims[2][1]};
    if ((op == "mm" || op == "matmul") && has(0, 2) && s.dims.size() > 1 && s.dims[1].size() == 2)
        return GemmDims{leadingDims(s.dims[0]), s.dims[0].back(), s.dims[1][1]};
    if (op == "linear" && has(0, 2) && s.dims.size() > 1 && s.dims[1].size() == 2) // weight [out, in]
        return GemmDims{leadingDims(s.dims[0]), s.dims[0].back(), s.dims[1][0]};
    return std::nullopt;
}

std::vector<std::vector<KernelCostEntry>> kernelCostsOf(const TraceSet& set) {
    std::vector<std::vector<KernelCostEntry>> costs(set.ranks.size());
    for (std::size_t r = 0; r < set.ranks.size(); ++r)
        costs[r] = kernelCosts(set.ranks[r]);
    return costs;
}

namespace {

template <class T> T mostCommon(const std::map<T, int>& counts) {
    T best{};
    int most = 0;
    for (const auto& [v, c] : counts)
        if (c > most) {
            most = c;
            best = v;
        }
    return best;
}

int elementBytesOf(std::string_view type) {
    if (type.find("BFloat16") != std::string_view::npos || type.find("Half") != std::string_view::npos)
        return 2;
    if (type == "float" || type.find("Float") != std::string_view::npos) return 4;
    if (type == "double") return 8;
    return 0;
}

} // namespace

ModelShape recognizeModelShape(const TraceSet& set, int tracedTp,
                               const std::vector<std::vector<KernelCostEntry>>& costs) {
    ModelShape out;
    std::map<std::pair<std::int64_t, std::int64_t>, int> normShapes; // (H, tokens)
    std::map<std::int64_t, int> headCounts;
    std::map<int, int> normBytes;
    std::map<std::pair<std::int64_t, std::int64_t>, int> gemmKM; // (K, M) of the GEMMs
    std::map<std::pair<std::int64_t, std::int64_t>, int> tables; // (columns, rows) of embedding lookups
    for (std::size_t r = 0; r < set.ranks.size() && r < costs.size(); ++r)
        for (const auto& e : costs[r]) {
            if (!e.known() || !e.op.valid()) continue;
            const std::string_view op = bareOpName(set.ranks[r].name(e.op));
            const auto shapes = set.ranks[r].opShapes(e.op);
            if (!shapes || shapes->dims.empty()) continue;
            if (e.cost.family == OpFamily::Gemm)
                if (const auto d = gemmDims(op, *shapes)) ++gemmKM[{(*d)[1], (*d)[0]}];
            if ((op == "embedding" || op == "index_select") && shapes->dims[0].size() == 2)
                ++tables[{shapes->dims[0][1], shapes->dims[0][0]}];
            if (shapes->dims[0].size() < 3) continue;
            const auto& d0 = shapes->dims[0];
            // LayerNorm (GPT, BERT) or RMSNorm (LLaMA-style models), on [batch, sequence, H].
            const bool norm = op.find("layer_norm") != std::string_view::npos ||
                              op.find("rms_norm") != std::string_view::npos;
            if (norm && op.find("backward") == std::string_view::npos) {
                ++normShapes[{d0.back(), leadingDims(d0)}];
                if (!shapes->types.empty()) ++normBytes[elementBytesOf(shapes->types.front())];
            }
            if (e.cost.family == OpFamily::Attention && op.find("backward") == std::string_view::npos)
                ++headCounts[d0[1]];
        }
    if (normShapes.empty() || headCounts.empty()) return out;
    out.recognised = true;
    std::tie(out.hidden, out.tokens) = mostCommon(normShapes);
    out.elementBytes = normBytes.empty() ? 0 : mostCommon(normBytes);
    // Sequence parallelism: the norms see tokens / T, the GEMMs that read [tokens, H] all of them.
    std::map<std::int64_t, int> gemmTokens;
    for (const auto& [km, n] : gemmKM)
        if (km.first == out.hidden) gemmTokens[km.second] += n;
    if (tracedTp > 1 && !gemmTokens.empty() && mostCommon(gemmTokens) == out.tokens * tracedTp) {
        out.sequenceParallel = true;
        out.tokens *= tracedTp;
    }
    out.headsPerRank = mostCommon(headCounts);
    for (const auto& [shape, n] : tables)
        if (shape.first == out.hidden) out.vocabPerRank = std::max(out.vocabPerRank, shape.second);
    return out;
}

} // namespace sl
