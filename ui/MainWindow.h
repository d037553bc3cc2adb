#pragma once
#include <QMainWindow>

#include <functional>

class QChartView;
class QLabel;
class QProgressBar;
class QPushButton;
class QDockWidget;
class QStackedWidget;
class QTableView;
class QTreeView;

namespace sl::ui {

class ChartsPanel;
class CriticalPathTable;
class StragglersPanel;
class DetailsPanel;
class FindBar;
class FindResultsModel;
class HelpSheets;
class KnobPanel;
class LegendWidget;
class MainMenus;
class MessageBar;
class RangeStatsPanel;
class RankOverview;
class ResultCard;
class SessionController;
class StructurePanel;
class SweepView;
class PlanView;
class TimelinePanes;
class TrackTreeModel;
class WarningsPanel;
class WelcomePage;
struct SimOutput;

// The main window wires the parts together and holds no logic of its own (docs/ARCHITECTURE.md,
// "GUI"): the SessionController (the open set, loading, simulations, sessions), the MainMenus (menus,
// toolbar, keys), the TimelineNavigator (reveal, context menus) and the views and docks they feed.
// Tests reach a part through these classes or by object name (findChild).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    SessionController* sessions() const { return sessions_; }
    MainMenus* menus() const { return menus_; }
    // Restores the window geometry and, when the user had changed it, the dock layout saved by the
    // last run (closing saves the layout only after a change by the user).
    void restoreLayout();
    // Shrinks and moves the window onto its screen when any of it lies outside (restoreLayout).
    void fitToScreen();
    // View > Reset Layout: the default docks and sizes; the next start uses them too.
    void resetLayout();
    // After sessions()->enableAutosave(): if a run did not end cleanly and its session was neither
    // restored nor declined yet, offers (window-modal, without blocking; the box is named
    // "restoreQuestion") to restore or discard it.
    void offerRestore();
    // SIGTERM or SIGHUP (a log-out): ends the program at once, unsaved work kept for the next start.
    void endBySignal();
    // What closing a modified session does (the window's close, File > Quit). By default a
    // Save / Discard / Cancel box ("closeQuestion") asks; tests and embedders may answer instead.
    enum class CloseChoice { Save, Discard, Cancel };
    void setCloseQuestion(std::function<CloseChoice()> ask) { closeQuestion_ = std::move(ask); }
    // Pictures of the window, of the timeline alone (the result card above the two panes, at the
    // current zoom) and of the Charts dock's current chart alone, PNG or SVG by the suffix. Empty on
    // success, else the error (also shown in the message bar).
    QString saveView(const QString& path);
    QString saveTimelineImage(const QString& path);
    QString saveChartImage(const QString& path);
    // The chart in front (the Sweep tab's with a sweep in it, else the Charts dock's) on the clipboard.
    QString copyChartImage();
    QChartView* chartOnScreen() const;

protected:
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildCentral();
    void buildDocks();
    void buildEmbeddingDock(QDockWidget* besides); // MainWindowDocks.cpp
    void wireSession();
    // The views subscribe to the session's SimulationModel (MainWindowWiring.cpp).
    void subscribeToSimulation();
    void updateStatus();
    // The track filter hides from the track tree what it hides from the panes.
    void filterTree();
    void setLoading(bool loading);
    // The progress bar with what it measures, and its cancel button (shown: loading or details).
    void showProgress(const QString& what, double fraction);
    void hideProgress();
    QString reportError(const QString& error);
    // A simulation of `scenario` failed: the one path of every runner's failure (the simulated
    // pane's, the scenario runner's) to the message bar, named by scenario.
    void simulationFailed(const QString& scenario, const QString& error);
    // A save or export done: the status bar says so, with the path.
    void confirm(const QString& text);
    QString imageSaved(const QString& error, const QString& path);
    CloseChoice askClose();
    void saveLayout();
    void applyDefaultSizes();
    void watchLayout();
    // A chart tab (Sweep, Plan) in front grows the bottom row until its plot is
    // SweepView::kPlotHeight tall; another tab in front gives the height back, unless the user
    // resized the row meanwhile.
    void fitChartTab(QDockWidget* dock, bool front);
    void growChartTab(QDockWidget* dock);

    SessionController* sessions_;
    MainMenus* menus_ = nullptr;
    // The views and docks (MainWindow.cpp says what feeds each).
    MessageBar* messageBar_ = nullptr;
    FindBar* findBar_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    WelcomePage* welcome_ = nullptr;
    TimelinePanes* panes_ = nullptr;
    LegendWidget* legend_ = nullptr;
    ResultCard* card_ = nullptr;
    RankOverview* overview_ = nullptr;
    TrackTreeModel* trackModel_ = nullptr;
    bool treeFiltered_ = false; // rows of the tree are hidden by the filter
    QTreeView* trackTree_ = nullptr;
    DetailsPanel* details_ = nullptr;
    RangeStatsPanel* range_ = nullptr;
    QDockWidget* rangeDock_ = nullptr;
    ChartsPanel* charts_ = nullptr;
    FindResultsModel* findResults_ = nullptr;
    QTableView* findTable_ = nullptr;
    QDockWidget* findDock_ = nullptr;
    WarningsPanel* warnings_ = nullptr;
    StructurePanel* structure_ = nullptr;
    KnobPanel* knobs_ = nullptr;
    CriticalPathTable* pathTable_ = nullptr;
    StragglersPanel* stragglers_ = nullptr;
    QDockWidget* pathDock_ = nullptr;
    SweepView* sweep_ = nullptr;
    PlanView* plan_ = nullptr;
    HelpSheets* help_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* progressLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    std::function<CloseChoice()> closeQuestion_;
    // The layout (docs/MainWindow.md, "Layout"): the docks the defaults size, the default state,
    // whether the user changed it (only then is it saved), whether one was restored.
    QDockWidget* tracksDock_ = nullptr;
    QDockWidget* knobsDock_ = nullptr;
    QDockWidget* detailsDock_ = nullptr;
    QDockWidget* chartsDock_ = nullptr;
    QDockWidget* scenariosDock_ = nullptr;
    QDockWidget* deltaDock_ = nullptr;
    QByteArray defaultState_;
    QByteArray pressState_;
    bool layoutTouched_ = false;
    bool layoutRestored_ = false;
    bool arranging_ = false;
    QDockWidget* sweepDock_ = nullptr;
    QDockWidget* planDock_ = nullptr;
    int sweepGrownFrom_ = 0; // the bottom row's height before a chart tab grew it (0: not grown)
    int sweepGrownTo_ = 0;
    int sweepTabBar_ = 0; // what a tab group's height has beyond its docks' (its tab bar)
};

} // namespace sl::ui
