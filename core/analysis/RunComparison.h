#pragma once
// Before and after: two measured runs of one program compared rank by rank and op by op
// (docs/Compare.md). Ranks pair by rank id (by order when the two sets share no id). Within a rank
// the GPU ops of the step window (the graph's GPU op and collective nodes) align in three passes,
// each taking the k-th unaligned op of a key on one side with the k-th of the same key on the other:
//   1. kernel name + the launching CPU op's "Input Dims" (when recorded),
//   2. kernel name alone (a batch or shape change),
//   3. through the launching CPU op (innermost cpu_op around the launch call; name + shapes, then
//      name): the kernels of the k-th aten::mm before align as a group with those of the k-th
//      aten::mm after, whatever they are called (another GPU vendor, another library version).
// The aligned share (aligned ops / all ops of both runs) says whether the runs are one program;
// below kMinAlignedSharePct they are not, and the comparison says so instead of a table of zeros.
//
// Run-to-run noise: for every 1:1 aligned pair the relative change (after - before) / before; within
// one (rank, kernel name) a real change moves every instance alike, so the spread around the
// group's own mean is noise (a kernel whose count changed is left out: its instances are not the
// same work). Pooled per kernel class it gives sigma_c, and a row whose instances took b_i before has
// noise 3 * sqrt(sum (sigma_c * b_i)^2): a change smaller than that (or than kMinChangePct of the
// row) with the same count is reported as noise, not as a change.
#include "base/Diagnostics.h"
#include "graph/ExecutionGraph.h"
#include "trace/EventClass.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl {

constexpr double kMinAlignedSharePct = 50.0;
constexpr double kMinChangePct = 0.5;
constexpr double kHostNoisePct = 10.0;

enum class AlignedBy : std::uint8_t { NameShapes, Name, CpuOp };

// Ops of the two runs that correspond: one each (by name), or the kernels one CPU op instance
// launched on each side (through the CPU op). Node ids of the respective graphs.
struct AlignedUnit {
    std::vector<NodeId> before, after;
    AlignedBy by = AlignedBy::Name;
    TimeNs beforeTime = 0, afterTime = 0; // summed measured durations
};

// Time per row of a table (a kernel class, a kernel name, a CPU op, a rank's figure).
struct TimeRow {
    std::string key;
    TimeNs before = 0, after = 0;
    std::int64_t countBefore = 0, countAfter = 0;
    TimeNs noise = 0; // 3 sigma of the run-to-run noise of `before` (see above); 0 without pairs

    TimeNs delta() const { return after - before; }
    double deltaPct() const; // delta / before x 100 (0 when before is 0)
    // The count differs, or the change is larger than the noise and than kMinChangePct of the row.
    bool changed() const;
    // The time alone moved beyond the noise and kMinChangePct, whatever the counts (a host figure:
    // a count of GPU ops that changed says nothing of it).
    bool timeChanged() const;
};

// The figures of one rank in one run (HTA definitions, analysis/Breakdown.h, over the graph's
// window): iteration = first to last modelled node; wait = collective time spent waiting for
// peers; unexplainedWait = CPU time between calls that nothing covers.
struct RankFigures {
    TimeNs iteration = 0, compute = 0, communication = 0, exposedCommunication = 0, idle = 0, wait = 0,
           unexplainedWait = 0;
    // Host time by cause, on the CPU threads in the window: DataLoader iterator ops (loading a batch
    // in process, or waiting for the workers'), the synchronize calls (and blocking copies), and the
    // launch calls (kernels, graphs, copies, sets).
    TimeNs dataLoading = 0, syncs = 0, launches = 0;
    std::int64_t gpuOps = 0;
};

struct RankComparison {
    int beforeIndex = 0, afterIndex = 0; // into the two TraceSet::ranks
    int beforeRank = 0, afterRank = 0;   // rank ids
    RankFigures before, after;
    // iteration, compute, communication, exposed_comm, idle, wait, unexplained_wait as rows
    // (counts: GPU ops), with the noise of the GPU ops behind each; then the host causes
    // data_loading, syncs, launches (no instance pairs give their noise: a change under
    // kHostNoisePct of the row is not one).
    std::vector<TimeRow> figures;
    std::vector<TimeRow> byClass; // GPU time per kernel class on this rank
    std::vector<AlignedUnit> units;
    std::int64_t alignedBefore = 0, alignedAfter = 0; // ops in some unit
    std::int64_t unitsBy[3] = {0, 0, 0};              // units per AlignedBy
    double alignedSharePct() const;
    const TimeRow* figure(std::string_view key) const;
};

struct RunComparison {
    std::vector<RankComparison> ranks;
    std::vector<int> onlyBefore, onlyAfter; // rank ids present in one run only
    bool ranksById = true;                  // false: paired by order (no common rank id)
    // Job-wide tables over the paired ranks, sorted by |delta| (largest first); classes in class order.
    std::vector<TimeRow> byClass, byKernel, byCpuOp;
    // The figures of all paired ranks summed (idle, exposed_comm, data_loading, syncs, launches, ...),
    // in the order of RankComparison::figures.
    std::vector<TimeRow> figures;
    std::int64_t opsBefore = 0, opsAfter = 0, alignedBefore = 0, alignedAfter = 0;
    std::int64_t unitsBy[3] = {0, 0, 0};
    // Pooled run-to-run noise of a kernel's duration (one sigma, %), over compute kernels.
    double noisePct = 0;
    // Iteration of the job: the longest rank.
    TimeNs iterationBefore = 0, iterationAfter = 0;
    Warnings warnings; // base/Diagnostics.h: the compare_* kinds

    double alignedSharePct() const; // aligned ops of both runs / all ops of both runs
    bool comparable() const { return !ranks.empty() && alignedSharePct() >= kMinAlignedSharePct; }
    // One line: the aligned share and, when not comparable, that the runs are not one program.
    std::string alignmentNote() const;
    // One sentence: the iteration change and what changed beyond the noise, largest first, host
    // causes (GPU idle, data loading, syncs, launches) beside kernel classes ("GPU idle -52.0%, host
    // data loading -48.0%; compute kernels unchanged within noise"), or that nothing did.
    std::string verdict() const;
};

// The launching CPU op of a GPU op event of `rank` (innermost cpu_op around its launch call);
// invalid when it has none.
EventRef launchingCpuOp(const Rank& rank, EventRef gpuOp);

// The GPU op nodes (kernels, copies, sets, collectives) of every rank of the graph (by rank index),
// each in measured start order.
std::vector<std::vector<NodeId>> gpuOpNodesByRank(const ExecutionGraph& graph);

RunComparison compareRuns(const ExecutionGraph& before, const ExecutionGraph& after);

} // namespace sl
