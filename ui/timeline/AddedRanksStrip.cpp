#include "AddedRanksStrip.h"

#include "AddedRanksPaint.h"
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
    model_.reset();
    hide();
}

void AddedRanksStrip::setSimulation(std::shared_ptr<const SimResult> result,
                                    std::shared_ptr<const ExecutionGraph> graph) {
    clear();
    model_ = AddedRanks::of(std::move(result), std::move(graph));
    if (!model_) return;
    updateScrollBar();
    updateGeometry();
    show();
    update();
}

const std::vector<AddedRanksStrip::Row>& AddedRanksStrip::rows() const {
    static const std::vector<Row> none;
    return model_ ? model_->rows() : none;
}

std::vector<AddedRanksStrip::Column> AddedRanksStrip::columns(int row, const TimeMapping& m,
                                                              int width) const {
    return model_ ? model_->columns(row, m, width)
                  : std::vector<Column>(static_cast<std::size_t>(std::max(0, width)));
}

int AddedRanksStrip::gutter() const {
    return controller_->gutterWidth();
}

int AddedRanksStrip::areaWidth() const {
    return std::max(1, width() - gutter() - kScrollWidth);
}

QSize AddedRanksStrip::sizeHint() const {
    const int shown = std::min(addedCount(), kMaxVisibleRows);
    return {600, kHeaderHeight + shown * kRowHeight + 2};
}

int AddedRanksStrip::firstVisibleRow() const {
    return scroll_->isHidden() ? 0 : scroll_->value();
}

void AddedRanksStrip::updateScrollBar() {
    const int extra = addedCount() - kMaxVisibleRows;
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
    return r < addedCount() ? r : -1;
}

void AddedRanksStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette::background());
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    if (!model_) return;
    AddedRanksArea area;
    area.width = width();
    area.gutter = gutter();
    area.areaWidth = areaWidth();
    area.headerHeight = kHeaderHeight;
    area.rowHeight = kRowHeight;
    area.firstRow = firstVisibleRow();
    area.rowCount = kMaxVisibleRows;
    paintAddedRanks(p, *model_, controller_->mapping(), area, small);
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
            const Row& row = rows()[static_cast<std::size_t>(r)];
            QToolTip::showText(help->globalPos(),
                               tr("Rank %1: added to the job (dp.degree, tp.degree or parallel.gpus), runs "
                                  "the program of rank %2 with times of its "
                                  "own (not measured); simulated step %3")
                                   .arg(row.rank)
                                   .arg(row.sourceRank)
                                   .arg(AddedRanks::stepText(row.step)),
                               this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace sl::ui
