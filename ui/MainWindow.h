#pragma once
#include "Selection.h"
#include "SimRunner.h"
#include "TimelineData.h"
#include "trace/TraceSet.h"

#include <QMainWindow>
#include <QStringList>

#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTreeView;

namespace sl::ui {

class ChartsPanel;
class DetailsPanel;
class FindBar;
class HighlightModel;
class LegendWidget;
class MessageBar;
class RangeStatsModel;
class RecentFiles;
class TimelinePanes;
class TraceLoader;
class TrackState;
class TrackTreeModel;
class ViewController;

// The main window: wires the panes, the track tree, the details and range-statistics panels, the
// find bar, loading (progress, cancel, errors) and the menus. Owns no drawing or parsing itself.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Loads paths (files and/or folders) in the background; the current trace stays until it is done.
    void openTraces(const QStringList& paths);
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
    TrackTreeModel* trackModel() const { return trackModel_; }
    DetailsPanel* details() const { return details_; }
    HighlightModel* highlights() const { return highlights_; }
    ChartsPanel* charts() const { return charts_; }
    // File > Export: empty string on success, else the error (also shown in the window).
    QString exportSimulatedTrace(const QString& path);
    QString exportReport(const QString& path); // .json or .csv by suffix
    QString saveView(const QString& path);     // .png or .svg by suffix
    QAction* criticalPathAction() const { return criticalPathAction_; }
    QAction* exposedAction() const { return exposedAction_; }
    // Centres the view on an event (zooming out when it is wider than the window) and selects it.
    void revealEvent(EventId e);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    void buildDocks();
    void buildHighlightActions();
    void updateRangeStats();
    void updateStatus();
    void setLoading(bool loading);
    void saveViewImage();

    ViewController* controller_;
    SelectionModel* selection_;
    TrackState* tracks_;
    TraceLoader* loader_;
    TimelinePanes* panes_ = nullptr;
    MessageBar* messageBar_ = nullptr;
    FindBar* findBar_ = nullptr;
    DetailsPanel* details_ = nullptr;
    RangeStatsModel* rangeModel_ = nullptr;
    QTableView* rangeTable_ = nullptr;
    QLabel* rangeLabel_ = nullptr;
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
    std::shared_ptr<const TraceSet> set_;
    std::shared_ptr<const TimelineData> measured_;
    SimRunner* sim_ = nullptr;
    class KnobPanel* knobs_ = nullptr;
    SimOutput simulation_;
    bool autoSimulate_ = true;
};

} // namespace sl::ui
