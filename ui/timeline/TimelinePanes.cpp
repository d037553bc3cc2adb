#include "TimelinePanes.h"

#include "OverviewStrip.h"
#include "TimeAxis.h"
#include "TimelineRenderer.h"
#include "TimelineView.h"
#include "ViewController.h"

#include <QSplitter>
#include <QVBoxLayout>

namespace sl::ui {

TimelinePanes::TimelinePanes(ViewController* controller, SelectionModel* selection, TrackState* tracks,
                             QWidget* parent)
    : QWidget(parent), overview_(new OverviewStrip(controller, controller->gutterWidth(), this)),
      axis_(new TimeAxis(controller, controller->gutterWidth(), this)),
      measured_(new TimelineView(controller, selection, tracks, this)),
      simulated_(new TimelineView(controller, selection, tracks, this)) {
    measured_->setObjectName(QStringLiteral("measuredPane"));
    simulated_->setObjectName(QStringLiteral("simulatedPane"));
    measured_->setTitle(tr("Measured"));
    simulated_->setTitle(tr("Simulated"));
    measured_->setEmptyText(tr("Open a trace: File > Open, drop files or a folder here, or pass them on the "
                               "command line"));
    simulated_->setEmptyText(tr("No simulation yet"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("paneSplitter"));
    split->addWidget(measured_);
    split->addWidget(simulated_);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(overview_);
    layout->addWidget(axis_);
    layout->addWidget(split, 1);
    axis_->setRightMargin(16);
}

QString TimelinePanes::measuredNote(const std::shared_ptr<const TimelineData>& timeline) {
    // A Chakra execution trace has durations and dependencies but no measured timeline
    // (docs/Chakra.md): its events sit at placeholder starts, and the pane says so.
    const bool unmeasured =
        timeline && !timeline->set().ranks.empty() && !timeline->set().ranks.front().hasMeasuredTimes;
    return unmeasured
               ? tr("No measured times in this input (a Chakra execution trace): see the simulated pane")
               : QString();
}

void TimelinePanes::setMeasured(std::shared_ptr<const TimelineData> timeline) {
    measured_->setNote(measuredNote(timeline));
    overview_->setData(timeline);
    measured_->setData(std::move(timeline));
}

void TimelinePanes::setSimulated(std::shared_ptr<const TimelineData> timeline, const QString& note) {
    simulated_->setData(std::move(timeline));
    simulated_->setNote(note);
}

void TimelinePanes::setMatches(const std::vector<std::vector<bool>>* matches) {
    measured_->setMatches(matches);
    simulated_->setMatches(matches);
}

TimelineView* TimelinePanes::activePane() const {
    return simulated_->underMouse() && simulated_->data() ? simulated_ : measured_;
}

void TimelinePanes::setHighlights(HighlightModel* model) {
    measured_->setHighlights(model, false);
    simulated_->setHighlights(model, true);
}

} // namespace sl::ui
