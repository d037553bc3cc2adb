#pragma once
#include "SimAnalysis.h"
#include "sim/Simulator.h"

#include <QString>
#include <QStringList>

#include <array>
#include <vector>

namespace sl::ui {

// The numbers the charts plot, in milliseconds, straight from the core analyses (so that tests can
// compare them): per rank the breakdown measured and simulated, the critical path by label, the
// iteration time per rank measured and simulated with the replay error.
struct ChartData {
    enum Part { Compute, ExposedComm, OverlappedComm, Idle, PartCount };
    struct RankRow {
        int rank = 0; // Rank::rank id
        std::array<double, PartCount> measured{};
        std::array<double, PartCount> simulated{};
        double measuredIterationMs = 0;
        double simulatedIterationMs = 0;
        double errorPct = 0;
        QString role; // in a summary of many ranks: "fastest", "median", "slowest", ...
    };
    std::vector<RankRow> ranks;
    std::array<double, kPathLabelCount> pathMs{};
    double pathLengthMs = 0;

    static QString partName(Part p);
};

ChartData chartDataOf(const SimResult& result, const SimAnalysis& analysis);

// The rows to plot per rank: all of them up to maxRows, else representatives that stay readable at 64+
// ranks: the fastest, the median and the slowest rank by measured iteration time, and the slowest by
// simulated time when it is another rank (a straggler knob), each named.
std::vector<ChartData::RankRow> chartRows(const ChartData& data, std::size_t maxRows = 16);
// The category label of a row: "r5", or "slowest r57" in a summary.
QString rowLabel(const ChartData::RankRow& row);

} // namespace sl::ui
