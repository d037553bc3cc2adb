#include "EmbeddingTablesPanel.h"

#include "SimRunner.h"

#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace sl::ui {

namespace {
constexpr int kLabelWidth = 64;
constexpr int kBarHeight = 9;
constexpr int kRowHeight = 2 * kBarHeight + 5;
constexpr int kTop = 18; // the scale line

// One colour per table, far apart for neighbours (a golden-angle walk round the hue circle).
QColor tableColour(int table) {
    return QColor::fromHsv((table * 137) % 360, 120, 215);
}
} // namespace

EmbeddingBars::EmbeddingBars(const EmbeddingTablesModel* model, QWidget* parent)
    : QWidget(parent), model_(model) {
    setObjectName(QStringLiteral("embeddingBars"));
    setMouseTracking(true);
    connect(model_, &EmbeddingTablesModel::viewChanged, this, [this] {
        updateGeometry();
        update();
    });
}

QSize EmbeddingBars::sizeHint() const {
    return {460, kTop + kRowHeight * std::max(1, model_->view().worldSize) + 4};
}

QSize EmbeddingBars::minimumSizeHint() const {
    return {200, kTop + kRowHeight * std::max(1, model_->view().worldSize) + 4};
}

std::vector<EmbeddingBars::Segment> EmbeddingBars::layoutSegments() const {
    std::vector<Segment> out;
    const EmbeddingPlanView& v = model_->view();
    if (!v.any()) return out;
    const double maxUs = std::max(1e-9, *std::max_element(v.lookupUs.begin(), v.lookupUs.end()));
    const double maxBytes = std::max(1e-9, *std::max_element(v.sentBytes.begin(), v.sentBytes.end()));
    const int width = std::max(10, this->width() - kLabelWidth - 8);
    std::vector<double> atUs(static_cast<std::size_t>(v.worldSize), 0.0), atBytes(atUs);
    for (const EmbeddingShardShare& s : v.shards) {
        const auto r = static_cast<std::size_t>(s.rank);
        if (r >= atUs.size()) continue;
        const int y = kTop + s.rank * kRowHeight;
        auto span = [&](double at, double value, double max) {
            const int x0 = kLabelWidth + static_cast<int>(at / max * width);
            const int x1 = kLabelWidth + static_cast<int>((at + value) / max * width);
            return std::pair{x0, std::max(x0 + 1, x1)};
        };
        const auto [u0, u1] = span(atUs[r], s.lookupUs, maxUs);
        out.push_back({s.table, s.rank, QRect(u0, y, u1 - u0, kBarHeight), false});
        if (s.sentBytes > 0) {
            const auto [b0, b1] = span(atBytes[r], s.sentBytes, maxBytes);
            out.push_back({s.table, s.rank, QRect(b0, y + kBarHeight + 1, b1 - b0, kBarHeight), true});
        }
        atUs[r] += s.lookupUs;
        atBytes[r] += s.sentBytes;
    }
    return out;
}

std::pair<int, int> EmbeddingBars::segmentAt(QPoint p) const {
    for (const Segment& s : layoutSegments())
        if (s.rect.contains(p)) return {s.table, s.rank};
    return {-1, -1};
}

QRect EmbeddingBars::segmentRect(int table, int rank) const {
    for (const Segment& s : layoutSegments())
        if (s.table == table && s.rank == rank && !s.bytes) return s.rect;
    return {};
}

void EmbeddingBars::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const EmbeddingPlanView& v = model_->view();
    if (!v.any()) return;
    p.setPen(palette().text().color());
    const double maxUs = *std::max_element(v.lookupUs.begin(), v.lookupUs.end());
    const double maxBytes = *std::max_element(v.sentBytes.begin(), v.sentBytes.end());
    p.drawText(QRect(kLabelWidth, 0, width() - kLabelWidth, kTop), Qt::AlignLeft | Qt::AlignVCenter,
               tr("upper: lookup time (max %1 us); lower: pooled bytes sent (max %2 kB)")
                   .arg(maxUs, 0, 'f', 1)
                   .arg(maxBytes / 1e3, 0, 'f', 1));
    for (int r = 0; r < v.worldSize; ++r)
        p.drawText(QRect(0, kTop + r * kRowHeight, kLabelWidth - 6, 2 * kBarHeight + 1),
                   Qt::AlignRight | Qt::AlignVCenter, tr("rank %1").arg(r));
    for (const Segment& s : layoutSegments()) {
        QColor c = tableColour(s.table);
        if (s.bytes) c = c.darker(125);
        p.fillRect(s.rect, c);
        p.setPen(palette().base().color());
        p.drawLine(s.rect.topRight(), s.rect.bottomRight()); // the border between two tables
    }
}

void EmbeddingBars::fillMenu(QMenu& menu, int table, int rank) {
    const EmbeddingPlanView& v = model_->view();
    const QString name = model_->tableName(table);
    for (int r = 0; r < v.worldSize; ++r) {
        if (r == rank) continue;
        QAction* a = menu.addAction(tr("Move table %1 to rank %2").arg(name).arg(r));
        a->setObjectName(QStringLiteral("moveTo%1").arg(r));
        connect(a, &QAction::triggered, this, [this, table, r] { emit moveRequested(table, r); });
    }
}

void EmbeddingBars::contextMenuEvent(QContextMenuEvent* e) {
    const auto [table, rank] = segmentAt(e->pos());
    if (table < 0) return;
    QMenu menu(this);
    fillMenu(menu, table, rank);
    menu.exec(e->globalPos());
}

bool EmbeddingBars::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    const auto [table, rank] = segmentAt(help->pos());
    if (table < 0) {
        QToolTip::hideText();
        return true;
    }
    for (const EmbeddingShardShare& s : model_->view().shards)
        if (s.table == table && s.rank == rank) {
            QToolTip::showText(
                help->globalPos(),
                tr("table %1 on rank %2: lookups %3 us, pooled embeddings sent %4 kB per step\n"
                   "right-click to move it to another rank")
                    .arg(model_->tableName(table))
                    .arg(rank)
                    .arg(s.lookupUs, 0, 'f', 1)
                    .arg(s.sentBytes / 1e3, 0, 'f', 1),
                this);
            break;
        }
    return true;
}

EmbeddingTablesPanel::EmbeddingTablesPanel(QWidget* parent)
    : QWidget(parent), model_(new EmbeddingTablesModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("embeddingSummary"));
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    // The bars beside the tables: the dock sits at the bottom of the window, wide and low.
    auto* row = new QHBoxLayout;
    layout->addLayout(row, 1);
    bars_ = new EmbeddingBars(model_, this);
    row->addWidget(bars_, 1, Qt::AlignTop);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("embeddingTables"));
    table_->setModel(model_);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(20);
    table_->horizontalHeader()->setStretchLastSection(true);
    row->addWidget(table_, 1);
    connect(bars_, &EmbeddingBars::moveRequested, this,
            [this](int table, int rank) { emit planChosen(model_->planWithTableOn(table, rank)); });
    connect(model_, &EmbeddingTablesModel::viewChanged, this, &EmbeddingTablesPanel::refresh);
    refresh();
}

void EmbeddingTablesPanel::setSimulation(const SimOutput& output) {
    model_->setSimulation(output.graph, output.knobs);
}

void EmbeddingTablesPanel::clear() {
    model_->clear();
}

QString EmbeddingTablesPanel::summary() const {
    return summary_->text();
}

void EmbeddingTablesPanel::refresh() {
    const EmbeddingPlanView& v = model_->view();
    if (!v.any()) {
        summary_->setText(tr("No embedding lookups in this trace."));
    } else {
        const auto busiest = std::max_element(v.lookupUs.begin(), v.lookupUs.end());
        QString text = tr("%1 tables on %2 ranks (%3), %4 plan. Busiest rank %5: %6 us of lookups. "
                          "Right-click a table's segment to move it to another rank.")
                           .arg(v.tables.tables.size())
                           .arg(v.worldSize)
                           .arg(v.tables.inferred ? tr("inferred evenly from the trace")
                                                  : QString::fromStdString(v.tables.source))
                           .arg(v.traced ? tr("the traced") : tr("the scenario's"))
                           .arg(busiest - v.lookupUs.begin())
                           .arg(*busiest, 0, 'f', 1);
        if (!v.error.empty()) text += QStringLiteral("\n") + QString::fromStdString(v.error);
        summary_->setText(text);
    }
    table_->resizeColumnsToContents();
    if (v.any() != available_) {
        available_ = v.any();
        emit availabilityChanged(available_);
    }
}

} // namespace sl::ui
