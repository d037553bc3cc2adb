#include "RankLabels.h"

#include "structure/Structure.h"

#include <QStringList>

#include <mutex>

namespace sl::ui {

namespace {
struct PlaceCache {
    std::vector<QString> text;
    std::vector<RankPlace> places;
};

const PlaceCache& placeCache(const TraceSet& set) {
    // Both panes and the track tree ask for the set shown, for every rank row of every frame: one
    // recognition per set. A set is known by its address, its ranks' storage and first file (a new
    // set may reuse an address), compared without allocating.
    static std::mutex mutex;
    static const TraceSet* cached = nullptr;
    static const Rank* cachedRanks = nullptr;
    static std::string firstSource;
    static PlaceCache cache;
    const std::lock_guard lock(mutex);
    static const std::string kNone;
    const std::string& first = set.ranks.empty() ? kNone : set.ranks.front().sourcePath;
    if (cached == &set && cachedRanks == set.ranks.data() && cache.text.size() == set.ranks.size() &&
        firstSource == first)
        return cache;
    cached = &set;
    cachedRanks = set.ranks.data();
    firstSource = first;
    cache.text.assign(set.ranks.size(), QString());
    cache.places.assign(set.ranks.size(), RankPlace{});
    if (set.ranks.size() < 2) return cache;
    const ParallelStructure s = recognizeStructure(set, nullptr, false);
    for (std::size_t i = 0; i < set.ranks.size() && i < s.places.size(); ++i) {
        const RankPlace& p = s.places[i];
        if (!p.known) continue;
        cache.places[i] = p;
        QStringList parts;
        if (s.dp > 1) parts << QStringLiteral("dp%1").arg(p.dp);
        if (s.tp > 1) parts << QStringLiteral("tp%1").arg(p.tp);
        if (s.pp > 1) parts << QStringLiteral("pp%1").arg(p.pp);
        cache.text[i] = parts.join(QLatin1Char(' '));
    }
    return cache;
}
} // namespace

const std::vector<QString>& rankPlaces(const TraceSet& set) {
    return placeCache(set).text;
}

const std::vector<RankPlace>& rankPlaceCoordinates(const TraceSet& set) {
    return placeCache(set).places;
}

QString rankLabel(const TraceSet& set, std::size_t rank) {
    const Rank& r = set.ranks[rank];
    QString device = QString::fromStdString(r.deviceName());
    if (device.startsWith(QStringLiteral("NVIDIA "))) device = device.mid(7);
    const QString& place = rankPlaces(set)[rank];
    QString text = QStringLiteral("Rank %1").arg(r.rank);
    if (!place.isEmpty()) text += QStringLiteral("  ") + place;
    if (!device.isEmpty()) text += QStringLiteral("  ") + device;
    return text;
}

} // namespace sl::ui
