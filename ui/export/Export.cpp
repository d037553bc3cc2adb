#include "Export.h"

#include "analysis/SimulatedTraceExport.h"
#include "base/Error.h"

#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

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

QString writeReport(const QString& path, const ReportSnapshot& snapshot) {
    ReportInputs inputs;
    inputs.graph = snapshot.graph.get();
    inputs.result = snapshot.result.get();
    inputs.knobs = snapshot.knobs;
    inputs.replay = snapshot.replay.get();
    inputs.path = snapshot.analysis ? &snapshot.analysis->path : nullptr;
    ReportSource source;
    for (const QString& p : snapshot.paths)
        source.paths.push_back(p.toStdString());
    inputs.source = std::move(source);
    inputs.generator = "the Sightline window, File > Export Report";
    for (const auto& s : snapshot.scenarios)
        inputs.scenarios.push_back({s.name, s.knobs, s.result.get(), s.limit});
    inputs.baselineScenario = snapshot.baselineScenario;
    inputs.figures = snapshot.figures;
    const std::string target = path.toStdString();
    try {
        writeReportFile(target, buildReport(inputs), reportFormatOf(target).value_or(ReportFormat::Json));
    } catch (const std::exception& e) {
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
        svg.setResolution(96); // CSS pixels: 1920 px is 508 mm, not 677 mm at 72 dpi
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
