#include "sim/edits/MicrobatchPlan.h"

#include "structure/CollectiveCalls.h"

#include <algorithm>

namespace sl::edits {

MicrobatchSources::MicrobatchSources(int traced, int wanted) : traced_(traced), wanted_(wanted) {
    for (int m = traced >= 3 ? 1 : 0; m < std::max(1, traced - 1); ++m)
        interior_.push_back(m);
}

int MicrobatchSources::source(int m) const {
    if (m == wanted_ - 1) return traced_ - 1;
    if (m < traced_ - 1) return m;
    return interior_[static_cast<std::size_t>(m - (traced_ - 1)) % interior_.size()];
}

bool MicrobatchSources::original(int m) const {
    return m < traced_ - 1 || m == wanted_ - 1;
}

std::vector<int> MicrobatchSources::copied() const {
    std::vector<int> out;
    for (int m = 0; m < wanted_; ++m)
        if (!original(m)) out.push_back(source(m));
    return out;
}

std::uint32_t microbatchCopyLabel(std::size_t step, bool backward, int m) {
    return static_cast<std::uint32_t>(step) << 20 | (backward ? 1u << 16 : 0u) |
           static_cast<std::uint32_t>(m);
}

std::vector<std::uint8_t> gradientCollectives(const ExecutionGraph& g) {
    std::vector<std::uint8_t> gradient(g.nodes.size(), 0);
    for (const auto& c : collectiveCalls(g))
        if (c.dataParallel &&
            (c.type == CollectiveType::AllReduce || c.type == CollectiveType::ReduceScatter))
            gradient[c.node] = 1;
    return gradient;
}

} // namespace sl::edits
