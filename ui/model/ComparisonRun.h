#pragma once
// The comparison run in the main window (docs/Compare.md, "In the desktop program"): a second measured
// run of the open program, loaded and compared with it (analysis/RunComparison.h; with the current
// scenario's simulation, the prediction held against it, analysis/PredictionCheck.h), and what the
// panes need to show it under the open run: its timeline moved so that its step starts where the
// open run's does, its ranks and tracks laid out along the open run's rows (RowLayout.h, RowMapping),
// a delta bin per GPU op of both runs (DeltaColours.h) and each op's aligned op in the other run (a
// selection in one pane selects it in the other; a table row jumps to an op in both).
#include "DeltaColours.h"
#include "RowLayout.h"
#include "Selection.h"
#include "TimelineData.h"

#include "analysis/PredictionCheck.h"
#include "analysis/RunComparison.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <string>
#include <utility>

namespace sl::ui {

struct ComparisonRun {
    QStringList openPaths, paths;
    // What the window calls the run: the folder of its rank files (picked one by one or as the
    // folder alike), else its one file's name.
    QString name() const { return runName(paths); }
    static QString runName(const QStringList& paths);
    std::shared_ptr<const ExecutionGraph> openGraph; // the open run's graph (compared with)
    std::shared_ptr<const TraceSet> set;             // the comparison run
    std::shared_ptr<const ExecutionGraph> graph;     // its graph
    std::shared_ptr<const RunComparison> cmp;
    // comparisonJson() of the comparison (with the prediction when a simulation was given).
    nlohmann::json report;
    // One line ("error: FILE: what") when the run could not be loaded or aligned; then only
    // paths, report (null) and, for runs that are not one program, cmp are set.
    QString error;
    TimeNs offset = 0; // added to the run's times: its step start on the open run's
    std::shared_ptr<const TimelineData> timeline; // the run with those times
    std::shared_ptr<const RowMapping> rows;       // the open run's rows -> the run's ranks and tracks
    std::shared_ptr<const EventDeltas> openDeltas, deltas; // bins of the open run's and the run's events
    // A change within this many percent is "same" (DeltaColours.h): 3 sigma of the run-to-run noise,
    // at least the smallest change the tables report.
    double samePct = kMinChangePct;
    // The bins of both runs with the open run's ops timed as `open` times them: the measured
    // timeline gives openDeltas and deltas; a scenario's prediction of the open set (the upper pane
    // in "predicted vs actual") gives predicted against measured, op by op.
    std::pair<std::shared_ptr<const EventDeltas>, std::shared_ptr<const EventDeltas>>
    deltasAgainst(const TimelineData& open) const;
    // The unit (index into units) of each event of either run, [rank][track][event]; -1: none.
    std::vector<std::vector<std::vector<std::int32_t>>> openUnit, unit;
    struct UnitRef {
        std::uint32_t pair = 0; // index into cmp->ranks
        std::uint32_t unit = 0; // index into cmp->ranks[pair].units
    };
    std::vector<UnitRef> units;

    bool ok() const { return error.isEmpty() && timeline != nullptr; }
    const AlignedUnit& alignedUnit(std::size_t i) const;
    // The aligned op of an op of the open run in the comparison run (the first of a unit of
    // several), and back; invalid when it has none.
    EventId partnerInRun(EventId open) const;
    EventId partnerInOpen(EventId run) const;
    // The op of a comparison table's row in both runs (docs/Compare.md): the unit with the largest
    // |delta| among those of the row (tab "Kernels": kernel name, "Classes": kernel class, "CPU ops":
    // launching CPU op, "Ranks": the rank id); invalid when none.
    struct Jump {
        EventId open, run;
        bool valid() const { return open.valid() && run.valid(); }
    };
    Jump jumpTo(const QString& tab, const std::string& key) const;
    // The prediction line of the result card for a simulation of the open run (PredictionCheck:
    // the predicted step against the measured step of the comparison run); empty when it cannot
    // be checked (no simulation of this graph, runs not comparable).
    QString predictionLine(const SimResult* simulation) const;
};

// Loads the run at `paths` and compares it with the open run (openGraph, a graph of openSet;
// simulation: the current scenario's run of it, or null). Never throws: a failure is the run's
// error line. Runs on any thread (a worker, off the UI thread); `cancel` (a BackgroundJob's flag)
// stops the load at its next piece (the error line then says so).
std::shared_ptr<const ComparisonRun> loadComparisonRun(std::shared_ptr<const TraceSet> openSet,
                                                       std::shared_ptr<const ExecutionGraph> openGraph,
                                                       std::shared_ptr<const SimResult> simulation,
                                                       const SimKnobs& knobs, const QStringList& openPaths,
                                                       const QStringList& paths,
                                                       const std::atomic<bool>* cancel = nullptr);

// The rank and track of `to` that show in each row of `from` (ranks paired as the comparison
// paired them; tracks by name, then by kind in order).
RowMapping mapRows(std::shared_ptr<const TraceSet> from, const TraceSet& to, const RunComparison& cmp);

} // namespace sl::ui
