#include "TimelineRenderer.h"

#include "EventNames.h"
#include "OverlayPasses.h"
#include "PixelClamp.h"
#include "TimeFormat.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace sl::ui {

TimelineRenderer::TimelineRenderer() {
    // The order is the picture's: each pass paints over the ones before it.
    auto labels = std::make_unique<LabelsPass>(marks_);
    labels_ = labels.get();
    passes_.push_back(std::make_unique<EventsPass>(marks_));
    passes_.push_back(std::make_unique<DifferencesPass>());
    passes_.push_back(std::make_unique<ExposedPass>());
    passes_.push_back(std::make_unique<CriticalPathPass>());
    passes_.push_back(std::make_unique<ShiftPass>());
    passes_.push_back(std::move(labels));
    passes_.push_back(std::make_unique<MatchesPass>(marks_));
    passes_.push_back(std::make_unique<SelectionPass>());
    passes_.push_back(std::make_unique<LinksPass>());
    passes_.push_back(std::make_unique<AnnotationsPass>());
}

TimelineRenderer::~TimelineRenderer() = default;

int shiftBin(TimeNs shift, TimeNs scale) {
    if (scale <= 0) return kShiftBins / 2;
    const double half = kShiftBins / 2;
    const double b = std::round(static_cast<double>(shift) / static_cast<double>(scale) * half);
    return static_cast<int>(std::clamp(b, -half, half) + half);
}

QColor shiftColour(int bin) {
    // Diverging: blue (simulated earlier) - light grey (same place) - red (simulated later).
    const int half = kShiftBins / 2;
    const double t = static_cast<double>(bin - half) / half; // -1 .. 1
    const QColor mid(0xd9, 0xd9, 0xd9), early(0x21, 0x66, 0xac), late(0xb2, 0x18, 0x2b);
    const QColor& end = t < 0 ? early : late;
    const double a = std::abs(t);
    return QColor::fromRgbF(static_cast<float>(mid.redF() + (end.redF() - mid.redF()) * a),
                            static_cast<float>(mid.greenF() + (end.greenF() - mid.greenF()) * a),
                            static_cast<float>(mid.blueF() + (end.blueF() - mid.blueF()) * a));
}

RenderStats TimelineRenderer::paintEvents(QPainter& p, const TimelineData& data, const RowLayout& layout,
                                          const TimeMapping& m, QSize size, int scrollY,
                                          const RenderState& state) {
    if (!labels_->fontReady()) setFont(p.font());
    RenderStats stats;
    // The rows in view.
    const auto& rows = layout.rows();
    const int firstRow = layout.firstRowBelow(scrollY);
    int lastRow = firstRow;
    while (lastRow < static_cast<int>(rows.size()) &&
           rows[static_cast<std::size_t>(lastRow)].y - scrollY <= size.height())
        ++lastRow;
    const RenderFrame frame{p, data, layout, m, size, scrollY, firstRow, lastRow, state, stats};
    for (const auto& pass : passes_)
        pass->paint(frame);
    return stats;
}

// The events pass, the names and the find matches (EventPasses.h).
namespace {
constexpr int kMinLabelWidth = 28;
constexpr int kWideBox = 4; // boxes this wide keep a one-pixel gap to their right neighbour

// The measured track matching (rank, track) when colouring by shift, else null.
const TrackTimeline* shiftTrack(const ShiftState& state, std::size_t rank, std::size_t track) {
    if (!state.reference || state.shiftScale <= 0 || rank >= state.reference->ranks().size() ||
        track >= state.reference->ranks()[rank].tracks.size())
        return nullptr;
    return &state.reference->track(rank, track);
}
} // namespace

void EventsPass::paintLane(const TimelineData& data, int rank, const TrackTimeline& track, const Lane& lane,
                           const TimeMapping& m, int width, int top, const std::uint8_t* flags, bool dim,
                           const std::vector<bool>* matches, RenderStats& stats, int boxHeight, bool labels) {
    if (lane.size == 0) return;
    const auto& rt = data.ranks()[static_cast<std::size_t>(rank)];
    const EventColumns& ev = track.track->events;
    const TimeNs t0 = m.start;
    const TimeNs t1 = m.end(width);
    const int h = boxHeight > 0 ? boxHeight : RowLayout::kLaneHeight - 1;
    int pendX0 = 0, pendX1 = -1, pendBucket = -1;
    bool pendNarrow = false;
    auto flush = [&] {
        if (pendBucket >= 0)
            batches_[static_cast<std::size_t>(pendBucket)].emplace_back(pendX0, top, pendX1 - pendX0, h);
        pendBucket = -1;
    };
    // One box for event e from column x0 (merged with the pending box when both are narrow and alike).
    auto box = [&](std::uint32_t e, int x0) {
        const double xe = m.x(track.start[e] + track.duration[e]);
        int x1 = std::max(clampX(std::ceil(xe), width), x0 + 1);
        const bool narrow = x1 - x0 < kWideBox;
        if (!narrow) --x1;
        const Category cat = categoryOf(ev.kind[e], rt.collective[ev.name[e]] != 0);
        // Summary strips use one shade per category: neighbouring boxes then merge into few rectangles.
        int bucket = static_cast<int>(cat) * palette::kShades + (labels ? rt.shade[ev.name[e]] : 0);
        // With the critical path shown every event is dimmed; the slices on the path are painted
        // over them from the path bars (paintHighlights), so a long event with a short on-path
        // slice shows only that slice in the path colour.
        const bool onPath = dim && flags && highlight::onPath(flags[e]);
        if (dim) {
            bucket = kNormalBuckets + bucket;
        } else if (shiftRef_) {
            bucket = kShiftBase + shiftBin(track.start[e] - shiftRef_->start[e], shiftScale_);
        } else if (deltas_) {
            const int b = deltaRef_ ? deltaRef_[e] : kNotCompared;
            bucket = b < 0 ? kNormalBuckets + bucket : kDeltaBase + b;
        }
        if (narrow && pendNarrow && bucket == pendBucket && x0 <= pendX1) {
            pendX1 = std::max(pendX1, x1);
        } else {
            flush();
            pendX0 = x0, pendX1 = x1, pendBucket = bucket, pendNarrow = narrow;
            ++stats.boxes;
        }
        if (matches && ev.name[e] < matches->size() && (*matches)[ev.name[e]] &&
            (marks_.matches.empty() || marks_.matches.back() != QRect(x0, top, x1 - x0, h)))
            marks_.matches.emplace_back(x0, top, x1 - x0, h);
        if (labels && x1 - x0 >= kMinLabelWidth && (!dim || onPath))
            marks_.labels.push_back({QRect(std::max(x0, 0), top, std::min(x1, width) - std::max(x0, 0), h),
                                     rank, ev.name[e], cat});
    };
    std::size_t pos = TimelineData::firstEndingAfter(lane, t0);
    if (const int level = TimelineData::coarseLevel(lane, m.nsPerPixel); level >= 0) {
        // Zoomed out: events from before the window that reach into it, then one bucket lookup
        // per pixel column.
        if (pos < lane.size && lane.start[pos] < t0) {
            const std::size_t next = std::max(TimelineData::firstStartingAt(lane, t0), pos + 1);
            box(lane.event(TimelineData::longest(track, lane, pos, next)), clampX(-1.0, width));
        }
        TimeNs from = m.columnStart(0);
        for (int c = 0; c < width; ++c) {
            const TimeNs to = m.columnStart(c + 1);
            const std::uint32_t best = TimelineData::coarseLongest(track, lane, level, from, to);
            from = to;
            if (best == Lane::kNone) continue;
            box(lane.event(best), clampX(std::max(m.x(lane.start[best]), static_cast<double>(c)), width));
        }
        flush();
        return;
    }
    while (pos < lane.size && lane.start[pos] < t1) {
        const double xs = m.x(lane.start[pos]);
        const auto column = static_cast<std::int64_t>(std::floor(std::max(xs, -1.0)));
        std::size_t next = TimelineData::nextStartingAt(lane, pos, m.columnStart(column + 1));
        next = std::max(next, pos + 1);
        const std::size_t best = next == pos + 1 ? pos : TimelineData::longest(track, lane, pos, next);
        box(lane.event(best), clampX(next == pos + 1 ? xs : static_cast<double>(column), width));
        pos = next;
    }
    flush();
}

void EventsPass::paint(const RenderFrame& f) {
    QPainter& p = f.p;
    const int width = f.size.width();
    p.fillRect(QRect(QPoint(0, 0), f.size), palette::background());
    // Row backgrounds and grid.
    const auto& rows = f.layout.rows();
    for (int i = f.firstRow; i < f.lastRow; ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        const QRect r(0, row.y - f.scrollY, width, row.height);
        p.fillRect(r, row.groupRow()      ? palette::groupHeader()
                      : row.header()      ? palette::rankHeader()
                      : row.exposedLane() ? palette::exposedLane()
                                          : palette::laneBackground(i % 2 != 0));
    }
    p.setPen(palette::grid());
    for (const Tick& t : axisTicks(f.m, width, 16, f.state.origin))
        if (t.major) p.drawLine(QPointF(t.x, 0), QPointF(t.x, f.size.height()));
    collect(f);
    fill(p);
}

void EventsPass::collect(const RenderFrame& f) {
    const RenderState& state = f.state;
    const TimelineData& data = f.data;
    const int width = f.size.width();
    const auto& rows = f.layout.rows();
    shiftScale_ = state.shiftScale;
    deltas_ = state.deltas;
    for (auto& b : batches_)
        b.clear();
    marks_.labels.clear();
    marks_.matches.clear();
    for (int i = f.firstRow; i < f.lastRow; ++i) {
        const Row& row = rows[static_cast<std::size_t>(i)];
        if (row.header() && row.collapsed) {
            // A collapsed rank keeps a summary in its header row: its GPU streams folded into one
            // strip (compute, communication, copies; critical-path colours when those are shown), so
            // that 64 collapsed ranks still show where each one is busy.
            const auto r = static_cast<std::size_t>(row.rank);
            const int top = row.y - f.scrollY + row.stripTop();
            if (top > f.size.height() || top + row.height < 0) continue;
            const bool dim = state.criticalPath && state.highlights;
            for (std::size_t k = 0; k < data.ranks()[r].tracks.size(); ++k) {
                const TrackTimeline& track = data.track(r, k);
                if (!track.track->isGpu() || track.lanes.empty()) continue;
                const TrackHighlights* th = dim ? state.highlights->track(r, k) : nullptr;
                const std::uint8_t* flags = th && !th->flags.empty() ? th->flags.data() : nullptr;
                shiftRef_ = shiftTrack(state, r, k);
                deltaRef_ = deltas_ ? deltas_->track(r, k) : nullptr;
                paintLane(data, row.rank, track, track.lanes[0], f.m, width, top, flags, dim, nullptr,
                          f.stats, row.stripHeight(), false);
                ++f.stats.summaryLanes;
            }
            continue;
        }
        if (!row.isTrack()) continue;
        const auto rank = static_cast<std::size_t>(row.rank);
        const auto trackIndex = static_cast<std::size_t>(row.track);
        const TrackTimeline& track = data.track(rank, trackIndex);
        const int lanes = std::min(row.lanes, static_cast<int>(track.lanes.size()));
        const bool dim = state.criticalPath && state.highlights;
        const TrackHighlights* th = dim ? state.highlights->track(rank, trackIndex) : nullptr;
        const std::uint8_t* flags = th && !th->flags.empty() ? th->flags.data() : nullptr;
        const std::vector<bool>* matches =
            state.matches && rank < state.matches->size() && !(*state.matches)[rank].empty()
                ? &(*state.matches)[rank]
                : nullptr;
        shiftRef_ = shiftTrack(state, rank, trackIndex);
        deltaRef_ = deltas_ ? deltas_->track(rank, trackIndex) : nullptr;
        for (int l = 0; l < lanes; ++l) {
            const int top = row.y - f.scrollY + RowLayout::laneY(l);
            if (top > f.size.height() || top + RowLayout::kLaneHeight < 0) continue;
            paintLane(data, row.rank, track, track.lanes[static_cast<std::size_t>(l)], f.m, width, top, flags,
                      dim, matches, f.stats);
        }
    }
    shiftRef_ = nullptr;
    deltaRef_ = nullptr;
    deltas_ = nullptr;
}

void EventsPass::fill(QPainter& p) {
    p.setPen(Qt::NoPen);
    for (int b = 0; b < kBuckets; ++b) {
        auto& batch = batches_[static_cast<std::size_t>(b)];
        if (batch.empty()) continue;
        if (b < kNormalBuckets)
            p.setBrush(palette::color(static_cast<Category>(b / palette::kShades), b % palette::kShades));
        else if (b < 2 * kNormalBuckets)
            p.setBrush(palette::dimmed(static_cast<Category>((b - kNormalBuckets) / palette::kShades),
                                       (b - kNormalBuckets) % palette::kShades));
        else if (b < kShiftBase)
            p.setBrush(palette::pathColor(static_cast<PathLabel>(b - 2 * kNormalBuckets)));
        else if (b < kDeltaBase)
            p.setBrush(shiftColour(b - kShiftBase));
        else
            p.setBrush(deltaColour(b - kDeltaBase));
        p.drawRects(batch.data(), static_cast<int>(batch.size()));
    }
}

void LabelsPass::setFont(const QFont& f) {
    font_ = f;
    QFontMetrics fm(font_);
    charWidth_ = std::max(1, fm.averageCharWidth() + fm.averageCharWidth() / 6);
    ellipsisWidth_ = fm.horizontalAdvance(QChar(0x2026));
    labels_.clear();
    fontReady_ = true;
}

const LabelsPass::Label& LabelsPass::label(const TimelineData& data, int rank, StringId name) {
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

void LabelsPass::paint(const RenderFrame& f) {
    QPainter& p = f.p;
    p.setBrush(Qt::NoBrush);
    p.setFont(font_);
    for (const EventMarks::Label& pl : marks_.labels) {
        const Label& l = label(f.data, pl.rank, pl.name);
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
        ++f.stats.labels;
    }
}

void MatchesPass::paint(const RenderFrame& f) {
    if (marks_.matches.empty()) return;
    f.p.setBrush(Qt::NoBrush);
    f.p.setPen(QPen(palette::findMatch(), 2));
    for (const QRect& r : marks_.matches)
        f.p.drawRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5));
    f.stats.matches = static_cast<int>(marks_.matches.size());
}

EventId TimelineRenderer::hitTest(const TimelineData& data, const RowLayout& layout, const TimeMapping& m,
                                  double x, int y) {
    const int ri = layout.rowAt(y);
    if (ri < 0) return {};
    const Row& row = layout.rows()[static_cast<std::size_t>(ri)];
    if (row.header() && row.collapsed) {
        // A collapsed rank's summary strip folds its GPU streams' top lanes: the longest of their
        // events under the pointer, as the strip shows it.
        const auto r = static_cast<std::size_t>(row.rank);
        EventId best;
        TimeNs longest = -1;
        for (std::size_t k = 0; k < data.ranks()[r].tracks.size(); ++k) {
            const TrackTimeline& track = data.track(r, k);
            if (!track.track->isGpu() || track.lanes.empty()) continue;
            const std::int64_t e = TimelineData::hitTest(track, track.lanes[0], m.time(x), m.duration(2.0));
            if (e < 0 || track.duration[e] <= longest) continue;
            longest = track.duration[e];
            best = {row.rank, {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(e)}};
        }
        return best;
    }
    if (!row.isTrack()) return {};
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
