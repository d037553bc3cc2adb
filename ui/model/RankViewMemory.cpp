#include "RankViewMemory.h"

#include "Session.h"

#include <QCryptographicHash>
#include <QDir>
#include <QJsonDocument>

namespace sl::ui {

namespace {
const QString kGroup = QStringLiteral("rankViews");
const QString kRecent = QStringLiteral("rankViews/recent");
} // namespace

RankViewMemory::RankViewMemory(std::unique_ptr<QSettings> settings) : settings_(std::move(settings)) {}

QString RankViewMemory::keyOf(const QStringList& paths) {
    // The same files however they were named on the command line: absolute, clean, sorted.
    QStringList clean;
    for (const QString& p : paths)
        clean << QDir::cleanPath(QDir(p).absolutePath());
    clean.sort();
    return QString::fromLatin1(
        QCryptographicHash::hash(clean.join(QLatin1Char('\n')).toUtf8(), QCryptographicHash::Sha1).toHex());
}

void RankViewMemory::store(const QStringList& paths, const std::vector<TrackState::RankState>& tracks,
                           const TrackState::RankView& view) {
    if (paths.isEmpty() || !settings_) return;
    const QString key = keyOf(paths);
    TrackState::RankView kept = view;
    kept.filter.clear();
    const QJsonObject o{{QStringLiteral("tracks"), tracksToJson(tracks)},
                        {QStringLiteral("rank_view"), rankViewToJson(kept)}};
    settings_->setValue(kGroup + QLatin1Char('/') + key, QJsonDocument(o).toJson(QJsonDocument::Compact));
    QStringList recent = settings_->value(kRecent).toStringList();
    recent.removeAll(key);
    recent.prepend(key);
    while (recent.size() > kSets)
        settings_->remove(kGroup + QLatin1Char('/') + recent.takeLast());
    settings_->setValue(kRecent, recent);
}

bool RankViewMemory::recall(const QStringList& paths, std::vector<TrackState::RankState>& tracks,
                            TrackState::RankView& view) const {
    if (paths.isEmpty() || !settings_) return false;
    const QByteArray json = settings_->value(kGroup + QLatin1Char('/') + keyOf(paths)).toByteArray();
    if (json.isEmpty()) return false;
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    std::vector<TrackState::RankState> t;
    TrackState::RankView v;
    if (!tracksFromJson(o.value(QStringLiteral("tracks")), t).isEmpty() ||
        !rankViewFromJson(o.value(QStringLiteral("rank_view")).toObject(), v))
        return false;
    tracks = std::move(t);
    view = std::move(v);
    return true;
}

} // namespace sl::ui
