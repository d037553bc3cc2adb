#pragma once
#include "Selection.h"
#include "TimelineData.h"

#include <QWidget>

#include <memory>

namespace sl::ui {

class HighlightModel;
class OverviewStrip;
class TimeAxis;
class TimelineView;
class TrackState;
class ViewController;

// The central area: an overview strip of the whole trace and one time axis over two timeline panes,
// measured above simulated, all following one ViewController, one SelectionModel and one TrackState.
class TimelinePanes : public QWidget {
    Q_OBJECT
public:
    TimelinePanes(ViewController* controller, SelectionModel* selection, TrackState* tracks,
                  QWidget* parent = nullptr);

    TimelineView* measured() const { return measured_; }
    TimelineView* simulated() const { return simulated_; }
    TimeAxis* axis() const { return axis_; }
    OverviewStrip* overview() const { return overview_; }
    // The measured pane's note for a timeline: says when the input has no measured times (Chakra).
    static QString measuredNote(const std::shared_ptr<const TimelineData>& timeline);
    void setMeasured(std::shared_ptr<const TimelineData> timeline);
    void setSimulated(std::shared_ptr<const TimelineData> timeline, const QString& note = {});
    void setHighlights(HighlightModel* model);
    // Outlines find matches in both panes (see TimelineView::setMatches).
    void setMatches(const std::vector<std::vector<bool>>* matches);
    // The pane the keyboard acts on: the one under the mouse, else the measured one.
    TimelineView* activePane() const;

private:
    OverviewStrip* overview_;
    TimeAxis* axis_;
    TimelineView* measured_;
    TimelineView* simulated_;
};

} // namespace sl::ui
