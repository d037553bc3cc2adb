#include "TimelineRenderer.h"

#include "EventNames.h"
#include "TimeFormat.h"
#include "TrackState.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace sl::ui {

namespace {
constexpr int kMinLabelWidth = 28;
constexpr int kWideBox = 4; // boxes this wide keep a one-pixel gap to their right neighbour

int clampX(double x, int width) {
    return static_cast<int>(std::floor(std::clamp(x, -4.0, static_cast<double>(width) + 4.0)));
}
} // namespace

void TimelineRenderer::setFont(const QFont& f) {
    font_ = f;
    QFontMetrics fm(font_);
    charWidth_ = std::max(1, fm.averageCharWidth() + fm.averageCharWidth() / 6);
    ellipsisWidth_ = fm.horizontalAdvance(QChar(0x2026));
    labels_.clear();
    fontReady_ = true;
}

const TimelineRenderer::Label& TimelineRenderer::label(const TimelineData& data, int rank, StringId name) {
    if (labels_.size() != data.ranks().size()) labels_.assign(data.ranks().size(), {});
    auto& table = labels_[static_cast<std::size_t>(rank)];
    if (table.empty()) table.resize(data.ranks()[static_cast<std::size_t>(rank)].rank->strings.size());
    Label& l = table[name];
    if (l.width < 0) {
        l.text = shortEventName(data.ranks()[static_cast<std::size_t>(rank)].rank->strings.str(name));
        l.width = QFontMetrics(font_).horizontalAdvance(l.text);
    }
    return l;
}

void TimelineRenderer::paintLane(const TimelineData& data, int rank, const TrackTimeline& track,
                                 const Lane& lane, const TimeMapping& m, int width, int top,
                                 RenderStats& stats) {
    if (lane.size == 0) return;
    const auto& rt = data.ranks()[static_cast<std::size_t>(rank)];
    const EventColumns& ev = track.track->events;
    const TimeNs t0 = m.start;
    const TimeNs t1 = m.end(width);
    const int h = RowLayout::kLaneHeight - 1;
    int pendX0 = 0, pendX1 = -1, pendBucket = -1;
    bool pendNarrow = false;
    auto flush = [&] {
        if (pendBucket >= 0)
            batches_[static_cast<std::size_t>(pendBucket)].emplace_back(pendX0, top, pendX1 - pendX0, h);
        pendBucket = -1;
    };
    std::size_t pos = TimelineData::firstEndingAfter(lane, t0);
    while (pos < lane.size && lane.start[pos] < t1) {
        const double xs = m.x(lane.start[pos]);
        const auto column = static_cast<std::int64_t>(std::floor(std::max(xs, -1.0)));
        std::size_t next = TimelineData::nextStartingAt(lane, pos, m.columnStart(column + 1));
        next = std::max(next, pos + 1);
        const std::size_t best = next == pos + 1 ? pos : TimelineData::longest(track, lane, pos, next);
        const std::uint32_t e = lane.event(best);
        const double xe = m.x(track.start[e] + track.duration[e]);
        const int x0 = clampX(next == pos + 1 ? xs : static_cast<double>(column), width);
        int x1 = std::max(clampX(std::ceil(xe), width), x0 + 1);
        const bool narrow = x1 - x0 < kWideBox;
        if (!narrow) --x1;
        const Category cat = categoryOf(ev.kind[e], rt.collective[ev.name[e]] != 0);
        const int bucket = static_cast<int>(cat) * palette::kShades + palette::shadeOf(ev.name[e]);
        if (narrow && pendNarrow && bucket == pendBucket && x0 <= pendX1) {
            pendX1 = std::max(pendX1, x1);
        } else {
            flush();
            pendX0 = x0, pendX1 = x1, pendBucket = bucket, pendNarrow = narrow;
            ++stats.boxes;
        }
        if (x1 - x0 >= kMinLabelWidth)
            pendingLabels_.push_back({QRect(std::max(x0, 0), top, std::min(x1, width) - std::max(x0, 0), h),
                                      rank, ev.name[e], cat});
        pos = next;
    }
    flush();
}

RenderStats TimelineRenderer::paintEvents(QPainter& p, const TimelineData& data, const RowLayout& layout,
                                          const TimeMapping& m, QSize size, int scrollY,
                                          const RenderState& state) {
    if (!fontReady_) setFont(p.font());
    RenderStats stats;
    const int width = size.width();
    p.fillRect(QRect(QPoint(0, 0), size), palette::background());
    // Row backgrounds and grid.
    const auto& rows = layout.rows();
    const int firstRow = layout.firstRowBelow(scrollY);
    int lastRow = firstRow;
    for (int i = firstRow; i < static_cast<int>(rows.size()); ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        if (row.y - scrollY > size.height()) break;
        lastRow = i + 1;
        const QRect r(0, row.y - scrollY, width, row.height);
        p.fillRect(r, row.header() ? palette::rankHeader() : palette::laneBackground(i % 2 != 0));
    }
    p.setPen(palette::grid());
    for (const Tick& t : axisTicks(m, width, 16, state.origin))
        if (t.major) p.drawLine(QPointF(t.x, 0), QPointF(t.x, size.height()));

    for (auto& b : batches_)
        b.clear();
    pendingLabels_.clear();
    for (int i = firstRow; i < lastRow; ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        if (row.header()) continue;
        const TrackTimeline& track =
            data.track(static_cast<std::size_t>(row.rank), static_cast<std::size_t>(row.track));
        const int lanes = std::min(row.lanes, static_cast<int>(track.lanes.size()));
        for (int l = 0; l < lanes; ++l) {
            const int top = row.y - scrollY + RowLayout::laneY(l);
            if (top > size.height() || top + RowLayout::kLaneHeight < 0) continue;
            paintLane(data, row.rank, track, track.lanes[static_cast<std::size_t>(l)], m, width, top, stats);
        }
    }
    p.setPen(Qt::NoPen);
    for (int b = 0; b < kBuckets; ++b) {
        auto& batch = batches_[static_cast<std::size_t>(b)];
        if (batch.empty()) continue;
        p.setBrush(palette::color(static_cast<Category>(b / palette::kShades), b % palette::kShades));
        p.drawRects(batch.data(), static_cast<int>(batch.size()));
    }
    p.setBrush(Qt::NoBrush);
    p.setFont(font_);
    for (const PendingLabel& pl : pendingLabels_) {
        const Label& l = label(data, pl.rank, pl.name);
        const int avail = pl.rect.width() - 6;
        if (avail <= 0) continue;
        p.setPen(pl.category == Category::Runtime ? palette::text() : palette::textOnBox());
        const QRect textRect = pl.rect.adjusted(3, 0, -3, 0);
        if (l.width <= avail) {
            p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, l.text);
        } else {
            const int chars = (avail - ellipsisWidth_) / charWidth_;
            if (chars < 2) continue;
            p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, l.text.left(chars) + QChar(0x2026));
        }
        ++stats.labels;
    }
    // Range selection.
    if (state.rangeEnd > state.rangeStart) {
        const double a = std::clamp(m.x(state.rangeStart), -2.0, width + 2.0);
        const double b = std::clamp(m.x(state.rangeEnd), -2.0, width + 2.0);
        p.fillRect(QRectF(a, 0, b - a, size.height()), palette::rangeFill());
        p.setPen(QPen(QColor(30, 120, 220), 1));
        p.drawLine(QPointF(a, 0), QPointF(a, size.height()));
        p.drawLine(QPointF(b, 0), QPointF(b, size.height()));
    }
    // Selected event.
    if (state.selected.valid()) {
        QRectF r = eventRect(data, layout, m, state.selected);
        if (!r.isEmpty()) {
            r.translate(0, -scrollY);
            r.setLeft(std::max(r.left(), -3.0));
            r.setRight(std::min(r.right(), width + 3.0));
            if (r.width() < 3) r.adjust(-1.5, 0, 1.5, 0);
            p.setPen(QPen(palette::selection(), 2));
            p.drawRect(r.adjusted(-1, -1, 1, 1));
        }
    }
    return stats;
}

void TimelineRenderer::paintGutter(QPainter& p, const TimelineData& data, const RowLayout& layout,
                                   const TrackState& tracks, int height, int scrollY, const QString& title) {
    p.fillRect(QRect(0, 0, kGutterWidth, height), palette::gutter());
    const auto& rows = layout.rows();
    QFontMetrics fm(p.font());
    for (int i = layout.firstRowBelow(scrollY); i < static_cast<int>(rows.size()); ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        const int y = row.y - scrollY;
        if (y > height) break;
        const Rank& rank = *data.ranks()[static_cast<std::size_t>(row.rank)].rank;
        QString text;
        QRect r(6, y, kGutterWidth - 10, row.header() ? row.height : RowLayout::kLaneHeight + 2);
        if (row.header()) {
            p.fillRect(QRect(0, y, kGutterWidth, row.height), palette::rankHeader());
            const bool expanded = static_cast<std::size_t>(row.rank) < tracks.rankCount() &&
                                  tracks.rankExpanded(static_cast<std::size_t>(row.rank));
            text = QStringLiteral("%1 Rank %2  %3")
                       .arg(expanded ? QChar(0x25BE) : QChar(0x25B8))
                       .arg(rank.rank)
                       .arg(QString::fromStdString(rank.deviceName()));
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
        const bool nested =
            tracks.trackNested(static_cast<std::size_t>(row.rank), static_cast<std::size_t>(row.track));
        text = QStringLiteral("%1 %2")
                   .arg(nestable ? (nested ? QChar(0x25BE) : QChar(0x25B8)) : QChar(' '))
                   .arg(QString::fromStdString(track.name));
        p.setPen(palette::text());
        r.adjust(8, 0, 0, 0);
        p.drawText(r, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideMiddle, r.width()));
        p.setPen(palette::grid());
        p.drawLine(0, y + row.height - 1, kGutterWidth, y + row.height - 1);
    }
    if (!title.isEmpty()) {
        QFont f = p.font();
        f.setBold(true);
        p.setFont(f);
        const QRect tr(0, std::max(0, height - 22), kGutterWidth, 22);
        p.fillRect(tr, QColor(0x343a40));
        p.setPen(Qt::white);
        p.drawText(tr.adjusted(6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, title);
    }
    p.setPen(QColor(0xadb5bd));
    p.drawLine(kGutterWidth - 1, 0, kGutterWidth - 1, height);
}

EventId TimelineRenderer::hitTest(const TimelineData& data, const RowLayout& layout, const TimeMapping& m,
                                  double x, int y) {
    const int ri = layout.rowAt(y);
    if (ri < 0) return {};
    const Row& row = layout.rows()[static_cast<std::size_t>(ri)];
    if (row.header()) return {};
    const int lane = (y - row.y - RowLayout::laneY(0)) / RowLayout::kLaneHeight;
    const TrackTimeline& track =
        data.track(static_cast<std::size_t>(row.rank), static_cast<std::size_t>(row.track));
    if (lane < 0 || lane >= row.lanes || lane >= static_cast<int>(track.lanes.size())) return {};
    const std::int64_t e =
        TimelineData::hitTest(track, track.lanes[static_cast<std::size_t>(lane)], m.time(x), m.duration(2.0));
    if (e < 0) return {};
    return {row.rank, {static_cast<std::uint32_t>(row.track), static_cast<std::uint32_t>(e)}};
}

QRectF TimelineRenderer::eventRect(const TimelineData& data, const RowLayout& layout, const TimeMapping& m,
                                   EventId e) {
    if (!e.valid() || static_cast<std::size_t>(e.rank) >= data.ranks().size()) return {};
    const int ri = layout.rowOf(e.rank, static_cast<int>(e.ref.track));
    if (ri < 0) return {};
    const Row& row = layout.rows()[static_cast<std::size_t>(ri)];
    const TrackTimeline& track = data.track(static_cast<std::size_t>(e.rank), e.ref.track);
    const int depth = track.track->events.depth[e.ref.index];
    if (depth >= row.lanes || track.start[e.ref.index] < 0) return {};
    const double x0 = m.x(track.start[e.ref.index]);
    const double x1 = std::max(m.x(track.end(e.ref.index)), x0 + 1);
    return QRectF(x0, row.y + RowLayout::laneY(depth), x1 - x0, RowLayout::kLaneHeight - 1);
}

} // namespace sl::ui
