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
    // C goes where the path runs (a user's key or menu, not a session restored: `triggered`).
    connect(menus_->criticalPathAction(), &QAction::triggered, navigator, [navigator](bool on) {
        if (on) navigator->revealCriticalPath();
    });
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
    // The sweep's and the plan's plots in the HTML report when they ran (docs/Exports.md, "In the
    // report").
    sessions_->setExtraFigures([this] {
        std::vector<ReportFigure> out;
        const auto add = [&out](const QString& name, QChartView* chart) {
            const QByteArray svg = chartSvg(chart, {1600, 900});
            if (!svg.isEmpty())
                out.push_back({name.toStdString(), chart->chart()->title().toStdString(), svg.toStdString()});
        };
        if (sweep_ && !sweep_->points().empty()) add(tr("Sweep"), sweep_->chart());
        if (plan_ && plan_->model()->rowCount() > 0) add(tr("Plan"), plan_->chart());
        return out;
    });
    panes_->simulated()->setAnnotations(sessions_->annotations());
    // The prediction held against the comparison run, on the card (docs/Compare.md).
    connect(sessions_->comparison(), &ComparisonController::predictionChanged, card_,
            &ResultCard::setComparisonLine);
    setCentralWidget(central);
}

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

MainWindow::~MainWindow() {
    // Closing hides the docks while the window's layout is going away: no chart tab fitting then.
    for (QDockWidget* dock : {sweepDock_, planDock_})
        if (dock) disconnect(dock, nullptr, this, nullptr);
}

void MainWindow::updateStatus() {
    status_->setText(statusTextFor(*sessions_));
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
    // The sweep's or the plan's plot when its tab is in front with results in it, else the Charts
    // dock's tab.
    if (sweep_->isVisible() && !sweep_->visibleRegion().isEmpty() && !sweep_->points().empty())
        return sweep_->chart();
    if (plan_->isVisible() && !plan_->visibleRegion().isEmpty() && plan_->model()->rowCount() > 0)
        return plan_->chart();
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
    const Autosave* autosave = sessions_->document()->autosave();
    if (!autosave || !autosave->recoverable()) return;
    // Window-modal, never blocks the event loop. The recovered session stays on disk until the user
    // answers (docs/MainWindow.md, "Never losing work"): closing the box without an answer offers
    // it again at the next start.
    const QString what = autosave->recoveredFromClose()
                             ? tr("Sightline was closed by the system (a log-out or shut-down) with unsaved "
                                  "changes. Restore them (traces, scenarios, knobs, tracks, view)?")
                             : tr("Sightline did not close cleanly last time. Restore the session it was "
                                  "working on (traces, scenarios, knobs, tracks, view)?");
    auto* box =
        new QMessageBox(QMessageBox::Question, tr("Restore session"), what, QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("restoreQuestion"));
    box->addButton(tr("Restore"), QMessageBox::AcceptRole)->setObjectName(QStringLiteral("restore"));
    box->addButton(tr("Discard"), QMessageBox::DestructiveRole)->setObjectName(QStringLiteral("discard"));
    box->addButton(tr("Ask Next Time"), QMessageBox::RejectRole)->setObjectName(QStringLiteral("later"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, box](QAbstractButton* button) {
        if (box->buttonRole(button) == QMessageBox::AcceptRole)
            sessions_->document()->restoreRecovered();
        else if (box->buttonRole(button) == QMessageBox::DestructiveRole)
            sessions_->document()->declineRecovered();
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
    if (sessions_->document()->modified()) {
        const CloseChoice choice = askClose();
        if (choice == CloseChoice::Cancel || (choice == CloseChoice::Save && !menus_->saveSession())) {
            event->ignore();
            return;
        }
    }
    if (sessions_->document()->autosave()) sessions_->document()->autosave()->finish();
    saveLayout();
    sessions_->loader()->cancel();
    QMainWindow::closeEvent(event);
}

void MainWindow::endBySignal() {
    // No question can be answered now (the session is ending): unsaved work goes to the recovered
    // session, an unmodified session ends as after a clean close.
    if (Autosave* autosave = sessions_->document()->autosave())
        sessions_->document()->modified() ? autosave->finishKeepingWork() : autosave->finish();
    saveLayout();
    sessions_->loader()->cancel();
    // exit(), not quit(): quit() would close the window, and its close would ask about the changes.
    QCoreApplication::exit(0);
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
