#include "EventText.h"

#include "TimeFormat.h"
#include "analysis/BenchmarkExport.h"
#include "trace/Collective.h"
#include "trace/EmbeddingWork.h"
#include "trace/OpShapes.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace sl::ui {

namespace {
QString esc(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())).toHtmlEscaped();
}
QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='color:#6c757d;padding-right:10px'>%1</td><td>%2</td></tr>")
        .arg(key, value);
}
} // namespace

QString eventTooltip(const TimelineData& data, EventId e, TimeNs resolution) {
    const Rank& rank = data.set().ranks[static_cast<std::size_t>(e.rank)];
    const TrackTimeline& t = data.track(static_cast<std::size_t>(e.rank), e.ref.track);
    const auto i = e.ref.index;
    QString name = esc(rank.name(e.ref));
    if (name.size() > 160) name = name.left(157) + QStringLiteral("...");
    // Embedding work is named as such (docs/Embeddings.md, "On the critical path").
    QString kind = esc(eventKindName(t.track->events.kind[i]));
    if (t.track->isGpu())
        if (const EmbeddingWork work = embeddingWorkOf(rank, e.ref); work != EmbeddingWork::None)
            kind += QStringLiteral(" &middot; <b>%1</b>").arg(esc(embeddingWorkName(work)));
    return QStringLiteral(
               "<b>%1</b><br>%2 &middot; rank %3 &middot; %4<br>start %5 &middot; duration <b>%6</b>")
        .arg(name, kind)
        .arg(rank.rank)
        .arg(esc(t.track->name), formatPrecise(t.start[i] - data.start(), resolution),
             formatPrecise(t.duration[i], resolution));
}

QString prettyArgs(std::string_view argsJson) {
    if (argsJson.empty()) return {};
    QJsonParseError err;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray(argsJson.data(), static_cast<qsizetype>(argsJson.size())), &err);
    if (err.error != QJsonParseError::NoError)
        return QString::fromUtf8(argsJson.data(), static_cast<qsizetype>(argsJson.size()));
    return QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
}

QString eventDetailsHtml(const TimelineData& measured, const TimelineData* simulated, EventId e) {
    if (!e.valid()) return QStringLiteral("<i>Click an event to see its details.</i>");
    const Rank& rank = measured.set().ranks[static_cast<std::size_t>(e.rank)];
    const TrackTimeline& t = measured.track(static_cast<std::size_t>(e.rank), e.ref.track);
    const EventColumns& ev = t.track->events;
    const auto i = e.ref.index;
    const TimeNs origin = measured.start();
    QString html = QStringLiteral("<p style='font-weight:bold;font-family:monospace'>%1</p><table>")
                       .arg(esc(rank.name(e.ref)));
    html += row(QStringLiteral("Kind"), esc(eventKindName(ev.kind[i])));
    if (t.track->isGpu())
        if (const EmbeddingWork work = embeddingWorkOf(rank, e.ref); work != EmbeddingWork::None)
            html += row(QStringLiteral("Work"), esc(embeddingWorkName(work)));
    html += row(QStringLiteral("Rank"), QString::number(rank.rank));
    html += row(QStringLiteral("Track"), esc(t.track->name));
    html += row(QStringLiteral("Start"), formatPrecise(t.start[i] - origin));
    html += row(QStringLiteral("End"), formatPrecise(t.end(i) - origin));
    html += row(QStringLiteral("Duration"), QStringLiteral("<b>%1</b>").arg(formatPrecise(t.duration[i])));
    if (simulated) {
        const TrackTimeline& s = simulated->track(static_cast<std::size_t>(e.rank), e.ref.track);
        if (s.start[i] < 0) {
            html += row(QStringLiteral("Simulated"), QStringLiteral("not simulated"));
        } else {
            html += row(QStringLiteral("Simulated start"), formatPrecise(s.start[i] - origin));
            html += row(QStringLiteral("Simulated end"), formatPrecise(s.end(i) - origin));
            html += row(QStringLiteral("Simulated duration"),
                        QStringLiteral("<b>%1</b> (%2)")
                            .arg(formatPrecise(s.duration[i]), formatSigned(s.duration[i] - t.duration[i])));
            html += row(QStringLiteral("Shift"), formatSigned(s.start[i] - t.start[i]));
        }
    }
    if (ev.depth[i] > 0) html += row(QStringLiteral("Depth"), QString::number(ev.depth[i]));
    if (ev.correlation[i] >= 0)
        html += row(QStringLiteral("Correlation"), QString::number(ev.correlation[i]));
    if (ev.link[i] != kNoLink) {
        const EventRef partner = EventRef::unpack(ev.link[i]);
        if (partner.track < rank.tracks.size()) {
            const Track& pt = rank.tracks[partner.track];
            html += row(t.track->isGpu() ? QStringLiteral("Launched by") : QStringLiteral("Launches"),
                        QStringLiteral("%1 on %2 (%3)")
                            .arg(esc(rank.name(partner)), esc(pt.name),
                                 formatSigned(pt.events.start[partner.index] - ev.start[i])));
        }
    }
    if (t.track->isGpu() && isGpuOp(ev.kind[i])) {
        // The operator behind a GPU op, with the input shapes and dtypes recorded for it.
        const EventRef op = shapedOpOf(rank, e.ref);
        const std::optional<OpShapes> shapes = op.valid() ? rank.opShapes(op) : std::nullopt;
        if (shapes) {
            const auto text = [](const std::string& json) {
                return QString::fromStdString(json).toHtmlEscaped();
            };
            html += row(QStringLiteral("Operator"), esc(rank.name(op)));
            html += row(QStringLiteral("Input shapes"), text(shapes->dimsJson));
            if (!shapes->types.empty()) html += row(QStringLiteral("Input types"), text(shapes->typesJson));
        }
    }
    if (ev.extra[i] != kNoExtra && ev.kind[i] == EventKind::Kernel && ev.extra[i] < rank.collectives.size()) {
        const CollectiveMeta& c = rank.collectives[ev.extra[i]];
        html += row(QStringLiteral("Collective"), esc(collectiveTypeName(c.type)));
        const std::int64_t bytes = c.bytes(rank.strings);
        if (bytes >= 0) html += row(QStringLiteral("Bytes"), QString::number(bytes));
        if (c.groupSize > 0) html += row(QStringLiteral("Group size"), QString::number(c.groupSize));
    }
    html += QStringLiteral("</table>");
    // The full args, read back from the trace file on demand (docs/Loader.md, "Lazy args").
    const ArgsText full = rank.fullArgs(e.ref);
    if (!full.ok())
        html += QStringLiteral("<p style='color:#b02a37'>%1</p>")
                    .arg(QString::fromStdString(full.error).toHtmlEscaped());
    const QString args = prettyArgs(full.text);
    if (!args.isEmpty())
        html += QStringLiteral("<p style='color:#6c757d'>Args</p><pre>%1</pre>").arg(args.toHtmlEscaped());
    return html;
}

} // namespace sl::ui
