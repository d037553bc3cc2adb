#pragma once
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "trace/TraceSet.h"

#include <QString>

#include <QStringList>
#include <nlohmann/json.hpp>

class QWidget;

namespace sl::ui {

// Writers behind File > Export. Each returns an empty string on success, else a one-line error.

// The simulated timeline as Chrome trace JSON (opens in Perfetto and chrome://tracing): one process
// per rank and kind (CPU, GPU), one thread per CPU thread / GPU stream, an "X" event per event with
// a simulated time (args: measured_ts, correlation).
QString writeSimulatedTrace(const QString& path, const TraceSet& set, const SimulatedTimeline& timeline);

// The report of a simulation, written by the same core code as `sightline-cli report`
// (report/SimulationReport + report/ReportWriter): HTML, JSON or CSV by the path's suffix
// (.html/.htm, .json, .csv; any other suffix writes JSON). With knobs away from replay, the graph is
// also simulated at the default knobs so the report says what the knobs changed (knob_effect).
// `paths` name the traces in the report's header; step -1 is the whole trace.
// `scenarios` (a JSON array, see report/HtmlReport.h) adds the session's scenario table; `figures`
// (an array of {name, caption, svg}) timeline pictures, in the HTML only.
QString writeReport(const QString& path, const ExecutionGraph& graph, const SimResult& result,
                    const SimKnobs& knobs, const QStringList& paths, int step = -1,
                    const nlohmann::json& scenarios = nlohmann::json(),
                    const nlohmann::json& figures = nlohmann::json());

// Renders a widget into a PNG (raster) or an SVG (vector, QSvgGenerator), chosen by the suffix.
QString saveWidgetImage(QWidget* widget, const QString& path);

} // namespace sl::ui
