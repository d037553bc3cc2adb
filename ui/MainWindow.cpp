#include "MainWindow.h"

#include "io/KinetoLoader.h"

#include "Autosave.h"
#include "ChartsPanel.h"
#include "CriticalPathTable.h"
#include "DeltaTable.h"
#include "DetailsPanel.h"
#include "EtAttach.h"
#include "Export.h"
#include "FindBar.h"
#include "FindResultsModel.h"
#include "HighlightModel.h"
#include "KnobPanel.h"
#include "LegendWidget.h"
#include "MessageBar.h"
#include "RangeStatsModel.h"
#include "RangeStatsWorker.h"
#include "RecentFiles.h"
#include "ResultCard.h"
#include "ScenarioController.h"
#include "ScenariosDock.h"
#include "StructurePanel.h"
#include "SweepView.h"
#include "TimeFormat.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "TrackTreeModel.h"
#include "ViewController.h"
#include "WarningsPanel.h"
#include "WelcomePage.h"
#include "report/SimulationReport.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace sl::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), controller_(new ViewController(this)), selection_(new SelectionModel(this)),
      tracks_(new TrackState(this)), loader_(new TraceLoader(this)), sim_(new SimRunner(this)) {
    highlights_ = new HighlightModel(selection_, this);
    setWindowTitle(tr("Sightline"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    messageBar_ = new MessageBar(central);
    findBar_ = new FindBar(central);
    findBar_->hide();
    // The welcome page until a set is open, then the panes (the message bar stays above both: a load
    // that fails from the welcome page says so there).
    stack_ = new QStackedWidget(central);
    welcome_ = new WelcomePage(stack_);
    auto* timeline = new QWidget(stack_);
    auto* tl = new QVBoxLayout(timeline);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->setSpacing(0);
    panes_ = new TimelinePanes(controller_, selection_, tracks_, timeline);
    legend_ = new LegendWidget(timeline);
    card_ = new ResultCard(timeline);
    tl->addWidget(card_);
    tl->addWidget(panes_, 1);
    tl->addWidget(legend_);
    stack_->addWidget(welcome_);
    stack_->addWidget(timeline);
    layout->addWidget(messageBar_);
    layout->addWidget(findBar_);
    layout->addWidget(stack_, 1);
    panes_->setHighlights(highlights_);
    setCentralWidget(central);
    connect(welcome_, &WelcomePage::openRequested, this, &MainWindow::openTraces);
    connect(welcome_, &WelcomePage::openFilesRequested, this, &MainWindow::openFilesDialog);
    connect(welcome_, &WelcomePage::openFolderRequested, this, &MainWindow::openFolderDialog);

    status_ = new QLabel(tr("No trace loaded"), this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(240);
    cancel_ = new QPushButton(tr("Cancel"), this);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    setLoading(false);

    buildDocks();
    buildHighlightActions();
    buildNavigationActions();
    buildMenus();

    connect(cancel_, &QPushButton::clicked, loader_, &TraceLoader::cancel);
    connect(loader_, &TraceLoader::progress, this,
            [this](double f) { progress_->setValue(static_cast<int>(std::clamp(f, 0.0, 1.0) * 1000)); });
    connect(loader_, &TraceLoader::loaded, this,
            [this](std::shared_ptr<const TraceSet> set, QStringList paths) {
                setLoading(false);
                std::optional<Session> session;
                QString path;
                if (pending_ && pending_->traces == paths) session = std::move(pending_), path = pendingPath_;
                pending_.reset();
                showLoaded(std::move(set), paths, session ? &*session : nullptr);
                if (session && !path.isEmpty()) sessionPath_ = path;
                setModified(false);
            });
    connect(loader_, &TraceLoader::failed, this, [this](const QString& message, const QStringList& paths) {
        setLoading(false);
        pending_.reset();
        showError(message);
        // A rank set with a bad file: offer the ranks that do load.
        std::size_t files = 0;
        try {
            std::vector<std::string> list;
            for (const auto& p : paths)
                list.push_back(p.toStdString());
            files = expandTracePaths(list).size();
        } catch (const std::exception&) {
        }
        if (files > 1)
            messageBar_->showMessage(tr("Could not open: %1").arg(message), MessageBar::Level::Error,
                                     tr("Open the good ranks"), [this, paths] {
                                         setLoading(true);
                                         loader_->start(paths, true);
                                     });
    });
    connect(loader_, &TraceLoader::cancelled, this, [this] {
        setLoading(false);
        pending_.reset();
        messageBar_->showMessage(tr("Loading cancelled."), MessageBar::Level::Info);
    });
    connect(selection_, &SelectionModel::eventChanged, details_, &DetailsPanel::showDetails);
    connect(selection_, &SelectionModel::rangeChanged, this, &MainWindow::updateRangeStats);
    connect(findBar_, &FindBar::found, this, &MainWindow::revealEvent);
    connect(findBar_, &FindBar::matchesChanged, this, [this] {
        const bool any = findBar_->search().count() > 0;
        panes_->setMatches(any ? &findBar_->search().nameHits() : nullptr);
        findResults_->setSearch(any ? &findBar_->search() : nullptr, measured_);
        if (any) findDock_->raise();
    });
    connect(findBar_, &FindBar::found, this, [this] {
        // The results list follows next / previous.
        const int row = findBar_->search().current();
        if (row >= 0 && row < findResults_->rowCount()) {
            const QSignalBlocker block(findTable_->selectionModel());
            findTable_->selectRow(row);
            findTable_->scrollTo(findResults_->index(row, 0));
        }
    });
    for (TimelineView* pane : {panes_->measured(), panes_->simulated()}) {
        const bool simulated = pane == panes_->simulated();
        connect(pane, &TimelineView::eventMenuRequested, this, [this, simulated](EventId e, QPoint at) {
            if (e.valid()) selection_->setEvent(e);
            QMenu* menu = eventMenu(e, simulated, this);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(at);
        });
        connect(pane, &TimelineView::trackMenuRequested, this, [this](int rank, int track, QPoint at) {
            QMenu* menu = trackMenu(rank, track, this);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(at);
        });
    }
    connect(controller_, &ViewController::windowChanged, this, &MainWindow::updateStatus);
    connect(knobs_, &KnobPanel::changed, this, [this](const SimKnobs& k) {
        if (autoSimulate_ && set_) sim_->request(k);
        markDirty();
    });
    connect(tracks_, &TrackState::changed, this, &MainWindow::markDirty);
    connect(controller_, &ViewController::windowChanged, this, &MainWindow::markDirty);
    connect(controller_, &ViewController::scrollYChanged, this, &MainWindow::markDirty);
    connect(highlights_, &HighlightModel::changed, this, &MainWindow::markDirty);
    connect(sim_, &SimRunner::started, this, [this] { panes_->simulated()->setNote(tr("simulating...")); });
    connect(sim_, &SimRunner::finished, this, &MainWindow::showSimulation);
    connect(sim_, &SimRunner::failed, this, [this](const QString& message) {
        panes_->setSimulated(nullptr);
        panes_->simulated()->setEmptyText(tr("Simulation failed: %1").arg(message));
        messageBar_->showMessage(tr("Simulation failed: %1").arg(message), MessageBar::Level::Warning);
    });
    resize(1600, 1000);
}

void MainWindow::buildDocks() {
    trackModel_ = new TrackTreeModel(tracks_, this);
    trackTree_ = new QTreeView(this);
    trackTree_->setModel(trackModel_);
    trackTree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    trackTree_->header()->setStretchLastSection(false);
    trackTree_->setUniformRowHeights(true);
    trackTree_->header()->setSectionResizeMode(TrackTreeModel::PinColumn, QHeaderView::ResizeToContents);
    trackTree_->setDragDropMode(QAbstractItemView::InternalMove);
    trackTree_->setDefaultDropAction(Qt::MoveAction);
    trackTree_->setDropIndicatorShown(true);
    trackTree_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(trackTree_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const auto [r, t] = trackModel_->location(trackTree_->indexAt(pos));
        if (r < 0) return;
        QMenu* menu = trackMenu(r, t, this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(trackTree_->viewport()->mapToGlobal(pos));
    });
    connect(trackTree_, &QTreeView::expanded, this, [this](const QModelIndex& i) {
        if (!i.parent().isValid()) tracks_->setRankExpanded(static_cast<std::size_t>(i.row()), true);
    });
    connect(trackTree_, &QTreeView::collapsed, this, [this](const QModelIndex& i) {
        if (!i.parent().isValid()) tracks_->setRankExpanded(static_cast<std::size_t>(i.row()), false);
    });
    connect(tracks_, &TrackState::changed, this, [this] {
        for (int r = 0; r < trackModel_->rowCount() && static_cast<std::size_t>(r) < tracks_->rankCount();
             ++r) {
            const QModelIndex i = trackModel_->index(r, 0);
            const bool e = tracks_->rankExpanded(static_cast<std::size_t>(r));
            if (trackTree_->isExpanded(i) != e) trackTree_->setExpanded(i, e);
        }
    });
    connect(trackTree_, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) {
        const auto [r, t] = trackModel_->location(i);
        if (t < 0) return;
        const int row = panes_->measured()->layout().rowOf(r, t);
        if (row >= 0)
            controller_->setScrollY(panes_->measured()->layout().rows()[static_cast<std::size_t>(row)].y);
    });
    auto* tracksDock = new QDockWidget(tr("Tracks"), this);
    tracksDock->setObjectName(QStringLiteral("tracksDock"));
    tracksDock->setWidget(trackTree_);
    addDockWidget(Qt::LeftDockWidgetArea, tracksDock);

    details_ = new DetailsPanel(this);
    auto* detailsDock = new QDockWidget(tr("Details"), this);
    detailsDock->setObjectName(QStringLiteral("detailsDock"));
    detailsDock->setWidget(details_);
    addDockWidget(Qt::RightDockWidgetArea, detailsDock);

    rangeModel_ = new RangeStatsModel(this);
    rangeWorker_ = new RangeStatsWorker(this);
    connect(rangeWorker_, &RangeStatsWorker::finished, this,
            [this](std::uint64_t, RangeTable table) { showRangeStats(std::move(table)); });
    auto* rangeWidget = new QWidget(this);
    auto* rl = new QVBoxLayout(rangeWidget);
    rl->setContentsMargins(0, 0, 0, 0);
    rangeLabel_ = new QLabel(tr("Shift+drag (or right-drag) in a pane to select a time range."), rangeWidget);
    rangeLabel_->setContentsMargins(6, 3, 6, 3);
    rangeExport_ = new QPushButton(tr("Export CSV..."), rangeWidget);
    rangeExport_->setEnabled(false);
    rangeExport_->setToolTip(tr("Write this table (both panes, times in ns) to a CSV file"));
    connect(rangeExport_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export range statistics"), dialogDir(QStringLiteral("range.csv")), tr("CSV (*.csv)"));
        if (!path.isEmpty()) {
            rememberDir(path);
            exportRangeStats(path);
        }
    });
    auto* rangeTop = new QHBoxLayout;
    rangeTop->addWidget(rangeLabel_, 1);
    rangeTop->addWidget(rangeExport_);
    rangeLabel_->setWordWrap(true);
    rangeTable_ = new QTableView(rangeWidget);
    rangeTable_->setModel(rangeModel_);
    rangeTable_->setSortingEnabled(true);
    rangeTable_->sortByColumn(RangeStatsModel::Total, Qt::DescendingOrder);
    rangeTable_->horizontalHeader()->setSectionResizeMode(RangeStatsModel::Name, QHeaderView::Stretch);
    rangeTable_->verticalHeader()->hide();
    rangeTable_->verticalHeader()->setDefaultSectionSize(20);
    rangeTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int c : {RangeStatsModel::SimCount, RangeStatsModel::SimTotal, RangeStatsModel::SimShare})
        rangeTable_->setColumnHidden(c, true);
    rl->addLayout(rangeTop);
    rl->addWidget(rangeTable_, 1);
    auto* rangeDock = new QDockWidget(tr("Range statistics"), this);
    rangeDock_ = rangeDock;
    rangeDock->setObjectName(QStringLiteral("rangeDock"));
    rangeDock->setWidget(rangeWidget);
    addDockWidget(Qt::RightDockWidgetArea, rangeDock);
    charts_ = new ChartsPanel(this);
    auto* chartsDock = new QDockWidget(tr("Charts"), this);
    chartsDock->setObjectName(QStringLiteral("chartsDock"));
    chartsDock->setWidget(charts_);
    addDockWidget(Qt::RightDockWidgetArea, chartsDock);
    tabifyDockWidget(rangeDock, chartsDock);
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
    connect(findTable_, &QTableView::clicked, this,
            [this](const QModelIndex& i) { findBar_->showMatch(i.row()); });
    connect(findTable_, &QTableView::activated, this,
            [this](const QModelIndex& i) { findBar_->showMatch(i.row()); });
    findDock_ = new QDockWidget(tr("Find results"), this);
    findDock_->setObjectName(QStringLiteral("findDock"));
    findDock_->setWidget(findTable_);
    addDockWidget(Qt::RightDockWidgetArea, findDock_);
    tabifyDockWidget(rangeDock, findDock_);
    chartsDock->raise();
    warnings_ = new WarningsPanel(this);
    auto* warningsDock = new QDockWidget(tr("Warnings"), this);
    warningsDock->setObjectName(QStringLiteral("warningsDock"));
    warningsDock->setWidget(warnings_);
    addDockWidget(Qt::RightDockWidgetArea, warningsDock);
    tabifyDockWidget(chartsDock, warningsDock);
    // The recognised parallel layout and, after dp.degree, how the simulated job differs.
    structure_ = new StructurePanel(this);
    auto* structureDock = new QDockWidget(tr("Structure"), this);
    structureDock->setObjectName(QStringLiteral("structureDock"));
    structureDock->setWidget(structure_);
    addDockWidget(Qt::RightDockWidgetArea, structureDock);
    tabifyDockWidget(chartsDock, structureDock);
    chartsDock->raise();
    connect(warnings_, &WarningsPanel::countChanged, warningsDock, [warningsDock](int n) {
        warningsDock->setWindowTitle(n ? tr("Warnings (%1)").arg(n) : tr("Warnings"));
    });
    knobs_ = new KnobPanel(this);
    auto* knobsDock = new QDockWidget(tr("What-if knobs"), this);
    knobsDock->setObjectName(QStringLiteral("knobsDock"));
    knobsDock->setWidget(knobs_);
    addDockWidget(Qt::LeftDockWidgetArea, knobsDock);
    auto* scenarioList = new ScenarioList(this);
    auto* scenariosDock = new ScenariosDock(scenarioList, this);
    auto* scenariosDockWidget = new QDockWidget(tr("Scenarios"), this);
    scenariosDockWidget->setObjectName(QStringLiteral("scenariosDock"));
    scenariosDockWidget->setWidget(scenariosDock);
    // The scenarios sit at the bottom, left of their comparison table (the left column is the
    // knobs' and the tracks').
    addDockWidget(Qt::BottomDockWidgetArea, scenariosDockWidget);
    auto* deltaTable = new DeltaTable(this);
    auto* deltaDock = new QDockWidget(tr("Scenario comparison"), this);
    deltaDock->setObjectName(QStringLiteral("deltaDock"));
    deltaDock->setWidget(deltaTable);
    splitDockWidget(scenariosDockWidget, deltaDock, Qt::Horizontal);
    // Sizes apply once the window is laid out: a narrow list, a short bottom row (the panes first).
    QTimer::singleShot(0, this, [this, scenariosDockWidget, deltaDock] {
        resizeDocks({scenariosDockWidget, deltaDock}, {300, 1200}, Qt::Horizontal);
        resizeDocks({deltaDock}, {210}, Qt::Vertical);
    });
    scenarios_ =
        new ScenarioController(scenarioList, new ScenarioRunner(this),
                               {knobs_, card_, deltaTable, scenariosDock, panes_, highlights_, sim_}, this);
    connect(scenarios_, &ScenarioController::modified, this, &MainWindow::markDirty);
    pathTable_ = new CriticalPathTable(this);
    auto* pathDock = new QDockWidget(tr("Critical path"), this);
    pathDock->setObjectName(QStringLiteral("criticalPathDock"));
    pathDock->setWidget(pathTable_);
    addDockWidget(Qt::BottomDockWidgetArea, pathDock);
    tabifyDockWidget(deltaDock, pathDock);
    sweep_ = new SweepView(this);
    auto* sweepDock = new QDockWidget(tr("Sweep"), this);
    sweepDock->setObjectName(QStringLiteral("sweepDock"));
    sweepDock->setWidget(sweep_);
    addDockWidget(Qt::BottomDockWidgetArea, sweepDock);
    tabifyDockWidget(deltaDock, sweepDock);
    deltaDock->raise();
    connect(knobs_, &KnobPanel::changed, sweep_, &SweepView::setBaseKnobs);
    // Colour the simulated pane by shift (simulated minus measured start).
    shiftAction_ = new QAction(tr("Colour Simulated by &Shift"), this);
    shiftAction_->setObjectName(QStringLiteral("shiftColourAction"));
    shiftAction_->setCheckable(true);
    shiftAction_->setShortcut(QKeySequence(Qt::Key_H));
    shiftAction_->setShortcutContext(Qt::ApplicationShortcut);
    shiftAction_->setToolTip(
        tr("Colour the simulated pane by how far each event moved from its measured start (H)"));
    addAction(shiftAction_);
    connect(shiftAction_, &QAction::toggled, this, &MainWindow::updateShiftColour);
    connect(pathTable_, &CriticalPathTable::eventActivated, this, &MainWindow::revealEvent);
    connect(selection_, &SelectionModel::eventChanged, pathTable_, &CriticalPathTable::followEvent);
    // N / Shift+N walk the critical path's segments, whatever has focus (like the other single keys).
    for (const bool forward : {true, false}) {
        auto* a = new QAction(
            forward ? tr("Next Critical-Path Segment") : tr("Previous Critical-Path Segment"), this);
        a->setObjectName(forward ? QStringLiteral("nextSegmentAction")
                                 : QStringLiteral("previousSegmentAction"));
        a->setShortcut(forward ? QKeySequence(Qt::Key_N) : QKeySequence(Qt::SHIFT | Qt::Key_N));
        a->setShortcutContext(Qt::ApplicationShortcut);
        connect(a, &QAction::triggered, this, [this, pathDock, forward] {
            pathDock->show();
            pathDock->raise();
            forward ? pathTable_->next() : pathTable_->previous();
        });
        addAction(a);
    }
    resizeDocks({tracksDock, detailsDock}, {260, 420}, Qt::Horizontal);
}

void MainWindow::buildHighlightActions() {
    auto make = [this](const QString& text, const QKeySequence& key, const QString& tip, bool checked) {
        auto* a = new QAction(text, this);
        a->setCheckable(true);
        a->setChecked(checked);
        a->setShortcut(key);
        // Application-wide, like every single-key shortcut here: they work whatever has focus
        // (text fields keep their letters: they take the key before any shortcut does).
        a->setShortcutContext(Qt::ApplicationShortcut);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString()));
        return a;
    };
    criticalPathAction_ = make(tr("&Critical Path"), QKeySequence(Qt::Key_C),
                               tr("Show the critical path: other events dimmed, segments coloured by label"),
                               highlights_->criticalPath());
    criticalPathAction_->setObjectName(QStringLiteral("criticalPathAction"));
    exposedAction_ = make(tr("&Exposed Communication"), QKeySequence(Qt::Key_E),
                          tr("Hatch communication not hidden behind compute, with a lane per rank"),
                          highlights_->exposed());
    exposedAction_->setObjectName(QStringLiteral("exposedAction"));
    arrowsAction_ = make(tr("&Dependency Arrows"), QKeySequence(Qt::Key_G),
                         tr("Arrows of the selected event's graph edges and its collective's participants"),
                         highlights_->arrows());
    arrowsAction_->setObjectName(QStringLiteral("arrowsAction"));
    connect(criticalPathAction_, &QAction::toggled, highlights_, &HighlightModel::setCriticalPath);
    connect(exposedAction_, &QAction::toggled, highlights_, &HighlightModel::setExposed);
    connect(arrowsAction_, &QAction::toggled, highlights_, &HighlightModel::setArrows);
    connect(highlights_, &HighlightModel::criticalPathChanged, this, [this](bool on) {
        criticalPathAction_->setChecked(on);
        legend_->setCriticalPath(on);
    });
    connect(highlights_, &HighlightModel::exposedChanged, this, [this](bool on) {
        exposedAction_->setChecked(on);
        legend_->setExposed(on);
        tracks_->setExposedLanes(on);
    });
    auto* bar = addToolBar(tr("Highlights"));
    bar->setObjectName(QStringLiteral("highlightsToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(criticalPathAction_);
    bar->addAction(exposedAction_);
    bar->addAction(arrowsAction_);
}

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Files..."), QKeySequence::Open, this, &MainWindow::openFilesDialog);
    file->addAction(tr("Open &Folder..."), QKeySequence(tr("Ctrl+Shift+O")), this,
                    &MainWindow::openFolderDialog);
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openTraces);
    connect(recent_, &RecentFiles::changed, this, [this] { welcome_->setRecent(recent_->entries()); });
    welcome_->setRecent(recent_->entries());
    // Execution traces for the open set (EtAttach.h): the set re-linked with them is shown in its
    // place with the user's knobs, scenarios and view re-applied; a bad file only shows its error.
    auto* etAttach = new EtAttach(this);
    for (const bool folder : {false, true})
        file->addAction(folder ? tr("Attach Execution Trace Fol&der...") : tr("Attach E&xecution Traces..."),
                        this, [this, etAttach, folder] {
                            const QStringList ets = EtAttach::askPaths(this, paths_, folder);
                            if (!ets.isEmpty()) etAttach->start(set_, paths_, ets);
                        });
    connect(etAttach, &EtAttach::attached, this, [this](auto set, const QString& text, auto replaces) {
        if (replaces != set_) return; // another set was opened meanwhile
        const Session keep = currentSession();
        showLoaded(std::move(set), paths_, &keep);
        messageBar_->showMessage(text, MessageBar::Level::Info);
    });
    connect(etAttach, &EtAttach::failed, this,
            [this](const QString& message) { messageBar_->showMessage(message, MessageBar::Level::Error); });
    file->addSeparator();
    const QString sessionFilter = tr("Sightline sessions (*.sightline.json);;All files (*)");
    file->addAction(tr("Open Sess&ion..."), QKeySequence(tr("Ctrl+Alt+O")), this, [this, sessionFilter] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open session"), dialogDir(), sessionFilter);
        if (!path.isEmpty()) {
            rememberDir(path);
            openSession(path);
        }
    });
    auto saveAs = [this, sessionFilter] {
        QString path = QFileDialog::getSaveFileName(
            this, tr("Save session"),
            sessionPath_.isEmpty() ? dialogDir(QStringLiteral("session") + QLatin1String(Session::kSuffix))
                                   : sessionPath_,
            sessionFilter);
        if (path.isEmpty()) return;
        rememberDir(path);
        if (!isSessionPath(path)) path += QLatin1String(Session::kSuffix);
        saveSession(path);
    };
    file->addAction(tr("Sa&ve Session"), QKeySequence::Save, this, [this, saveAs] {
        if (sessionPath_.isEmpty())
            saveAs();
        else
            saveSession();
    });
    file->addAction(tr("Save Session &As..."), QKeySequence(tr("Ctrl+Alt+S")), this, saveAs);
    file->addSeparator();
    file->addAction(tr("Save View as &Image (PNG, SVG)..."), QKeySequence(tr("Ctrl+Shift+S")), this,
                    &MainWindow::saveViewImage);
    // One part of the window alone, for slides: the timeline (with the result card) or one chart.
    auto askImage = [this](const QString& title, const QString& name,
                           QString (MainWindow::*save)(const QString&)) {
        const QString path = QFileDialog::getSaveFileName(this, title, dialogDir(name),
                                                          tr("PNG image (*.png);;SVG vector image (*.svg)"));
        if (path.isEmpty()) return;
        rememberDir(path);
        (this->*save)(path);
    };
    file->addAction(tr("Save &Timeline as Image (PNG, SVG)..."), this, [this, askImage] {
        askImage(tr("Save timeline"), QStringLiteral("timeline.png"), &MainWindow::saveTimelineImage);
    });
    file->addAction(tr("Save C&hart as Image (PNG, SVG)..."), this, [this, askImage] {
        askImage(tr("Save chart"), QStringLiteral("chart.png"), &MainWindow::saveChartImage);
    });
    file->addAction(
        tr("Export &Simulated Trace (Perfetto JSON)..."), QKeySequence(tr("Ctrl+E")), this, [this] {
            const QString path = QFileDialog::getSaveFileName(this, tr("Export simulated trace"),
                                                              dialogDir(QStringLiteral("simulated.json")),
                                                              tr("Chrome trace JSON (*.json)"));
            if (!path.isEmpty()) {
                rememberDir(path);
                exportSimulatedTrace(path);
            }
        });
    file->addAction(tr("Export &Report (HTML, JSON, CSV)..."), QKeySequence(tr("Ctrl+Shift+E")), this,
                    [this] {
                        const QString path = QFileDialog::getSaveFileName(
                            this, tr("Export report"), dialogDir(QStringLiteral("report.html")),
                            tr("HTML report (*.html);;JSON (*.json);;CSV (*.csv)"));
                        if (!path.isEmpty()) {
                            rememberDir(path);
                            exportReport(path);
                        }
                    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    viewMenu_ = menuBar()->addMenu(tr("&View"));
    viewMenu_->addAction(tr("&Find..."), QKeySequence::Find, findBar_, &FindBar::activate);
    viewMenu_->addAction(tr("Find &Next"), QKeySequence::FindNext, findBar_, &FindBar::findNext);
    viewMenu_->addAction(tr("Find &Previous"), QKeySequence::FindPrevious, findBar_, &FindBar::findPrevious);
    viewMenu_->addSeparator();
    viewMenu_->addAction(tr("Fit &All"), QKeySequence(Qt::Key_Home), controller_, &ViewController::fitAll);
    viewMenu_->addAction(shiftAction_);
    auto* navigate = viewMenu_->addMenu(tr("&Navigate"));
    navigate->addActions(navigationActions_);
    viewMenu_->addAction(tr("&Clear Selection"), this, [this] {
        selection_->clearEvent();
        selection_->clearRange();
    });
    viewMenu_->addAction(tr("&Expand All Ranks"), this, [this] { tracks_->setAllRanksExpanded(true); });
    viewMenu_->addAction(tr("C&ollapse All Ranks"), this, [this] { tracks_->setAllRanksExpanded(false); });
    viewMenu_->addSeparator();
    viewMenu_->addAction(criticalPathAction_);
    viewMenu_->addAction(exposedAction_);
    viewMenu_->addAction(arrowsAction_);
    focusModeAction_ = viewMenu_->addAction(tr("F&ocus Mode (timeline only)"));
    focusModeAction_->setObjectName(QStringLiteral("focusModeAction"));
    focusModeAction_->setCheckable(true);
    focusModeAction_->setShortcut(QKeySequence(Qt::Key_F11));
    focusModeAction_->setShortcutContext(Qt::ApplicationShortcut);
    connect(focusModeAction_, &QAction::toggled, this, &MainWindow::setFocusMode);
    viewMenu_->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        viewMenu_->addAction(dock->toggleViewAction());

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(keySheetAction_);
    help->addAction(tr("&Glossary"), this, &MainWindow::showGlossary);
}

void MainWindow::setLoading(bool loading) {
    progress_->setVisible(loading);
    cancel_->setVisible(loading);
    if (loading) progress_->setValue(0);
}

void MainWindow::openTraces(const QStringList& paths) {
    if (paths.isEmpty()) return;
    if (paths.size() == 1 && isSessionPath(paths[0])) {
        openSession(paths[0]);
        return;
    }
    QStringList absolute;
    for (const QString& p : paths)
        absolute.push_back(QDir::cleanPath(QFileInfo(p).absoluteFilePath()));
    messageBar_->hide();
    status_->setText(
        tr("Loading %1...")
            .arg(paths.size() == 1 ? QFileInfo(paths[0]).fileName() : tr("%1 paths").arg(paths.size())));
    setLoading(true);
    pending_.reset();
    loader_->start(absolute);
}

void MainWindow::showTraceSet(std::shared_ptr<const TraceSet> set, const QStringList& paths) {
    showLoaded(std::move(set), paths, nullptr);
}

void MainWindow::showLoaded(std::shared_ptr<const TraceSet> set, const QStringList& paths,
                            const Session* session) {
    // Re-loading the same traces keeps the track tree as the user arranged it.
    const bool same = !paths.isEmpty() && paths == paths_ && set_;
    const std::vector<TrackState::RankState> keep =
        same ? tracks_->ranks() : std::vector<TrackState::RankState>{};
    // The switch is one step. First everything that reads the old set's tracks lets go of it: the
    // workers (their late results are dropped by generation), the selection, the tree and both panes.
    // Only then is the track state rebuilt for the new set (its change signal reaches views that hold
    // nothing), and only then do the views take the new set. Nothing in between reads one set's tracks
    // through the other's state.
    ++setGeneration_;
    loadingSet_ = true; // the view changes below are the new set's defaults, not the user's edits
    sim_->setTraceSet(nullptr);
    rangeWorker_->cancel();
    selection_->clearEvent();
    selection_->clearRange();
    highlights_->clear();
    charts_->clear();
    pathTable_->setSimulation({});
    sweep_->setGraph(nullptr, nullptr);
    trackModel_->setTraceSet(nullptr);
    panes_->setMeasured(nullptr);
    panes_->setSimulated(nullptr);
    details_->setData(nullptr, nullptr);
    findBar_->setData(nullptr);
    findResults_->setSearch(nullptr, nullptr);
    warnings_->clearAll();
    structure_->clear();
    simulation_ = {};

    set_ = std::move(set);
    measured_ = TimelineData::measured(set_);
    tracks_->reset(*set_);
    if (!keep.empty()) tracks_->restore(keep);
    trackModel_->setTraceSet(set_);
    for (int r = 0; r < trackModel_->rowCount(); ++r)
        trackTree_->setExpanded(trackModel_->index(r, 0), tracks_->rankExpanded(static_cast<std::size_t>(r)));
    panes_->setMeasured(measured_);
    // Before a session's scenarios are restored: they are shown against this set.
    scenarios_->setTraceSet(set_, measured_);
    panes_->simulated()->setEmptyText(tr("No simulation yet"));
    details_->setData(measured_, nullptr);
    knobs_->setRankCount(static_cast<int>(set_->ranks.size()));
    if (session) {
        // Set without the change signal: the request below simulates them once.
        const QSignalBlocker block(knobs_);
        scenarios_->restore(session->scenarios, session->currentScenario, session->knobs);
    }
    sim_->setTraceSet(set_);
    if (autoSimulate_) {
        panes_->simulated()->setEmptyText(tr("Simulating..."));
        sim_->request(knobs_->knobs(), 0);
    }
    findBar_->setData(measured_);
    controller_->setScrollY(0);
    controller_->setBounds(measured_->start(), measured_->end());
    paths_ = paths;
    if (session) applyViewState(*session);
    if (!paths.isEmpty()) {
        recent_->add(paths);
        rememberDir(paths[0]);
        // Other traces: Save asks where (the old session file is not theirs).
        if (!same) sessionPath_.clear();
    }
    stack_->setCurrentIndex(1);
    loadingSet_ = false;
    setModified(false);
    warnings_->setLoadWarnings(set_->warnings);
    structure_->setStructure(recognizeStructure(*set_));
    const Sample sample = paths.size() == 1 ? sampleFor(paths[0]) : Sample{};
    if (!set_->warnings.empty()) {
        QString text = tr("Loaded with %n warning(s) (all in the Warnings panel): ", nullptr,
                          static_cast<int>(set_->warnings.size())) +
                       QString::fromStdString(set_->warnings.front());
        messageBar_->showMessage(text, MessageBar::Level::Warning);
    } else if (!sample.lookAt.isEmpty()) {
        // A bundled sample says what to look at.
        messageBar_->showMessage(tr("Sample %1: %2").arg(sample.name, sample.lookAt),
                                 MessageBar::Level::Info);
    } else {
        messageBar_->hide();
    }
    updateStatus();
}

void MainWindow::showError(const QString& message) {
    messageBar_->showMessage(tr("Could not open: %1").arg(message), MessageBar::Level::Error);
    updateStatus();
}

void MainWindow::showSimulation(const SimOutput& output) {
    if (!set_ || !output.timeline || &output.timeline->set() != set_.get()) return;
    simulation_ = output;
    panes_->setSimulated(output.timeline, {});
    // Not while a newer request waits: the knobs in the panel are then not the ones simulated.
    if (!sim_->busy()) scenarios_->simulationShown(output, knobs_->knobs());
    pathTable_->setSimulation(output);
    sweep_->setGraph(set_, output.graph);
    sweep_->setBaseKnobs(knobs_->knobs());
    panes_->simulated()->setReference(measured_);
    updateShiftColour();
    highlights_->setSimulation(output);
    charts_->setSimulation(output);
    details_->setData(measured_, output.timeline);
    warnings_->setSimulationWarnings(output.graph ? output.graph->warnings : std::vector<std::string>{},
                                     output.result->warnings);
    structure_->setSimulatedSetup(output.result->setup);
    // The range statistics gain (or refresh) their simulated columns.
    if (selection_->hasRange()) updateRangeStats();
    if (!output.result->warnings.empty())
        messageBar_->showMessage(
            tr("Simulation: %1").arg(QString::fromStdString(output.result->warnings.front())),
            MessageBar::Level::Info);
    updateStatus();
}

void MainWindow::updateShiftColour() {
    TimeNs scale = 0;
    if (shiftAction_->isChecked() && simulation_.result) {
        // The 90th percentile of the run's kernel start error: most shifts fall inside the scale.
        scale = static_cast<TimeNs>(std::max(1.0, simulation_.result->kernelStartError.p90Us) * 1000.0);
    }
    panes_->simulated()->setShiftScale(scale);
}

void MainWindow::updateStatus() {
    if (!set_) {
        status_->setText(tr("No trace loaded"));
        return;
    }
    QString text = tr("%1 ranks, %2 events  |  window %3")
                       .arg(set_->ranks.size())
                       .arg(set_->eventCount())
                       .arg(formatDuration(controller_->windowDuration()));
    if (simulation_.result) {
        const SimResult& r = *simulation_.result;
        const double change = r.measuredIteration > 0
                                  ? 100.0 * static_cast<double>(r.simulatedIteration - r.measuredIteration) /
                                        static_cast<double>(r.measuredIteration)
                                  : 0.0;
        text += tr("  |  iteration: measured %1, simulated %2 (%3%4%)")
                    .arg(formatDuration(r.measuredIteration), formatDuration(r.simulatedIteration),
                         change >= 0 ? QStringLiteral("+") : QString())
                    .arg(change, 0, 'f', 1);
        // The GPU span too: the iteration alone can hide drift on the GPU.
        TimeNs gpuMeasured = 0, gpuSimulated = 0;
        for (const auto& rank : r.ranks) {
            gpuMeasured = std::max(gpuMeasured, rank.measuredGpuEnd - rank.measuredGpuStart);
            gpuSimulated = std::max(gpuSimulated, rank.simulatedGpuEnd - rank.simulatedGpuStart);
        }
        if (gpuMeasured > 0)
            text +=
                tr("  |  GPU span %1 -> %2").arg(formatDuration(gpuMeasured), formatDuration(gpuSimulated));
        text += tr("  |  simulated in %1 ms").arg(simulation_.seconds * 1000.0, 0, 'f', 0);
    }
    status_->setText(text);
}

void MainWindow::updateRangeStats() {
    if (!measured_ || !selection_->hasRange()) {
        rangeWorker_->cancel();
        rangeModel_->setTable({});
        rangeLabel_->setText(tr("Shift+drag (or right-drag) in a pane to select a time range."));
        rangeExport_->setEnabled(false);
        return;
    }
    rangeDock_->raise(); // a range was just selected: its statistics come to the front
    // Off the UI thread: a range over millions of events must not block; a newer range drops this.
    rangeLabel_->setText(
        tr("Range %1: computing...").arg(formatDuration(selection_->rangeEnd() - selection_->rangeStart())));
    rangeWorker_->request(measured_, simulation_.timeline,
                          hiddenTracks(tracks_->matches(*set_) ? tracks_ : nullptr), selection_->rangeStart(),
                          selection_->rangeEnd());
}

void MainWindow::showRangeStats(RangeTable table) {
    if (!measured_) return;
    std::int64_t events = 0;
    for (const auto& r : table.rows)
        events += r.measured.count;
    const TimeNs res = resolutionFor(controller_->mapping().nsPerPixel);
    rangeLabel_->setText(
        tr("Range %1 (from %2 to %3): %4 events, %5 names%6")
            .arg(formatPrecise(table.length(), res), formatPrecise(table.start - measured_->start(), res),
                 formatPrecise(table.end - measured_->start(), res))
            .arg(events)
            .arg(table.rows.size())
            .arg(table.hasSimulated ? QString() : tr(" (simulated columns after the simulation)")));
    const bool sim = table.hasSimulated;
    rangeModel_->setTable(std::move(table));
    for (int c : {RangeStatsModel::SimCount, RangeStatsModel::SimTotal, RangeStatsModel::SimShare})
        rangeTable_->setColumnHidden(c, !sim);
    rangeExport_->setEnabled(true);
    const auto* header = rangeTable_->horizontalHeader();
    rangeModel_->sort(header->sortIndicatorSection(), header->sortIndicatorOrder());
}

QString MainWindow::exportRangeStats(const QString& path) {
    QString error;
    if (rangeModel_->rowCount() == 0 && !selection_->hasRange()) {
        error = tr("No range selected");
    } else {
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Text) ||
            f.write(rangeTableCsv(rangeModel_->table()).toUtf8()) < 0 || !f.commit())
            error = tr("Could not write %1: %2").arg(path, f.errorString());
    }
    if (!error.isEmpty()) messageBar_->showMessage(error, MessageBar::Level::Error);
    return error;
}

QString MainWindow::dialogDir(const QString& fileName) {
    QString dir = QSettings().value(QStringLiteral("dialogs/lastDir")).toString();
    if (dir.isEmpty() || !QFileInfo(dir).isDir()) dir = QDir::homePath();
    return fileName.isEmpty() ? dir : QDir(dir).filePath(fileName);
}

void MainWindow::rememberDir(const QString& path) {
    const QFileInfo info(path);
    // A folder of traces: the next dialog starts beside it, where the other trace folders are.
    const QString dir = info.isDir() ? info.absoluteDir().absolutePath() : info.absolutePath();
    QSettings().setValue(QStringLiteral("dialogs/lastDir"), dir);
}

bool MainWindow::showsWelcome() const {
    return stack_->currentIndex() == 0;
}

void MainWindow::openFilesDialog() {
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Open traces"), dialogDir(), tr("Kineto traces (*.json *.json.gz);;All files (*)"));
    if (files.isEmpty()) return;
    rememberDir(files.front());
    openTraces(files);
}

void MainWindow::openFolderDialog() {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Open a folder of per-rank traces"), dialogDir());
    if (dir.isEmpty()) return;
    rememberDir(dir);
    openTraces({dir});
}

void MainWindow::saveViewImage() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save view"), dialogDir(QStringLiteral("sightline.png")),
                                     tr("PNG image (*.png);;SVG vector image (*.svg)"));
    if (path.isEmpty()) return;
    rememberDir(path);
    saveView(path);
}

QString MainWindow::saveView(const QString& path) {
    const QString error = saveWidgetImage(this, path);
    if (!error.isEmpty()) messageBar_->showMessage(error, MessageBar::Level::Error);
    return error;
}

QString MainWindow::saveTimelineImage(const QString& path) {
    const QString error = stack_->currentIndex() != 1 ? tr("No timeline to save yet: open a trace first")
                                                      : saveWidgetImage(stack_->widget(1), path);
    if (!error.isEmpty()) messageBar_->showMessage(error, MessageBar::Level::Error);
    return error;
}

QString MainWindow::saveChartImage(const QString& path) {
    QWidget* chart = charts_->tabs()->currentWidget();
    const QString error = !simulation_.result || !chart ? tr("No chart to save yet: open a trace first")
                                                        : saveWidgetImage(chart, path);
    if (!error.isEmpty()) messageBar_->showMessage(error, MessageBar::Level::Error);
    return error;
}

QString MainWindow::exportSimulatedTrace(const QString& path) {
    QString error = !set_ || !simulation_.result
                        ? tr("No simulation to export yet")
                        : writeSimulatedTrace(path, *set_, simulation_.result->timeline);
    if (!error.isEmpty()) messageBar_->showMessage(error, MessageBar::Level::Error);
    return error;
}

nlohmann::json MainWindow::scenarioTableJson() const {
    // The scenarios simulated so far, for the report's Scenarios table (report/HtmlReport.h).
    nlohmann::json rows = nlohmann::json::array();
    const ScenarioResult* base = scenarios_->result(0);
    const double baseUs = base ? base->json["iteration"].value("simulated_us", 0.0) : 0.0;
    for (int i = 0; i < scenarios_->list()->count(); ++i) {
        const ScenarioResult* r = scenarios_->result(i);
        if (!r) continue;
        const double us = r->json["iteration"].value("simulated_us", 0.0);
        rows.push_back({{"name", r->name.toStdString()},
                        {"changed_knobs", changedKnobs(r->knobs.toJson())},
                        {"iteration_us", us},
                        {"vs_baseline_pct", baseUs > 0 ? 100.0 * (us - baseUs) / baseUs : 0.0},
                        {"limit", r->limit.toStdString()}});
    }
    return rows;
}

QString MainWindow::exportReport(const QString& path) {
    QString error;
    if (!simulation_.result || !simulation_.graph)
        error = tr("No simulation to report yet");
    else
        error = writeReport(path, *simulation_.graph, *simulation_.result, knobPanel()->knobs(), paths_, -1,
                            scenarioTableJson());
    if (!error.isEmpty()) messageBar_->showMessage(error, MessageBar::Level::Error);
    return error;
}

void MainWindow::restoreLayout() {
    QSettings s;
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray())) {
        // First run: the default size, but never larger than the screen (1280x720 laptops).
        if (const QScreen* screen = QGuiApplication::primaryScreen())
            resize(size().boundedTo(screen->availableGeometry().size() * 0.95));
    }
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    controller_->setGutterWidth(
        s.value(QStringLiteral("window/labelColumn"), controller_->gutterWidth()).toInt());
}

Session MainWindow::currentSession() const {
    Session s;
    s.traces = paths_;
    s.knobs = knobs_->knobs();
    s.scenarios = scenarios_->list()->scenarios();
    s.currentScenario = scenarios_->list()->current();
    if (set_) {
        s.tracks = tracks_->ranks();
        s.hasView = true;
        s.viewStart = controller_->windowStart();
        s.viewEnd = controller_->windowEnd();
        s.scrollY = controller_->scrollY();
    }
    s.criticalPath = highlights_->criticalPath();
    s.exposed = highlights_->exposed();
    s.arrows = highlights_->arrows();
    return s;
}

QString MainWindow::openSession(const QString& path, bool adopt) {
    Session session;
    const QString error = readSessionFile(path, session);
    if (!error.isEmpty()) {
        messageBar_->showMessage(tr("Could not open session: %1").arg(error), MessageBar::Level::Error);
        return error;
    }
    applySession(session, adopt ? QFileInfo(path).absoluteFilePath() : QString());
    return {};
}

void MainWindow::applySession(const Session& session, const QString& path) {
    if (!session.traces.isEmpty() && (session.traces != paths_ || !set_)) {
        // Nothing changes until the traces have loaded; a failed load leaves all as it was.
        pending_ = session;
        pendingPath_ = path;
        messageBar_->hide();
        status_->setText(tr("Loading session..."));
        setLoading(true);
        loader_->start(session.traces);
        return;
    }
    scenarios_->restore(session.scenarios, session.currentScenario, session.knobs);
    if (set_) applyViewState(session);
    criticalPathAction_->setChecked(session.criticalPath);
    exposedAction_->setChecked(session.exposed);
    arrowsAction_->setChecked(session.arrows);
    if (!path.isEmpty()) sessionPath_ = path;
    setModified(false);
}

void MainWindow::applyViewState(const Session& session) {
    if (!session.tracks.empty() && !tracks_->restore(session.tracks))
        messageBar_->showMessage(tr("The session's track layout does not match these traces in part; "
                                    "the rest keeps the default layout."),
                                 MessageBar::Level::Warning);
    criticalPathAction_->setChecked(session.criticalPath);
    exposedAction_->setChecked(session.exposed);
    arrowsAction_->setChecked(session.arrows);
    if (session.hasView) {
        controller_->setWindow(session.viewStart, session.viewEnd);
        controller_->setScrollY(session.scrollY);
    }
}

QString MainWindow::saveSession(const QString& path) {
    const QString target = path.isEmpty() ? sessionPath_ : path;
    if (target.isEmpty()) return tr("No session file chosen");
    const QString error = writeSessionFile(target, currentSession());
    if (!error.isEmpty()) {
        messageBar_->showMessage(tr("Could not save the session: %1").arg(error), MessageBar::Level::Error);
        return error;
    }
    sessionPath_ = QFileInfo(target).absoluteFilePath();
    setModified(false);
    statusBar()->showMessage(tr("Session saved to %1").arg(sessionPath_), 5000);
    return {};
}

void MainWindow::enableAutosave(const QString& dir, int intervalMs) {
    if (autosave_) return;
    autosave_ = new Autosave([this] { return currentSession(); }, dir, intervalMs, this);
    connect(autosave_, &Autosave::failed, this, [this](const QString& message) {
        messageBar_->showMessage(tr("Autosave failed: %1").arg(message), MessageBar::Level::Warning);
    });
    autosave_->start();
}

void MainWindow::offerRestore() {
    if (!autosave_ || !autosave_->recoverable()) return;
    const QString path = autosave_->recoveredPath();
    if (QGuiApplication::platformName() == QLatin1String("offscreen")) {
        messageBar_->showMessage(tr("The last run did not end cleanly; its session is in %1 (File > Open "
                                    "Session restores it).")
                                     .arg(path),
                                 MessageBar::Level::Info);
        return;
    }
    auto* box = new QMessageBox(QMessageBox::Question, tr("Restore session"),
                                tr("Sightline did not close cleanly last time. Restore the session it was "
                                   "working on (traces, knobs, tracks, view)?"),
                                QMessageBox::Yes | QMessageBox::No, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, path](int result) {
        if (result == QMessageBox::Yes) openSession(path, false);
    });
    box->open(); // window-modal, never blocks the event loop
}

void MainWindow::markDirty() {
    if (autosave_) autosave_->markDirty();
    if (set_ && !loadingSet_) setWindowModified(true);
}

void MainWindow::setModified(bool modified) {
    setWindowModified(modified);
    updateTitle();
}

void MainWindow::updateTitle() {
    // The session's name when there is one, else the traces' (with their folder: sets are often
    // all called "kineto"); "[*]" shows the modified marker.
    QString name;
    if (!sessionPath_.isEmpty()) {
        name = QFileInfo(sessionPath_).fileName();
    } else if (!paths_.isEmpty()) {
        const QFileInfo first(paths_[0]);
        name = first.absoluteDir().dirName() + QLatin1Char('/') + first.fileName();
        if (paths_.size() > 1) name += tr(" and %1 more").arg(paths_.size() - 1);
    }
    setWindowTitle(name.isEmpty() ? tr("Sightline") : tr("%1[*] - Sightline").arg(name));
}

void MainWindow::setFocusMode(bool on) {
    // Only the timeline: docks and the toolbar go, and come back as they were.
    if (on) {
        focusHidden_.clear();
        for (QDockWidget* dock : findChildren<QDockWidget*>())
            if (dock->isVisible()) focusHidden_.push_back(dock), dock->hide();
        for (QToolBar* bar : findChildren<QToolBar*>())
            if (bar->isVisible()) focusHidden_.push_back(bar), bar->hide();
    } else {
        for (const QPointer<QWidget>& w : focusHidden_)
            if (w) w->show();
        focusHidden_.clear();
    }
    if (focusModeAction_->isChecked() != on) focusModeAction_->setChecked(on);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (autosave_) autosave_->finish();
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/labelColumn"), controller_->gutterWidth());
    loader_->cancel();
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
        openTraces(paths);
    }
}

} // namespace sl::ui
