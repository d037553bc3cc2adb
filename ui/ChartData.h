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
    };
    std::vector<RankRow> ranks;
    std::array<double, kPathLabelCount> pathMs{};
    double pathLengthMs = 0;

    static QString partName(Part p);
};

ChartData chartDataOf(const SimResult& result, const SimAnalysis& analysis);

} // namespace sl::ui
