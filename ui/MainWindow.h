#pragma once
#include <QMainWindow>

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
class ResultCard;
class SessionController;
class StructurePanel;
class SweepView;
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

    SessionController* sessions() const { return sessions_; }
    MainMenus* menus() const { return menus_; }
    // Restores the dock layout and window geometry saved by the last run.
    void restoreLayout();
    // After sessions()->enableAutosave(): if the previous run did not end cleanly, offers (without
    // blocking) to restore its session; on the offscreen platform only says so in the message bar.
    void offerRestore();
    // Pictures of the window, of the timeline alone (the result card above the two panes, at the
    // current zoom) and of the Charts dock's current chart alone, PNG or SVG by the suffix. Empty on
    // success, else the error (also shown in the message bar).
    QString saveView(const QString& path);
    QString saveTimelineImage(const QString& path);
    QString saveChartImage(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildCentral();
    void buildDocks();
    void wireSession();
    void showSimulation(const SimOutput& output);
    void updateShiftColour();
    void updateStatus();
    void setLoading(bool loading);
    // The progress bar with what it measures, and its cancel button (shown: loading or details).
    void showProgress(const QString& what, double fraction);
    void hideProgress();
    QString reportError(const QString& error);

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
    TrackTreeModel* trackModel_ = nullptr;
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
    HelpSheets* help_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* progressLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
};

} // namespace sl::ui
