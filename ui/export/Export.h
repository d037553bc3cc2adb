#pragma once
#include "SimAnalysis.h"
#include "graph/ExecutionGraph.h"
#include "report/Report.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "trace/TraceSet.h"

#include <QString>

#include <QStringList>

#include <memory>
#include <string>
#include <vector>

class QWidget;

namespace sl::ui {

// Writers behind File > Export. Each returns an empty string on success, else a one-line error.

// The simulated timeline as Chrome trace JSON (opens in Perfetto and chrome://tracing): one process
// per rank and kind (CPU, GPU), one thread per CPU thread / GPU stream, an "X" event per event with
// a simulated time (args: measured_ts, correlation).
QString writeSimulatedTrace(const QString& path, const TraceSet& set, const SimulatedTimeline& timeline);

// What File > Export Report writes, taken from what the window already holds (the simulation shown,
// its critical path, the scenarios simulated so far, their pictures): shared, read-only, so the
// report is built off the UI thread while the window goes on.
struct ReportSnapshot {
    std::shared_ptr<const ExecutionGraph> graph;
    std::shared_ptr<const SimResult> result;
    std::shared_ptr<const SimAnalysis> analysis; // its critical path names what limits the step
    SimKnobs knobs;
    // The graph at default knobs, when a scenario already simulated it (else the report does).
    std::shared_ptr<const SimResult> replay;
    QStringList paths;
    struct Scenario {
        std::string name;
        SimKnobs knobs;
        std::shared_ptr<const SimResult> result;
        std::string limit;
    };
    std::vector<Scenario> scenarios;
    int baselineScenario = -1; // index in scenarios, -1: the baseline is not simulated
    std::vector<ReportFigure> figures;
};

// The report of a snapshot, written by the core's one report pipeline (report/Report.h, as
// `sightline-cli report`): HTML, JSON or CSV by the path's suffix (.html/.htm, .json, .csv; any
// other suffix writes JSON). Any thread.
QString writeReport(const QString& path, const ReportSnapshot& snapshot);

// Renders a widget into a PNG (raster) or an SVG (vector, QSvgGenerator), chosen by the suffix.
QString saveWidgetImage(QWidget* widget, const QString& path);

} // namespace sl::ui
