#include "ChartData.h"

#include <algorithm>

namespace sl::ui {

namespace {
double ms(TimeNs t) {
    return static_cast<double>(t) / 1e6;
}
std::array<double, ChartData::PartCount> parts(const RankBreakdown& b) {
    return {ms(b.compute), ms(b.exposedCommunication), ms(b.overlappedCommunication()), ms(b.idle)};
}
} // namespace

QString ChartData::partName(Part p) {
    switch (p) {
    case Compute:
        return QStringLiteral("Compute");
    case ExposedComm:
        return QStringLiteral("Exposed comm");
    case OverlappedComm:
        return QStringLiteral("Overlapped comm");
    default:
        return QStringLiteral("Idle");
    }
}

ChartData chartDataOf(const SimResult& result, const SimAnalysis& analysis) {
    ChartData d;
    const std::size_t n = result.ranks.size();
    d.ranks.resize(n);
    for (std::size_t r = 0; r < n; ++r) {
        ChartData::RankRow& row = d.ranks[r];
        const RankSimSummary& s = result.ranks[r];
        row.rank = s.rank;
        if (r < analysis.measured.size()) row.measured = parts(analysis.measured[r]);
        if (r < analysis.simulated.size()) row.simulated = parts(analysis.simulated[r]);
        row.measuredIterationMs = ms(s.measured());
        row.simulatedIterationMs = ms(s.simulated());
        row.errorPct = s.errorPct();
    }
    for (int l = 0; l < kPathLabelCount; ++l)
        d.pathMs[static_cast<std::size_t>(l)] = ms(analysis.path.byLabel[static_cast<std::size_t>(l)]);
    d.pathLengthMs = ms(analysis.path.length);
    return d;
}

std::vector<ChartData::RankRow> chartRows(const ChartData& data, std::size_t maxRows) {
    if (data.ranks.size() <= maxRows) return data.ranks;
    std::vector<std::size_t> order(data.ranks.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return data.ranks[a].measuredIterationMs < data.ranks[b].measuredIterationMs;
    });
    std::vector<ChartData::RankRow> rows;
    auto add = [&](std::size_t i, const QString& role) {
        ChartData::RankRow row = data.ranks[i];
        row.role = role;
        rows.push_back(row);
    };
    add(order.front(), QStringLiteral("fastest"));
    add(order[order.size() / 2], QStringLiteral("median"));
    add(order.back(), QStringLiteral("slowest"));
    std::size_t simSlowest = 0;
    for (std::size_t i = 1; i < data.ranks.size(); ++i)
        if (data.ranks[i].simulatedIterationMs > data.ranks[simSlowest].simulatedIterationMs) simSlowest = i;
    if (data.ranks[simSlowest].rank != data.ranks[order.back()].rank)
        add(simSlowest, QStringLiteral("sim. slowest"));
    return rows;
}

QString rowLabel(const ChartData::RankRow& row) {
    return row.role.isEmpty() ? QStringLiteral("r%1").arg(row.rank)
                              : QStringLiteral("%1 r%2").arg(row.role).arg(row.rank);
}

} // namespace sl::ui
