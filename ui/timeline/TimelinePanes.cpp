#include "TimelinePanes.h"

#include "AddedRanksStrip.h"
#include "ComparisonRun.h"
#include "OverviewStrip.h"
#include "SimulationModel.h"
#include "TimeAxis.h"
#include "TimelineRenderer.h"
#include "TimelineView.h"
#include "TrackState.h"
#include "ViewController.h"

#include "TimeFormat.h"

#include <QFileInfo>
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
      added_(new AddedRanksStrip(controller, this)), addedLine_(new QLabel(this)), controller_(controller),
      selection_(selection), tracks_(tracks), comparisonSelection_(new SelectionModel(this)),
      comparison_(new TimelineView(controller, comparisonSelection_, tracks, this)) {
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
    // It wraps: a one-line label as wide as its sentence widened the window past a laptop's screen.
    addedLine_->setWordWrap(true);
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
    comparison_->setObjectName(QStringLiteral("comparisonPane"));
    comparison_->setEmptyText(tr("No comparison run: File > Open Comparison Run..."));
    comparison_->hide();
    lower_ = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower_);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->setSpacing(0);
    lowerLayout->addWidget(simulated_, 1);
    lowerLayout->addWidget(comparison_, 1);
    split->addWidget(lower_);
    // The upper pane may show a scenario's prediction instead of the measured run.
    connect(measured_, &TimelineView::dataChanged, this, &TimelinePanes::updateDeltas);
    // An op selected in one run selects its aligned op in the other (ComparisonRun.h).
    connect(selection_, &SelectionModel::eventChanged, this, [this](EventId e) {
        if (linking_ || !run_) return;
        linking_ = true;
        comparisonSelection_->setEvent(run_->partnerInRun(e));
        linking_ = false;
    });
    connect(comparisonSelection_, &SelectionModel::eventChanged, this, [this](EventId e) {
        if (linking_ || !run_) return;
        linking_ = true;
        selection_->setEvent(run_->partnerInOpen(e));
        linking_ = false;
    });
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
    return tr("The simulated job has %1 ranks: the %2 added to it are shown under the simulated pane")
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

void TimelinePanes::followSimulation(const SimulationModel* model) {
    simulated_->followSimulation(model);
    connect(model, &SimulationModel::changed, this,
            [this](const SimOutput& output) { setSimulatedRun(output.result, output.graph); });
}

void TimelinePanes::setMatches(const std::vector<std::vector<bool>>* matches) {
    measured_->setMatches(matches);
    simulated_->setMatches(matches);
}

TimelineView* TimelinePanes::activePane() const {
    return simulated_->underMouse() && simulated_->data() ? simulated_ : measured_;
}

void TimelinePanes::setComparison(std::shared_ptr<const ComparisonRun> run) {
    run_ = run && run->ok() ? std::move(run) : nullptr;
    comparisonSelection_->clearEvent();
    if (!run_) {
        comparison_->setRowMapping(nullptr);
        comparison_->setDeltas(nullptr);
        comparison_->setData(nullptr);
        showComparison(false);
        return;
    }
    comparison_->setRowMapping(run_->rows);
    comparison_->setData(run_->timeline);
    const QString file = run_->name();
    comparison_->setTitle(
        run_->offset == 0
            ? tr("Comparison: %1").arg(file)
            : tr("Comparison: %1 (step start aligned, %2)").arg(file, formatSigned(run_->offset)));
    showComparison(true);
    comparisonSelection_->setEvent(run_->partnerInRun(selection_->event()));
}

void TimelinePanes::showComparison(bool on) {
    on = on && run_;
    const bool was = comparisonShown();
    comparison_->setVisible(on);
    updateLower();
    updateDeltas();
    if (on != was) emit comparisonShownChanged(on);
}

void TimelinePanes::updateDeltas() {
    // The open run is coloured by delta only while the run it is compared with is in view, against
    // what the upper pane shows: the measured run, or a scenario's prediction of it (predicted vs
    // actual, op by op).
    const bool on = comparisonShown() && measured_->data();
    const auto [open, run] =
        on ? run_->deltasAgainst(*measured_->data())
           : std::pair<std::shared_ptr<const EventDeltas>, std::shared_ptr<const EventDeltas>>{};
    measured_->setDeltas(open);
    comparison_->setDeltas(run ? run : run_ ? run_->deltas : nullptr);
}

void TimelinePanes::setSimulatedShown(bool shown) {
    simulatedWanted_ = shown;
    updateLower();
}

void TimelinePanes::updateLower() {
    const bool comparison = comparisonShown();
    simulated_->setVisible(simulatedWanted_ && !comparison);
    // Nothing below (the one-pane option): the splitter gives the measured pane the whole height.
    lower_->setVisible(comparison || simulatedWanted_);
}

bool TimelinePanes::comparisonShown() const {
    return run_ && !comparison_->isHidden();
}

bool TimelinePanes::jumpTo(EventId open, EventId run) {
    if (!run_ || !open.valid() || !run.valid()) return false;
    const TraceSet& a = *run_->openGraph->trace;
    const TraceSet& b = *run_->set;
    if (static_cast<std::size_t>(open.rank) >= a.ranks.size() ||
        static_cast<std::size_t>(run.rank) >= b.ranks.size())
        return false;
    showComparison(true);
    selection_->setEvent(open);
    comparisonSelection_->setEvent(run);
    const EventColumns& ea = a.ranks[static_cast<std::size_t>(open.rank)].tracks[open.ref.track].events;
    const EventColumns& eb = b.ranks[static_cast<std::size_t>(run.rank)].tracks[run.ref.track].events;
    const TimeNs t0 = std::min(ea.start[open.ref.index], eb.start[run.ref.index] + run_->offset);
    const TimeNs t1 = std::max(ea.end(open.ref.index), eb.end(run.ref.index) + run_->offset);
    // Both ops in the middle third of the window.
    const TimeNs pad = std::max<TimeNs>(t1 - t0, 1000);
    controller_->setWindow(t0 - pad, t1 + pad);
    if (tracks_->matches(a) && !tracks_->rankExpanded(static_cast<std::size_t>(open.rank)))
        tracks_->setRankExpanded(static_cast<std::size_t>(open.rank), true);
    const int row = measured_->layout().rowOf(open.rank, static_cast<int>(open.ref.track));
    if (row >= 0)
        controller_->setScrollY(std::max(0, measured_->layout().rows()[static_cast<std::size_t>(row)].y -
                                                RowLayout::kHeaderHeight * 2));
    return true;
}

void TimelinePanes::setHighlights(HighlightModel* model) {
    measured_->setHighlights(model, false);
    simulated_->setHighlights(model, true);
}

} // namespace sl::ui
