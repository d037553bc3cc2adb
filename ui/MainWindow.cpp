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
#include "RangeStatsPanel.h"
#include "RankControls.h"
#include "RankOverview.h"
#include "RecentFiles.h"
#include "ResultCard.h"
#include "RowLayout.h"
#include "ScenarioController.h"
#include "ScenariosDock.h"
#include "SessionController.h"
#include "SimAnalysis.h"
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

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), sessions_(new SessionController(this)) {
    setWindowTitle(tr("Sightline"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    help_ = new HelpSheets(this);
    buildCentral();
    status_ = new QLabel(tr("No trace loaded"), this);
    progressLabel_ = new QLabel(this);
    progressLabel_->setObjectName(QStringLiteral("progressLabel"));
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("progress"));
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(240);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("progressCancel"));
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(progressLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    setLoading(false);
    buildDocks();
    menus_ = new MainMenus(this, {sessions_, panes_, findBar_, help_});
    auto* navigator = new TimelineNavigator({sessions_, panes_, trackModel_, trackTree_, findBar_,
                                             menus_->criticalPathAction(), menus_->arrowsAction()},
                                            this);
    connect(pathTable_, &CriticalPathTable::eventActivated, navigator, &TimelineNavigator::revealEvent);
    connect(stragglers_, &StragglersPanel::eventActivated, navigator, &TimelineNavigator::revealEvent);
    wireSession();
    resize(1600, 1000);
}

void MainWindow::buildCentral() {
    // The message bar and the find bar above the welcome page (until a set is open) or the timeline:
    // a load that fails from the welcome page says so there.
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    messageBar_ = new MessageBar(central);
    findBar_ = new FindBar(central);
    findBar_->hide();
    stack_ = new QStackedWidget(central);
    stack_->setObjectName(QStringLiteral("pages"));
    welcome_ = new WelcomePage(stack_);
    auto* timeline = new QWidget(stack_);
    timeline->setObjectName(QStringLiteral("timelinePage"));
    auto* tl = new QVBoxLayout(timeline);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->setSpacing(0);
    panes_ = new TimelinePanes(sessions_->view(), sessions_->selection(), sessions_->tracks(), timeline);
    legend_ = new LegendWidget(timeline);
    card_ = new ResultCard(timeline);
    tl->addWidget(card_);
    // The rank overview column left of the panes (docs/ManyRanks.md): shown for four ranks or more.
    overview_ = new RankOverview(sessions_->tracks(), sessions_->view(), panes_->measured(), timeline);
    overview_->setFixedWidth(110);
    overview_->hide();
    auto* panesRow = new QHBoxLayout;
    panesRow->setContentsMargins(0, 0, 0, 0);
    panesRow->setSpacing(0);
    panesRow->addWidget(overview_);
    panesRow->addWidget(panes_, 1);
    tl->addLayout(panesRow, 1);
    tl->addWidget(legend_);
    stack_->addWidget(welcome_);
    stack_->addWidget(timeline);
    layout->addWidget(messageBar_);
    layout->addWidget(findBar_);
    layout->addWidget(stack_, 1);
    panes_->setHighlights(sessions_->highlights());
    panes_->measured()->setAnnotations(sessions_->annotations());
    // The sweep's plot in the HTML report when a sweep ran (docs/Exports.md, "In the report").
    sessions_->setExtraFigures([this] {
        std::vector<ReportFigure> out;
        if (!sweep_ || sweep_->points().empty()) return out;
        const QByteArray svg = chartSvg(sweep_->chart(), {1600, 900});
        if (!svg.isEmpty())
            out.push_back({tr("Sweep").toStdString(), sweep_->chart()->chart()->title().toStdString(),
                           svg.toStdString()});
        return out;
    });
    panes_->simulated()->setAnnotations(sessions_->annotations());
    // The prediction held against the comparison run, on the card (docs/Compare.md).
    connect(sessions_->comparison(), &ComparisonController::predictionChanged, card_,
            &ResultCard::setComparisonLine);
    setCentralWidget(central);
}

namespace {
QString detailsCancelledText() {
    return MainWindow::tr("Details cancelled: the measured timeline is complete; the dependency arrows, "
                          "critical path, simulation, charts and scenario comparison are not computed.");
}

QDockWidget* dockOf(QMainWindow* window, QWidget* widget, const QString& title, const char* name) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(QLatin1String(name));
    // Every dock can shrink to its title (docs/MainWindow.md, "Layout"): a panel of fields and
    // charts scrolls when the dock is smaller than the panel, instead of its minimum size holding
    // the dock (and with it the window) large. Tables and trees scroll by themselves.
    if (!qobject_cast<QAbstractScrollArea*>(widget)) {
        auto* scroll = new QScrollArea(window);
        scroll->setObjectName(QLatin1String(name) + QStringLiteral("Scroll"));
        scroll->setWidget(widget);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        widget = scroll;
    }
    // Tables and scroll areas would keep about 70 px: the dock goes down to its title.
    widget->setMinimumHeight(1);
    dock->setWidget(widget);
    return dock;
}
} // namespace

void MainWindow::filterTree() {
    const auto set = sessions_->traceSet();
    const TrackState& tracks = *sessions_->tracks();
    if (!set || !tracks.matches(*set)) return;
    const TrackFilter filter(*set, tracks);
    if (!filter.active() && !treeFiltered_) return; // nothing hidden, nothing to hide
    treeFiltered_ = filter.active();
    for (int r = 0; r < trackModel_->rowCount() && static_cast<std::size_t>(r) < set->ranks.size(); ++r) {
        const auto rank = static_cast<std::size_t>(r);
        const QModelIndex parent = trackModel_->index(r, 0);
        trackTree_->setRowHidden(r, {}, !filter.rankShown(rank, false));
        for (int i = 0; i < trackModel_->rowCount(parent); ++i) {
            const int k = trackModel_->location(trackModel_->index(i, 0, parent)).second;
            trackTree_->setRowHidden(i, parent,
                                     k >= 0 && !filter.trackMatches(rank, static_cast<std::size_t>(k)));
        }
    }
}

void MainWindow::buildDocks() {
    TrackState* tracks = sessions_->tracks();
    trackModel_ = new TrackTreeModel(tracks, this);
    trackTree_ = new QTreeView(this);
    trackTree_->setObjectName(QStringLiteral("trackTree"));
    trackTree_->setModel(trackModel_);
    trackTree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    trackTree_->header()->setStretchLastSection(false);
    trackTree_->setUniformRowHeights(true);
    trackTree_->header()->setSectionResizeMode(TrackTreeModel::PinColumn, QHeaderView::ResizeToContents);
    trackTree_->setDragDropMode(QAbstractItemView::InternalMove);
    trackTree_->setDefaultDropAction(Qt::MoveAction);
    trackTree_->setDropIndicatorShown(true);
    // The tree's expanded ranks are the track state's, both ways.
    for (const bool expand : {true, false})
        connect(trackTree_, expand ? &QTreeView::expanded : &QTreeView::collapsed, this,
                [tracks, expand](const QModelIndex& i) {
                    if (!i.parent().isValid())
                        tracks->setRankExpanded(static_cast<std::size_t>(i.row()), expand);
                });
    connect(tracks, &TrackState::changed, this, &MainWindow::filterTree);
    connect(tracks, &TrackState::changed, this, [this, tracks] {
        for (int r = 0; r < trackModel_->rowCount() && static_cast<std::size_t>(r) < tracks->rankCount();
             ++r) {
            const QModelIndex i = trackModel_->index(r, 0);
            const bool e = tracks->rankExpanded(static_cast<std::size_t>(r));
            if (trackTree_->isExpanded(i) != e) trackTree_->setExpanded(i, e);
        }
    });
    connect(trackTree_, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) {
        const auto [r, t] = trackModel_->location(i);
        const int row = t < 0 ? -1 : panes_->measured()->layout().rowOf(r, t);
        if (row >= 0)
            sessions_->view()->setScrollY(
                panes_->measured()->layout().rows()[static_cast<std::size_t>(row)].y);
    });
    // Above the tree: the filter, the grouping and compact rows (docs/ManyRanks.md).
    auto* tracksPanel = new QWidget(this);
    auto* tracksLayout = new QVBoxLayout(tracksPanel);
    tracksLayout->setContentsMargins(0, 0, 0, 0);
    tracksLayout->setSpacing(0);
    tracksLayout->addWidget(new RankControls(tracks, tracksPanel));
    tracksLayout->addWidget(trackTree_, 1);
    trackTree_->setMinimumHeight(1);
    tracksDock_ = dockOf(this, tracksPanel, tr("Tracks"), "tracksDock");
    addDockWidget(Qt::LeftDockWidgetArea, tracksDock_);
    details_ = new DetailsPanel(this);
    detailsDock_ = dockOf(this, details_, tr("Details"), "detailsDock");
    addDockWidget(Qt::RightDockWidgetArea, detailsDock_);
    range_ = new RangeStatsPanel(sessions_->selection(), tracks, sessions_->view(), this);
    rangeDock_ = dockOf(this, range_, tr("Range statistics"), "rangeDock");
    addDockWidget(Qt::RightDockWidgetArea, rangeDock_);
    charts_ = new ChartsPanel(this);
    chartsDock_ = dockOf(this, charts_, tr("Charts"), "chartsDock");
    auto* chartsDock = chartsDock_;
    addDockWidget(Qt::RightDockWidgetArea, chartsDock);
    tabifyDockWidget(rangeDock_, chartsDock);
    // Find results: name, rank, track, start, duration; a click shows the match (as next / previous do).
    findResults_ = new FindResultsModel(this);
    findTable_ = new QTableView(this);
    findTable_->setObjectName(QStringLiteral("findResults"));
    findTable_->setModel(findResults_);
    findTable_->verticalHeader()->hide();
    findTable_->verticalHeader()->setDefaultSectionSize(20);
    findTable_->horizontalHeader()->setSectionResizeMode(FindResultsModel::Name, QHeaderView::Stretch);
    findTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    findTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    findDock_ = dockOf(this, findTable_, tr("Find results"), "findDock");
    addDockWidget(Qt::RightDockWidgetArea, findDock_);
    tabifyDockWidget(rangeDock_, findDock_);
    warnings_ = new WarningsPanel(this);
    auto* warningsDock = dockOf(this, warnings_, tr("Warnings"), "warningsDock");
    addDockWidget(Qt::RightDockWidgetArea, warningsDock);
    tabifyDockWidget(chartsDock, warningsDock);
    connect(warnings_, &WarningsPanel::countChanged, warningsDock, [warningsDock](int n) {
        warningsDock->setWindowTitle(n ? tr("Warnings (%1)").arg(n) : tr("Warnings"));
    });
    // The recognised parallel layout and, after dp.degree, how the simulated job differs.
    structure_ = new StructurePanel(this);
    auto* structureDock = dockOf(this, structure_, tr("Structure"), "structureDock");
    addDockWidget(Qt::RightDockWidgetArea, structureDock);
    tabifyDockWidget(chartsDock, structureDock);
    chartsDock->raise();
    knobs_ = new KnobPanel(this);
    // Scrolled: the registry's rows outgrow a laptop screen, and the panel's height must not set the
    // window's minimum (on 1600x1000 the window did not fit and lost its status bar).
    auto* knobScroll = new QScrollArea(this);
    knobScroll->setWidget(knobs_);
    knobScroll->setWidgetResizable(true);
    knobScroll->setFrameShape(QFrame::NoFrame);
    knobScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    knobScroll->setMinimumWidth(knobs_->minimumSizeHint().width() +
                                knobScroll->verticalScrollBar()->sizeHint().width());
    knobsDock_ = dockOf(this, knobScroll, tr("What-if knobs"), "knobsDock");
    addDockWidget(Qt::LeftDockWidgetArea, knobsDock_);
    // The scenarios sit at the bottom, left of their comparison table (the left column is the knobs'
    // and the tracks'); docs/WhatIfWorkbench.md.
    auto* scenarioList = new ScenarioList(this);
    auto* scenariosDock = new ScenariosDock(scenarioList, this);
    scenariosDock_ = dockOf(this, scenariosDock, tr("Scenarios"), "scenariosDock");
    addDockWidget(Qt::BottomDockWidgetArea, scenariosDock_);
    auto* deltaTable = new DeltaTable(this);
    deltaDock_ = dockOf(this, deltaTable, tr("Scenario comparison"), "deltaDock");
    splitDockWidget(scenariosDock_, deltaDock_, Qt::Horizontal);
    auto* scenarios = new ScenarioController(
        scenarioList, new ScenarioRunner(this),
        {knobs_, card_, deltaTable, scenariosDock, panes_, sessions_->highlights(), sessions_->simRunner()},
        this);
    sessions_->setScenarios(scenarios, knobs_);
    connect(scenarios, &ScenarioController::notice, this,
            [this](const QString& text) { messageBar_->showMessage(text, MessageBar::Level::Info); });
    connect(scenarios, &ScenarioController::failed, this, &MainWindow::simulationFailed);
    pathTable_ = new CriticalPathTable(this);
    pathDock_ = dockOf(this, pathTable_, tr("Critical path"), "criticalPathDock");
    addDockWidget(Qt::BottomDockWidgetArea, pathDock_);
    tabifyDockWidget(deltaDock_, pathDock_);
    stragglers_ = new StragglersPanel(this);
    auto* stragglersDock = dockOf(this, stragglers_, tr("Stragglers"), "stragglersDock");
    addDockWidget(Qt::BottomDockWidgetArea, stragglersDock);
    tabifyDockWidget(deltaDock_, stragglersDock);
    sweep_ = new SweepView(this);
    auto* sweepDock = dockOf(this, sweep_, tr("Sweep"), "sweepDock");
    sweepDock_ = sweepDock;
    addDockWidget(Qt::BottomDockWidgetArea, sweepDock);
    tabifyDockWidget(deltaDock_, sweepDock);
    connect(sweepDock, &QDockWidget::visibilityChanged, this, &MainWindow::fitSweep);
    deltaDock_->raise();
    defaultState_ = saveState();
    watchLayout();
    // The default sizes apply once the window is laid out, unless restoreLayout() brought the
    // user's own.
    QTimer::singleShot(0, this, [this] {
        if (!layoutRestored_) applyDefaultSizes();
    });
}

MainWindow::~MainWindow() {
    // Closing hides the docks while the window's layout is going away: no sweep fitting then.
    if (sweepDock_) disconnect(sweepDock_, nullptr, this, nullptr);
}

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
    connect(menus_->shiftAction(), &QAction::toggled, this, &MainWindow::updateShiftColour);
    // Loading: the status line, the progress bar and its cancel button, errors in the message bar.
    // Cancel stops the load, else the details of the set shown (docs/Loader.md, "GUI: timeline
    // first, details later").
    connect(cancel_, &QPushButton::clicked, this, [s] {
        if (s->loader()->busy())
            s->loader()->cancel();
        else
            s->cancelDetails();
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
    connect(s, &SessionController::detailsStarted, this, [this] {
        showProgress(tr("Details: starting"), 0.0);
        if (messageBar_->text() == detailsCancelledText()) messageBar_->hide();
    });
    connect(s, &SessionController::detailsProgress, this, [this, s](const QString& what, double fraction) {
        if (!s->loader()->busy()) showProgress(tr("Details: %1").arg(what), fraction); // else: the load's
    });
    connect(s, &SessionController::detailsFinished, this, [this, s] {
        if (!s->loader()->busy()) hideProgress();
    });
    connect(s, &SessionController::detailsCancelled, this, [this, s] {
        if (!s->loader()->busy()) hideProgress();
        panes_->simulated()->setNote({});
        panes_->simulated()->setEmptyText(
            tr("Details cancelled: no simulation yet (Compute details, or change a knob)"));
        messageBar_->showMessage(detailsCancelledText(), MessageBar::Level::Info, tr("Compute details"),
                                 [s] { s->computeDetails(); });
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
        trackModel_->setTraceSet(nullptr);
        panes_->setMeasured(nullptr);
        panes_->setSimulated(nullptr);
        details_->setData(nullptr, nullptr);
        findBar_->setData(nullptr);
        findResults_->setSearch(nullptr, nullptr);
        warnings_->clearAll();
        structure_->clear();
    });
    connect(s, &SessionController::switched, this, [this, s](auto set, auto measured) {
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
    connect(s, &SessionController::titleChanged, this, [this, s] {
        setWindowTitle(s->title());
        setWindowModified(s->modified());
    });
    // Every save and export says where it went.
    connect(s, &SessionController::saved, this,
            [this](const QString& path) { confirm(tr("Session saved to %1").arg(path)); });
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
    connect(s, &SessionController::simulationShown, this, &MainWindow::showSimulation);
    connect(knobs_, &KnobPanel::changed, sweep_, &SweepView::setBaseKnobs);
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

void MainWindow::showSimulation(const SimOutput& output) {
    const auto measured = sessions_->measured();
    panes_->setSimulated(output.timeline, {});
    panes_->setSimulatedRun(output.result, output.graph);
    pathTable_->setSimulation(output);
    stragglers_->setGraph(output.graph);
    if (output.analysis && sessions_->traceSet()) {
        overview_->setData(sessions_->traceSet(), output.analysis->measured, &stragglers_->arrivals(),
                           output.graph.get());
        overview_->setVisible(sessions_->traceSet()->ranks.size() >= 4);
    }
    sweep_->setGraph(sessions_->traceSet(), output.graph);
    sweep_->setBaseKnobs(output.knobs); // the knobs the shown run ran with
    panes_->simulated()->setReference(measured);
    updateShiftColour();
    charts_->setSimulation(output);
    details_->setData(measured, output.timeline);
    warnings_->setSimulationWarnings(output.graph ? output.graph->warnings : Warnings{},
                                     output.result->warnings);
    structure_->setSimulatedSetup(output.result->setup);
    // The range statistics gain (or refresh) their simulated columns.
    range_->setTimelines(measured, output.timeline);
    updateStatus();
}

void MainWindow::updateShiftColour() {
    TimeNs scale = 0;
    const SimOutput& sim = sessions_->simulation();
    // The 90th percentile of the run's kernel start error: most shifts fall inside the scale.
    if (menus_->shiftAction()->isChecked() && sim.result)
        scale = static_cast<TimeNs>(std::max(1.0, sim.result->kernelStartError.p90Us) * 1000.0);
    panes_->simulated()->setShiftScale(scale);
}

void MainWindow::updateStatus() {
    status_->setText(sessions_->statusText());
}

void MainWindow::setLoading(bool loading) {
    if (loading)
        showProgress(tr("Reading events"), 0.0);
    else
        hideProgress();
}

void MainWindow::showProgress(const QString& what, double fraction) {
    progressLabel_->setText(what);
    progress_->setValue(static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 1000));
    progressLabel_->show();
    progress_->show();
    cancel_->show();
}

void MainWindow::hideProgress() {
    progressLabel_->hide();
    progress_->hide();
    cancel_->hide();
}

void MainWindow::simulationFailed(const QString& scenario, const QString& error) {
    messageBar_->showMessage(tr("Scenario \"%1\": the simulation failed: %2").arg(scenario, error),
                             MessageBar::Level::Warning);
}

QString MainWindow::reportError(const QString& error) {
    if (!error.isEmpty()) messageBar_->showMessage(error, MessageBar::Level::Error);
    return error;
}

void MainWindow::confirm(const QString& text) {
    statusBar()->showMessage(text, 10'000);
}

QString MainWindow::imageSaved(const QString& error, const QString& path) {
    if (error.isEmpty()) confirm(tr("Image saved to %1").arg(path));
    return reportError(error);
}

QString MainWindow::saveView(const QString& path) {
    return imageSaved(saveWidgetImage(this, path), path);
}

QString MainWindow::saveTimelineImage(const QString& path) {
    return imageSaved(stack_->currentIndex() != 1 ? tr("No timeline to save yet: open a trace first")
                                                  : saveWidgetImage(stack_->widget(1), path),
                      path);
}

QChartView* MainWindow::chartOnScreen() const {
    // The sweep's plot when its tab is in front with a sweep in it, else the Charts dock's tab.
    if (sweep_->isVisible() && !sweep_->visibleRegion().isEmpty() && !sweep_->points().empty())
        return sweep_->chart();
    QWidget* tab = charts_->tabs()->currentWidget();
    auto* view = qobject_cast<QChartView*>(tab);
    return view || !tab ? view : tab->findChild<QChartView*>();
}

QString MainWindow::saveChartImage(const QString& path) {
    // Rendered at slide size, not grabbed at the dock's (docs/Exports.md).
    QChartView* chart = chartOnScreen();
    const QSize size = chart ? chart->size().expandedTo(QSize(1600, 900)) : QSize();
    return imageSaved(!sessions_->simulation().result || !chart
                          ? tr("No chart to save yet: open a trace first")
                          : renderChart(chart, path, size),
                      path);
}

QString MainWindow::copyChartImage() {
    QChartView* chart = chartOnScreen();
    if (!sessions_->simulation().result || !chart)
        return reportError(tr("No chart to copy yet: open a trace first"));
    QGuiApplication::clipboard()->setImage(chartImage(chart, chart->size().expandedTo(QSize(1600, 900))));
    confirm(tr("Chart copied to the clipboard"));
    return {};
}

void MainWindow::offerRestore() {
    const Autosave* autosave = sessions_->autosave();
    if (!autosave || !autosave->recoverable()) return;
    // Window-modal, never blocks the event loop. The recovered session stays on disk until the user
    // answers (docs/MainWindow.md, "Never losing work"): closing the box without an answer offers
    // it again at the next start.
    auto* box = new QMessageBox(QMessageBox::Question, tr("Restore session"),
                                tr("Sightline did not close cleanly last time. Restore the session it was "
                                   "working on (traces, scenarios, knobs, tracks, view)?"),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("restoreQuestion"));
    box->addButton(tr("Restore"), QMessageBox::AcceptRole)->setObjectName(QStringLiteral("restore"));
    box->addButton(tr("Discard"), QMessageBox::DestructiveRole)->setObjectName(QStringLiteral("discard"));
    box->addButton(tr("Ask Next Time"), QMessageBox::RejectRole)->setObjectName(QStringLiteral("later"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, box](QAbstractButton* button) {
        if (box->buttonRole(button) == QMessageBox::AcceptRole)
            sessions_->restoreRecovered();
        else if (box->buttonRole(button) == QMessageBox::DestructiveRole)
            sessions_->declineRecovered();
    });
    box->open();
}

MainWindow::CloseChoice MainWindow::askClose() {
    if (closeQuestion_) return closeQuestion_();
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                    tr("The session has changes that are not saved (scenarios, knobs, tracks, view). "
                       "Save them before closing?"),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("closeQuestion"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return CloseChoice::Save;
    case QMessageBox::Discard:
        return CloseChoice::Discard;
    default:
        return CloseChoice::Cancel;
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // A modified session is never lost by a close or Ctrl+Q: save, discard or stay.
    if (sessions_->modified()) {
        const CloseChoice choice = askClose();
        if (choice == CloseChoice::Cancel || (choice == CloseChoice::Save && !menus_->saveSession())) {
            event->ignore();
            return;
        }
    }
    if (sessions_->autosave()) sessions_->autosave()->finish();
    saveLayout();
    sessions_->loader()->cancel();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) paths.push_back(url.toLocalFile());
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
        sessions_->openTraces(paths);
    }
}

} // namespace sl::ui
