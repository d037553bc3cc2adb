#include "AddedRanksStrip.h"

#include "Palette.h"
#include "ViewController.h"

#include <QHelpEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <map>

namespace sl::ui {

namespace {
constexpr int kScrollWidth = 16; // the panes' scroll bar column: the time areas line up

QString idList(const std::vector<int>& ids, std::size_t from, std::size_t to) {
    QStringList parts;
    for (std::size_t i = from; i < to && i < ids.size(); ++i)
        parts << QString::number(ids[i]);
    return parts.join(QStringLiteral(", "));
}
} // namespace

AddedRanksStrip::AddedRanksStrip(ViewController* controller, QWidget* parent)
    : QWidget(parent), controller_(controller), scroll_(new QScrollBar(Qt::Vertical, this)) {
    setObjectName(QStringLiteral("addedRanksStrip"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    scroll_->setSingleStep(1);
    connect(scroll_, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    connect(controller_, &ViewController::windowChanged, this, qOverload<>(&QWidget::update));
    connect(controller_, &ViewController::gutterWidthChanged, this, qOverload<>(&QWidget::update));
    hide();
}

void AddedRanksStrip::clear() {
    data_.reset();
    rows_.clear();
    added_ = 0;
    world_ = 0;
    hide();
}

void AddedRanksStrip::setSetup(const SimulatedSetup& setup, std::shared_ptr<const TimelineData> simulated) {
    clear();
    if (!simulated) return;
    // Clones of one source are identical (sim/SetupEdits.h): one row per source, in source order.
    std::map<std::uint32_t, std::vector<int>> bySource;
    const std::size_t loaded = simulated->ranks().size();
    for (const SimulatedRank& r : setup.ranks)
        if (!r.measured && r.source < loaded) bySource[r.source].push_back(r.rank);
    for (auto& [source, clones] : bySource) {
        std::sort(clones.begin(), clones.end());
        added_ += static_cast<int>(clones.size());
        rows_.push_back({source, simulated->set().ranks[source].rank, std::move(clones)});
    }
    if (rows_.empty()) return;
    world_ = setup.world;
    data_ = std::move(simulated);
    updateScrollBar();
    updateGeometry();
    show();
    update();
}

QString AddedRanksStrip::rowLabel(const Row& row) {
    const std::size_t n = row.clones.size();
    QString ids = idList(row.clones, 0, kListed);
    if (n > static_cast<std::size_t>(kListed))
        ids += tr(" (+%1 more)").arg(n - static_cast<std::size_t>(kListed));
    return (n == 1 ? tr("rank %1 = rank %2") : tr("ranks %1 = rank %2")).arg(ids).arg(row.sourceRank);
}

std::vector<AddedRanksStrip::Column> AddedRanksStrip::columns(int row, const TimeMapping& m,
                                                              int width) const {
    std::vector<Column> out(static_cast<std::size_t>(std::max(0, width)));
    if (!data_ || row < 0 || row >= static_cast<int>(rows_.size()) || width <= 0) return out;
    const RankTimeline& rt = data_->ranks()[rows_[static_cast<std::size_t>(row)].source];
    const TimeNs lo = m.columnStart(0);
    const TimeNs hi = m.columnStart(width);
    for (const TrackTimeline& t : rt.tracks) {
        if (!t.track->isGpu()) continue;
        const EventColumns& ev = t.track->events;
        // Every lane (GPU annotations may put kernels below depth 0); only the events that reach
        // into the window: an O(visible) pass per frame, like the panes' renderer.
        for (const Lane& lane : t.lanes) {
            for (std::size_t pos = TimelineData::firstEndingAfter(lane, lo);
                 pos < lane.size && lane.start[pos] < hi; ++pos) {
                const std::uint32_t e = lane.event(pos);
                if (!isGpuOp(ev.kind[e]) || t.duration[e] <= 0) continue;
                const TimeNs s = t.start[e];
                const TimeNs end = t.end(e);
                const bool comm = ev.kind[e] == EventKind::Kernel && rt.collective[ev.name[e]] != 0;
                // The column holding s (columns are [columnStart(c), columnStart(c + 1))).
                auto c = static_cast<std::int64_t>(std::clamp(std::floor(m.x(s)), 0.0, width - 1.0));
                while (c > 0 && m.columnStart(c) > s)
                    --c;
                while (c + 1 < width && m.columnStart(c + 1) <= s)
                    ++c;
                for (; c < width && m.columnStart(c) < end; ++c) {
                    const TimeNs overlap =
                        std::min(end, m.columnStart(c + 1)) - std::max(s, m.columnStart(c));
                    if (overlap <= 0) continue;
                    Column& col = out[static_cast<std::size_t>(c)];
                    (comm ? col.communication : col.compute) += overlap;
                }
            }
        }
    }
    return out;
}

int AddedRanksStrip::gutter() const {
    return controller_->gutterWidth();
}

int AddedRanksStrip::areaWidth() const {
    return std::max(1, width() - gutter() - kScrollWidth);
}

QSize AddedRanksStrip::sizeHint() const {
    const int shown = std::min(static_cast<int>(rows_.size()), kMaxVisibleRows);
    return {600, kHeaderHeight + shown * kRowHeight + 2};
}

int AddedRanksStrip::firstVisibleRow() const {
    return scroll_->isHidden() ? 0 : scroll_->value();
}

void AddedRanksStrip::updateScrollBar() {
    const int extra = static_cast<int>(rows_.size()) - kMaxVisibleRows;
    scroll_->setRange(0, std::max(0, extra));
    scroll_->setPageStep(kMaxVisibleRows);
    scroll_->setVisible(extra > 0);
    scroll_->setGeometry(width() - kScrollWidth, kHeaderHeight, kScrollWidth, height() - kHeaderHeight);
}

void AddedRanksStrip::resizeEvent(QResizeEvent*) {
    updateScrollBar();
}

int AddedRanksStrip::rowAt(int y) const {
    if (y < kHeaderHeight) return -1;
    const int r = firstVisibleRow() + (y - kHeaderHeight) / kRowHeight;
    return r < static_cast<int>(rows_.size()) ? r : -1;
}

void AddedRanksStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette::background());
    const int g = gutter();
    p.fillRect(QRect(0, 0, g, height()), palette::gutter());
    p.fillRect(QRect(0, 0, width(), kHeaderHeight), palette::rankHeader());
    p.setPen(palette::grid());
    p.drawLine(0, 0, width(), 0);
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    p.setPen(palette::text());
    const QString header =
        (added_ == 1 ? tr("%1 rank added by dp.degree (simulated job: %2 ranks); it has the "
                          "simulated times of the rank it copies")
                     : tr("%1 ranks added by dp.degree (simulated job: %2 ranks); each has "
                          "the simulated times of the rank it copies"))
            .arg(added_)
            .arg(world_);
    p.drawText(QRect(6, 0, width() - 12, kHeaderHeight), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(header, Qt::ElideRight, width() - 12));
    if (!data_) return;
    const TimeMapping m = controller_->mapping();
    const int w = areaWidth();
    const QColor computeColour = palette::color(Category::Compute);
    const QColor commColour = palette::color(Category::Communication);
    const int first = firstVisibleRow();
    const int last = std::min(static_cast<int>(rows_.size()), first + kMaxVisibleRows);
    for (int r = first; r < last; ++r) {
        const int y = kHeaderHeight + (r - first) * kRowHeight;
        p.fillRect(QRect(g, y, w, kRowHeight), palette::laneBackground(r % 2 == 1));
        p.setPen(palette::text());
        p.drawText(
            QRect(6, y, g - 10, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
            p.fontMetrics().elidedText(rowLabel(rows_[static_cast<std::size_t>(r)]), Qt::ElideRight, g - 10));
        // One column per pixel: the busier class's colour, its alpha by how busy the column was
        // (summed over streams, capped at fully busy).
        const std::vector<Column> cols = columns(r, m, w);
        for (int x = 0; x < w; ++x) {
            const Column& c = cols[static_cast<std::size_t>(x)];
            const TimeNs busy = c.compute + c.communication;
            if (busy <= 0) continue;
            const TimeNs span = std::max<TimeNs>(1, m.columnStart(x + 1) - m.columnStart(x));
            QColor colour = c.communication > c.compute ? commColour : computeColour;
            const double v = std::min(1.0, static_cast<double>(busy) / static_cast<double>(span));
            colour.setAlphaF(static_cast<float>(0.25 + 0.75 * v)); // Qt 6 takes float
            p.fillRect(QRectF(g + x, y + 3, 1, kRowHeight - 6), colour);
        }
    }
}

void AddedRanksStrip::wheelEvent(QWheelEvent* event) {
    // Like the panes: the wheel scrolls the rows, Shift+wheel pans, Ctrl+wheel zooms at the cursor.
    const QPoint d = event->angleDelta();
    const int dy = d.y() != 0 ? d.y() : d.x();
    if (event->modifiers() & Qt::ControlModifier)
        controller_->zoomAt(std::pow(1.0015, dy), event->position().x() - gutter());
    else if (event->modifiers() & Qt::ShiftModifier)
        controller_->panPixels(-dy / 2.0);
    else if (d.y() != 0)
        scroll_->setValue(scroll_->value() - d.y() / 120);
    else
        controller_->panPixels(-d.x() / 2.0);
    event->accept();
}

bool AddedRanksStrip::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int r = rowAt(help->pos().y());
        if (r >= 0) {
            const Row& row = rows_[static_cast<std::size_t>(r)];
            QToolTip::showText(help->globalPos(),
                               tr("Ranks %1: added by dp.degree, copies of rank %2 (the same simulated "
                                  "times; not measured)")
                                   .arg(idList(row.clones, 0, row.clones.size()))
                                   .arg(row.sourceRank),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace sl::ui
