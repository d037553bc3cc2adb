#pragma once
// The ranks a setup edit (dp.degree) added to a simulated job (docs/AddedRanks.md), as rows for the
// window's strip under the simulated pane and for exported figures: each added rank simulated on
// its own (SimResult::addedRanks), slowest first, with its GPU activity per pixel column of a time
// mapping. Immutable once built; the strip and the figure paint it (ui/timeline/AddedRanksPaint.h).
#include "TimeMapping.h"

#include "graph/ExecutionGraph.h"
#include "sim/Simulator.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace sl::ui {

class AddedRanks {
public:
    struct Row {
        std::int32_t added = 0;   // index into SimResult::addedRanks
        int rank = 0;             // its rank id in the simulated job
        std::uint32_t source = 0; // index into TraceSet::ranks of the rank whose program it runs
        int sourceRank = 0;       // that rank's id
        TimeNs step = 0;          // its simulated iteration
        bool slow = false;        // more than 1% slower than the median added rank
    };
    // GPU busy nanoseconds in one pixel column, split into communication kernels and the rest.
    struct Column {
        TimeNs compute = 0;
        TimeNs communication = 0;
    };

    // Null when the simulation added no rank (or result and graph do not belong together).
    static std::shared_ptr<const AddedRanks> of(std::shared_ptr<const SimResult> result,
                                                std::shared_ptr<const ExecutionGraph> graph);

    const std::vector<Row>& rows() const { return rows_; }
    int world() const { return world_; }
    // "rank 100 (as 36)  196.2 ms".
    static QString rowLabel(const Row& row);
    // A step as the rows say it: "196.20 ms".
    static QString stepText(TimeNs step);
    // "28 ranks added to the job (simulated job: 32 ranks), each simulated on its own; slowest
    // first: rank 9 is the slowest (21.60 ms)".
    QString header() const;
    // Busy time of row `row` in each pixel column [0, width) of the mapping, column c covering
    // [m.columnStart(c), m.columnStart(c + 1)): the added rank's own simulated kernels, copies and
    // sets, summed over its streams.
    std::vector<Column> columns(int row, const TimeMapping& m, int width) const;

private:
    std::shared_ptr<const SimResult> result_;
    std::shared_ptr<const ExecutionGraph> graph_;
    // Per source rank with added ranks: its GPU op nodes and whether each is communication.
    std::vector<std::vector<std::pair<NodeId, bool>>> gpuOps_;
    std::vector<Row> rows_;
    int world_ = 0;
};

} // namespace sl::ui
