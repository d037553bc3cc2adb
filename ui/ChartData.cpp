#include "ChartData.h"

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

} // namespace sl::ui
