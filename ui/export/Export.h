#pragma once
#include "SimAnalysis.h"
#include "sim/Simulator.h"
#include "trace/TraceSet.h"

#include <QString>

class QWidget;

namespace sl::ui {

// Writers behind File > Export. Each returns an empty string on success, else a one-line error.

// The simulated timeline as Chrome trace JSON (opens in Perfetto and chrome://tracing): one process
// per rank and kind (CPU, GPU), one thread per CPU thread / GPU stream, an "X" event per event with
// a simulated time (args: measured_ts, correlation).
QString writeSimulatedTrace(const QString& path, const TraceSet& set, const SimulatedTimeline& timeline);

// The analyses as JSON: iteration (measured, simulated, error), per-rank breakdown measured and
// simulated, critical path (length and by label, us and %).
QString writeReportJson(const QString& path, const SimResult& result, const SimAnalysis& analysis);
// The per-rank table as CSV: a header line, then one line per rank.
QString writeReportCsv(const QString& path, const SimResult& result, const SimAnalysis& analysis);

// Renders a widget into a PNG (raster) or an SVG (vector, QSvgGenerator), chosen by the suffix.
QString saveWidgetImage(QWidget* widget, const QString& path);

} // namespace sl::ui
