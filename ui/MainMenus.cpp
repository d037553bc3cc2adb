#include "MainMenus.h"

#include "TraceFigure.h"

#include "Annotations.h"
#include "ComparisonController.h"
#include "ComparisonWindow.h"
#include "DialogDir.h"
#include "EtAttach.h"
#include "FindBar.h"
#include "HelpSheets.h"
#include "HighlightModel.h"
#include "JobSummaryPanel.h"
#include "Lesson.h"
#include "LessonPanel.h"
#include "MessageBar.h"
#include "RecentFiles.h"
#include "Selection.h"
#include "Session.h"
#include "SessionController.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TrackState.h"
#include "ViewController.h"
#include "io/TraceFormat.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QTimer>
#include <QToolBar>

namespace sl::ui {

MainMenus::MainMenus(QMainWindow* window, const Parts& parts) : QObject(window), window_(window), p_(parts) {
    setObjectName(QStringLiteral("menus"));
    buildHighlightActions();
    buildNavigationActions();
    buildFileMenu();
    buildViewMenu();
    auto* help = window_->menuBar()->addMenu(tr("&Help"));
    help->addAction(keySheet_);
    help->addAction(tr("&Glossary"), p_.help, &HelpSheets::showGlossary);
    buildLessonsMenu(help);
}

Note noteAtSelection(const SessionController& session, const QString& text) {
    // At the selected event (its rank), else over the selected range, else in the middle of the view.
    Note n;
    n.text = text;
    const SelectionModel* sel = session.selection();
    const EventId e = sel->event();
    if (e.valid() && session.measured()) {
        const TrackTimeline& t = session.measured()->track(static_cast<std::size_t>(e.rank), e.ref.track);
        n.start = n.end = t.start[e.ref.index];
        n.rank = e.rank;
        n.track = static_cast<int>(e.ref.track); // pinned to the event's track row
    } else if (sel->hasRange()) {
        n.start = sel->rangeStart();
        n.end = sel->rangeEnd();
    } else {
        n.start = n.end = (session.view()->windowStart() + session.view()->windowEnd()) / 2;
    }
    return n;
}

NoteTarget arrowTargetAtSelection(const SessionController& session) {
    NoteTarget a;
    const SelectionModel* sel = session.selection();
    const EventId e = sel->event();
    if (e.valid() && session.measured()) {
        a.set = true;
        a.time = session.measured()->track(static_cast<std::size_t>(e.rank), e.ref.track).start[e.ref.index];
        a.rank = e.rank;
        a.track = static_cast<int>(e.ref.track);
    } else if (sel->hasRange()) {
        a.set = true;
        a.time = sel->rangeStart();
    }
    return a;
}

QAction* MainMenus::addKeyAction(const QString& name, const QString& text, const QList<QKeySequence>& keys) {
    auto* a = new QAction(text, window_);
    a->setObjectName(name);
    a->setShortcuts(keys);
    // Application-wide: the keys work whatever has focus (the track tree, a dock, a floating dock),
    // as in Perfetto. Text fields still get their letters: they claim the key first.
    a->setShortcutContext(Qt::ApplicationShortcut);
    window_->addAction(a);
    return a;
}

void MainMenus::buildHighlightActions() {
    HighlightModel* highlights = p_.session->highlights();
    auto make = [this](const QString& name, const QString& text, Qt::Key key, const QString& tip,
                       bool checked) {
        QAction* a = addKeyAction(name, text, {QKeySequence(key)});
        a->setCheckable(true);
        a->setChecked(checked);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(tip, QKeySequence(key).toString()));
        return a;
    };
    criticalPath_ = make(QStringLiteral("criticalPathAction"), tr("&Critical Path"), Qt::Key_C,
                         tr("Show the critical path: other events dimmed, segments coloured by label"),
                         highlights->criticalPath());
    exposed_ = make(QStringLiteral("exposedAction"), tr("&Exposed Communication"), Qt::Key_E,
                    tr("Hatch communication not hidden behind compute, with a lane per rank"),
                    highlights->exposed());
    arrows_ = make(QStringLiteral("arrowsAction"), tr("&Dependency Arrows"), Qt::Key_G,
                   tr("Arrows of the selected event's graph edges and its collective's participants"),
                   highlights->arrows());
    connect(criticalPath_, &QAction::toggled, highlights, &HighlightModel::setCriticalPath);
    connect(exposed_, &QAction::toggled, highlights, &HighlightModel::setExposed);
    connect(arrows_, &QAction::toggled, highlights, &HighlightModel::setArrows);
    // The toggles follow the model (a session restored, a screenshot's options).
    connect(highlights, &HighlightModel::changed, this, [this, highlights] {
        criticalPath_->setChecked(highlights->criticalPath());
        exposed_->setChecked(highlights->exposed());
        arrows_->setChecked(highlights->arrows());
    });
    // In the menu bar's corner, not a row of its own: the timeline gets the height (about 30 px of
    // a 720 px screen; docs/MainWindow.md, "Layout").
    auto* bar = new QToolBar(tr("Highlights"), window_->menuBar());
    window_->menuBar()->setCornerWidget(bar, Qt::TopRightCorner);
    bar->setObjectName(QStringLiteral("highlightsToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->addAction(criticalPath_);
    bar->addAction(exposed_);
    bar->addAction(arrows_);
    // Colour the simulated pane by shift (simulated minus measured start).
    shift_ = make(QStringLiteral("shiftColourAction"), tr("Colour Simulated by &Shift"), Qt::Key_H,
                  tr("Colour the simulated pane by how far each event moved from its measured start"), false);
}

void MainMenus::buildNavigationActions() {
    TimelinePanes* panes = p_.panes;
    auto make = [this](const QString& name, const QString& text, Qt::Key key, auto slot) {
        QAction* a = addKeyAction(name, text, {QKeySequence(key)});
        connect(a, &QAction::triggered, this, slot);
        navigation_.push_back(a);
    };
    make(QStringLiteral("zoomInAction"), tr("Zoom &In"), Qt::Key_W,
         [panes] { panes->activePane()->zoomStep(true); });
    make(QStringLiteral("zoomOutAction"), tr("Zoom &Out"), Qt::Key_S,
         [panes] { panes->activePane()->zoomStep(false); });
    make(QStringLiteral("panLeftAction"), tr("Pan &Left"), Qt::Key_A,
         [panes] { panes->activePane()->panStep(-1); });
    make(QStringLiteral("panRightAction"), tr("Pan &Right"), Qt::Key_D,
         [panes] { panes->activePane()->panStep(1); });
    make(QStringLiteral("fitAction"), tr("&Fit Selection"), Qt::Key_F,
         [panes] { panes->activePane()->fitSelection(); });
    keySheet_ = addKeyAction(QStringLiteral("keySheetAction"), tr("&Keyboard and Mouse"),
                             // X11 reports "?" as Shift+? on layouts where it needs Shift; others as "?".
                             {QKeySequence(Qt::Key_Question), QKeySequence(Qt::SHIFT | Qt::Key_Question),
                              QKeySequence(Qt::Key_F1)});
    connect(keySheet_, &QAction::triggered, p_.help, &HelpSheets::showKeySheet);
    // N / Shift+N walk the critical path's segments, whatever has focus (like the other single keys).
    for (const bool forward : {true, false}) {
        QAction* a = addKeyAction(
            forward ? QStringLiteral("nextSegmentAction") : QStringLiteral("previousSegmentAction"),
            forward ? tr("Next Critical-Path Segment") : tr("Previous Critical-Path Segment"),
            {forward ? QKeySequence(Qt::Key_N) : QKeySequence(Qt::SHIFT | Qt::Key_N)});
        connect(a, &QAction::triggered, this, [this, forward] { emit segmentRequested(forward); });
    }
}

void MainMenus::openFilesDialog() {
    const QStringList files = QFileDialog::getOpenFileNames(window_, tr("Open traces"), dialogDir(),
                                                            QString::fromStdString(traceOpenDialogFilter()));
    if (files.isEmpty()) return;
    rememberDir(files.front());
    p_.session->openTraces(files);
}

void MainMenus::openFolderDialog() {
    const QString dir =
        QFileDialog::getExistingDirectory(window_, tr("Open a folder of per-rank traces"), dialogDir());
    if (dir.isEmpty()) return;
    rememberDir(dir);
    p_.session->openTraces({dir});
}

bool MainMenus::saveSessionAs() {
    SessionController* session = p_.session;
    QString path = QFileDialog::getSaveFileName(
        window_, tr("Save session"),
        session->document()->sessionPath().isEmpty()
            ? dialogDir(QStringLiteral("session") + QLatin1String(Session::kSuffix))
            : session->document()->sessionPath(),
        tr("Sightline sessions (*.sightline.json);;All files (*)"));
    if (path.isEmpty()) return false;
    rememberDir(path);
    if (!isSessionPath(path)) path += QLatin1String(Session::kSuffix);
    return session->document()->saveSession(path).isEmpty();
}

bool MainMenus::saveSession() {
    return p_.session->document()->sessionPath().isEmpty() ? saveSessionAs()
                                                           : p_.session->document()->saveSession().isEmpty();
}

void MainMenus::buildComparisonActions(QMenu* file) {
    ComparisonController* comparison = p_.session->comparison();
    TimelinePanes* panes = p_.panes;
    auto* tables = file->addAction(tr("Comparison &Tables..."));
    auto* closeRun = file->addAction(tr("Close Comparison Run"));
    // The lower pane: the comparison run or the simulation (Ctrl+Shift+K).
    comparisonPane_ = new QAction(tr("Lower Pane Shows the Comparison Run"), this);
    comparisonPane_->setObjectName(QStringLiteral("comparisonPaneAction"));
    comparisonPane_->setCheckable(true);
    comparisonPane_->setShortcut(QKeySequence(tr("Ctrl+Shift+K")));
    file->addAction(comparisonPane_);
    for (QAction* a : {tables, closeRun, comparisonPane_})
        a->setEnabled(false);
    auto openTables = [this, panes] {
        if (!panes->comparisonRun()) return;
        auto* dock = window_->findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
        if (!dock) return;
        // In the bottom row's Comparison tab, replacing the tables of a run compared before; in a
        // scroll area, so that the tables never hold the window taller than a laptop's screen.
        auto* w = new ComparisonWindow(panes->comparisonRun(), dock);
        w->setWindowFlags(Qt::Widget);
        auto* scroll = new QScrollArea(dock);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(w);
        scroll->setMinimumHeight(1);
        if (QWidget* old = dock->widget()) {
            for (auto* before : old->findChildren<ComparisonWindow*>())
                before->disconnect(dock); // replaced, not closed: the tab stays
            old->deleteLater();
        }
        dock->setWidget(scroll);
        // Its Close button: the tab goes (the row's height back), and says what it is for if
        // opened from the View menu; the tables delete themselves on close.
        connect(w, &ComparisonWindow::closed, dock, [this, dock, scroll] {
            hideBottomTab(dock);
            dock->setWidget(ComparisonWindow::placeholder(dock));
            scroll->deleteLater();
        });
        connect(w, &ComparisonWindow::jumpRequested, panes,
                [panes, w](const QString& tab, const QString& key) {
                    // Only while the tables' run is still the one shown.
                    if (panes->comparisonRun() != w->run()) return;
                    const ComparisonRun::Jump j = w->run()->jumpTo(tab, key.toStdString());
                    panes->jumpTo(j.open, j.run);
                });
        showBottomTab(dock);
    };
    connect(tables, &QAction::triggered, this, openTables);
    connect(closeRun, &QAction::triggered, comparison, &ComparisonController::close);
    connect(comparisonPane_, &QAction::toggled, panes, &TimelinePanes::showComparison);
    connect(panes, &TimelinePanes::comparisonShownChanged, comparisonPane_, &QAction::setChecked);
    connect(panes, &TimelinePanes::comparisonShownChanged, comparison, &ComparisonController::setInPane);
    connect(comparison, &ComparisonController::shown, this,
            [panes, tables, closeRun, openTables, this](std::shared_ptr<const ComparisonRun> run,
                                                        bool showTables) {
                panes->setComparison(std::move(run));
                for (QAction* a : {tables, closeRun, comparisonPane_})
                    a->setEnabled(true);
                comparisonPane_->setChecked(panes->comparisonShown());
                if (showTables) openTables();
            });
    connect(comparison, &ComparisonController::cleared, this, [panes, tables, closeRun, this] {
        panes->setComparison(nullptr);
        // The run's tables go with it.
        if (auto* dock = window_->findChild<QDockWidget*>(QStringLiteral("comparisonDock"));
            dock && dock->isVisible()) {
            hideBottomTab(dock);
            if (QWidget* old = dock->widget()) old->deleteLater();
            dock->setWidget(ComparisonWindow::placeholder(dock));
        }
        for (QAction* a : {tables, closeRun, comparisonPane_})
            a->setEnabled(false);
    });
}

QString MainMenus::openJobSummary(const QString& path) {
    auto* dock = window_->findChild<QDockWidget*>(QStringLiteral("jobSummaryDock"));
    auto* panel = window_->findChild<JobSummaryPanel*>(); // inside the dock's scroll area
    if (!dock || !panel) return tr("no Job summary tab");
    const QString error = panel->open(path);
    if (!error.isEmpty()) {
        if (auto* bar = window_->findChild<MessageBar*>()) bar->showMessage(error, MessageBar::Level::Error);
        return error;
    }
    showBottomTab(dock);
    return {};
}

void MainMenus::showBottomTab(QDockWidget* dock) {
    dock->show();
    dock->raise();
    // Tables need rows to be read: the row gets a third of the window while such a tab is in front
    // (the user's own drag wins afterwards); its height before comes back when the tab goes.
    if (dock->isFloating() || dock->height() >= window_->height() / 3) return;
    if (bottomBefore_ == 0) bottomBefore_ = dock->height();
    window_->resizeDocks({dock}, {window_->height() / 3}, Qt::Vertical);
    bottomGrown_ = dock->height();
}

void MainMenus::hideBottomTab(QDockWidget* dock) {
    const bool asLeft = dock->height() == bottomGrown_;
    dock->hide();
    // The tab in front now takes the row's height from before, unless the user resized it since.
    if (asLeft && bottomBefore_ > 0)
        if (auto* front = window_->findChild<QDockWidget*>(QStringLiteral("deltaDock"))) {
            front->raise();
            window_->resizeDocks({front}, {bottomBefore_}, Qt::Vertical);
        }
    bottomBefore_ = bottomGrown_ = 0;
}

void MainMenus::buildFileMenu() {
    SessionController* session = p_.session;
    auto* file = window_->menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Files..."), QKeySequence::Open, this, &MainMenus::openFilesDialog);
    file->addAction(tr("Open &Folder..."), QKeySequence(tr("Ctrl+Shift+O")), this,
                    &MainMenus::openFolderDialog);
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(recent_, &RecentFiles::openRequested, session, &SessionController::openTraces);
    // Execution traces for the open set (EtAttach.h).
    for (const bool folder : {false, true})
        file->addAction(folder ? tr("Attach Execution Trace Fol&der...") : tr("Attach E&xecution Traces..."),
                        this, [this, session, folder] {
                            const QStringList ets =
                                EtAttach::askPaths(window_, session->tracePaths(), folder);
                            if (!ets.isEmpty()) session->attachEt(ets);
                        });
    // A second measured run of the program, compared op by op (docs/Compare.md): it takes the lower
    // pane (ComparisonController.h, TimelinePanes.h), its tables open in a window of their own.
    file->addAction(tr("Open Co&mparison Run..."), this, [this, session] {
        const QStringList files =
            ComparisonWindow::askPaths(window_, session->traceSet() && session->simulation().graph);
        if (!files.isEmpty()) session->comparison()->open(files);
    });
    buildComparisonActions(file);
    // A job too large to load whole, summarised rank by rank from Python (docs/Python.md): its rank
    // overview and who waited for whom in the Job summary tab; picked ranks open in full.
    file->addAction(tr("Open &Job Summary..."), this,
                    [this] {
                        const QString path = QFileDialog::getOpenFileName(
                            window_, tr("Open a job summary (sightline.summarize)"), dialogDir(),
                            tr("Job summary (*.json);;All files (*)"));
                        if (path.isEmpty()) return;
                        rememberDir(path);
                        openJobSummary(path);
                    })
        ->setObjectName(QStringLiteral("openJobSummaryAction"));
    file->addSeparator();
    // Asks for a path to save to (remembering its folder); empty when the user cancels.
    auto askSave = [this](const QString& title, const QString& start, const QString& filter) {
        const QString path = QFileDialog::getSaveFileName(window_, title, start, filter);
        if (!path.isEmpty()) rememberDir(path);
        return path;
    };
    const QString sessionFilter = tr("Sightline sessions (*.sightline.json);;All files (*)");
    file->addAction(
        tr("Open Sess&ion..."), QKeySequence(tr("Ctrl+Alt+O")), this, [this, session, sessionFilter] {
            const QString path =
                QFileDialog::getOpenFileName(window_, tr("Open session"), dialogDir(), sessionFilter);
            if (!path.isEmpty()) {
                rememberDir(path);
                session->openSession(path);
            }
        });
    file->addAction(tr("Sa&ve Session"), QKeySequence::Save, this, [this] { saveSession(); });
    file->addAction(tr("Save Session &As..."), QKeySequence(tr("Ctrl+Alt+S")), this,
                    [this] { saveSessionAs(); });
    file->addSeparator();
    buildExportFigureAction(file);
    file->addAction(tr("Cop&y Timeline Image (1920x1080)"), this,
                    [session] {
                        session->copyTimelineFigure({1920, 1080});
                    })
        ->setObjectName(QStringLiteral("copyTimelineAction"));
    file->addAction(tr("Copy Chart Image"), this, [this] { emit copyChartRequested(); })
        ->setObjectName(QStringLiteral("copyChartAction"));
    file->addAction(tr("Export &Simulated Trace (Perfetto JSON)..."), QKeySequence(tr("Ctrl+E")), this,
                    [session, askSave] {
                        const QString path =
                            askSave(tr("Export simulated trace"), dialogDir(QStringLiteral("simulated.json")),
                                    tr("Chrome trace JSON (*.json)"));
                        if (!path.isEmpty()) session->exportSimulatedTrace(path);
                    });
    file->addAction(tr("Export &Report (HTML, JSON, CSV)..."), QKeySequence(tr("Ctrl+Shift+E")), this,
                    [session, askSave] {
                        const QString path =
                            askSave(tr("Export report"), dialogDir(QStringLiteral("report.html")),
                                    tr("HTML report (*.html);;JSON (*.json);;CSV (*.csv)"));
                        if (!path.isEmpty()) session->startReportExport(path);
                    });
    file->addSeparator();
    // Through the window's close, which asks when the session is modified.
    file->addAction(tr("&Quit"), QKeySequence::Quit, window_, &QWidget::close)
        ->setObjectName(QStringLiteral("quitAction"));
}

void MainMenus::buildViewMenu() {
    SessionController* session = p_.session;
    auto* view = window_->menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Find..."), QKeySequence::Find, p_.findBar, &FindBar::activate);
    view->addAction(tr("Find &Next"), QKeySequence::FindNext, p_.findBar, &FindBar::findNext);
    view->addAction(tr("Find &Previous"), QKeySequence::FindPrevious, p_.findBar, &FindBar::findPrevious);
    view->addSeparator();
    view->addAction(tr("Fit &All"), QKeySequence(Qt::Key_Home), session->view(), &ViewController::fitAll);
    view->addAction(shift_);
    auto* navigate = view->addMenu(tr("&Navigate"));
    navigate->addActions(navigation_);
    buildNotesMenu(view->addMenu(tr("N&otes and Bookmarks")));
    // Transitions between scenarios (ui/model/Transition.h): on unless turned off here (kept).
    QAction* animate = view->addAction(tr("Animate Scenario S&witches"));
    animate->setObjectName(QStringLiteral("transitionsAction"));
    animate->setCheckable(true);
    const auto applyTransitions = [panes = p_.panes](bool on) {
        if (!panes) return;
        panes->measured()->setTransitions(on);
        panes->simulated()->setTransitions(on);
    };
    animate->setChecked(QSettings().value(QStringLiteral("view/transitions"), true).toBool());
    applyTransitions(animate->isChecked());
    connect(animate, &QAction::toggled, this, [applyTransitions](bool on) {
        QSettings().setValue(QStringLiteral("view/transitions"), on);
        applyTransitions(on);
    });
    view->addAction(tr("&Clear Selection"), this, [session] {
        session->selection()->clearEvent();
        session->selection()->clearRange();
    });
    view->addAction(tr("&Expand All Ranks"), this,
                    [session] { session->tracks()->setAllRanksExpanded(true); });
    view->addAction(tr("C&ollapse All Ranks"), this,
                    [session] { session->tracks()->setAllRanksExpanded(false); });
    view->addSeparator();
    view->addAction(criticalPath_);
    view->addAction(exposed_);
    view->addAction(arrows_);
    focusMode_ = view->addAction(tr("F&ocus Mode (timeline only)"));
    focusMode_->setObjectName(QStringLiteral("focusModeAction"));
    focusMode_->setCheckable(true);
    focusMode_->setShortcut(QKeySequence(Qt::Key_F11));
    focusMode_->setShortcutContext(Qt::ApplicationShortcut);
    connect(focusMode_, &QAction::toggled, this, &MainMenus::setFocusMode);
    auto* reset = view->addAction(tr("&Reset Layout"), this, [this] {
        setFocusMode(false);
        emit resetLayoutRequested();
    });
    reset->setObjectName(QStringLiteral("resetLayoutAction"));
    view->addSeparator();
    for (QDockWidget* dock : window_->findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
}

void MainMenus::setFocusMode(bool on) {
    // Only the timeline: docks and the toolbar go, and come back exactly as they were (where, how
    // big, which tab in front): the window's state is taken before and restored after, as showing
    // the docks one by one lets the layout re-split them.
    if (on && focusState_.isEmpty()) {
        focusState_ = window_->saveState();
        focusScrollY_ = p_.session->view()->scrollY();
        for (QDockWidget* dock : window_->findChildren<QDockWidget*>())
            dock->hide();
        for (QToolBar* bar : window_->findChildren<QToolBar*>())
            bar->hide();
    } else if (!on && !focusState_.isEmpty()) {
        window_->restoreState(focusState_);
        focusState_.clear();
        // The panes shrink back to their height: the rows scrolled to come back too (the scroll
        // was clamped while the layout settled), once the restored docks are laid out.
        QTimer::singleShot(0, this, [this, y = focusScrollY_] {
            p_.session->document()->navigate([&] { p_.session->view()->setScrollY(y); });
        });
        // The toolbar in the menu bar's corner is no part of the window's state.
        for (QToolBar* bar : window_->findChildren<QToolBar*>())
            bar->show();
    }
    if (focusMode_->isChecked() != on) focusMode_->setChecked(on);
}

} // namespace sl::ui
