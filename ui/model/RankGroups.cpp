#include "RankGroups.h"

#include "models/CollectiveModel.h"

#include <QObject>

#include <algorithm>

namespace sl::ui {

std::vector<int> rankGroups(const TraceSet& set, RankGrouping grouping, const RankLabels* labels) {
    std::vector<int> out(set.ranks.size(), -1);
    if (grouping == RankGrouping::None) return out;
    if (grouping == RankGrouping::Node) {
        const int perNode = std::max(1, gpusPerNodeOf(set, -1));
        for (std::size_t r = 0; r < set.ranks.size(); ++r)
            out[r] = set.ranks[r].rank >= 0 ? set.ranks[r].rank / perNode : kUnplaced;
        return out;
    }
    const RankLabels own = labels ? RankLabels() : RankLabels(set);
    const std::vector<RankPlace>& places = (labels ? *labels : own).coordinates();
    for (std::size_t r = 0; r < set.ranks.size(); ++r) {
        const RankPlace& p = r < places.size() ? places[r] : RankPlace{};
        out[r] = !p.known ? kUnplaced : grouping == RankGrouping::Stage ? p.pp : p.dp;
    }
    return out;
}

QString groupLabel(RankGrouping grouping, int key) {
    if (key == kUnplaced) return QObject::tr("No place");
    switch (grouping) {
    case RankGrouping::Node:
        return QObject::tr("Node %1").arg(key);
    case RankGrouping::Stage:
        return QObject::tr("Stage pp%1").arg(key);
    case RankGrouping::Replica:
        return QObject::tr("Replica dp%1").arg(key);
    case RankGrouping::None:
        break;
    }
    return {};
}

QString groupingName(RankGrouping grouping) {
    switch (grouping) {
    case RankGrouping::Node:
        return QStringLiteral("node");
    case RankGrouping::Stage:
        return QStringLiteral("stage");
    case RankGrouping::Replica:
        return QStringLiteral("replica");
    case RankGrouping::None:
        break;
    }
    return QStringLiteral("none");
}

bool groupingFromName(const QString& name, RankGrouping& out) {
    for (RankGrouping g :
         {RankGrouping::None, RankGrouping::Node, RankGrouping::Stage, RankGrouping::Replica})
        if (name == groupingName(g)) {
            out = g;
            return true;
        }
    return false;
}

} // namespace sl::ui
