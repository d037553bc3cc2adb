#pragma once
#include "Scenario.h"
#include "TrackState.h"
#include "sim/Knobs.h"
#include "trace/Time.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <QJsonObject>

#include <vector>

namespace sl::ui {

// What the user set up and must not lose: the opened traces, the knobs, the track tree (hidden,
// pinned, nested, collapsed, order), the visible time range and the highlight toggles. Saved as
// JSON (*.sightline.json); readable by people, versioned.
struct Session {
    QStringList traces;
    SimKnobs knobs;
    std::vector<TrackState::RankState> tracks; // empty: the default layout
    // Grouping, folded groups, compact rows and the track filter (docs/ManyRanks.md); absent in
    // sessions written before them.
    bool hasRankView = false;
    TrackState::RankView rankView;
    bool hasView = false;
    TimeNs viewStart = 0;
    TimeNs viewEnd = 0;
    int scrollY = 0;
    bool criticalPath = false;
    bool exposed = false;
    bool arrows = true;
    // Notes and bookmarks (ui/timeline/Annotations.h, AnnotationModel::toJson); empty: none.
    QJsonObject annotations;
    // The scenarios (the first is the baseline) and the one shown; empty: only the baseline, with
    // `knobs` as the current setting (sessions written before scenarios existed).
    std::vector<Scenario> scenarios;
    int currentScenario = 0;
    // The comparison run (docs/Compare.md, ComparisonController.h): its files; empty: none.
    QStringList comparison;

    static constexpr int kVersion = 1;
    static constexpr const char* kSuffix = ".sightline.json";
};

// Whether a path names a session file (by its suffix).
bool isSessionPath(const QString& path);

QByteArray sessionToJson(const Session& session);
// Parses a session; relative trace paths are resolved against baseDir. Empty on success, else the
// error; `out` is only written on success.
QString sessionFromJson(const QByteArray& json, Session& out, const QString& baseDir = {});

// Writes to a temporary file next to path and renames it over path (QSaveFile), so a crash never
// leaves a half-written session. Empty on success, else the error.
QString writeSessionFile(const QString& path, const Session& session);
QString readSessionFile(const QString& path, Session& out);

// The rank view as the session writes it ("rank_view"), and back; false for a malformed one.
QJsonObject rankViewToJson(const TrackState::RankView& view);
bool rankViewFromJson(const QJsonObject& o, TrackState::RankView& out);
// The track layout of every rank as the session writes it ("tracks"), and back: empty on success,
// else the error (`out` then holds the ranks read before it).
QJsonArray tracksToJson(const std::vector<TrackState::RankState>& ranks);
QString tracksFromJson(const QJsonValue& tracks, std::vector<TrackState::RankState>& out);

} // namespace sl::ui
