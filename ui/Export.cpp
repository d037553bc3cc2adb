#include "Export.h"

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
    std::ofstream out(path.toStdString(), std::ios::binary);
    if (!out) return QStringLiteral("%1: cannot write the file").arg(path);
    out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"sightline (simulated)\"},"
           "\"traceEvents\":[\n";
    bool first = true;
    auto sep = [&] {
        if (!first) out << ",\n";
        first = false;
    };
    char buf[160];
    for (std::size_t r = 0; r < set.ranks.size() && r < timeline.ranks.size(); ++r) {
        const Rank& rank = set.ranks[r];
        for (std::size_t k = 0; k < rank.tracks.size() && k < timeline.ranks[r].size(); ++k) {
            const Track& t = rank.tracks[k];
            // One process per rank and kind; threads keep their ids (streams their stream id).
            const std::int64_t pid = static_cast<std::int64_t>(rank.rank) * 2 + (t.isGpu() ? 1 : 0);
            const std::int64_t tid = static_cast<std::int64_t>(k);
            sep();
            out << nlohmann::json{{"ph", "M"},
                                  {"name", "process_name"},
                                  {"pid", pid},
                                  {"tid", tid},
                                  {"args",
                                   {{"name", "rank " + std::to_string(rank.rank) +
                                                 (t.isGpu() ? " GPU (simulated)" : " CPU (simulated)")}}}}
                       .dump();
            sep();
            out << nlohmann::json{{"ph", "M"},
                                  {"name", "thread_name"},
                                  {"pid", pid},
                                  {"tid", tid},
                                  {"args", {{"name", t.name.empty() ? std::to_string(t.tid) : t.name}}}}
                       .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            const EventColumns& ev = t.events;
            const TrackTimes& tt = timeline.track(r, k);
            for (std::size_t i = 0; i < ev.size() && i < tt.start.size(); ++i) {
                if (tt.start[i] < 0 || ev.kind[i] == EventKind::Instant) continue;
                sep();
                const nlohmann::json name = std::string(rank.strings.str(ev.name[i]));
                out << "{\"ph\":\"X\",\"name\":"
                    << name.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << ",\"cat\":\""
                    << eventKindName(ev.kind[i]) << "\",\"pid\":" << pid << ",\"tid\":" << tid;
                std::snprintf(buf, sizeof buf, ",\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"measured_ts\":%.3f",
                              us(tt.start[i]), us(tt.duration[i]), us(ev.start[i]));
                out << buf;
                if (ev.correlation[i] >= 0) out << ",\"correlation\":" << ev.correlation[i];
                out << "}}";
            }
        }
    }
    out << "\n]}\n";
    out.close();
    if (!out) return QStringLiteral("%1: cannot write the file").arg(path);
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
