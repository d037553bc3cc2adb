#include "AddedRanksPaint.h"

#include "Palette.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace sl::ui {

void paintAddedRanks(QPainter& p, const AddedRanks& ranks, const TimeMapping& m, const AddedRanksArea& a,
                     const QFont& font) {
    const std::vector<AddedRanks::Row>& rows = ranks.rows();
    const int last = std::min(static_cast<int>(rows.size()), a.firstRow + a.rowCount);
    const int height = a.headerHeight + std::max(0, last - a.firstRow) * a.rowHeight;
    p.fillRect(QRect(0, 0, a.width, height), palette::background());
    p.fillRect(QRect(0, 0, a.gutter, height), palette::gutter());
    p.fillRect(QRect(0, 0, a.width, a.headerHeight), palette::rankHeader());
    p.setPen(palette::grid());
    p.drawLine(0, 0, a.width, 0);
    p.setFont(font);
    p.setPen(palette::text());
    p.drawText(QRect(6, 0, a.width - 12, a.headerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               QFontMetrics(font).elidedText(ranks.header() + a.headerSuffix, Qt::ElideRight, a.width - 12));
    const QColor computeColour = palette::color(Category::Compute);
    const QColor commColour = palette::color(Category::Communication);
    for (int r = a.firstRow; r < last; ++r) {
        const int y = a.headerHeight + (r - a.firstRow) * a.rowHeight;
        p.fillRect(QRect(a.gutter, y, a.areaWidth, a.rowHeight), palette::laneBackground(r % 2 == 1));
        const AddedRanks::Row& row = rows[static_cast<std::size_t>(r)];
        p.setPen(row.slow ? palette::color(Category::Communication).darker(130) : palette::text());
        QFont label = font;
        label.setBold(row.slow);
        p.setFont(label);
        p.drawText(QRect(6, y, a.gutter - 10, a.rowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   QFontMetrics(label).elidedText(AddedRanks::rowLabel(row), Qt::ElideRight, a.gutter - 10));
        p.setFont(font);
        // One column per pixel: the busier class's colour, its alpha by how busy the column was
        // (summed over streams, capped at fully busy).
        const std::vector<AddedRanks::Column> cols = ranks.columns(r, m, a.areaWidth);
        for (int x = 0; x < a.areaWidth; ++x) {
            const AddedRanks::Column& c = cols[static_cast<std::size_t>(x)];
            const TimeNs busy = c.compute + c.communication;
            if (busy <= 0) continue;
            const TimeNs span = std::max<TimeNs>(1, m.columnStart(x + 1) - m.columnStart(x));
            QColor colour = c.communication > c.compute ? commColour : computeColour;
            const double v = std::min(1.0, static_cast<double>(busy) / static_cast<double>(span));
            colour.setAlphaF(static_cast<float>(0.25 + 0.75 * v)); // Qt 6 takes float
            p.fillRect(QRectF(a.gutter + x, y + 3, 1, a.rowHeight - 6), colour);
        }
    }
}

} // namespace sl::ui
