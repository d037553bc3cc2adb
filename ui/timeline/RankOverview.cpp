#include "RankOverview.h"
#include "SimulationModel.h"

#include "Palette.h"
#include "RankGroups.h"
#include "TimeFormat.h"
#include "TimelineView.h"
#include "TrackState.h"
#include "ViewController.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <numeric>

namespace sl::ui {

namespace {
constexpr int kTitle = 30; // two lines: "Ranks  measured", then who is late
constexpr int kGroupGap = 3;
constexpr int kMaxLine = 8;
} // namespace

RankOverview::RankOverview(TrackState* tracks, ViewController* view, TimelineView* pane, QWidget* parent)
    : QWidget(parent), tracks_(tracks), view_(view), pane_(pane) {
    setObjectName(QStringLiteral("rankOverview"));
    setMouseTracking(true);
    connect(tracks_, &TrackState::changed, this, [this] {
        reorder();
        update();
    });
    connect(view_, &ViewController::scrollYChanged, this, qOverload<>(&QWidget::update));
}

void RankOverview::setData(std::shared_ptr<const TraceSet> set, std::vector<RankBreakdown> breakdown,
                           const CollectiveArrivals* arrivals, const ExecutionGraph* graph) {
    set_ = std::move(set);
    labels_ = set_ ? RankLabels(*set_) : RankLabels();
    breakdown_ = std::move(breakdown);
    const std::size_t n = set_ ? set_->ranks.size() : 0;
    madeWait_.assign(n, 0);
    waited_.assign(n, 0);
    latest_ = -1;
    pending_.clear();
    if (arrivals && graph && arrivals->ranks.size() == n) {
        const LateRank late = lateRank(*graph, *arrivals);
        madeWait_ = late.madeOthersWait;
        latest_ = late.latest;
        for (const RankWaiting& w : arrivals->ranks)
            waited_[w.rank] = w.waited;
    }
    if (breakdown_.size() != n) breakdown_.resize(n);
    reorder();
    update();
}

void RankOverview::clear() {
    setData(nullptr, {}, nullptr, nullptr);
}

void RankOverview::setPending(std::shared_ptr<const TraceSet> set, const QString& note) {
    if (set_ && set_ == set && pending_.isEmpty()) return; // the data is in
    setData(std::move(set), {}, nullptr, nullptr);
    pending_ = note;
    update();
}

QString RankOverview::headerNote() const {
    if (!set_) return {};
    if (!pending_.isEmpty()) return pending_;
    return latest_ >= 0 ? tr("late: r%1").arg(set_->ranks[static_cast<std::size_t>(latest_)].rank)
                        : tr("late: none");
}

void RankOverview::reorder() {
    order_.clear();
    groupOf_.clear();
    if (!set_ || tracks_->rankCount() != set_->ranks.size()) return;
    const std::vector<int> groups = rankGroups(*set_, tracks_->grouping(), &labels_);
    order_.resize(set_->ranks.size());
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return groups[a] < groups[b]; });
    for (std::size_t r : order_)
        groupOf_.push_back(groups[r]);
}

int RankOverview::top() const {
    return kTitle;
}

int RankOverview::lineHeight() const {
    if (order_.empty()) return kMaxLine;
    int gaps = 0;
    for (std::size_t i = 1; i < groupOf_.size(); ++i)
        gaps += groupOf_[i] != groupOf_[i - 1] ? kGroupGap : 0;
    const int room = height() - top() - gaps - 2;
    return std::clamp(room / static_cast<int>(order_.size()), 1, kMaxLine);
}

QRect RankOverview::lineRect(std::size_t r) const {
    const int h = lineHeight();
    int y = top();
    for (std::size_t i = 0; i < order_.size(); ++i) {
        if (i > 0 && groupOf_[i] != groupOf_[i - 1]) y += kGroupGap;
        if (order_[i] == r) return QRect(0, y, width(), h);
        y += h;
    }
    return {};
}

int RankOverview::rankAt(int y) const {
    const int h = lineHeight();
    int top = this->top();
    for (std::size_t i = 0; i < order_.size(); ++i) {
        if (i > 0 && groupOf_[i] != groupOf_[i - 1]) top += kGroupGap;
        if (y >= top && y < top + h) return static_cast<int>(order_[i]);
        top += h;
    }
    return -1;
}

void RankOverview::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette::gutter());
    QFont f = p.font();
    f.setBold(true);
    p.setFont(f);
    p.setPen(palette::text());
    // "Ranks, measured" on the first line (the card above speaks of the simulated step), who is
    // late on the second; the word shrinks where the column's font is wide.
    const int half = kTitle / 2;
    QString title = tr("Ranks, measured");
    if (p.fontMetrics().horizontalAdvance(title) > width() - 8) title = tr("Measured");
    p.drawText(QRect(4, 0, width() - 8, half), Qt::AlignVCenter | Qt::AlignLeft, title);
    p.setFont(font());
    p.drawText(QRect(4, half, width() - 8, kTitle - half), Qt::AlignVCenter | Qt::AlignLeft, headerNote());
    if (order_.empty()) return;
    TimeNs longest = 1, mostWait = 0;
    for (const RankBreakdown& b : breakdown_)
        longest = std::max(longest, b.span);
    for (TimeNs w : madeWait_)
        mostWait = std::max(mostWait, w);
    const int h = lineHeight();
    const int barH = std::max(1, h - (h > 3 ? 1 : 0));
    const int left = 3, barW = width() - left - 4;
    // The ranks shown in the measured pane, for the frame.
    std::vector<bool> shown(order_.size() > 0 ? set_->ranks.size() : 0, false);
    if (pane_) {
        const int y0 = view_->scrollY(), y1 = y0 + pane_->height();
        for (const Row& row : pane_->layout().rows())
            if (!row.pinned && row.y + row.height > y0 && row.y < y1 &&
                static_cast<std::size_t>(row.rank) < shown.size())
                shown[static_cast<std::size_t>(row.rank)] = true;
    }
    int frameTop = -1, frameBottom = -1;
    for (std::size_t r = 0; r < order_.size(); ++r) {
        const std::size_t rank = order_[r];
        const QRect line = lineRect(rank);
        if (shown[rank]) {
            if (frameTop < 0) frameTop = line.top();
            frameBottom = line.bottom();
        }
        if (!pending_.isEmpty()) { // no steps yet: the line alone, still a place to click
            p.fillRect(QRect(left, line.top(), barW, barH), QColor(0xdee2e6));
            continue;
        }
        const RankBreakdown& b = breakdown_[rank];
        const double scale = static_cast<double>(barW) / static_cast<double>(longest);
        int x = left;
        const auto part = [&](TimeNs t, const QColor& c) {
            const int w = static_cast<int>(static_cast<double>(t) * scale + 0.5);
            if (w > 0) p.fillRect(QRect(x, line.top(), w, barH), c);
            x += w;
        };
        // Busy (compute), exposed communication, the rest of the span idle (waiting).
        part(b.compute, palette::color(Category::Compute));
        part(b.exposedCommunication, palette::exposed());
        part(std::max<TimeNs>(0, b.span - b.compute - b.exposedCommunication), QColor(0xadb5bd));
        if (mostWait > 0 && madeWait_[rank] > 0) {
            // The time it made the others wait: an orange tick from the right edge, as long as its
            // share of the most any rank made them wait.
            const int w = std::max(2, static_cast<int>(static_cast<double>(madeWait_[rank]) /
                                                       static_cast<double>(mostWait) * barW * 0.5));
            p.fillRect(QRect(left + barW - w, line.top(), w, barH), QColor(0xf76707));
        }
    }
    // The rank the others wait for: a pointer at its line.
    if (latest_ >= 0) {
        const QRect line = lineRect(static_cast<std::size_t>(latest_));
        const int cy = line.center().y();
        QPolygon mark;
        mark << QPoint(width() - 1, cy - 4) << QPoint(width() - 6, cy) << QPoint(width() - 1, cy + 4);
        p.setPen(Qt::NoPen);
        p.setBrush(palette::text());
        p.drawPolygon(mark);
    }
    if (frameTop >= 0) {
        p.setPen(QPen(palette::text(), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(1, frameTop - 1, width() - 3, frameBottom - frameTop + 2));
    }
}

void RankOverview::reveal(std::size_t r) {
    if (!set_ || r >= set_->ranks.size() || !pane_) return;
    if (tracks_->grouping() != RankGrouping::None) {
        const std::vector<int> groups = rankGroups(*set_, tracks_->grouping(), &labels_);
        tracks_->setGroupCollapsed(groups[r], false);
    }
    for (const Row& row : pane_->layout().rows())
        if (row.header() && static_cast<std::size_t>(row.rank) == r) {
            view_->setScrollY(row.y);
            return;
        }
    // Hidden by the filter: clear it, then scroll.
    tracks_->setFilter({});
    for (const Row& row : pane_->layout().rows())
        if (row.header() && static_cast<std::size_t>(row.rank) == r) {
            view_->setScrollY(row.y);
            return;
        }
}

void RankOverview::mousePressEvent(QMouseEvent* event) {
    const int r = rankAt(event->position().toPoint().y());
    if (r >= 0) reveal(static_cast<std::size_t>(r));
}

QString RankOverview::tooltipFor(std::size_t r) const {
    if (!set_ || r >= breakdown_.size()) return {};
    const RankBreakdown& b = breakdown_[r];
    const auto ms = [](TimeNs t) { return formatDuration(t); };
    QString text = tr("%1\nstep (GPU span) %2: compute %3, exposed communication %4, idle %5")
                       .arg(labels_.label(r), ms(b.span), ms(b.compute), ms(b.exposedCommunication),
                            ms(std::max<TimeNs>(0, b.span - b.compute - b.exposedCommunication)));
    if (madeWait_[r] > 0 || waited_[r] > 0)
        text += tr("\nmade the others wait %1 at collectives (a pipeline's sends and receives aside); "
                   "waited %2 for them")
                    .arg(ms(madeWait_[r]), ms(waited_[r]));
    if (!pending_.isEmpty()) text += QLatin1Char('\n') + pending_;
    return text + tr("\nMeasured (the trace); the result card speaks of the simulated step.");
}

bool RankOverview::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int r = rankAt(help->pos().y());
        if (help->pos().y() < kTitle && set_)
            // Rich text, so the tooltip wraps instead of running off a narrow window.
            QToolTip::showText(help->globalPos(),
                               QStringLiteral("<p>%1</p>")
                                   .arg(tr("Measured: the ranks' steps in the trace and who arrived last at "
                                           "its collectives (a pipeline's sends and receives aside). The "
                                           "result card names what limits the simulated step of the "
                                           "scenario shown, so under a what-if the two may differ.")
                                            .toHtmlEscaped()),
                               this);
        else if (r >= 0)
            QToolTip::showText(help->globalPos(), tooltipFor(static_cast<std::size_t>(r)), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void RankOverview::followSimulation(const SimulationModel* model) {
    connect(model, &SimulationModel::changed, this, [this, model](const SimOutput& output) {
        if (!output.analysis || !model->traceSet()) return;
        setData(model->traceSet(), output.analysis->measured, &model->arrivals(), output.graph.get());
        setVisible(model->traceSet()->ranks.size() >= 4);
    });
}

} // namespace sl::ui
