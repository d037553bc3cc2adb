// The timeline's gutter: the track labels left of the events, rank headers and their collapse
// markers (TimelineRenderer::paintGutter).
#include "TimelineRenderer.h"

#include "ReplayDifferences.h"

#include "RankGroups.h"
#include "RankLabels.h"

#include "EventNames.h"
#include "PixelClamp.h"
#include "TimeFormat.h"
#include "TrackState.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sl::ui {

void TimelineRenderer::paintGutter(QPainter& p, const TimelineData& data, const RowLayout& layout,
                                   const TrackState& tracks, int height, int scrollY, const QString& title,
                                   int gutterWidth) {
    p.fillRect(QRect(0, 0, gutterWidth, height), palette::gutter());
    const auto& rows = layout.rows();
    QFontMetrics fm(p.font());
    QFont tiny = p.font();
    tiny.setPixelSize(std::max(8, fm.height() * 2 / 3));
    const QFontMetrics smallMetrics(tiny);
    int labelsBelow = std::numeric_limits<int>::min(); // compact rows: where the last name ends
    std::vector<std::pair<int, int>> compactLabels;    // (y, rank) of the compact rows named
    for (int i = layout.firstRowBelow(scrollY); i < static_cast<int>(rows.size()); ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        const int y = row.y - scrollY;
        if (y > height) break;
        const Rank& rank = *data.ranks()[static_cast<std::size_t>(row.rank)].rank;
        QString text;
        if (row.groupRow()) {
            p.fillRect(QRect(0, y, gutterWidth, row.height), palette::groupHeader());
            text = QStringLiteral("%1 %2  (%3 ranks)")
                       .arg(row.collapsed ? QChar(0x25B8) : QChar(0x25BE))
                       .arg(groupLabel(tracks.grouping(), row.group))
                       .arg(row.members);
            QFont bold = p.font();
            bold.setBold(true);
            p.save();
            p.setFont(bold);
            p.setPen(Qt::white);
            p.drawText(QRect(4, y, gutterWidth - 8, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                       QFontMetrics(bold).elidedText(text, Qt::ElideRight, gutterWidth - 8));
            p.restore();
            labelsBelow = y + row.height;
            continue;
        }
        if (row.compact) {
            // A strip a few pixels high: its short name ("r12 dp3 tp1 pp0") where the one above
            // leaves room, so every second or third strip is named; the tooltip names each one.
            p.fillRect(QRect(0, y, gutterWidth, row.height), palette::rankHeader());
            if (y >= labelsBelow) {
                // Drawn after every row's background: the name is taller than its strip.
                compactLabels.push_back({y, row.rank});
                labelsBelow = y + smallMetrics.height();
            }
            continue;
        }
        QRect r(6, y, gutterWidth - 10, row.header() ? row.height : RowLayout::kLaneHeight + 2);
        if (row.exposedLane()) {
            p.fillRect(QRect(0, y, gutterWidth, row.height), palette::exposedLane());
            QFont small = p.font();
            small.setPointSizeF(small.pointSizeF() * 0.8);
            p.save();
            p.setFont(small);
            p.setPen(palette::exposed());
            p.drawText(QRect(22, y, gutterWidth - 26, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                       QStringLiteral("exposed comm"));
            p.restore();
            continue;
        }
        if (row.header()) {
            p.fillRect(QRect(0, y, gutterWidth, row.height), palette::rankHeader());
            const bool expanded = static_cast<std::size_t>(row.stateRank) < tracks.rankCount() &&
                                  tracks.rankExpanded(static_cast<std::size_t>(row.stateRank));
            text = QStringLiteral("%1 %2")
                       .arg(expanded ? QChar(0x25BE) : QChar(0x25B8))
                       .arg(data.rankLabels().label(static_cast<std::size_t>(row.rank)));
            QFont bold = p.font();
            bold.setBold(true);
            p.save();
            p.setFont(bold);
            p.setPen(palette::text());
            p.drawText(r, Qt::AlignVCenter | Qt::AlignLeft,
                       QFontMetrics(bold).elidedText(text, Qt::ElideRight, r.width()));
            p.restore();
            continue;
        }
        const Track& track = rank.tracks[static_cast<std::size_t>(row.track)];
        const bool nestable = track.maxDepth > 0;
        const bool nested = tracks.trackNested(static_cast<std::size_t>(row.stateRank),
                                               static_cast<std::size_t>(row.stateTrack));
        text = QStringLiteral("%1 %2")
                   .arg(nestable ? (nested ? QChar(0x25BE) : QChar(0x25B8)) : QChar(' '))
                   .arg(QString::fromStdString(track.name));
        // A pinned track sits away from its rank's header: name the rank.
        if (row.pinned) text = QStringLiteral("%1  [rank %2]").arg(text).arg(rank.rank);
        p.setPen(palette::text());
        r.adjust(8, 0, 0, 0);
        p.drawText(r, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideMiddle, r.width()));
        p.setPen(palette::grid());
        p.drawLine(0, y + row.height - 1, gutterWidth, y + row.height - 1);
    }
    if (!compactLabels.empty()) {
        p.save();
        p.setFont(tiny);
        p.setPen(palette::text());
        for (const auto& [y, r] : compactLabels) {
            const QString& place = data.rankLabels().places()[static_cast<std::size_t>(r)];
            const int id = data.ranks()[static_cast<std::size_t>(r)].rank->rank;
            const QString text = place.isEmpty() ? QStringLiteral("r%1").arg(id)
                                                 : QStringLiteral("r%1  %2").arg(id).arg(place);
            const QRect box(14, y, gutterWidth - 18, smallMetrics.height());
            p.drawText(box, Qt::AlignTop | Qt::AlignLeft,
                       smallMetrics.elidedText(text, Qt::ElideRight, box.width()));
        }
        p.restore();
    }
    if (!title.isEmpty()) {
        QFont f = p.font();
        f.setBold(true);
        p.setFont(f);
        const QRect tr(0, std::max(0, height - 22), gutterWidth, 22);
        p.fillRect(tr, QColor(0x343a40));
        p.setPen(Qt::white);
        p.drawText(tr.adjusted(6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, title);
    }
    p.setPen(QColor(0xadb5bd));
    p.drawLine(gutterWidth - 1, 0, gutterWidth - 1, height);
}

} // namespace sl::ui
