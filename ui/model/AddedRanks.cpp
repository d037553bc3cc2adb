#include "AddedRanks.h"

#include "trace/Collective.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace sl::ui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("AddedRanks", text);
}
} // namespace

std::shared_ptr<const AddedRanks> AddedRanks::of(std::shared_ptr<const SimResult> result,
                                                 std::shared_ptr<const ExecutionGraph> graph) {
    if (!result || !graph || result->addedRanks.empty() || result->nodes.size() != graph->nodes.size())
        return nullptr;
    auto out = std::make_shared<AddedRanks>();
    const AddedRankTimes& added = result->addedRanks;
    const TraceSet& set = *graph->trace;
    for (std::size_t a = 0; a < added.count(); ++a)
        out->rows_.push_back({static_cast<std::int32_t>(a), added.rankId[a], added.source[a],
                              set.ranks[added.source[a]].rank, added.summary[a].simulated(), false});
    // Slowest first; a rank more than 1% slower than the median added rank is flagged.
    std::vector<TimeNs> steps;
    for (const Row& r : out->rows_)
        steps.push_back(r.step);
    std::nth_element(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(steps.size() / 2),
                     steps.end());
    const TimeNs median = steps[steps.size() / 2];
    for (Row& r : out->rows_)
        r.slow = static_cast<double>(r.step) > 1.01 * static_cast<double>(median);
    std::stable_sort(out->rows_.begin(), out->rows_.end(), [](const Row& x, const Row& y) {
        return x.step != y.step ? x.step > y.step : x.rank < y.rank;
    });
    out->gpuOps_.assign(set.ranks.size(), {});
    std::vector<std::uint8_t> needed(set.ranks.size(), 0);
    for (std::uint32_t s : added.source)
        needed[s] = 1;
    for (NodeId n = 0; n < graph->nodes.size(); ++n) {
        const GraphNode& node = graph->nodes[n];
        if (!needed[node.rank] || (node.kind != NodeKind::GpuOp && node.kind != NodeKind::Collective))
            continue;
        const bool comm = node.kind == NodeKind::Collective || isCommunicationKernelName(graph->nodeName(n));
        out->gpuOps_[node.rank].push_back({n, comm});
    }
    out->world_ = result->setup.world;
    out->result_ = std::move(result);
    out->graph_ = std::move(graph);
    return out;
}

QString AddedRanks::stepText(TimeNs step) {
    return QString::number(static_cast<double>(step) / 1e6, 'f', 2) + QStringLiteral(" ms");
}

QString AddedRanks::rowLabel(const Row& row) {
    return tr("rank %1 (as %2)  %3").arg(row.rank).arg(row.sourceRank).arg(stepText(row.step));
}

QString AddedRanks::header() const {
    QString text = (rows_.size() == 1 ? tr("%1 rank added to the job (simulated job: %2 ranks), simulated on "
                                           "its own")
                                      : tr("%1 ranks added to the job (simulated job: %2 ranks), each "
                                           "simulated on its own; slowest first"))
                       .arg(rows_.size())
                       .arg(world_);
    if (!rows_.empty() && rows_.front().slow)
        text += tr(": rank %1 is the slowest (%2)").arg(rows_.front().rank).arg(stepText(rows_.front().step));
    return text;
}

std::vector<AddedRanks::Column> AddedRanks::columns(int row, const TimeMapping& m, int width) const {
    std::vector<Column> out(static_cast<std::size_t>(std::max(0, width)));
    if (!result_ || row < 0 || row >= static_cast<int>(rows_.size()) || width <= 0) return out;
    const Row& r = rows_[static_cast<std::size_t>(row)];
    const AddedRankTimes& added = result_->addedRanks;
    const TimeNs lo = m.columnStart(0);
    const TimeNs hi = m.columnStart(width);
    for (const auto& [node, comm] : gpuOps_[r.source]) {
        const std::size_t slot = added.slot({node, r.added});
        const TimeNs s = added.start[slot];
        const TimeNs end = added.end[slot];
        if (s < 0 || end <= s || end <= lo || s >= hi) continue; // outside the window: culled
        // The column holding s (columns are [columnStart(c), columnStart(c + 1))).
        auto c = static_cast<std::int64_t>(std::clamp(std::floor(m.x(s)), 0.0, width - 1.0));
        while (c > 0 && m.columnStart(c) > s)
            --c;
        while (c + 1 < width && m.columnStart(c + 1) <= s)
            ++c;
        for (; c < width && m.columnStart(c) < end; ++c) {
            const TimeNs overlap = std::min(end, m.columnStart(c + 1)) - std::max(s, m.columnStart(c));
            if (overlap <= 0) continue;
            Column& col = out[static_cast<std::size_t>(c)];
            (comm ? col.communication : col.compute) += overlap;
        }
    }
    return out;
}

} // namespace sl::ui
