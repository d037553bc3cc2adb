// The overlays the renderer draws over the events (OverlayPasses.h): replay differences, exposed
// communication, the critical path and its joints between ranks, the measured place of the selected
// event, the selection and the links of a selected event.
#include "OverlayPasses.h"

#include "Annotations.h"

#include "PixelClamp.h"
#include "ReplayDifferences.h"
#include "TimelineRenderer.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sl::ui {

namespace {
// Adds [a, b) as pixel columns to out, merging with the previous box when they touch; true when a
// box was added.
bool addSpan(std::vector<QRect>& out, const TimeMapping& m, int width, TimeNs a, TimeNs b, int top, int h,
             int& lastX1) {
    const int x0 = clampX(m.x(a), width);
    const int x1 = std::max(clampX(std::ceil(m.x(b)), width), x0 + 1);
    if (x0 <= lastX1 && !out.empty() && out.back().top() == top) {
        if (x1 > lastX1) out.back().setRight(x1 - 1), lastX1 = x1;
        return false;
    }
    out.emplace_back(x0, top, x1 - x0, h);
    lastX1 = x1;
    return true;
}
} // namespace

void DifferencesPass::paint(const RenderFrame& f) {
    if (!f.state.differences) return;
    const ReplayDifferences& d = *f.state.differences;
    if (d.levels.empty()) return;
    const ReplayDifferences::Level& level = d.levelFor(f.m.nsPerPixel);
    std::vector<QRectF> boxes;
    const auto& rows = f.layout.rows();
    const double width = f.size.width();
    for (int i = f.firstRow; i < f.lastRow; ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        if (row.groupRow() || static_cast<std::size_t>(row.rank) >= level.spans.size()) continue;
        const auto& spans = level.spans[static_cast<std::size_t>(row.rank)];
        // The spans that reach into the window; each at least a pixel wide so a short one still shows.
        auto it = std::lower_bound(spans.begin(), spans.end(), f.m.time(0),
                                   [](const auto& s, TimeNs t) { return s.second < t; });
        for (; it != spans.end(); ++it) {
            const double a = f.m.x(it->first);
            if (a > width) break;
            const double b = std::max(f.m.x(it->second), a + 1.0);
            boxes.emplace_back(std::max(a, -1.0), row.y - f.scrollY,
                               std::min(b, width + 1) - std::max(a, -1.0), row.height);
        }
    }
    if (boxes.empty()) return;
    f.p.setPen(Qt::NoPen);
    f.p.setBrush(palette::replayDifference());
    f.p.drawRects(boxes.data(), static_cast<int>(boxes.size()));
    f.stats.differenceBoxes += static_cast<int>(boxes.size());
}

void ExposedPass::paint(const RenderFrame& f) {
    const RenderState& state = f.state;
    if (!state.highlights || !state.exposed) return;
    const int width = f.size.width();
    const TimeNs t0 = f.m.start;
    const TimeNs t1 = f.m.end(width);
    const auto& rows = f.layout.rows();
    solid_.clear();
    hatch_.clear();
    for (int i = f.firstRow; i < f.lastRow; ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        const auto r = static_cast<std::size_t>(row.rank);
        if (r >= state.highlights->ranks.size()) continue;
        const RankHighlights& rh = state.highlights->ranks[r];
        // Solid in the rank's lane, hatched over communication streams.
        if (!row.exposedLane() &&
            !(row.isTrack() && rh.tracks[static_cast<std::size_t>(row.track)].communication))
            continue;
        const int y = row.y - f.scrollY;
        auto& out = row.exposedLane() ? solid_ : hatch_;
        const int top = row.exposedLane() ? y + 2 : y + RowLayout::laneY(0);
        const int h = row.exposedLane() ? row.height - 4 : RowLayout::kLaneHeight - 1;
        auto it = std::lower_bound(rh.exposed.begin(), rh.exposed.end(), t0,
                                   [](const TimeSpan& s, TimeNs t) { return s.end <= t; });
        int lastX1 = std::numeric_limits<int>::min();
        for (; it != rh.exposed.end() && it->start < t1; ++it)
            if (addSpan(out, f.m, width, it->start, it->end, top, h, lastX1)) ++f.stats.exposedBoxes;
    }
    QPainter& p = f.p;
    p.setPen(Qt::NoPen);
    if (!hatch_.empty()) {
        p.setBrush(QColor(201, 42, 42, 40));
        p.drawRects(hatch_.data(), static_cast<int>(hatch_.size()));
        p.setBrush(QBrush(palette::exposed(), Qt::BDiagPattern));
        p.drawRects(hatch_.data(), static_cast<int>(hatch_.size()));
    }
    if (!solid_.empty()) {
        p.setBrush(palette::exposed());
        p.drawRects(solid_.data(), static_cast<int>(solid_.size()));
    }
    p.setBrush(Qt::NoBrush);
}

void CriticalPathPass::paint(const RenderFrame& f) {
    const RenderState& state = f.state;
    if (!state.highlights || !state.criticalPath) return;
    const int width = f.size.width();
    const TimeNs t0 = f.m.start;
    const TimeNs t1 = f.m.end(width);
    const auto& rows = f.layout.rows();
    for (auto& b : bars_)
        b.clear();
    for (auto& b : waits_)
        b.clear();
    for (int i = f.firstRow; i < f.lastRow; ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        const auto r = static_cast<std::size_t>(row.rank);
        if (r >= state.highlights->ranks.size()) continue;
        if (!row.isTrack() && !(row.header() && row.collapsed)) continue;
        const RankHighlights& rh = state.highlights->ranks[r];
        const int y = row.y - f.scrollY;
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
                auto& out = bar.wait ? waits_[l] : bars_[l];
                if (addSpan(out, f.m, width, bar.start, bar.end, top, h,
                            lastX1[l + (bar.wait ? kPathLabelCount : 0)]))
                    ++f.stats.pathBars;
            }
        };
        if (row.isTrack())
            addBars(rh.tracks[static_cast<std::size_t>(row.track)], false);
        else
            for (const TrackHighlights& th : rh.tracks)
                addBars(th, true);
    }
    QPainter& p = f.p;
    p.setPen(Qt::NoPen);
    for (int l = 0; l < kPathLabelCount; ++l) {
        auto& batch = bars_[static_cast<std::size_t>(l)];
        if (batch.empty()) continue;
        p.setBrush(palette::pathColor(static_cast<PathLabel>(l)));
        p.drawRects(batch.data(), static_cast<int>(batch.size()));
    }
    // Waits: a light wash of the label's colour under its stripes, so a span reads as time spent
    // waiting, not as work.
    for (int l = 0; l < kPathLabelCount; ++l) {
        auto& batch = waits_[static_cast<std::size_t>(l)];
        if (batch.empty()) continue;
        QColor wash = palette::pathColor(static_cast<PathLabel>(l));
        wash.setAlpha(60);
        p.setBrush(wash);
        p.drawRects(batch.data(), static_cast<int>(batch.size()));
        p.setBrush(QBrush(palette::pathColor(static_cast<PathLabel>(l)), Qt::BDiagPattern));
        p.drawRects(batch.data(), static_cast<int>(batch.size()));
    }
    paintJoints(f);
    p.setBrush(Qt::NoBrush);
}

// The path's moves from rank to rank: a thin line from the lane (or the collapsed rank's strip) it
// leaves to the one it enters.
void CriticalPathPass::paintJoints(const RenderFrame& f) {
    const PaneHighlights& h = *f.state.highlights;
    if (h.joints.empty()) return;
    QPainter& p = f.p;
    const RowLayout& layout = f.layout;
    const TimeMapping& m = f.m;
    const QSize size = f.size;
    const int scrollY = f.scrollY;
    RenderStats& stats = f.stats;
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

void ShiftPass::paint(const RenderFrame& f) {
    const RenderState& state = f.state;
    if (!state.reference || !state.selected.valid() || &state.reference->set() != &f.data.set()) return;
    const QRectF r = TimelineRenderer::eventRect(*state.reference, f.layout, f.m, state.selected);
    if (r.isEmpty()) return;
    f.p.setBrush(Qt::NoBrush);
    f.p.setPen(QPen(palette::text(), 1.5, Qt::DashLine));
    f.p.drawRect(r.translated(0, -f.scrollY).adjusted(-1, -1, 1, 1));
    f.p.setPen(Qt::NoPen);
}

void SelectionPass::paint(const RenderFrame& f) {
    const RenderState& state = f.state;
    QPainter& p = f.p;
    const int width = f.size.width();
    if (state.rangeEnd > state.rangeStart) {
        const double a = std::clamp(f.m.x(state.rangeStart), -2.0, width + 2.0);
        const double b = std::clamp(f.m.x(state.rangeEnd), -2.0, width + 2.0);
        p.fillRect(QRectF(a, 0, b - a, f.size.height()), palette::rangeFill());
        p.setPen(QPen(QColor(30, 120, 220), 1));
        p.drawLine(QPointF(a, 0), QPointF(a, f.size.height()));
        p.drawLine(QPointF(b, 0), QPointF(b, f.size.height()));
    }
    if (state.selected.valid()) {
        QRectF r = TimelineRenderer::eventRect(f.data, f.layout, f.m, state.selected);
        if (!r.isEmpty()) {
            r.translate(0, -f.scrollY);
            r.setLeft(std::max(r.left(), -3.0));
            r.setRight(std::min(r.right(), width + 3.0));
            if (r.width() < 3) r.adjust(-1.5, 0, 1.5, 0);
            p.setPen(QPen(palette::selection(), 2));
            p.drawRect(r.adjusted(-1, -1, 1, 1));
        }
    }
}

void LinksPass::paint(const RenderFrame& f) {
    if (!f.state.links || f.state.links->empty()) return;
    const SelectionLinks& links = *f.state.links;
    QPainter& p = f.p;
    const QSize size = f.size;
    RenderStats& stats = f.stats;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRectF bounds(-50, -50, size.width() + 100, size.height() + 100);
    auto rectOf = [&](EventId e) {
        QRectF r = TimelineRenderer::eventRect(f.data, f.layout, f.m, e);
        if (!r.isEmpty()) r.translate(0, -f.scrollY);
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

void AnnotationsPass::paint(const RenderFrame& f) {
    if (f.state.notes) paintNotes(f.p, *f.state.notes, f.m, f.layout, f.size, f.scrollY);
}

} // namespace sl::ui
