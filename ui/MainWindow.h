#pragma once
#include "RangeStats.h"
#include "Selection.h"
#include "Session.h"
#include "SimRunner.h"
#include "TimelineData.h"
#include "trace/TraceSet.h"

#include <QMainWindow>

#include <QPointer>
#include <QStringList>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

class QDockWidget;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QStackedWidget;
class QTreeView;

namespace sl::ui {

class Autosave;
class ChartsPanel;
class CriticalPathTable;
class DetailsPanel;
class FindBar;
class FindResultsModel;
class HighlightModel;
class LegendWidget;
class MessageBar;
class RangeStatsModel;
class RangeStatsWorker;
class RecentFiles;
class ResultCard;
class ScenarioController;
class SweepView;
class TimelinePanes;
class TraceLoader;
class TrackState;
class TrackTreeModel;
class ViewController;
class StructurePanel;
class WarningsPanel;
class WelcomePage;

// The main window: wires the panes, the track tree, the details and range-statistics panels, the
// find bar, loading (progress, cancel, errors) and the menus. Owns no drawing or parsing itself.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Loads paths (files and/or folders) in the background; the current trace stays until it is done.
    // A single *.sightline.json path opens that session.
    void openTraces(const QStringList& paths);
    // The paths of the trace set shown (what a session stores).
    const QStringList& tracePaths() const { return paths_; }

    // Sessions (see Session.h). currentSession() is what Save writes.
    Session currentSession() const;
    // Reads a session and applies it: when its traces are not the ones open, they load first and
    // nothing changes unless they load. Empty on success (or load started), else the error, also
    // shown in the window. adopt: later File > Save Session writes to path.
    QString openSession(const QString& path, bool adopt = true);
    void applySession(const Session& session, const QString& path = {});
    // Writes the session (atomically); empty path: the session's own path. Empty on success.
    QString saveSession(const QString& path = {});
    const QString& sessionPath() const { return sessionPath_; }
    // Starts the crash-safe autosave (dir empty: AppDataLocation). Not used by tests of other
    // things or by --screenshot.
    void enableAutosave(const QString& dir = {}, int intervalMs = 30'000);
    Autosave* autosave() const { return autosave_; }
    // After enableAutosave(): if the previous run did not end cleanly, offers (without blocking)
    // to restore its session; on the offscreen platform only says so in the message bar.
    void offerRestore();
    // Shows a loaded trace set (what a finished load does).
    void showTraceSet(std::shared_ptr<const TraceSet> set, const QStringList& paths = {});
    void showError(const QString& message);
    // Shows a simulation result in the simulated pane, the details and the status bar.
    void showSimulation(const SimOutput& output);
    // Whether loading a trace and changing a knob start a simulation (off for screenshots).
    void setAutoSimulate(bool on) { autoSimulate_ = on; }
    SimRunner* simRunner() const { return sim_; }
    class KnobPanel* knobPanel() const {
        return knobs_;
    }
    const SimOutput& simulation() const { return simulation_; }
    // Restores the dock layout and window geometry saved by the last run.
    void restoreLayout();

    std::shared_ptr<const TraceSet> traceSet() const { return set_; }
    std::shared_ptr<const TimelineData> measured() const { return measured_; }
    ViewController* controller() const { return controller_; }
    SelectionModel* selection() const { return selection_; }
    TrackState* trackState() const { return tracks_; }
    TimelinePanes* panes() const { return panes_; }
    TraceLoader* loader() const { return loader_; }
    MessageBar* messageBar() const { return messageBar_; }
    FindBar* findBar() const { return findBar_; }
    RangeStatsModel* rangeStats() const { return rangeModel_; }
    RangeStatsWorker* rangeWorker() const { return rangeWorker_; }
    TrackTreeModel* trackModel() const { return trackModel_; }
    DetailsPanel* details() const { return details_; }
    HighlightModel* highlights() const { return highlights_; }
    ChartsPanel* charts() const { return charts_; }
    WelcomePage* welcomePage() const { return welcome_; }
    WarningsPanel* warningsPanel() const { return warnings_; }
    FindResultsModel* findResults() const { return findResults_; }
    QTableView* findResultsView() const { return findTable_; }
    // Whether the welcome page shows (no set open yet).
    bool showsWelcome() const;
    // File > Export: empty string on success, else the error (also shown in the window).
    QString exportSimulatedTrace(const QString& path);
    QString exportReport(const QString& path); // .html, .json or .csv by suffix
    QString saveView(const QString& path);     // .png or .svg by suffix
    // The timeline alone (the result card above the two panes, at the current zoom) and the chart of
    // the Charts dock's current tab alone, as PNG or SVG by the suffix. Empty on success, else the
    // error (also shown in the message bar).
    QString saveTimelineImage(const QString& path);
    // The session's simulated scenarios as the report's Scenarios table (JSON array).
    nlohmann::json scenarioTableJson() const;
    QString saveChartImage(const QString& path);
    QString exportRangeStats(const QString& path); // the range statistics table as CSV
    // Where file dialogs start: the folder last used by any of them (else the home folder), with
    // fileName appended when given. rememberDir() records the folder of a chosen path.
    static QString dialogDir(const QString& fileName = {});
    static void rememberDir(const QString& path);
    QAction* criticalPathAction() const { return criticalPathAction_; }
    QAction* exposedAction() const { return exposedAction_; }
    // Selects an event and brings it into view: shows its track, expands its rank and its nested rows
    // down to the event's depth, centres it in time (zooming out when it is wider than the window) and
    // scrolls both panes and the track tree to its row.
    void revealEvent(EventId e);
    // Context menus, returned (not shown) so that tests can trigger their actions (objectName per
    // action): of an event in a pane (e invalid: empty space) and of a track label (track -1: the
    // rank's header). The caller owns the menu.
    QMenu* eventMenu(EventId e, bool simulatedPane, QWidget* parent);
    QMenu* trackMenu(int rank, int track, QWidget* parent);
    // The key sheet (? or F1): a non-modal window listing keys and mouse gestures.
    void showKeySheet();
    QWidget* keySheet() const { return keySheet_; }
    // Help > Glossary: the words of the panes, charts and knobs, for a student (non-modal).
    void showGlossary();
    QWidget* glossary() const { return glossary_; }
    // W/S/A/D/F and ?: application-wide shortcuts, whatever has focus.
    const QList<QAction*>& navigationActions() const { return navigationActions_; }
    // Focus mode (F11): only the timeline, the docks and toolbar hidden; off restores them.
    void setFocusMode(bool on);
    QAction* focusModeAction() const { return focusModeAction_; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    void buildDocks();
    void buildHighlightActions();
    void updateRangeStats();
    void showRangeStats(RangeTable table);
    void updateStatus();
    void updateShiftColour();
    void setLoading(bool loading);
    void saveViewImage();
    void showLoaded(std::shared_ptr<const TraceSet> set, const QStringList& paths, const Session* session);
    void applyViewState(const Session& session);
    void markDirty();
    void buildNavigationActions();
    void openFilesDialog();
    void setModified(bool modified);
    void updateTitle();
    void openFolderDialog();

    ViewController* controller_;
    SelectionModel* selection_;
    TrackState* tracks_;
    TraceLoader* loader_;
    TimelinePanes* panes_ = nullptr;
    MessageBar* messageBar_ = nullptr;
    FindBar* findBar_ = nullptr;
    DetailsPanel* details_ = nullptr;
    RangeStatsModel* rangeModel_ = nullptr;
    RangeStatsWorker* rangeWorker_ = nullptr;
    QTableView* rangeTable_ = nullptr;
    QLabel* rangeLabel_ = nullptr;
    QPushButton* rangeExport_ = nullptr;
    TrackTreeModel* trackModel_ = nullptr;
    QTreeView* trackTree_ = nullptr;
    RecentFiles* recent_ = nullptr;
    QLabel* status_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    HighlightModel* highlights_ = nullptr;
    ChartsPanel* charts_ = nullptr;
    LegendWidget* legend_ = nullptr;
    QAction* criticalPathAction_ = nullptr;
    QAction* exposedAction_ = nullptr;
    QAction* arrowsAction_ = nullptr;
    QAction* keySheetAction_ = nullptr;
    QList<QAction*> navigationActions_;
    QWidget* keySheet_ = nullptr;
    QWidget* glossary_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    WelcomePage* welcome_ = nullptr;
    WarningsPanel* warnings_ = nullptr;
    StructurePanel* structure_ = nullptr;
    FindResultsModel* findResults_ = nullptr;
    QTableView* findTable_ = nullptr;
    QDockWidget* findDock_ = nullptr;
    QDockWidget* rangeDock_ = nullptr;
    QAction* focusModeAction_ = nullptr;
    QList<QPointer<QWidget>> focusHidden_;
    bool loadingSet_ = false;
    std::shared_ptr<const TraceSet> set_;
    // Counts the sets shown; work started for one set checks it before touching the window.
    std::uint64_t setGeneration_ = 0;
    std::shared_ptr<const TimelineData> measured_;
    SimRunner* sim_ = nullptr;
    class KnobPanel* knobs_ = nullptr;
    SimOutput simulation_;
    bool autoSimulate_ = true;
    QStringList paths_;
    QString sessionPath_;
    // A session waiting for its traces to load (with the path to adopt, if any).
    std::optional<Session> pending_;
    QString pendingPath_;
    Autosave* autosave_ = nullptr;
    // Scenarios (docs/WhatIfWorkbench.md): the card above the panes and the controller that wires
    // the Scenarios dock, the delta table and the knob panel.
    ResultCard* card_ = nullptr;
    ScenarioController* scenarios_ = nullptr;
    CriticalPathTable* pathTable_ = nullptr;
    SweepView* sweep_ = nullptr;
    QAction* shiftAction_ = nullptr;
};

} // namespace sl::ui
