#include "Export.h"

#include "analysis/CriticalPath.h"
#include "analysis/LimitingCause.h"
#include "analysis/SimulatedTraceExport.h"
#include "base/Error.h"
#include "report/ReportWriter.h"
#include "report/SimulationReport.h"

#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sl::ui {

QString writeSimulatedTrace(const QString& path, const TraceSet& set, const SimulatedTimeline& timeline) {
    try {
        writeSimulatedChromeTraceFile(path.toStdString(), set, timeline);
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString writeReport(const QString& path, const ExecutionGraph& graph, const SimResult& result,
                    const SimKnobs& knobs, const QStringList& paths, int step,
                    const nlohmann::json& scenarios, const nlohmann::json& figures) {
    SimResult replay;
    if (!knobs.isReplay()) {
        SimOptions options;
        options.timeline = false;
        replay = simulate(graph, SimKnobs{}, options);
    }
    std::vector<std::string> sources;
    for (const QString& p : paths)
        sources.push_back(p.toStdString());
    nlohmann::json report =
        simulationReportJson(graph, result, knobs, sources, step, knobs.isReplay() ? nullptr : &replay);
    if (scenarios.is_array() && !scenarios.empty()) report["scenarios"] = scenarios;
    // The headline's "what limits the step" and the footer's "written by" (report/HtmlReport.h).
    report["limit"] = limitingCause(graph, criticalPath(graph, result), result).sentence;
    report["generator"] = "the Sightline window, File > Export Report";
    const std::string target = path.toStdString();
    const ReportFormat format = reportFormatOf(target).value_or(ReportFormat::Json);
    // Pictures are for people: the HTML gets them, the JSON and CSV keep the numbers alone.
    if (format == ReportFormat::Html && figures.is_array() && !figures.empty()) report["figures"] = figures;
    try {
        writeReportFile(target, report, format);
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString saveWidgetImage(QWidget* widget, const QString& path) {
    if (QFileInfo(path).suffix().compare(QStringLiteral("svg"), Qt::CaseInsensitive) == 0) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(widget->size());
        svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
        svg.setTitle(QStringLiteral("Sightline"));
        QPainter p;
        if (!p.begin(&svg)) return QStringLiteral("%1: cannot write the image").arg(path);
        widget->render(&p);
        p.end();
        return QFileInfo(path).size() > 0 ? QString()
                                          : QStringLiteral("%1: cannot write the image").arg(path);
    }
    if (!widget->grab().save(path)) return QStringLiteral("%1: cannot write the image").arg(path);
    return {};
}

} // namespace sl::ui
