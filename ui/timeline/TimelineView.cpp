#include "TimelineView.h"

#include "Annotations.h"
#include "DeltaLegend.h"
#include "Transition.h"

#include "EventText.h"
#include "HighlightModel.h"
#include "Palette.h"
#include "RankLabels.h"
#include "SimulationModel.h"
#include "TimeFormat.h"
#include "TrackState.h"
#include "ViewController.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QVariantAnimation>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace sl::ui {

namespace {
constexpr double kKeyZoom = 1.3;
constexpr double kKeyPanFraction = 0.12;
constexpr int kClickSlop = 4;
} // namespace

TimelineView::TimelineView(ViewController* controller, SelectionModel* selection, TrackState* tracks,
                           QWidget* parent)
    : QWidget(parent), controller_(controller), selection_(selection), tracks_(tracks),
      scroll_(new QScrollBar(Qt::Vertical, this)) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    // Right-drag selects a range; a right click without a drag opens the menu on release instead.
    setContextMenuPolicy(Qt::PreventContextMenu);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(400, 120);
    connect(controller_, &ViewController::windowChanged, this, qOverload<>(&QWidget::update));
    connect(controller_, &ViewController::scrollYChanged, this, [this](int y) {
        scroll_->setValue(y);
        update();
    });
    connect(scroll_, &QScrollBar::valueChanged, controller_, &ViewController::setScrollY);
    connect(selection_, &SelectionModel::eventChanged, this, qOverload<>(&QWidget::update));
    connect(selection_, &SelectionModel::rangeChanged, this, qOverload<>(&QWidget::update));
    connect(tracks_, &TrackState::changed, this, &TimelineView::relayout);
    connect(controller_, &ViewController::gutterWidthChanged, this, [this] {
        // A pane put away (the simulated one while the comparison run holds the lower pane) has a
        // stale size: the panes in view set the width.
        if (!isHidden()) controller_->setViewportWidth(eventArea().width());
        update();
    });
}

void TimelineView::setTitle(const QString& title) {
    title_ = title;
    update();
}

void TimelineView::setHighlights(HighlightModel* model, bool simulatedPane) {
    if (highlights_) disconnect(highlights_, nullptr, this, nullptr);
    highlights_ = model;
    simulatedPane_ = simulatedPane;
    if (highlights_) connect(highlights_, &HighlightModel::changed, this, qOverload<>(&QWidget::update));
    update();
}

void TimelineView::setMatches(const std::vector<std::vector<bool>>* matches) {
    matches_ = matches;
    update();
}

void TimelineView::setEmptyText(const QString& text) {
    emptyText_ = text;
    update();
}

void TimelineView::setNote(const QString& text) {
    note_ = text;
    update();
}

void TimelineView::setData(std::shared_ptr<const TimelineData> timeline) {
    const bool animate = animateNext_ && transitions_ && data_ && timeline && timeline != data_ &&
                         &timeline->set() == &data_->set() && timeline->eventCount() <= kMaxTransitionEvents;
    animateNext_ = false;
    std::shared_ptr<const TimelineData> from = displayed_ ? displayed_ : data_;
    const bool changed = timeline != data_;
    data_ = std::move(timeline);
    renderer_.clearCache();
    if (changed) emit dataChanged();
    if (animate) {
        if (!transition_) {
            transition_ = new QVariantAnimation(this);
            transition_->setDuration(kTransitionMs);
            transition_->setEasingCurve(QEasingCurve::InOutCubic);
            connect(transition_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
                if (!from_ || !data_) return;
                displayed_ = interpolateTimeline(*from_, *data_, v.toDouble());
                update();
            });
            connect(transition_, &QVariantAnimation::finished, this, &TimelineView::stopTransition);
        }
        transition_->stop();
        from_ = std::move(from);
        displayed_ = from_;
        transition_->setStartValue(0.0);
        transition_->setEndValue(1.0);
        transition_->start();
    } else {
        stopTransition();
    }
    relayout();
}

void TimelineView::setTransitions(bool on) {
    transitions_ = on;
    if (!on) stopTransition();
}

void TimelineView::stopTransition() {
    if (transition_) transition_->stop();
    from_.reset();
    displayed_.reset();
    update();
}

void TimelineView::relayout() {
    if (data_ && mapping_ && mapping_->along && tracks_->matches(*mapping_->along))
        layout_.build(data_->set(), *tracks_, *mapping_);
    else if (data_ && !mapping_ && tracks_->matches(data_->set()))
        layout_.build(data_->set(), *tracks_);
    else
        layout_ = {};
    updateScrollBar();
    update();
}

void TimelineView::updateScrollBar() {
    scroll_->setRange(0, std::max(0, layout_.height() - height() + 20));
    scroll_->setPageStep(height());
    scroll_->setSingleStep(RowLayout::kLaneHeight * 2);
    scroll_->setValue(controller_->scrollY());
}

QRect TimelineView::eventArea() const {
    return QRect(gutter(), 0, width() - gutter() - scroll_->width(), height());
}

void TimelineView::resizeEvent(QResizeEvent*) {
    const int sw = scroll_->sizeHint().width();
    scroll_->setGeometry(width() - sw, 0, sw, height());
    if (!isHidden()) controller_->setViewportWidth(eventArea().width());
    updateScrollBar();
}

namespace {
// The shift legend in the pane's top right corner: one swatch per bin, the ends and the middle
// labelled in microseconds (simulated start minus measured start).
void paintShiftLegend(QPainter& p, const QRect& area, TimeNs scale) {
    const int sw = 16, h = 12, pad = 6;
    const double us = static_cast<double>(scale) / 1000.0;
    const QString value = QString::number(us, 'f', us >= 100 ? 0 : 1); // "5810", "2.5": never 5.81e+03
    const QString left = QStringLiteral("-%1 us earlier").arg(value);
    const QString right = QStringLiteral("+%1 us later").arg(value);
    const QFontMetrics fm = p.fontMetrics();
    const int w = fm.horizontalAdvance(left) + fm.horizontalAdvance(right) + kShiftBins * sw + 4 * pad;
    const QRect box(area.right() - w - 10, area.top() + 6, w, h + 2 * pad);
    p.fillRect(box, QColor(255, 255, 255, 230));
    p.setPen(palette::text());
    p.drawText(QRect(box.left() + pad, box.top(), fm.horizontalAdvance(left), box.height()), Qt::AlignVCenter,
               left);
    int x = box.left() + 2 * pad + fm.horizontalAdvance(left);
    for (int b = 0; b < kShiftBins; ++b, x += sw)
        p.fillRect(QRect(x, box.top() + pad, sw, h), shiftColour(b));
    p.drawText(QRect(x + pad, box.top(), fm.horizontalAdvance(right), box.height()), Qt::AlignVCenter, right);
}
} // namespace

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QRect area = eventArea();
    if (!data_) {
        p.fillRect(rect(), palette::background());
        p.setPen(palette::text());
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, emptyText_);
        return;
    }
    const int scrollY = controller_->scrollY();
    // While a transition runs its frame is painted; everything else reads data_ (the new timeline).
    const TimelineData& shown = displayed_ ? *displayed_ : *data_;
    renderer_.paintGutter(p, shown, layout_, *tracks_, height(), scrollY, title_, gutter());
    p.save();
    p.translate(area.topLeft());
    p.setClipRect(QRect(QPoint(0, 0), area.size()));
    RenderState state;
    state.selected = selection_->event();
    state.rangeStart = selection_->rangeStart();
    state.rangeEnd = selection_->rangeEnd();
    state.origin = controller_->boundsStart();
    state.matches = matches_;
    if (highlights_) {
        state.highlights = highlights_->pane(simulatedPane_);
        state.criticalPath = highlights_->criticalPath();
        state.exposed = highlights_->exposed();
        if (highlights_->arrows()) state.links = &highlights_->links();
    }
    state.reference = reference_.get();
    state.differences = differences_.get();
    state.shiftScale = reference_ ? shiftScale_ : 0;
    if (deltas_ && deltas_->set == &shown.set()) state.deltas = deltas_.get();
    if (annotations_) state.notes = &annotations_->notes();
    stats_ = renderer_.paintEvents(p, shown, layout_, controller_->mapping(), area.size(), scrollY, state);
    p.restore();
    if (state.shiftScale > 0) paintShiftLegend(p, area, shiftScale_);
    if (state.deltas) paintDeltaLegend(p, area);
    if (!note_.isEmpty()) {
        QFont f = p.font();
        f.setBold(true);
        p.setFont(f);
        const QRect box = p.fontMetrics().boundingRect(note_).adjusted(-10, -5, 10, 5);
        const QRect r(area.right() - box.width() - 10, area.bottom() - box.height() - 10, box.width(),
                      box.height());
        p.fillRect(r, QColor(255, 243, 205, 235));
        p.setPen(QColor(0x664d03));
        p.drawText(r, Qt::AlignCenter, note_);
    }
}

void TimelineView::setAnnotations(AnnotationModel* model) {
    annotations_ = model;
    if (model) connect(model, &AnnotationModel::changed, this, qOverload<>(&QWidget::update));
    update();
}

void TimelineView::followSimulation(const SimulationModel* model) {
    connect(model, &SimulationModel::changed, this, [this, model](const SimOutput& output) {
        setReference(model->measured());
        setData(output.timeline);
        setNote({});
    });
    connect(model, &SimulationModel::shiftScaleChanged, this, &TimelineView::setShiftScale);
}

void TimelineView::setReference(std::shared_ptr<const TimelineData> reference) {
    reference_ = std::move(reference);
    update();
}

void TimelineView::setDifferences(std::shared_ptr<const ReplayDifferences> differences) {
    if (differences == differences_) return;
    differences_ = std::move(differences);
    update();
}

void TimelineView::setDeltas(std::shared_ptr<const EventDeltas> deltas) {
    deltas_ = std::move(deltas);
    update();
}

void TimelineView::setRowMapping(std::shared_ptr<const RowMapping> mapping) {
    mapping_ = std::move(mapping);
    relayout();
}

void TimelineView::setShiftScale(TimeNs scale) {
    shiftScale_ = std::max<TimeNs>(0, scale);
    update();
}

EventId TimelineView::eventAt(QPoint pos) const {
    if (!data_ || pos.x() < gutter()) return {};
    return TimelineRenderer::hitTest(*data_, layout_, controller_->mapping(), areaX(pos),
                                     pos.y() + controller_->scrollY());
}

void TimelineView::clickGutter(QPoint pos) {
    const int ri = layout_.rowAt(pos.y() + controller_->scrollY());
    if (ri < 0) return;
    const Row& row = layout_.rows()[static_cast<std::size_t>(ri)];
    // The state's indices: in a layout along another set (the comparison run) rank and track are
    // the shown set's.
    const auto r = static_cast<std::size_t>(row.stateRank);
    if (row.exposedLane()) return;
    if (row.groupRow()) {
        tracks_->setGroupCollapsed(row.group, !tracks_->groupCollapsed(row.group));
        return;
    }
    if (row.header())
        tracks_->setRankExpanded(r, !tracks_->rankExpanded(r));
    else
        tracks_->setTrackNested(r, static_cast<std::size_t>(row.stateTrack),
                                !tracks_->trackNested(r, static_cast<std::size_t>(row.stateTrack)));
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    pressPos_ = lastPos_ = event->position().toPoint();
    pressButton_ = event->button();
    moved_ = false;
    if (event->button() == Qt::LeftButton && onGutterEdge(pressPos_)) {
        drag_ = Drag::Gutter;
        return;
    }
    if (pressPos_.x() < gutter()) {
        if (event->button() == Qt::LeftButton) clickGutter(pressPos_);
        return;
    }
    const bool range = event->button() == Qt::RightButton ||
                       (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    drag_ = range ? Drag::Range
                  : (event->button() == Qt::LeftButton || event->button() == Qt::MiddleButton ? Drag::Pan
                                                                                              : Drag::None);
    if (drag_ == Drag::Pan) setCursor(Qt::ClosedHandCursor);
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if ((pos - pressPos_).manhattanLength() > kClickSlop) moved_ = true;
    if (drag_ == Drag::Gutter) {
        controller_->setGutterWidth(std::min(pos.x(), width() / 2));
    } else if (drag_ == Drag::None && event->buttons() == Qt::NoButton) {
        // The label column's edge can be dragged: say so with the cursor.
        if (onGutterEdge(pos))
            setCursor(Qt::SplitHCursor);
        else if (cursor().shape() == Qt::SplitHCursor)
            unsetCursor();
    }
    if (drag_ == Drag::Pan) {
        controller_->panPixels(lastPos_.x() - pos.x());
        controller_->setScrollY(
            std::clamp(controller_->scrollY() + lastPos_.y() - pos.y(), 0, scroll_->maximum()));
    } else if (drag_ == Drag::Range && moved_) {
        const TimeMapping m = controller_->mapping();
        selection_->setRange(m.time(areaX(pressPos_)), m.time(areaX(pos)));
    } else if (drag_ == Drag::None) {
        emit hovered(eventAt(pos));
    }
    lastPos_ = pos;
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (event->button() == Qt::RightButton && pressButton_ == Qt::RightButton && !moved_) {
        drag_ = Drag::None;
        pressButton_ = Qt::NoButton;
        unsetCursor();
        if (pos.x() < gutter()) {
            const int ri = layout_.rowAt(pos.y() + controller_->scrollY());
            if (ri >= 0 && !layout_.rows()[static_cast<std::size_t>(ri)].exposedLane() &&
                !layout_.rows()[static_cast<std::size_t>(ri)].groupRow()) {
                const Row& row = layout_.rows()[static_cast<std::size_t>(ri)];
                emit trackMenuRequested(row.rank, row.track, mapToGlobal(pos));
            }
        } else {
            emit eventMenuRequested(eventAt(pos), mapToGlobal(pos));
        }
        return;
    }
    pressButton_ = Qt::NoButton;
    if (drag_ != Drag::None && drag_ != Drag::Gutter && !moved_ && event->button() == Qt::LeftButton) {
        const EventId e = eventAt(pos);
        selection_->setEvent(e);
    }
    drag_ = Drag::None;
    unsetCursor();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const EventId e = eventAt(event->position().toPoint());
    if (!e.valid()) return;
    selection_->setEvent(e);
    fitSelection();
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    // As in Perfetto and Nsight Systems: the wheel scrolls the tracks, Shift+wheel pans, Ctrl+wheel
    // zooms at the cursor; a horizontal wheel (touchpad) pans. The same over the label column.
    const QPoint d = event->angleDelta();
    const int dy = d.y() != 0 ? d.y() : d.x(); // some platforms turn Shift+wheel into a horizontal wheel
    if (event->modifiers() & Qt::ControlModifier) {
        controller_->zoomAt(std::pow(1.0015, dy), areaX(event->position().toPoint()));
    } else if (event->modifiers() & Qt::ShiftModifier) {
        controller_->panPixels(-dy / 2.0);
    } else {
        if (d.y() != 0)
            controller_->setScrollY(std::clamp(controller_->scrollY() - d.y(), 0, scroll_->maximum()));
        if (d.x() != 0) controller_->panPixels(-d.x() / 2.0);
    }
    event->accept();
}

void TimelineView::fitSelection() {
    const EventId e = selection_->event();
    if (e.valid() && data_) {
        const TrackTimeline& t = data_->track(static_cast<std::size_t>(e.rank), e.ref.track);
        controller_->fitRange(t.start[e.ref.index], t.end(e.ref.index));
    } else if (selection_->hasRange()) {
        controller_->fitRange(selection_->rangeStart(), selection_->rangeEnd());
    } else {
        controller_->fitAll();
    }
}

int TimelineView::gutter() const {
    return controller_->gutterWidth();
}

bool TimelineView::onGutterEdge(QPoint pos) const {
    return std::abs(pos.x() - gutter()) <= 3;
}

bool TimelineView::underMouse() const {
    const QPoint cursor = mapFromGlobal(QCursor::pos());
    return isVisible() && rect().contains(cursor) && cursor.x() >= gutter();
}

void TimelineView::zoomStep(bool in) {
    const double anchor =
        underMouse() ? areaX(mapFromGlobal(QCursor::pos())) : controller_->viewportWidth() / 2.0;
    controller_->zoomAt(in ? kKeyZoom : 1.0 / kKeyZoom, anchor);
}

void TimelineView::panStep(int direction) {
    controller_->panPixels(direction * controller_->viewportWidth() * kKeyPanFraction);
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    // In the window these keys are application-wide shortcuts and never get here; a pane on its
    // own (tests, embedding) handles them itself.
    switch (event->key()) {
    case Qt::Key_W:
    case Qt::Key_S:
        zoomStep(event->key() == Qt::Key_W);
        break;
    case Qt::Key_A:
    case Qt::Key_D:
        panStep(event->key() == Qt::Key_A ? -1 : 1);
        break;
    case Qt::Key_F:
        fitSelection();
        break;
    case Qt::Key_Escape:
        selection_->clearEvent();
        selection_->clearRange();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (data_ && help->pos().x() < gutter()) {
            // The label column: a compact strip's rank in full (its row has no room for it).
            const int ri = layout_.rowAt(help->pos().y() + controller_->scrollY());
            const Row* row = ri >= 0 ? &layout_.rows()[static_cast<std::size_t>(ri)] : nullptr;
            if (row && (row->header() || row->compact))
                QToolTip::showText(help->globalPos(),
                                   data_->rankLabels().label(static_cast<std::size_t>(row->rank)), this);
            else
                QToolTip::hideText();
            return true;
        }
        const EventId e = eventAt(help->pos());
        if (e.valid() && data_)
            QToolTip::showText(help->globalPos(),
                               eventTooltip(*data_, e, resolutionFor(controller_->mapping().nsPerPixel)),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace sl::ui
