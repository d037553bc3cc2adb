#include "RankLabels.h"

#include "structure/Structure.h"

#include <QStringList>

#include <mutex>

namespace sl::ui {

const std::vector<QString>& rankPlaces(const TraceSet& set) {
    // Both panes and the track tree ask for the set shown, for every rank row of every frame: one
    // recognition per set. A set is known by its address, its ranks' storage and first file (a new
    // set may reuse an address), compared without allocating.
    static std::mutex mutex;
    static const TraceSet* cached = nullptr;
    static const Rank* cachedRanks = nullptr;
    static std::string firstSource;
    static std::vector<QString> places;
    const std::lock_guard lock(mutex);
    static const std::string kNone;
    const std::string& first = set.ranks.empty() ? kNone : set.ranks.front().sourcePath;
    if (cached == &set && cachedRanks == set.ranks.data() && places.size() == set.ranks.size() &&
        firstSource == first)
        return places;
    cached = &set;
    cachedRanks = set.ranks.data();
    firstSource = first;
    places.assign(set.ranks.size(), QString());
    if (set.ranks.size() < 2) return places;
    const ParallelStructure s = recognizeStructure(set, nullptr, false);
    for (std::size_t i = 0; i < set.ranks.size() && i < s.places.size(); ++i) {
        const RankPlace& p = s.places[i];
        if (!p.known) continue;
        QStringList parts;
        if (s.dp > 1) parts << QStringLiteral("dp%1").arg(p.dp);
        if (s.tp > 1) parts << QStringLiteral("tp%1").arg(p.tp);
        if (s.pp > 1) parts << QStringLiteral("pp%1").arg(p.pp);
        places[i] = parts.join(QLatin1Char(' '));
    }
    return places;
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
