// MainWindow's docks: the panels around the timeline, each in a dock that can shrink to its title
// (docs/MainWindow.md, "Layout").
#include "MainWindow.h"

#include "Autosave.h"
#include "ChartRender.h"
#include "ChartsPanel.h"
#include "ComparisonController.h"
#include "ComparisonWindow.h"
#include "CriticalPathTable.h"
#include "DeltaTable.h"
#include "DetailsPanel.h"
#include "EmbeddingTablesPanel.h"
#include "Export.h"
#include "FindBar.h"
#include "FindResultsModel.h"
#include "HelpSheets.h"
#include "HighlightModel.h"
#include "JobSummaryPanel.h"
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

namespace {
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

void MainWindow::buildEmbeddingDock(QDockWidget* besides) {
    // Embedding tables (docs/Embeddings.md, "In the GUI"): only for traces with embedding lookups.
    // Moving a table sets the current scenario's embedding.plan as an edit in the knob panel would.
    auto* embedding = new EmbeddingTablesPanel(this);
    auto* dock = dockOf(this, embedding, tr("Embedding tables"), "embeddingDock");
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    tabifyDockWidget(besides, dock);
    dock->hide();
    // Shown, and brought to the front of its tabs, when a trace with embedding work comes.
    connect(embedding, &EmbeddingTablesPanel::availabilityChanged, dock, [dock](bool available) {
        dock->setVisible(available);
        if (available) dock->raise();
    });
    connect(sessions_->simulationModel(), &SimulationModel::changed, embedding,
            &EmbeddingTablesPanel::setSimulation);
    connect(sessions_, &SessionController::aboutToSwitch, embedding, &EmbeddingTablesPanel::clear);
    connect(embedding, &EmbeddingTablesPanel::planChosen, this, [this](const QString& plan) {
        SimKnobs k = knobs_->knobs();
        setKnob(k, "embedding.plan", plan.toStdString());
        knobs_->setKnobs(k);
    });
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
    buildEmbeddingDock(stragglersDock);
    sweep_ = new SweepView(this);
    auto* sweepDock = dockOf(this, sweep_, tr("Sweep"), "sweepDock");
    sweepDock_ = sweepDock;
    addDockWidget(Qt::BottomDockWidgetArea, sweepDock);
    tabifyDockWidget(deltaDock_, sweepDock);
    connect(sweepDock, &QDockWidget::visibilityChanged, this,
            [this](bool front) { fitChartTab(sweepDock_, front); });
    // The layouts of a GPU count predicted from the trace (docs/Layouts.md, "In the window").
    plan_ = new PlanView(this);
    planDock_ = dockOf(this, plan_, tr("Plan"), "planDock");
    addDockWidget(Qt::BottomDockWidgetArea, planDock_);
    tabifyDockWidget(deltaDock_, planDock_);
    connect(planDock_, &QDockWidget::visibilityChanged, this,
            [this](bool front) { fitChartTab(planDock_, front); });
    // The comparison run's tables (File > Comparison Tables...): a tab of the bottom row, so that
    // they never cover the timeline whose ops a row jumps to; hidden until a run is compared.
    auto* comparisonDock = new QDockWidget(tr("Comparison"), this);
    comparisonDock->setObjectName(QStringLiteral("comparisonDock"));
    comparisonDock->setWidget(ComparisonWindow::placeholder(comparisonDock));
    addDockWidget(Qt::BottomDockWidgetArea, comparisonDock);
    tabifyDockWidget(deltaDock_, comparisonDock);
    comparisonDock->hide();
    // A job summarised rank by rank (File > Open Job Summary...): hidden until one is opened; the
    // ranks a user picks there open in full.
    auto* jobSummary = new JobSummaryPanel(this);
    auto* jobSummaryDock = dockOf(this, jobSummary, tr("Job summary"), "jobSummaryDock");
    addDockWidget(Qt::BottomDockWidgetArea, jobSummaryDock);
    tabifyDockWidget(deltaDock_, jobSummaryDock);
    jobSummaryDock->hide();
    connect(jobSummary, &JobSummaryPanel::openRequested, sessions_, &SessionController::openTraces);
    deltaDock_->raise();
    defaultState_ = saveState();
    watchLayout();
    // The default sizes apply once the window is laid out, unless restoreLayout() brought the
    // user's own.
    QTimer::singleShot(0, this, [this] {
        if (!layoutRestored_) applyDefaultSizes();
    });
}

} // namespace sl::ui
