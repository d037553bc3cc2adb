#include "MainWindow.h"

#include "Autosave.h"
#include "ChartsPanel.h"
#include "DetailsPanel.h"
#include "Export.h"
#include "FindBar.h"
#include "HighlightModel.h"
#include "KnobPanel.h"
#include "LegendWidget.h"
#include "MessageBar.h"
#include "RangeStatsModel.h"
#include "RangeStatsWorker.h"
#include "RecentFiles.h"
#include "TimeFormat.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "TrackTreeModel.h"
#include "ViewController.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
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
    panes_ = new TimelinePanes(controller_, selection_, tracks_, central);
    layout->addWidget(messageBar_);
    layout->addWidget(findBar_);
    layout->addWidget(panes_, 1);
    legend_ = new LegendWidget(central);
    layout->addWidget(legend_);
    panes_->setHighlights(highlights_);
    setCentralWidget(central);

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
            });
    connect(loader_, &TraceLoader::failed, this, [this](const QString& message, const QStringList&) {
        setLoading(false);
        pending_.reset();
        showError(message);
    });
    connect(loader_, &TraceLoader::cancelled, this, [this] {
        setLoading(false);
        pending_.reset();
        messageBar_->showMessage(tr("Loading cancelled."), MessageBar::Level::Info);
    });
    connect(selection_, &SelectionModel::eventChanged, details_, &DetailsPanel::showDetails);
    connect(selection_, &SelectionModel::rangeChanged, this, &MainWindow::updateRangeStats);
    connect(findBar_, &FindBar::found, this, &MainWindow::revealEvent);
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
    connect(trackTree_, &QWidget::customContextMenuRequested, this, &MainWindow::trackContextMenu);
    connect(trackTree_, &QTreeView::expanded, this, [this](const QModelIndex& i) {
        if (!i.parent().isValid()) tracks_->setRankExpanded(static_cast<std::size_t>(i.row()), true);
    });
    connect(trackTree_, &QTreeView::collapsed, this, [this](const QModelIndex& i) {
        if (!i.parent().isValid()) tracks_->setRankExpanded(static_cast<std::size_t>(i.row()), false);
    });
    connect(tracks_, &TrackState::changed, this, [this] {
        for (int r = 0; r < trackModel_->rowCount(); ++r) {
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
            [this](std::uint64_t, std::vector<NameStats> stats, TimeNs start, TimeNs end) {
                showRangeStats(std::move(stats), start, end);
            });
    auto* rangeWidget = new QWidget(this);
    auto* rl = new QVBoxLayout(rangeWidget);
    rl->setContentsMargins(0, 0, 0, 0);
    rangeLabel_ = new QLabel(tr("Shift+drag (or right-drag) in a pane to select a time range."), rangeWidget);
    rangeLabel_->setContentsMargins(6, 3, 6, 3);
    rangeTable_ = new QTableView(rangeWidget);
    rangeTable_->setModel(rangeModel_);
    rangeTable_->setSortingEnabled(true);
    rangeTable_->sortByColumn(RangeStatsModel::Total, Qt::DescendingOrder);
    rangeTable_->horizontalHeader()->setSectionResizeMode(RangeStatsModel::Name, QHeaderView::Stretch);
    rangeTable_->verticalHeader()->hide();
    rangeTable_->verticalHeader()->setDefaultSectionSize(20);
    rangeTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    rl->addWidget(rangeLabel_);
    rl->addWidget(rangeTable_, 1);
    auto* rangeDock = new QDockWidget(tr("Range statistics"), this);
    rangeDock->setObjectName(QStringLiteral("rangeDock"));
    rangeDock->setWidget(rangeWidget);
    addDockWidget(Qt::RightDockWidgetArea, rangeDock);
    charts_ = new ChartsPanel(this);
    auto* chartsDock = new QDockWidget(tr("Charts"), this);
    chartsDock->setObjectName(QStringLiteral("chartsDock"));
    chartsDock->setWidget(charts_);
    addDockWidget(Qt::RightDockWidgetArea, chartsDock);
    tabifyDockWidget(rangeDock, chartsDock);
    chartsDock->raise();
    knobs_ = new KnobPanel(this);
    auto* knobsDock = new QDockWidget(tr("What-if knobs"), this);
    knobsDock->setObjectName(QStringLiteral("knobsDock"));
    knobsDock->setWidget(knobs_);
    addDockWidget(Qt::LeftDockWidgetArea, knobsDock);
    resizeDocks({tracksDock, detailsDock}, {260, 420}, Qt::Horizontal);
}

void MainWindow::buildHighlightActions() {
    auto make = [this](const QString& text, const QKeySequence& key, const QString& tip, bool checked) {
        auto* a = new QAction(text, this);
        a->setCheckable(true);
        a->setChecked(checked);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
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
    file->addAction(tr("&Open Files..."), QKeySequence::Open, this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Open traces"), {}, tr("Kineto traces (*.json *.json.gz);;All files (*)"));
        if (!files.isEmpty()) openTraces(files);
    });
    file->addAction(tr("Open &Folder..."), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a folder of per-rank traces"));
        if (!dir.isEmpty()) openTraces({dir});
    });
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openTraces);
    file->addSeparator();
    const QString sessionFilter = tr("Sightline sessions (*.sightline.json);;All files (*)");
    file->addAction(tr("Open Sess&ion..."), QKeySequence(tr("Ctrl+Alt+O")), this, [this, sessionFilter] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), {}, sessionFilter);
        if (!path.isEmpty()) openSession(path);
    });
    auto saveAs = [this, sessionFilter] {
        QString path = QFileDialog::getSaveFileName(
            this, tr("Save session"),
            sessionPath_.isEmpty() ? QStringLiteral("session") + QLatin1String(Session::kSuffix)
                                   : sessionPath_,
            sessionFilter);
        if (path.isEmpty()) return;
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
    file->addAction(tr("Export &Simulated Trace (Perfetto JSON)..."), QKeySequence(tr("Ctrl+E")), this,
                    [this] {
                        const QString path = QFileDialog::getSaveFileName(this, tr("Export simulated trace"),
                                                                          QStringLiteral("simulated.json"),
                                                                          tr("Chrome trace JSON (*.json)"));
                        if (!path.isEmpty()) exportSimulatedTrace(path);
                    });
    file->addAction(tr("Export &Report (JSON, CSV)..."), QKeySequence(tr("Ctrl+Shift+E")), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export report"), QStringLiteral("report.json"), tr("JSON (*.json);;CSV (*.csv)"));
        if (!path.isEmpty()) exportReport(path);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    viewMenu_ = menuBar()->addMenu(tr("&View"));
    viewMenu_->addAction(tr("&Find..."), QKeySequence::Find, findBar_, &FindBar::activate);
    viewMenu_->addAction(tr("Find &Next"), QKeySequence::FindNext, findBar_, &FindBar::findNext);
    viewMenu_->addAction(tr("Find &Previous"), QKeySequence::FindPrevious, findBar_, &FindBar::findPrevious);
    viewMenu_->addSeparator();
    viewMenu_->addAction(tr("Fit &All"), QKeySequence(Qt::Key_Home), controller_, &ViewController::fitAll);
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
    viewMenu_->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        viewMenu_->addAction(dock->toggleViewAction());

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard and Mouse"), this, [this] {
        QMessageBox::information(
            this, tr("Keyboard and mouse"),
            tr("<table>"
               "<tr><td><b>W / S</b></td><td>zoom in / out (at the mouse)</td></tr>"
               "<tr><td><b>A / D</b></td><td>pan left / right</td></tr>"
               "<tr><td><b>Wheel</b></td><td>zoom at the cursor; Shift+wheel scrolls tracks</td></tr>"
               "<tr><td><b>Drag</b></td><td>pan (and scroll)</td></tr>"
               "<tr><td><b>Shift+drag / right-drag</b></td><td>select a time range: statistics per "
               "name</td></tr>"
               "<tr><td><b>Click</b></td><td>select an event (in both panes); double-click zooms to "
               "it</td></tr>"
               "<tr><td><b>F</b></td><td>fit the selection (event, range, or everything)</td></tr>"
               "<tr><td><b>Ctrl+F, Enter / Shift+Enter</b></td><td>find by name, next / previous</td></tr>"
               "<tr><td><b>Esc</b></td><td>clear the selection</td></tr>"
               "<tr><td><b>C</b></td><td>critical path on / off (other events dimmed)</td></tr>"
               "<tr><td><b>E</b></td><td>exposed communication on / off</td></tr>"
               "<tr><td><b>G</b></td><td>dependency arrows of the selection on / off</td></tr>"
               "<tr><td><b>Click a track name</b></td><td>collapse or expand (rank or nested rows)</td></tr>"
               "</table>"));
    });
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
    set_ = std::move(set);
    measured_ = TimelineData::measured(set_);
    selection_->clearEvent();
    selection_->clearRange();
    tracks_->reset(*set_);
    if (!keep.empty()) tracks_->restore(keep);
    trackModel_->setTraceSet(set_);
    for (int r = 0; r < trackModel_->rowCount(); ++r)
        trackTree_->setExpanded(trackModel_->index(r, 0), tracks_->rankExpanded(static_cast<std::size_t>(r)));
    panes_->setMeasured(measured_);
    panes_->setSimulated(nullptr);
    panes_->simulated()->setEmptyText(tr("No simulation yet"));
    simulation_ = {};
    highlights_->clear();
    charts_->clear();
    details_->setData(measured_, nullptr);
    knobs_->setRankCount(static_cast<int>(set_->ranks.size()));
    if (session) {
        // Set without the change signal: the request below simulates them once.
        const QSignalBlocker block(knobs_);
        knobs_->setKnobs(session->knobs);
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
        setWindowTitle(tr("Sightline - %1").arg(QFileInfo(paths[0]).fileName()));
    }
    if (!set_->warnings.empty()) {
        QString text = tr("Loaded with %n warning(s): ", nullptr, static_cast<int>(set_->warnings.size())) +
                       QString::fromStdString(set_->warnings.front());
        messageBar_->showMessage(text, MessageBar::Level::Warning);
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
    highlights_->setSimulation(output);
    charts_->setSimulation(output);
    details_->setData(measured_, output.timeline);
    if (!output.result->warnings.empty())
        messageBar_->showMessage(
            tr("Simulation: %1").arg(QString::fromStdString(output.result->warnings.front())),
            MessageBar::Level::Info);
    updateStatus();
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
        text += tr("  |  iteration: measured %1, simulated %2 (%3%4%)  |  simulated in %5 ms")
                    .arg(formatDuration(r.measuredIteration), formatDuration(r.simulatedIteration),
                         change >= 0 ? QStringLiteral("+") : QString())
                    .arg(change, 0, 'f', 1)
                    .arg(simulation_.seconds * 1000.0, 0, 'f', 0);
    }
    status_->setText(text);
}

void MainWindow::updateRangeStats() {
    if (!measured_ || !selection_->hasRange()) {
        rangeWorker_->cancel();
        rangeModel_->setStats({});
        rangeLabel_->setText(tr("Shift+drag (or right-drag) in a pane to select a time range."));
        return;
    }
    // Off the UI thread: a range over millions of events must not block; a newer range drops this.
    rangeLabel_->setText(
        tr("Range %1: computing...").arg(formatDuration(selection_->rangeEnd() - selection_->rangeStart())));
    rangeWorker_->request(measured_,
                          hiddenTracks(tracks_->rankCount() == set_->ranks.size() ? tracks_ : nullptr),
                          selection_->rangeStart(), selection_->rangeEnd());
}

void MainWindow::showRangeStats(std::vector<NameStats> stats, TimeNs start, TimeNs end) {
    if (!measured_) return;
    std::int64_t events = 0;
    for (const auto& s : stats)
        events += s.count;
    rangeLabel_->setText(tr("Range %1 (from %2): %3 events, %4 names")
                             .arg(formatDuration(end - start), formatDuration(start - measured_->start()))
                             .arg(events)
                             .arg(stats.size()));
    rangeModel_->setStats(std::move(stats));
    const auto* header = rangeTable_->horizontalHeader();
    rangeModel_->sort(header->sortIndicatorSection(), header->sortIndicatorOrder());
}

void MainWindow::revealEvent(EventId e) {
    if (!e.valid() || !measured_) return;
    selection_->setEvent(e);
    const TrackTimeline& t = measured_->track(static_cast<std::size_t>(e.rank), e.ref.track);
    const TimeNs s = t.start[e.ref.index];
    const TimeNs d = t.duration[e.ref.index];
    const TimeNs w = controller_->windowDuration();
    if (d * 10 > w * 8)
        controller_->fitRange(s, s + d);
    else if (s < controller_->windowStart() || s + d > controller_->windowEnd())
        controller_->setWindow(s + d / 2 - w / 2, s + d / 2 - w / 2 + w);
    const int row = panes_->measured()->layout().rowOf(e.rank, static_cast<int>(e.ref.track));
    if (row >= 0) {
        const int y = panes_->measured()->layout().rows()[static_cast<std::size_t>(row)].y;
        const int h = panes_->measured()->height();
        if (y < controller_->scrollY() || y > controller_->scrollY() + h - 40)
            controller_->setScrollY(std::max(0, y - h / 3));
    }
}

void MainWindow::saveViewImage() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save view"), QStringLiteral("sightline.png"),
                                                      tr("PNG image (*.png);;SVG vector image (*.svg)"));
    if (!path.isEmpty()) saveView(path);
}

QString MainWindow::saveView(const QString& path) {
    const QString error = saveWidgetImage(this, path);
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

QString MainWindow::exportReport(const QString& path) {
    QString error;
    if (!simulation_.result || !simulation_.analysis)
        error = tr("No simulation to report yet");
    else if (QFileInfo(path).suffix().compare(QStringLiteral("csv"), Qt::CaseInsensitive) == 0)
        error = writeReportCsv(path, *simulation_.result, *simulation_.analysis);
    else
        error = writeReportJson(path, *simulation_.result, *simulation_.analysis);
    if (!error.isEmpty()) messageBar_->showMessage(error, MessageBar::Level::Error);
    return error;
}

void MainWindow::restoreLayout() {
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
}

Session MainWindow::currentSession() const {
    Session s;
    s.traces = paths_;
    s.knobs = knobs_->knobs();
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
    knobs_->setKnobs(session.knobs);
    if (set_) applyViewState(session);
    criticalPathAction_->setChecked(session.criticalPath);
    exposedAction_->setChecked(session.exposed);
    arrowsAction_->setChecked(session.arrows);
    if (!path.isEmpty()) sessionPath_ = path;
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
}

void MainWindow::trackContextMenu(const QPoint& pos) {
    const QModelIndex index = trackTree_->indexAt(pos);
    const auto [r, t] = trackModel_->location(index);
    if (t < 0) return;
    const auto ru = static_cast<std::size_t>(r);
    const auto tu = static_cast<std::size_t>(t);
    const int row = index.row();
    const int last = trackModel_->rowCount(index.parent()) - 1;
    QMenu menu(this);
    const bool pinned = tracks_->trackPinned(ru, tu);
    menu.addAction(pinned ? tr("Unpin") : tr("Pin to Top"), this,
                   [this, ru, tu, pinned] { tracks_->setTrackPinned(ru, tu, !pinned); });
    const bool hidden = tracks_->trackHidden(ru, tu);
    menu.addAction(hidden ? tr("Show") : tr("Hide"), this,
                   [this, ru, tu, hidden] { tracks_->setTrackHidden(ru, tu, !hidden); });
    menu.addSeparator();
    menu.addAction(tr("Move Up"), this, [this, r, row] { trackModel_->moveTrack(r, row, row - 1); })
        ->setEnabled(row > 0);
    menu.addAction(tr("Move Down"), this, [this, r, row] { trackModel_->moveTrack(r, row, row + 1); })
        ->setEnabled(row < last);
    menu.addAction(tr("Move to Top of Rank"), this, [this, r, row] { trackModel_->moveTrack(r, row, 0); })
        ->setEnabled(row > 0);
    menu.exec(trackTree_->viewport()->mapToGlobal(pos));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (autosave_) autosave_->finish();
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
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
