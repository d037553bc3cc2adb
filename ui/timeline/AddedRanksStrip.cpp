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

namespace sl::ui {

namespace {
constexpr int kScrollWidth = 16; // the panes' scroll bar column: the time areas line up

QString ms(TimeNs t) {
    return QString::number(static_cast<double>(t) / 1e6, 'f', 2) + QStringLiteral(" ms");
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
    result_.reset();
    graph_.reset();
    gpuOps_.clear();
    rows_.clear();
    world_ = 0;
    hide();
}

void AddedRanksStrip::setSimulation(std::shared_ptr<const SimResult> result,
                                    std::shared_ptr<const ExecutionGraph> graph) {
    clear();
    if (!result || !graph || result->addedRanks.empty() || result->nodes.size() != graph->nodes.size())
        return;
    const AddedRankTimes& added = result->addedRanks;
    const TraceSet& set = *graph->trace;
    for (std::size_t a = 0; a < added.count(); ++a)
        rows_.push_back({static_cast<std::int32_t>(a), added.rankId[a], added.source[a],
                         set.ranks[added.source[a]].rank, added.summary[a].simulated(), false});
    // Slowest first; a rank more than 1% slower than the median added rank is flagged.
    std::vector<TimeNs> steps;
    for (const Row& r : rows_)
        steps.push_back(r.step);
    std::nth_element(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(steps.size() / 2),
                     steps.end());
    const TimeNs median = steps[steps.size() / 2];
    for (Row& r : rows_)
        r.slow = static_cast<double>(r.step) > 1.01 * static_cast<double>(median);
    std::stable_sort(rows_.begin(), rows_.end(), [](const Row& x, const Row& y) {
        return x.step != y.step ? x.step > y.step : x.rank < y.rank;
    });
    gpuOps_.assign(set.ranks.size(), {});
    std::vector<std::uint8_t> needed(set.ranks.size(), 0);
    for (std::uint32_t s : added.source)
        needed[s] = 1;
    for (NodeId n = 0; n < graph->nodes.size(); ++n) {
        const GraphNode& node = graph->nodes[n];
        if (!needed[node.rank] || (node.kind != NodeKind::GpuOp && node.kind != NodeKind::Collective))
            continue;
        const bool comm = node.kind == NodeKind::Collective || isCommunicationKernelName(graph->nodeName(n));
        gpuOps_[node.rank].push_back({n, comm});
    }
    world_ = result->setup.world;
    result_ = std::move(result);
    graph_ = std::move(graph);
    updateScrollBar();
    updateGeometry();
    show();
    update();
}

QString AddedRanksStrip::rowLabel(const Row& row) {
    return tr("rank %1 (as %2)  %3").arg(row.rank).arg(row.sourceRank).arg(ms(row.step));
}

std::vector<AddedRanksStrip::Column> AddedRanksStrip::columns(int row, const TimeMapping& m,
                                                              int width) const {
    std::vector<Column> out(static_cast<std::size_t>(std::max(0, width)));
    if (!result_ || row < 0 || row >= static_cast<int>(rows_.size()) || width <= 0) return out;
    const Row& r = rows_[static_cast<std::size_t>(row)];
    const AddedRankTimes& added = result_->addedRanks;
    const TimeNs lo = m.columnStart(0);
    const TimeNs hi = m.columnStart(width);
    for (const auto& [node, comm] : gpuOps_[r.source]) {
        const std::size_t slot = added.slot({node, r.added});
        const TimeNs s = added.start[slot];
        const TimeNs end = added.end[slot];
        if (s < 0 || end <= s || end <= lo || s >= hi) continue; // outside the window: culled
        // The column holding s (columns are [columnStart(c), columnStart(c + 1))).
        auto c = static_cast<std::int64_t>(std::clamp(std::floor(m.x(s)), 0.0, width - 1.0));
        while (c > 0 && m.columnStart(c) > s)
            --c;
        while (c + 1 < width && m.columnStart(c + 1) <= s)
            ++c;
        for (; c < width && m.columnStart(c) < end; ++c) {
            const TimeNs overlap = std::min(end, m.columnStart(c + 1)) - std::max(s, m.columnStart(c));
            if (overlap <= 0) continue;
            Column& col = out[static_cast<std::size_t>(c)];
            (comm ? col.communication : col.compute) += overlap;
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
    QString header =
        (rows_.size() == 1 ? tr("%1 rank added by dp.degree (simulated job: %2 ranks), simulated on "
                                "its own")
                           : tr("%1 ranks added by dp.degree (simulated job: %2 ranks), each "
                                "simulated on its own; slowest first"))
            .arg(rows_.size())
            .arg(world_);
    if (!rows_.empty() && rows_.front().slow)
        header += tr(": rank %1 is the slowest (%2)").arg(rows_.front().rank).arg(ms(rows_.front().step));
    p.drawText(QRect(6, 0, width() - 12, kHeaderHeight), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(header, Qt::ElideRight, width() - 12));
    if (!result_) return;
    const TimeMapping m = controller_->mapping();
    const int w = areaWidth();
    const QColor computeColour = palette::color(Category::Compute);
    const QColor commColour = palette::color(Category::Communication);
    const int first = firstVisibleRow();
    const int last = std::min(static_cast<int>(rows_.size()), first + kMaxVisibleRows);
    for (int r = first; r < last; ++r) {
        const int y = kHeaderHeight + (r - first) * kRowHeight;
        p.fillRect(QRect(g, y, w, kRowHeight), palette::laneBackground(r % 2 == 1));
        const Row& row = rows_[static_cast<std::size_t>(r)];
        p.setPen(row.slow ? palette::color(Category::Communication).darker(130) : palette::text());
        QFont label = small;
        label.setBold(row.slow);
        p.setFont(label);
        p.drawText(QRect(6, y, g - 10, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   p.fontMetrics().elidedText(rowLabel(row), Qt::ElideRight, g - 10));
        p.setFont(small);
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
            QToolTip::showText(
                help->globalPos(),
                tr("Rank %1: added by dp.degree, runs the program of rank %2 with times of its "
                   "own (not measured); simulated step %3")
                    .arg(row.rank)
                    .arg(row.sourceRank)
                    .arg(ms(row.step)),
                this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace sl::ui
