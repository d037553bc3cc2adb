#pragma once
#include "RowLayout.h"
#include "Selection.h"
#include "TimelineData.h"
#include "TimelineRenderer.h"

#include <QPoint>
#include <QWidget>

#include <memory>

class QScrollBar;
class QVariantAnimation;

namespace sl::ui {

class AnnotationModel;
class HighlightModel;
class TrackState;
class ViewController;

// One timeline pane (measured or simulated): a track-name gutter, the event area and a vertical
// scroll bar. Follows the shared ViewController and SelectionModel and edits them on input:
// W/S zoom, A/D pan, wheel zooms at the cursor (Shift+wheel scrolls), drag pans, Shift+drag (or
// right-drag) selects a time range, click selects, double-click or F fits, Esc clears.
class SimulationModel;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    TimelineView(ViewController* controller, SelectionModel* selection, TrackState* tracks,
                 QWidget* parent = nullptr);

    void setTitle(const QString& title);
    // The highlights this pane draws: the measured or the simulated ones of the model.
    void setHighlights(HighlightModel* model, bool simulatedPane);
    // The notes drawn over the events (ui/timeline/Annotations.h); null: none.
    void setAnnotations(AnnotationModel* model);
    void setData(std::shared_ptr<const TimelineData> timeline);
    // The simulated pane: shows each run the model shows (its timeline, against the measured one
    // as reference, with the model's shift colour scale).
    void followSimulation(const SimulationModel* model);
    // Transitions (ui/model/Transition.h): when on, the next setData() after animateNextChange()
    // with a timeline of the same set moves the events from their old to their new times over
    // kTransitionMs; data() is the new timeline at once, only the picture moves.
    void setTransitions(bool on);
    bool transitions() const { return transitions_; }
    void animateNextChange() { animateNext_ = true; }
    bool transitioning() const { return displayed_ != nullptr; }
    const std::shared_ptr<const TimelineData>& data() const { return data_; }
    // Shown when the pane has no data.
    void setEmptyText(const QString& text);
    // A note in the pane's corner while it has data (e.g. "simulating...").
    void setNote(const QString& text);
    QString note() const { return note_; }
    const RowLayout& layout() const { return layout_; }
    // Fits the view to the selected event, else the selected range, else everything.
    void fitSelection();
    // The keyboard steps (W/S, A/D), also what the window's application-wide shortcuts call: zoom at
    // the mouse when it is over this pane (else at the centre), pan by a fraction of the window.
    void zoomStep(bool in);
    void panStep(int direction);
    // Whether the mouse is over this pane's event area.
    bool underMouse() const;
    // Outlines the events whose name is marked (matches[rank][name id], e.g. find results); null: none.
    void setMatches(const std::vector<std::vector<bool>>* matches);
    const RenderStats& lastStats() const { return stats_; }
    // The measured timeline of the same set: the selected event's measured place is outlined here
    // (docs/WhatIfWorkbench.md, "Shift"); null: none.
    void setReference(std::shared_ptr<const TimelineData> reference);
    // Colour events by simulated minus measured start, saturating at +-scale (0: normal colours),
    // with a legend in microseconds. Needs a reference.
    void setShiftScale(TimeNs scale);
    TimeNs shiftScale() const { return shiftScale_; }
    // Colour events by delta against the comparison run (DeltaColours.h), with its legend; used
    // only while the pane shows the deltas' set. Null: normal colours.
    void setDeltas(std::shared_ptr<const EventDeltas> deltas);
    const std::shared_ptr<const EventDeltas>& deltas() const { return deltas_; }
    // Lays the pane's set out along another set's rows under the shared TrackState (the comparison
    // run under the open run, RowLayout.h); null: its own rows.
    void setRowMapping(std::shared_ptr<const RowMapping> mapping);
    QRect eventArea() const;
    // One pane under replay (docs/ManyRanks.md): the spans where the hidden replay differs from
    // what this pane shows, shaded over each rank's rows; null: none.
    void setDifferences(std::shared_ptr<const ReplayDifferences> differences);
    const std::shared_ptr<const ReplayDifferences>& differences() const { return differences_; }

signals:
    // setData() gave the pane another timeline (or none).
    void dataChanged();
    void hovered(sl::ui::EventId e);
    // A right click (no drag) on an event (e may be invalid: empty space) or on a gutter row (track -1:
    // the rank header), at a global position, for the owner's context menus.
    void eventMenuRequested(sl::ui::EventId e, QPoint globalPos);
    void trackMenuRequested(int rank, int track, QPoint globalPos);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    enum class Drag { None, Pan, Range, Gutter };
    int gutter() const;
    bool onGutterEdge(QPoint pos) const;
    void relayout();
    void updateScrollBar();
    void clickGutter(QPoint pos);
    EventId eventAt(QPoint pos) const;
    double areaX(QPoint pos) const { return pos.x() - gutter(); }

    ViewController* controller_;
    SelectionModel* selection_;
    TrackState* tracks_;
    HighlightModel* highlights_ = nullptr;
    AnnotationModel* annotations_ = nullptr;
    bool transitions_ = false;
    bool animateNext_ = false;
    std::shared_ptr<const TimelineData> from_;      // where a transition started
    std::shared_ptr<const TimelineData> displayed_; // the frame painted while it runs
    QVariantAnimation* transition_ = nullptr;
    void stopTransition();
    const std::vector<std::vector<bool>>* matches_ = nullptr;
    std::shared_ptr<const TimelineData> reference_;
    std::shared_ptr<const ReplayDifferences> differences_;
    TimeNs shiftScale_ = 0;
    std::shared_ptr<const EventDeltas> deltas_;
    std::shared_ptr<const RowMapping> mapping_;
    Qt::MouseButton pressButton_ = Qt::NoButton;
    bool simulatedPane_ = false;
    QScrollBar* scroll_;
    std::shared_ptr<const TimelineData> data_;
    RowLayout layout_;
    TimelineRenderer renderer_;
    RenderStats stats_;
    QString title_;
    QString emptyText_;
    QString note_;
    Drag drag_ = Drag::None;
    QPoint pressPos_;
    QPoint lastPos_;
    bool moved_ = false;
};

} // namespace sl::ui
