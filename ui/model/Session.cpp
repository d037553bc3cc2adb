#include "Session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <exception>

namespace sl::ui {

namespace {

constexpr const char* kFormat = "sightline-session";

// Only the knobs set away from replay, as flat dotted keys (what `--config` reads too).
QJsonObject knobsToJson(const SimKnobs& knobs) {
    const nlohmann::json all = knobs.toJson();
    const nlohmann::json defaults = SimKnobs{}.toJson();
    nlohmann::json changed = nlohmann::json::object();
    for (auto it = all.begin(); it != all.end(); ++it)
        if (!defaults.contains(it.key()) || defaults[it.key()] != it.value()) changed[it.key()] = it.value();
    return QJsonDocument::fromJson(QByteArray::fromStdString(changed.dump())).object();
}

QString knobsFromJson(const QJsonObject& object, SimKnobs& out) {
    try {
        SimKnobs knobs;
        applyKnobsJson(
            knobs, nlohmann::json::parse(QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString()));
        out = std::move(knobs);
        return {};
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
}

QJsonArray indices(const std::vector<bool>& flags) {
    QJsonArray a;
    for (std::size_t k = 0; k < flags.size(); ++k)
        if (flags[k]) a.append(static_cast<qint64>(k));
    return a;
}

// Flags from a list of track indices; false when an index is out of range.
bool flagsFrom(const QJsonValue& value, std::size_t n, std::vector<bool>& out) {
    out.assign(n, false);
    if (value.isUndefined()) return true;
    if (!value.isArray()) return false;
    for (const QJsonValue& v : value.toArray()) {
        const qint64 k = v.toInteger(-1);
        if (!v.isDouble() || k < 0 || static_cast<std::size_t>(k) >= n) return false;
        out[static_cast<std::size_t>(k)] = true;
    }
    return true;
}

} // namespace

bool isSessionPath(const QString& path) {
    return path.endsWith(QLatin1String(Session::kSuffix), Qt::CaseInsensitive);
}

QByteArray sessionToJson(const Session& s) {
    QJsonObject root;
    root[QStringLiteral("format")] = QLatin1String(kFormat);
    root[QStringLiteral("version")] = Session::kVersion;
    root[QStringLiteral("traces")] = QJsonArray::fromStringList(s.traces);
    if (!s.comparison.isEmpty())
        root[QStringLiteral("comparison")] = QJsonArray::fromStringList(s.comparison);
    root[QStringLiteral("knobs")] = knobsToJson(s.knobs);
    if (!s.scenarios.empty()) {
        QJsonArray scenarios;
        for (const Scenario& sc : s.scenarios) {
            QJsonObject o{{QStringLiteral("name"), sc.name},
                          {QStringLiteral("knobs"), knobsToJson(sc.knobs)}};
            if (sc.nameFollowsKnobs) o[QStringLiteral("name_follows_knobs")] = true;
            scenarios.append(o);
        }
        root[QStringLiteral("scenarios")] = scenarios;
        root[QStringLiteral("current_scenario")] = s.currentScenario;
    }
    root[QStringLiteral("tracks")] = tracksToJson(s.tracks);
    if (s.hasRankView) root[QStringLiteral("rank_view")] = rankViewToJson(s.rankView);
    if (s.hasView) {
        QJsonObject view;
        // Nanoseconds as strings: JSON numbers lose precision beyond 2^53.
        view[QStringLiteral("start_ns")] = QString::number(s.viewStart);
        view[QStringLiteral("end_ns")] = QString::number(s.viewEnd);
        view[QStringLiteral("scroll_y")] = s.scrollY;
        root[QStringLiteral("view")] = view;
    }
    QJsonObject highlights;
    highlights[QStringLiteral("critical_path")] = s.criticalPath;
    highlights[QStringLiteral("exposed")] = s.exposed;
    highlights[QStringLiteral("arrows")] = s.arrows;
    root[QStringLiteral("highlights")] = highlights;
    if (!s.annotations.isEmpty()) root[QStringLiteral("annotations")] = s.annotations;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QString sessionFromJson(const QByteArray& json, Session& out, const QString& baseDir) {
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (doc.isNull())
        return QObject::tr("not a session: %1 at offset %2").arg(error.errorString()).arg(error.offset);
    if (!doc.isObject()) return QObject::tr("not a session: the top level is not an object");
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("format")).toString() != QLatin1String(kFormat))
        return QObject::tr("not a session: \"format\" is not \"%1\"").arg(QLatin1String(kFormat));
    const int version = root.value(QStringLiteral("version")).toInt(-1);
    if (version < 1 || version > Session::kVersion)
        return QObject::tr("session version %1 is not supported (this program reads 1 to %2)")
            .arg(version)
            .arg(Session::kVersion);

    Session s;
    const QJsonValue traces = root.value(QStringLiteral("traces"));
    if (!traces.isArray()) return QObject::tr("\"traces\" must be a list of paths");
    for (const QJsonValue& v : traces.toArray()) {
        if (!v.isString() || v.toString().isEmpty()) return QObject::tr("\"traces\" must be a list of paths");
        QString path = v.toString();
        if (QFileInfo(path).isRelative() && !baseDir.isEmpty()) path = QDir(baseDir).absoluteFilePath(path);
        s.traces.push_back(QDir::cleanPath(path));
    }
    const QJsonValue comparison = root.value(QStringLiteral("comparison"));
    if (!comparison.isUndefined()) {
        if (!comparison.isArray()) return QObject::tr("\"comparison\" must be a list of paths");
        for (const QJsonValue& v : comparison.toArray()) {
            if (!v.isString() || v.toString().isEmpty())
                return QObject::tr("\"comparison\" must be a list of paths");
            QString path = v.toString();
            if (QFileInfo(path).isRelative() && !baseDir.isEmpty())
                path = QDir(baseDir).absoluteFilePath(path);
            s.comparison.push_back(QDir::cleanPath(path));
        }
    }
    const QJsonValue knobs = root.value(QStringLiteral("knobs"));
    if (!knobs.isUndefined()) {
        if (!knobs.isObject()) return QObject::tr("\"knobs\" must be an object");
        const QString e = knobsFromJson(knobs.toObject(), s.knobs);
        if (!e.isEmpty()) return QObject::tr("knobs: %1").arg(e);
    }
    const QJsonValue scenarios = root.value(QStringLiteral("scenarios"));
    if (!scenarios.isUndefined()) {
        if (!scenarios.isArray()) return QObject::tr("\"scenarios\" must be a list");
        for (const QJsonValue& v : scenarios.toArray()) {
            const QJsonObject o = v.toObject();
            Scenario sc;
            sc.name = o.value(QStringLiteral("name")).toString().trimmed();
            sc.nameFollowsKnobs = o.value(QStringLiteral("name_follows_knobs")).toBool(false);
            if (!v.isObject() || sc.name.isEmpty())
                return QObject::tr("\"scenarios\": entry %1 has no name").arg(s.scenarios.size());
            const QString e = knobsFromJson(o.value(QStringLiteral("knobs")).toObject(), sc.knobs);
            if (!e.isEmpty()) return QObject::tr("scenario \"%1\": %2").arg(sc.name, e);
            s.scenarios.push_back(std::move(sc));
        }
        s.currentScenario = root.value(QStringLiteral("current_scenario")).toInt(0);
        if (s.currentScenario < 0 ||
            s.currentScenario >= static_cast<int>(std::max<std::size_t>(1, s.scenarios.size())))
            return QObject::tr("\"current_scenario\" %1 is not a scenario").arg(s.currentScenario);
    }
    const QString tracksError = tracksFromJson(root.value(QStringLiteral("tracks")), s.tracks);
    if (!tracksError.isEmpty()) return tracksError;
    const QJsonValue rankView = root.value(QStringLiteral("rank_view"));
    if (!rankView.isUndefined()) {
        if (!rankView.isObject() || !rankViewFromJson(rankView.toObject(), s.rankView))
            return QObject::tr("\"rank_view\": bad grouping, groups, compact or filter");
        s.hasRankView = true;
    }
    const QJsonValue view = root.value(QStringLiteral("view"));
    if (view.isObject()) {
        const QJsonObject o = view.toObject();
        bool ok1 = false, ok2 = false;
        s.viewStart = o.value(QStringLiteral("start_ns")).toString().toLongLong(&ok1);
        s.viewEnd = o.value(QStringLiteral("end_ns")).toString().toLongLong(&ok2);
        if (!ok1 || !ok2 || s.viewEnd <= s.viewStart) return QObject::tr("\"view\": bad time range");
        s.scrollY = std::max(0, o.value(QStringLiteral("scroll_y")).toInt(0));
        s.hasView = true;
    }
    const QJsonObject h = root.value(QStringLiteral("highlights")).toObject();
    s.criticalPath = h.value(QStringLiteral("critical_path")).toBool(false);
    s.exposed = h.value(QStringLiteral("exposed")).toBool(false);
    s.arrows = h.value(QStringLiteral("arrows")).toBool(true);
    const QJsonValue annotations = root.value(QStringLiteral("annotations"));
    if (!annotations.isUndefined() && !annotations.isObject())
        return QObject::tr("\"annotations\" is not an object");
    s.annotations = annotations.toObject();
    out = std::move(s);
    return {};
}

QJsonArray tracksToJson(const std::vector<TrackState::RankState>& ranks) {
    QJsonArray out;
    for (const TrackState::RankState& r : ranks) {
        QJsonObject o;
        o[QStringLiteral("expanded")] = r.expanded;
        QJsonArray order;
        for (std::size_t k : r.order)
            order.append(static_cast<qint64>(k));
        o[QStringLiteral("order")] = order;
        o[QStringLiteral("hidden")] = indices(r.hidden);
        o[QStringLiteral("pinned")] = indices(r.pinned);
        o[QStringLiteral("nested")] = indices(r.nested);
        out.append(o);
    }
    return out;
}

QString tracksFromJson(const QJsonValue& tracks, std::vector<TrackState::RankState>& out) {
    if (!tracks.isUndefined() && !tracks.isArray()) return QObject::tr("\"tracks\" must be a list");
    for (const QJsonValue& v : tracks.toArray()) {
        const QJsonObject o = v.toObject();
        TrackState::RankState r;
        r.expanded = o.value(QStringLiteral("expanded")).toBool(true);
        const QJsonArray order = o.value(QStringLiteral("order")).toArray();
        for (const QJsonValue& k : order) {
            if (!k.isDouble() || k.toInteger(-1) < 0) return QObject::tr("\"tracks\": bad track order");
            r.order.push_back(static_cast<std::size_t>(k.toInteger()));
        }
        const std::size_t n = r.order.size();
        if (!flagsFrom(o.value(QStringLiteral("hidden")), n, r.hidden) ||
            !flagsFrom(o.value(QStringLiteral("pinned")), n, r.pinned) ||
            !flagsFrom(o.value(QStringLiteral("nested")), n, r.nested) || !TrackState::valid(r, n))
            return QObject::tr("\"tracks\": bad track list of rank %1").arg(out.size());
        out.push_back(std::move(r));
    }
    return {};
}

QJsonObject rankViewToJson(const TrackState::RankView& view) {
    QJsonArray groups;
    for (int g : view.collapsedGroups)
        groups.append(g);
    return QJsonObject{{QStringLiteral("grouping"), groupingName(view.grouping)},
                       {QStringLiteral("collapsed_groups"), groups},
                       {QStringLiteral("compact"), view.compact},
                       {QStringLiteral("filter"), view.filter}};
}

bool rankViewFromJson(const QJsonObject& o, TrackState::RankView& out) {
    TrackState::RankView v;
    if (!groupingFromName(o.value(QStringLiteral("grouping")).toString(QStringLiteral("none")), v.grouping))
        return false;
    const QJsonValue groups = o.value(QStringLiteral("collapsed_groups"));
    if (!groups.isUndefined() && !groups.isArray()) return false;
    for (const QJsonValue& g : groups.toArray()) {
        if (!g.isDouble() || g.toDouble() != static_cast<double>(g.toInt())) return false;
        v.collapsedGroups.push_back(g.toInt());
    }
    const QJsonValue compact = o.value(QStringLiteral("compact"));
    const QJsonValue filter = o.value(QStringLiteral("filter"));
    if ((!compact.isUndefined() && !compact.isBool()) || (!filter.isUndefined() && !filter.isString()))
        return false;
    v.compact = compact.toBool(false);
    v.filter = filter.toString();
    out = std::move(v);
    return true;
}

QString writeSessionFile(const QString& path, const Session& session) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("%1: cannot write: %2").arg(path, file.errorString());
    const QByteArray json = sessionToJson(session);
    if (file.write(json) != json.size() || !file.commit())
        return QObject::tr("%1: cannot write: %2").arg(path, file.errorString());
    return {};
}

QString readSessionFile(const QString& path, Session& out) {
    QFile file(path);
    if (QFileInfo(path).isDir()) return QObject::tr("%1: is a folder, not a session file").arg(path);
    if (!file.open(QIODevice::ReadOnly))
        return QObject::tr("%1: cannot read: %2").arg(path, file.errorString());
    // A session is small; refuse something that cannot be one rather than reading it all.
    if (file.size() > 64 * 1024 * 1024) return QObject::tr("%1: too large for a session file").arg(path);
    const QString error = sessionFromJson(file.readAll(), out, QFileInfo(path).absolutePath());
    return error.isEmpty() ? QString() : QStringLiteral("%1: %2").arg(path, error);
}

} // namespace sl::ui
