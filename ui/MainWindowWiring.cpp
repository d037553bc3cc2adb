// MainWindow's wiring: the session's signals to the views and panels, and a simulation shown in
// each of them (docs/MainWindow.md).
#include "MainWindow.h"

#include "Autosave.h"
#include "ChartRender.h"
#include "ChartsPanel.h"
#include "ComparisonController.h"
#include "CriticalPathTable.h"
#include "DeltaTable.h"
#include "DetailsPanel.h"
#include "Export.h"
#include "FindBar.h"
#include "FindResultsModel.h"
#include "HelpSheets.h"
#include "HighlightModel.h"
#include "KnobPanel.h"
#include "LegendWidget.h"
#include "MainMenus.h"
#include "MessageBar.h"
#include "PlanView.h"
#include "RangeStatsPanel.h"
#include "RankControls.h"
#include "RankOverview.h"
#include "RecentFiles.h"
#include "ResultCard.h"
#include "RowLayout.h"
#include "ScenarioController.h"
#include "ScenariosDock.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimAnalysis.h"
#include "SimulationDriver.h"
#include "SimulationModel.h"
#include "StragglersPanel.h"
#include "StructurePanel.h"
#include "SweepView.h"
#include "TimelineNavigator.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "TrackTreeModel.h"
#include "ViewController.h"
#include "WarningsPanel.h"
#include "WelcomePage.h"
#include "WindowText.h"

#include <QAbstractButton>
#include <QAction>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace sl::ui {

namespace {
QString detailsCancelledText() {
    return MainWindow::tr("Details cancelled: the measured timeline is complete; the dependency arrows, "
                          "critical path, simulation, charts and scenario comparison are not computed.");
}
} // namespace

void MainWindow::wireSession() {
    SessionController* s = sessions_;
    SimRunner* sim = s->simRunner();
    connect(welcome_, &WelcomePage::openRequested, s, &SessionController::openTraces);
    connect(welcome_, &WelcomePage::openFilesRequested, menus_, &MainMenus::openFilesDialog);
    connect(welcome_, &WelcomePage::openFolderRequested, menus_, &MainMenus::openFolderDialog);
    RecentFiles* recent = menus_->recent();
    connect(recent, &RecentFiles::changed, this, [this, recent] { welcome_->setRecent(recent->entries()); });
    welcome_->setRecent(recent->entries());
    connect(menus_, &MainMenus::saveViewRequested, this, &MainWindow::saveView);
    connect(menus_, &MainMenus::saveTimelineRequested, this, &MainWindow::saveTimelineImage);
    connect(menus_, &MainMenus::saveChartRequested, this, &MainWindow::saveChartImage);
    connect(menus_, &MainMenus::copyChartRequested, this, &MainWindow::copyChartImage);
    connect(menus_, &MainMenus::resetLayoutRequested, this, &MainWindow::resetLayout);
    connect(menus_, &MainMenus::segmentRequested, this, [this](bool forward) {
        pathDock_->show();
        pathDock_->raise();
        forward ? pathTable_->next() : pathTable_->previous();
    });
    // Loading: the status line, the progress bar and its cancel button, errors in the message bar.
    // Cancel stops the load, else the details of the set shown (docs/Loader.md, "GUI: timeline
    // first, details later").
    connect(cancel_, &QPushButton::clicked, this, [s] {
        if (s->loader()->busy())
            s->loader()->cancel();
        else
            s->driver()->cancelDetails();
    });
    connect(s->loader(), &TraceLoader::progress, this,
            [this](double f) { progress_->setValue(static_cast<int>(std::clamp(f, 0.0, 1.0) * 1000)); });
    connect(s, &SessionController::loadStarted, this, [this](const QString& what) {
        messageBar_->hide();
        status_->setText(what);
    });
    connect(s, &SessionController::loadingChanged, this, &MainWindow::setLoading);
    // The details phase: the same bar says what is being computed; a cancel leaves the timeline
    // and says what is missing, with a way to compute it.
    connect(s->driver(), &SimulationDriver::detailsStarted, this, [this] {
        showProgress(tr("Details: starting"), 0.0);
        if (messageBar_->text() == detailsCancelledText()) messageBar_->hide();
    });
    connect(s->driver(), &SimulationDriver::detailsProgress, this,
            [this, s](const QString& what, double fraction) {
                if (!s->loader()->busy())
                    showProgress(tr("Details: %1").arg(what), fraction); // else: the load's
            });
    connect(s->driver(), &SimulationDriver::detailsFinished, this, [this, s] {
        if (!s->loader()->busy()) hideProgress();
    });
    connect(s->driver(), &SimulationDriver::detailsCancelled, this, [this, s] {
        if (!s->loader()->busy()) hideProgress();
        panes_->simulated()->setNote({});
        panes_->simulated()->setEmptyText(
            tr("Details cancelled: no simulation yet (Compute details, or change a knob)"));
        messageBar_->showMessage(detailsCancelledText(), MessageBar::Level::Info, tr("Compute details"),
                                 [s] { s->driver()->computeDetails(); });
        overview_->setPending(s->traceSet(), tr("waits: not computed"));
    });
    connect(s, &SessionController::loadFailed, this,
            [this, s](const QString& error, const QStringList& paths, bool good) {
                const QString text = tr("Could not open: %1").arg(error);
                if (good)
                    messageBar_->showMessage(text, MessageBar::Level::Error, tr("Open the good ranks"),
                                             [s, paths] { s->openGoodRanks(paths); });
                else
                    messageBar_->showMessage(text, MessageBar::Level::Error);
                updateStatus();
            });
    connect(s, &SessionController::message, this, [this](const QString& text, MessageBar::Level level) {
        if (text.isEmpty())
            messageBar_->hide();
        else
            messageBar_->showMessage(text, level);
    });
    // A new set: every view lets go of the old one, then takes the new one (SessionController.h).
    connect(s, &SessionController::aboutToSwitch, this, [this] {
        range_->setTimelines(nullptr, nullptr);
        charts_->clear();
        pathTable_->setSimulation({});
        stragglers_->setGraph(nullptr);
        overview_->clear();
        overview_->hide();
        sweep_->setGraph(nullptr, nullptr);
        plan_->setGraph(nullptr, nullptr);
        trackModel_->setTraceSet(nullptr);
        panes_->setMeasured(nullptr);
        panes_->setSimulated(nullptr);
        details_->setData(nullptr, nullptr);
        findBar_->setData(nullptr);
        findResults_->setSearch(nullptr, nullptr);
        warnings_->clearAll();
        structure_->clear();
        // A short window opens a set of many tall ranks as summary rows (TrackState::setRoomHint):
        // a pane gets about half of what the central area keeps below the card and the axis.
        const int central = centralWidget() ? centralWidget()->height() : height();
        sessions_->tracks()->setRoomHint(height() < 800 ? std::max(60, (central - 160) / 2) : 0);
    });
    connect(s, &SessionController::switched, this, [this, s](auto set, auto measured) {
        // dp.degree adds whole replicas of tp x pp ranks: the straggler rank may name any of them
        // (before the scenarios follow and the panel shows their knobs).
        knobs_->setJobLayout(recognizeStructure(*set, nullptr, false));
        trackModel_->setTraceSet(set);
        for (int r = 0; r < trackModel_->rowCount(); ++r)
            trackTree_->setExpanded(trackModel_->index(r, 0),
                                    s->tracks()->rankExpanded(static_cast<std::size_t>(r)));
        treeFiltered_ = true; // a new model: every row is looked at once
        filterTree();
        panes_->setMeasured(measured);
        panes_->simulated()->setEmptyText(tr("No simulation yet"));
        details_->setData(measured, nullptr);
        range_->setTimelines(measured, nullptr);
        findBar_->setData(measured);
    });
    connect(s, &SessionController::shown, this, [this, s, sim, recent](const QStringList& paths) {
        if (sim->busy()) panes_->simulated()->setEmptyText(tr("Simulating..."));
        if (!paths.isEmpty()) recent->add(paths);
        stack_->setCurrentIndex(1);
        warnings_->setLoadWarnings(s->traceSet()->warnings);
        structure_->setStructure(recognizeStructure(*s->traceSet()));
        overview_->setPending(s->traceSet(), tr("waits: computing...")); // filled by the details
        overview_->setVisible(s->traceSet()->ranks.size() >= 4);
        updateStatus();
    });
    connect(s->document(), &SessionDocument::titleChanged, this, [this, s] {
        setWindowTitle(windowTitleFor(*s));
        setWindowModified(s->document()->modified());
    });
    // Every save and export says where it went.
    // A saved session is offered in Open Recent and on the welcome page, as the traces it holds are.
    connect(s->document(), &SessionDocument::saved, this, [this, recent](const QString& path) {
        recent->add({path});
        confirm(tr("Session saved to %1").arg(path));
    });
    connect(s, &SessionController::exported, this, [this](const QString& what, const QString& path) {
        confirm(tr("%1 exported to %2").arg(what, path));
    });
    connect(range_, &RangeStatsPanel::exported, this,
            [this](const QString& path) { confirm(tr("Range statistics exported to %1").arg(path)); });
    // Simulations: the simulated pane, the charts and tables of the run.
    connect(sim, &SimRunner::started, this, [this] { panes_->simulated()->setNote(tr("simulating...")); });
    connect(sim, &SimRunner::failed, this, [this](const QString& error) {
        panes_->setSimulated(nullptr);
        panes_->simulated()->setEmptyText(tr("Simulation failed: %1").arg(error));
        if (sessions_->traceSet()) overview_->setPending(sessions_->traceSet(), tr("waits: not computed"));
        simulationFailed(sessions_->scenarios()->currentName(), error);
    });
    subscribeToSimulation();
    connect(knobs_, &KnobPanel::changed, sweep_, &SweepView::setBaseKnobs);
    connect(knobs_, &KnobPanel::changed, plan_, &PlanView::setBaseKnobs);
    connect(s->view(), &ViewController::windowChanged, this, &MainWindow::updateStatus);
    // The selection: details, the critical path table, range statistics (which come to the front).
    connect(s->selection(), &SelectionModel::eventChanged, details_, &DetailsPanel::showDetails);
    connect(s->selection(), &SelectionModel::eventChanged, pathTable_, &CriticalPathTable::followEvent);
    connect(range_, &RangeStatsPanel::rangeSelected, rangeDock_, &QDockWidget::raise);
    connect(range_, &RangeStatsPanel::failed, this, &MainWindow::reportError);
    connect(s->highlights(), &HighlightModel::criticalPathChanged, legend_, &LegendWidget::setCriticalPath);
    connect(s->highlights(), &HighlightModel::exposedChanged, legend_, &LegendWidget::setExposed);
    // Find: the panes mark the matches, the results list follows next / previous and shows a click.
    connect(findBar_, &FindBar::matchesChanged, this, [this, s] {
        const bool any = findBar_->search().count() > 0;
        panes_->setMatches(any ? &findBar_->search().nameHits() : nullptr);
        findResults_->setSearch(any ? &findBar_->search() : nullptr, s->measured());
        if (any) findDock_->raise();
    });
    connect(findBar_, &FindBar::found, this, [this] {
        const int row = findBar_->search().current();
        if (row >= 0 && row < findResults_->rowCount()) {
            const QSignalBlocker block(findTable_->selectionModel());
            findTable_->selectRow(row);
            findTable_->scrollTo(findResults_->index(row, 0));
        }
    });
    connect(findTable_, &QTableView::clicked, findBar_,
            [this](const QModelIndex& i) { findBar_->showMatch(i.row()); });
    connect(findTable_, &QTableView::activated, findBar_,
            [this](const QModelIndex& i) { findBar_->showMatch(i.row()); });
}

void MainWindow::subscribeToSimulation() {
    // The views subscribe to the simulation shown; each takes what it shows from a run.
    const SimulationModel* model = sessions_->simulationModel();
    panes_->followSimulation(model);
    overview_->followSimulation(model);
    stragglers_->followSimulation(model);
    sweep_->followSimulation(model);
    plan_->followSimulation(model);
    connect(model, &SimulationModel::changed, pathTable_, &CriticalPathTable::setSimulation);
    connect(model, &SimulationModel::changed, charts_, &ChartsPanel::setSimulation);
    connect(model, &SimulationModel::changed, details_, &DetailsPanel::setSimulation);
    connect(model, &SimulationModel::changed, warnings_, &WarningsPanel::setSimulation);
    connect(model, &SimulationModel::changed, structure_, &StructurePanel::setSimulation);
    connect(model, &SimulationModel::changed, range_, &RangeStatsPanel::setSimulation);
    connect(model, &SimulationModel::changed, this, &MainWindow::updateStatus);
    connect(menus_->shiftAction(), &QAction::toggled, model, &SimulationModel::setShiftColour);
    sessions_->simulationModel()->setShiftColour(menus_->shiftAction()->isChecked());
}

} // namespace sl::ui
