#include "RankLabels.h"

#include <QStringList>

namespace sl::ui {

RankLabels::RankLabels(const TraceSet& set)
    : places_(set.ranks.size()), labels_(set.ranks.size()), coordinates_(set.ranks.size()) {
    if (set.ranks.size() >= 2) {
        const ParallelStructure s = recognizeStructure(set, nullptr, false);
        for (std::size_t i = 0; i < set.ranks.size() && i < s.places.size(); ++i) {
            const RankPlace& p = s.places[i];
            if (!p.known) continue;
            coordinates_[i] = p;
            QStringList parts;
            if (s.dp > 1) parts << QStringLiteral("dp%1").arg(p.dp);
            if (s.tp > 1) parts << QStringLiteral("tp%1").arg(p.tp);
            if (s.pp > 1) parts << QStringLiteral("pp%1").arg(p.pp);
            places_[i] = parts.join(QLatin1Char(' '));
        }
    }
    for (std::size_t i = 0; i < set.ranks.size(); ++i) {
        const Rank& r = set.ranks[i];
        QString device = QString::fromStdString(r.deviceName());
        if (device.startsWith(QStringLiteral("NVIDIA "))) device = device.mid(7);
        QString text = QStringLiteral("Rank %1").arg(r.rank);
        if (!places_[i].isEmpty()) text += QStringLiteral("  ") + places_[i];
        if (!device.isEmpty()) text += QStringLiteral("  ") + device;
        labels_[i] = std::move(text);
    }
}

QString RankLabels::label(std::size_t rank) const {
    return rank < labels_.size() ? labels_[rank] : QString();
}

} // namespace sl::ui
