#include "TimelinePanes.h"

#include "AddedRanksStrip.h"
#include "OverviewStrip.h"
#include "TimeAxis.h"
#include "TimelineRenderer.h"
#include "TimelineView.h"
#include "ViewController.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace sl::ui {

TimelinePanes::TimelinePanes(ViewController* controller, SelectionModel* selection, TrackState* tracks,
                             QWidget* parent)
    : QWidget(parent), overview_(new OverviewStrip(controller, controller->gutterWidth(), this)),
      axis_(new TimeAxis(controller, controller->gutterWidth(), this)),
      measured_(new TimelineView(controller, selection, tracks, this)),
      simulated_(new TimelineView(controller, selection, tracks, this)),
      added_(new AddedRanksStrip(controller, this)), addedLine_(new QLabel(this)) {
    measured_->setObjectName(QStringLiteral("measuredPane"));
    simulated_->setObjectName(QStringLiteral("simulatedPane"));
    measured_->setTitle(tr("Measured"));
    simulated_->setTitle(tr("Simulated"));
    measured_->setEmptyText(tr("Open a trace: File > Open, drop files or a folder here, or pass them on the "
                               "command line"));
    simulated_->setEmptyText(tr("No simulation yet"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("paneSplitter"));
    // The added-ranks line is a bar of its own under the measured pane, not the pane's note: the
    // note belongs to whoever fills the pane (the Chakra hint, a scenario shown on top).
    addedLine_->setObjectName(QStringLiteral("addedRanksLine"));
    addedLine_->setStyleSheet(
        QStringLiteral("QLabel { background: #fff3cd; color: #664d03; padding: 2px 6px; }"));
    addedLine_->hide();
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    topLayout->addWidget(measured_, 1);
    topLayout->addWidget(addedLine_);
    split->addWidget(top);
    split->addWidget(simulated_);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(overview_);
    layout->addWidget(axis_);
    layout->addWidget(split, 1);
    layout->addWidget(added_); // right under the simulated pane, the bottom of the splitter
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

QString TimelinePanes::addedRanksNote(int world, int added) {
    return tr("The simulated job has %1 ranks: %2 added by dp.degree are shown under the simulated pane")
        .arg(world)
        .arg(added);
}

void TimelinePanes::setMeasured(std::shared_ptr<const TimelineData> timeline) {
    measured_->setNote(measuredNote(timeline));
    overview_->setData(timeline);
    measured_->setData(std::move(timeline));
}

void TimelinePanes::setSimulated(std::shared_ptr<const TimelineData> timeline, const QString& note) {
    simulated_->setData(std::move(timeline));
    simulated_->setNote(note);
    added_->clear();
    addedLine_->hide();
}

void TimelinePanes::setSimulatedRun(std::shared_ptr<const SimResult> result,
                                    std::shared_ptr<const ExecutionGraph> graph) {
    const int world = result ? result->setup.world : 0;
    added_->setSimulation(std::move(result), std::move(graph));
    addedLine_->setText(addedRanksNote(world, added_->addedCount()));
    addedLine_->setVisible(!added_->rows().empty());
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
