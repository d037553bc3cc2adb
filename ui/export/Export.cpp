#include "Export.h"

#include "analysis/SimulatedTraceExport.h"
#include "io/LoadError.h"

#include <QFileInfo>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

namespace sl::ui {

namespace {
double us(TimeNs t) {
    return static_cast<double>(t) / 1000.0;
}

nlohmann::json breakdownJson(const RankBreakdown& b) {
    return {{"span_us", us(b.span)},
            {"compute_us", us(b.compute)},
            {"comm_us", us(b.communication)},
            {"exposed_comm_us", us(b.exposedCommunication)},
            {"overlapped_comm_us", us(b.overlappedCommunication())},
            {"memory_us", us(b.memory)},
            {"idle_us", us(b.idle)},
            {"overlap_pct", b.overlapPct()}};
}

QString writeText(const QString& path, const std::string& text) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    if (!out) return QStringLiteral("%1: cannot write the file").arg(path);
    out << text;
    out.close();
    if (!out) return QStringLiteral("%1: cannot write the file").arg(path);
    return {};
}
} // namespace

QString writeSimulatedTrace(const QString& path, const TraceSet& set, const SimulatedTimeline& timeline) {
    try {
        writeSimulatedChromeTraceFile(path.toStdString(), set, timeline);
    } catch (const LoadError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString writeReportJson(const QString& path, const SimResult& result, const SimAnalysis& analysis) {
    nlohmann::json j;
    j["iteration"] = {{"measured_us", us(result.measuredIteration)},
                      {"simulated_us", us(result.simulatedIteration)},
                      {"error_pct", result.iterationErrorPct()}};
    nlohmann::json ranks = nlohmann::json::array();
    for (std::size_t r = 0; r < result.ranks.size(); ++r) {
        const RankSimSummary& s = result.ranks[r];
        nlohmann::json row = {{"rank", s.rank},
                              {"measured_us", us(s.measured())},
                              {"simulated_us", us(s.simulated())},
                              {"error_pct", s.errorPct()}};
        if (r < analysis.measured.size()) row["measured"] = breakdownJson(analysis.measured[r]);
        if (r < analysis.simulated.size()) row["simulated"] = breakdownJson(analysis.simulated[r]);
        ranks.push_back(std::move(row));
    }
    j["ranks"] = std::move(ranks);
    nlohmann::json byLabel = nlohmann::json::object();
    nlohmann::json pct = nlohmann::json::object();
    for (int l = 0; l < kPathLabelCount; ++l) {
        const auto label = static_cast<PathLabel>(l);
        const TimeNs t = analysis.path.byLabel[static_cast<std::size_t>(l)];
        byLabel[std::string(pathLabelName(label))] = us(t);
        pct[std::string(pathLabelName(label))] =
            analysis.path.length > 0
                ? 100.0 * static_cast<double>(t) / static_cast<double>(analysis.path.length)
                : 0.0;
    }
    j["critical_path"] = {{"length_us", us(analysis.path.length)},
                          {"segments", analysis.path.segments.size()},
                          {"by_kind", std::move(byLabel)},
                          {"by_kind_pct", std::move(pct)}};
    return writeText(path, j.dump(2) + "\n");
}

QString writeReportCsv(const QString& path, const SimResult& result, const SimAnalysis& analysis) {
    std::string text =
        "rank,measured_us,simulated_us,error_pct,"
        "measured_compute_us,measured_exposed_comm_us,measured_overlapped_comm_us,measured_idle_us,"
        "simulated_compute_us,simulated_exposed_comm_us,simulated_overlapped_comm_us,simulated_idle_us\n";
    char buf[512];
    for (std::size_t r = 0; r < result.ranks.size(); ++r) {
        const RankSimSummary& s = result.ranks[r];
        const RankBreakdown m = r < analysis.measured.size() ? analysis.measured[r] : RankBreakdown{};
        const RankBreakdown v = r < analysis.simulated.size() ? analysis.simulated[r] : RankBreakdown{};
        std::snprintf(buf, sizeof buf, "%d,%.3f,%.3f,%.4f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", s.rank,
                      us(s.measured()), us(s.simulated()), s.errorPct(), us(m.compute),
                      us(m.exposedCommunication), us(m.overlappedCommunication()), us(m.idle), us(v.compute),
                      us(v.exposedCommunication), us(v.overlappedCommunication()), us(v.idle));
        text += buf;
    }
    return writeText(path, text);
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
