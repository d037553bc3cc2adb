// The overlays the renderer draws over the events (docs/ARCHITECTURE.md, "GUI"): the critical path
// and highlight bars, the joints of the path between ranks, and the links of a selected event.
#include "TimelineRenderer.h"

#include "PixelClamp.h"
#include "RankGroups.h"
#include "TrackState.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <array>
#include <cmath>

namespace sl::ui {

void TimelineRenderer::paintHighlights(QPainter& p, const RowLayout& layout, const TimeMapping& m, QSize size,
                                       int scrollY, int firstRow, int lastRow, const RenderState& state,
                                       RenderStats& stats) {
    const int width = size.width();
    const TimeNs t0 = m.start;
    const TimeNs t1 = m.end(width);
    const auto& rows = layout.rows();
    for (auto& b : pathBatches_)
        b.clear();
    for (auto& b : waitBatches_)
        b.clear();
    exposedRects_.clear();
    hatchRects_.clear();
    // Adds [a, b) as pixel columns to out, merging with the previous box when they touch.
    auto addSpan = [&](std::vector<QRect>& out, TimeNs a, TimeNs b, int top, int h, int& lastX1) {
        const int x0 = clampX(m.x(a), width);
        const int x1 = std::max(clampX(std::ceil(m.x(b)), width), x0 + 1);
        if (x0 <= lastX1 && !out.empty() && out.back().top() == top) {
            if (x1 > lastX1) out.back().setRight(x1 - 1), lastX1 = x1;
            return false;
        }
        out.emplace_back(x0, top, x1 - x0, h);
        lastX1 = x1;
        return true;
    };
    for (int i = firstRow; i < lastRow; ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        const auto r = static_cast<std::size_t>(row.rank);
        if (r >= state.highlights->ranks.size()) continue;
        const RankHighlights& rh = state.highlights->ranks[r];
        const int y = row.y - scrollY;
        // Exposed communication: solid in the rank's lane, hatched over communication streams.
        if (state.exposed &&
            (row.exposedLane() ||
             (row.isTrack() && rh.tracks[static_cast<std::size_t>(row.track)].communication))) {
            auto& out = row.exposedLane() ? exposedRects_ : hatchRects_;
            const int top = row.exposedLane() ? y + 2 : y + RowLayout::laneY(0);
            const int h = row.exposedLane() ? row.height - 4 : RowLayout::kLaneHeight - 1;
            auto it = std::lower_bound(rh.exposed.begin(), rh.exposed.end(), t0,
                                       [](const TimeSpan& s, TimeNs t) { return s.end <= t; });
            int lastX1 = std::numeric_limits<int>::min();
            for (; it != rh.exposed.end() && it->start < t1; ++it)
                if (addSpan(out, it->start, it->end, top, h, lastX1)) ++stats.exposedBoxes;
        }
        // The critical path: the on-path slice of each event over its lane (its last shown lane),
        // waits as striped spans; a collapsed rank shows every track's pieces in its summary strip.
        if (state.criticalPath && (row.isTrack() || (row.header() && row.collapsed))) {
            auto addBars = [&](const TrackHighlights& th, bool strip) {
                std::array<int, 2 * kPathLabelCount> lastX1;
                lastX1.fill(std::numeric_limits<int>::min());
                for (std::size_t b = PaneHighlights::firstBarEndingAfter(th, t0); b < th.bars.size(); ++b) {
                    const PathBar& bar = th.bars[b];
                    if (bar.start >= t1) break;
                    const int lane = strip ? 0 : std::min<int>(bar.depth, row.lanes - 1);
                    const int top = strip ? y + row.stripTop() : y + RowLayout::laneY(lane);
                    const int h = strip ? row.stripHeight() : RowLayout::kLaneHeight - 1;
                    const auto l = static_cast<std::size_t>(bar.label);
                    auto& out = bar.wait ? waitBatches_[l] : pathBatches_[l];
                    if (addSpan(out, bar.start, bar.end, top, h,
                                lastX1[l + (bar.wait ? kPathLabelCount : 0)]))
                        ++stats.pathBars;
                }
            };
            if (row.isTrack())
                addBars(rh.tracks[static_cast<std::size_t>(row.track)], false);
            else
                for (const TrackHighlights& th : rh.tracks)
                    addBars(th, true);
        }
    }
    p.setPen(Qt::NoPen);
    if (!hatchRects_.empty()) {
        p.setBrush(QColor(201, 42, 42, 40));
        p.drawRects(hatchRects_.data(), static_cast<int>(hatchRects_.size()));
        p.setBrush(QBrush(palette::exposed(), Qt::BDiagPattern));
        p.drawRects(hatchRects_.data(), static_cast<int>(hatchRects_.size()));
    }
    if (!exposedRects_.empty()) {
        p.setBrush(palette::exposed());
        p.drawRects(exposedRects_.data(), static_cast<int>(exposedRects_.size()));
    }
    for (int l = 0; l < kPathLabelCount; ++l) {
        auto& batch = pathBatches_[static_cast<std::size_t>(l)];
        if (batch.empty()) continue;
        p.setBrush(palette::pathColor(static_cast<PathLabel>(l)));
        p.drawRects(batch.data(), static_cast<int>(batch.size()));
    }
    // Waits: a light wash of the label's colour under its stripes, so a span reads as time spent
    // waiting, not as work.
    for (int l = 0; l < kPathLabelCount; ++l) {
        auto& batch = waitBatches_[static_cast<std::size_t>(l)];
        if (batch.empty()) continue;
        QColor wash = palette::pathColor(static_cast<PathLabel>(l));
        wash.setAlpha(60);
        p.setBrush(wash);
        p.drawRects(batch.data(), static_cast<int>(batch.size()));
        p.setBrush(QBrush(palette::pathColor(static_cast<PathLabel>(l)), Qt::BDiagPattern));
        p.drawRects(batch.data(), static_cast<int>(batch.size()));
    }
    if (state.criticalPath) paintJoints(p, layout, m, size, scrollY, *state.highlights, stats);
    p.setBrush(Qt::NoBrush);
}

// The path's moves from rank to rank: a thin line from the lane (or the collapsed rank's strip) it
// leaves to the one it enters.
void TimelineRenderer::paintJoints(QPainter& p, const RowLayout& layout, const TimeMapping& m, QSize size,
                                   int scrollY, const PaneHighlights& h, RenderStats& stats) {
    if (h.joints.empty()) return;
    const TimeNs t0 = m.start, t1 = m.end(size.width());
    const auto& rows = layout.rows();
    auto yOf = [&](int rank, int track, int depth) -> int {
        const int i = layout.rowOf(rank, track);
        if (i >= 0) {
            const Row& row = rows[static_cast<std::size_t>(i)];
            return row.y - scrollY + RowLayout::laneY(std::min(depth, row.lanes - 1)) +
                   RowLayout::kLaneHeight / 2;
        }
        for (const Row& row : rows) // a collapsed (or hidden) track: its rank's header strip
            if (row.header() && row.rank == rank) return row.y - scrollY + row.height / 2;
        return std::numeric_limits<int>::min();
    };
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(palette::text(), 1.2));
    for (const PathJoint& j : h.joints) {
        if (std::max(j.from, j.to) < t0 || std::min(j.from, j.to) >= t1) continue;
        const int y0 = yOf(j.rank, j.track, j.depth), y1 = yOf(j.toRank, j.toTrack, j.toDepth);
        if (y0 == std::numeric_limits<int>::min() || y1 == std::numeric_limits<int>::min()) continue;
        if (std::max(y0, y1) < 0 || std::min(y0, y1) > size.height()) continue;
        p.drawLine(QPointF(m.x(j.from), y0), QPointF(m.x(j.to), y1));
        ++stats.pathJoints;
    }
    p.restore();
}

void TimelineRenderer::paintLinks(QPainter& p, const TimelineData& data, const RowLayout& layout,
                                  const TimeMapping& m, QSize size, int scrollY, const SelectionLinks& links,
                                  RenderStats& stats) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRectF bounds(-50, -50, size.width() + 100, size.height() + 100);
    auto rectOf = [&](EventId e) {
        QRectF r = eventRect(data, layout, m, e);
        if (!r.isEmpty()) r.translate(0, -scrollY);
        return r;
    };
    // The participants of a collective: outlined, joined by a line from rank to rank.
    if (!links.collective.empty()) {
        std::vector<QRectF> members;
        for (const EventId& e : links.collective)
            if (QRectF r = rectOf(e); !r.isEmpty()) members.push_back(r);
        std::sort(members.begin(), members.end(),
                  [](const QRectF& a, const QRectF& b) { return a.top() < b.top(); });
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(palette::collectiveLink(), 2));
        for (std::size_t i = 0; i + 1 < members.size(); ++i) {
            const QPointF a(members[i].left(), members[i].center().y());
            const QPointF b(members[i + 1].left(), members[i + 1].center().y());
            p.drawLine(a, b);
            ++stats.arrows;
        }
        for (const QRectF& r : members) {
            p.drawRect(r.adjusted(-1, -1, 1, 1));
            p.setBrush(palette::collectiveLink());
            p.drawEllipse(QPointF(r.left(), r.center().y()), 3, 3);
            p.setBrush(Qt::NoBrush);
        }
    }
    for (const DependencyLink& link : links.edges) {
        if (link.kind == EdgeKind::Collective && !links.collective.empty()) continue; // drawn above
        const QRectF from = rectOf(link.from);
        const QRectF to = rectOf(link.to);
        if (from.isEmpty() || to.isEmpty()) continue;
        const QPointF a(link.fromStart ? from.left() : from.right(), from.center().y());
        const QPointF b(link.toEnd ? to.right() : to.left(), to.center().y());
        if (!bounds.contains(a) && !bounds.contains(b) && !bounds.intersects(QRectF(a, b).normalized()))
            continue;
        const QColor c = palette::edgeColor(link.kind);
        QPen pen(c, 1.6, link.inferred ? Qt::DashLine : Qt::SolidLine);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        QPainterPath path(a);
        const double dx = std::clamp(std::abs(b.x() - a.x()) / 2, 12.0, 80.0);
        if (std::abs(a.y() - b.y()) < 1)
            path.cubicTo(a + QPointF(dx, -12), b + QPointF(-dx, -12), b);
        else
            path.cubicTo(a + QPointF(dx, 0), b - QPointF(dx, 0), b);
        p.drawPath(path);
        // Arrowhead along the curve's last direction.
        const QPointF dir = b - path.pointAtPercent(0.95);
        const double len = std::hypot(dir.x(), dir.y());
        const QPointF u = len > 0.01 ? dir / len : QPointF(1, 0);
        const QPointF n(-u.y(), u.x());
        QPolygonF head;
        head << b << b - u * 7 + n * 3.5 << b - u * 7 - n * 3.5;
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawPolygon(head);
        ++stats.arrows;
    }
    p.restore();
}

} // namespace sl::ui
