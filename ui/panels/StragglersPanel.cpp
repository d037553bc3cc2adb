#include "StragglersPanel.h"
#include "SimulationModel.h"

#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace sl::ui {

namespace {

constexpr int kCellW = 14;
constexpr int kCellH = 12;

QString ms(TimeNs t) {
    return QString::number(static_cast<double>(t) / 1e6, 'f', 3);
}

// A number cell that sorts by value.
QTableWidgetItem* numberItem(double v, const QString& text) {
    auto* item = new QTableWidgetItem;
    item->setData(Qt::DisplayRole, v);
    item->setData(Qt::ToolTipRole, text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// How late a rank arrived at a collective: after the first arrival (0 without an arrival).
TimeNs lateness(const CollectiveArrival& c, std::uint32_t rank, const RankArrival** out = nullptr) {
    for (const RankArrival& a : c.ranks)
        if (a.rank == rank) {
            if (out) *out = &a;
            return a.arrival - c.first;
        }
    return -1;
}

} // namespace

ArrivalHeatMap::ArrivalHeatMap(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("arrivalHeatMap"));
    setMouseTracking(true);
}

void ArrivalHeatMap::setArrivals(const ExecutionGraph* graph, const CollectiveArrivals* arrivals) {
    graph_ = graph;
    arrivals_ = arrivals;
    maxLate_ = 0;
    if (arrivals)
        for (const auto& c : arrivals->collectives)
            for (const auto& a : c.ranks)
                maxLate_ = std::max(maxLate_, a.arrival - c.first);
    updateGeometry();
    resize(sizeHint()); // inside a scroll area that does not resize it
    update();
}

int ArrivalHeatMap::labelWidth() const {
    return fontMetrics().horizontalAdvance(QStringLiteral("r0000 ")) + 4;
}

QSize ArrivalHeatMap::sizeHint() const {
    if (!arrivals_) return {200, 60};
    return {labelWidth() + kCellW * static_cast<int>(arrivals_->collectives.size()) + 4,
            kCellH * static_cast<int>(arrivals_->ranks.size()) + 4};
}

QRect ArrivalHeatMap::cellRect(int rank, int collective) const {
    return {labelWidth() + collective * kCellW, 2 + rank * kCellH, kCellW - 1, kCellH - 1};
}

std::pair<int, int> ArrivalHeatMap::cellAt(QPoint p) const {
    if (!arrivals_ || p.x() < labelWidth() || p.y() < 2) return {-1, -1};
    const int c = (p.x() - labelWidth()) / kCellW, r = (p.y() - 2) / kCellH;
    if (c >= static_cast<int>(arrivals_->collectives.size()) ||
        r >= static_cast<int>(arrivals_->ranks.size()))
        return {-1, -1};
    return {r, c};
}

void ArrivalHeatMap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!arrivals_) return;
    p.setPen(palette().text().color());
    for (std::size_t r = 0; r < arrivals_->ranks.size(); ++r)
        p.drawText(QRect(2, 2 + static_cast<int>(r) * kCellH, labelWidth() - 4, kCellH),
                   Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("r%1").arg(arrivals_->ranks[r].rankId));
    p.setPen(Qt::NoPen);
    for (std::size_t c = 0; c < arrivals_->collectives.size(); ++c)
        for (std::size_t r = 0; r < arrivals_->ranks.size(); ++r) {
            const TimeNs late = lateness(arrivals_->collectives[c], static_cast<std::uint32_t>(r));
            const QRect cell = cellRect(static_cast<int>(r), static_cast<int>(c));
            if (late < 0) { // not a participant
                p.fillRect(cell, palette().window());
                continue;
            }
            const double t = maxLate_ > 0 ? static_cast<double>(late) / static_cast<double>(maxLate_) : 0.0;
            p.fillRect(cell, QColor::fromRgbF(1.0f, static_cast<float>(1.0 - 0.85 * t),
                                              static_cast<float>(1.0 - 0.85 * t)));
        }
}

void ArrivalHeatMap::mousePressEvent(QMouseEvent* e) {
    const auto [r, c] = cellAt(e->position().toPoint());
    if (r >= 0) emit cellActivated(r, c);
}

bool ArrivalHeatMap::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && arrivals_) {
        auto* he = static_cast<QHelpEvent*>(e);
        const auto [r, c] = cellAt(he->pos());
        if (r < 0) {
            QToolTip::hideText();
            return true;
        }
        const CollectiveArrival& col = arrivals_->collectives[static_cast<std::size_t>(c)];
        const RankArrival* a = nullptr;
        const TimeNs late = lateness(col, static_cast<std::uint32_t>(r), &a);
        QString text = tr("rank %1, collective %2 (%3, %4 ranks)")
                           .arg(arrivals_->ranks[static_cast<std::size_t>(r)].rankId)
                           .arg(c)
                           .arg(QString::fromUtf8(collectiveTypeName(col.type).data()))
                           .arg(col.size);
        if (a) text += tr("\narrived %1 ms after the first, waited %2 ms").arg(ms(late), ms(a->waited));
        QToolTip::showText(he->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}

StragglersPanel::StragglersPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("stragglersPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    auto* split = new QSplitter(Qt::Horizontal, this);
    table_ = new QTableWidget(0, 5, split);
    table_->setHorizontalHeaderLabels(
        {tr("Rank"), tr("Made others wait (ms)"), tr("Waited (ms)"), tr("Last at"), tr("Collectives")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    auto* scroll = new QScrollArea(split);
    heat_ = new ArrivalHeatMap(scroll);
    scroll->setWidget(heat_);
    scroll->setWidgetResizable(false);
    split->addWidget(table_);
    split->addWidget(scroll);
    layout->addWidget(split, 1);
    connect(heat_, &ArrivalHeatMap::cellActivated, this, [this](int r, int c) {
        const EventId e = eventAt(r, c);
        if (e.valid()) emit eventActivated(e);
    });
    // A rank row: its latest arrival (the collective where it was most behind).
    connect(table_, &QTableWidget::cellActivated, this, [this](int row, int) {
        const std::uint32_t r = table_->item(row, 0)->data(Qt::UserRole).toUInt();
        int best = -1;
        TimeNs most = -1;
        for (std::size_t c = 0; c < arrivals_.collectives.size(); ++c)
            if (const TimeNs late = lateness(arrivals_.collectives[c], r); late > most) {
                most = late;
                best = static_cast<int>(c);
            }
        const EventId e = best >= 0 ? eventAt(static_cast<int>(r), best) : EventId{};
        if (e.valid()) emit eventActivated(e);
    });
    rebuild();
}

void StragglersPanel::setGraph(std::shared_ptr<const ExecutionGraph> graph) {
    if (graph == graph_ && !fromSummary_) return;
    fromSummary_ = false;
    graph_ = std::move(graph);
    arrivals_ = graph_ ? collectiveArrivals(*graph_) : CollectiveArrivals{};
    rebuild();
}

void StragglersPanel::followSimulation(const SimulationModel* model) {
    connect(model, &SimulationModel::changed, this, [this, model](const SimOutput& output) {
        if (output.graph == graph_ && !fromSummary_) return;
        fromSummary_ = false;
        graph_ = output.graph;
        arrivals_ = model->arrivals(); // computed once per graph, for the rank overview too
        rebuild();
    });
}

void StragglersPanel::setArrivals(CollectiveArrivals arrivals) {
    graph_.reset();
    fromSummary_ = true;
    arrivals_ = std::move(arrivals);
    rebuild();
}

EventId StragglersPanel::eventAt(int rank, int collective) const {
    if (!graph_ || collective < 0 || collective >= static_cast<int>(arrivals_.collectives.size())) return {};
    const RankArrival* a = nullptr;
    lateness(arrivals_.collectives[static_cast<std::size_t>(collective)], static_cast<std::uint32_t>(rank),
             &a);
    if (!a) return {};
    return {static_cast<int>(graph_->nodes[a->node].rank), graph_->nodes[a->node].event};
}

QString StragglersPanel::summary() const {
    return summary_->text();
}

void StragglersPanel::rebuild() {
    table_->setSortingEnabled(false);
    table_->setRowCount(0);
    const bool any = graph_ || fromSummary_;
    heat_->setArrivals(graph_.get(), any ? &arrivals_ : nullptr);
    if (!any || arrivals_.collectives.empty()) {
        summary_->setText(any ? tr("No collectives matched across ranks in this trace.")
                              : tr("Arrivals at every collective, once a trace is open."));
        return;
    }
    table_->setRowCount(static_cast<int>(arrivals_.ranks.size()));
    for (std::size_t i = 0; i < arrivals_.ranks.size(); ++i) {
        const RankWaiting& w = arrivals_.ranks[i];
        const int row = static_cast<int>(i);
        auto* rank = numberItem(w.rankId, tr("rank %1").arg(w.rankId));
        rank->setData(Qt::UserRole, static_cast<uint>(w.rank));
        table_->setItem(row, 0, rank);
        table_->setItem(row, 1,
                        numberItem(static_cast<double>(w.madeOthersWait) / 1e6,
                                   tr("the peers' waits at the collectives it arrived last at")));
        table_->setItem(row, 2,
                        numberItem(static_cast<double>(w.waited) / 1e6, tr("its waits for later arrivals")));
        table_->setItem(row, 3,
                        numberItem(static_cast<double>(w.timesLast), tr("collectives it arrived last at")));
        table_->setItem(row, 4,
                        numberItem(static_cast<double>(w.collectives), tr("collectives it took part in")));
    }
    table_->setSortingEnabled(true);
    table_->sortItems(1, Qt::DescendingOrder);
    table_->resizeColumnsToContents();
    const RankWaiting& top = *std::max_element(
        arrivals_.ranks.begin(), arrivals_.ranks.end(),
        [](const RankWaiting& a, const RankWaiting& b) { return a.madeOthersWait < b.madeOthersWait; });
    std::int64_t waitedAt = 0;
    for (const auto& c : arrivals_.collectives)
        waitedAt += c.spread > 0;
    QString text = top.madeOthersWait > 0 ? tr("Rank %1 made the others wait %2 ms: last at %3 of the %4 "
                                               "collectives where someone waited.")
                                                .arg(top.rankId)
                                                .arg(ms(top.madeOthersWait))
                                                .arg(top.timesLast)
                                                .arg(waitedAt)
                                          : tr("Every rank entered every collective together.");
    if (arrivals_.waitedForPhantoms > 0)
        text += tr(" Waits for peers outside the set (phantom peers): %1 ms.")
                    .arg(ms(arrivals_.waitedForPhantoms));
    summary_->setText(text);
}

} // namespace sl::ui
