#pragma once
// The window's session (docs/ARCHITECTURE.md, "GUI"): the trace set that is open, its loading
// (TraceLoader), attaching execution traces (EtAttach) and the switch from one set to the next. It
// owns the parts of a session: the view state a session saves (the track tree, the visible window,
// the selection, the highlight toggles, the notes), the comparison run, the session as a document
// (SessionDocument: file, autosave, modified flag) and the simulations of the current scenario
// (SimulationDriver, whose SimulationModel the views subscribe to). It shows nothing: MainWindow
// connects its signals to the views, which is all MainWindow does.
#include "BackgroundJob.h"
#include "Export.h"
#include "FigureRender.h"
#include "MessageBar.h"
#include "Session.h"
#include "SimulationDriver.h"
#include "TimelineData.h"
#include "trace/TraceSet.h"

#include <QObject>
#include <QSettings>
#include <QSize>
#include <QStringList>
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace sl::ui {

class AnnotationModel;
class ComparisonController;
class EtAttach;
class HighlightModel;
class KnobPanel;
class ScenarioController;
class SelectionModel;
class RankViewMemory;
class SessionDocument;
class TraceLoader;
class TrackState;
class ViewController;

class SessionController : public QObject {
    Q_OBJECT
public:
    explicit SessionController(QObject* parent = nullptr);
    ~SessionController() override;

    // The view state a session saves; the views draw it.
    ViewController* view() const { return view_; }
    SelectionModel* selection() const { return selection_; }
    TrackState* tracks() const { return tracks_; }
    HighlightModel* highlights() const { return highlights_; }
    // Notes and bookmarks of the session (ui/timeline/Annotations.h).
    AnnotationModel* annotations() const { return annotations_; }
    TraceLoader* loader() const { return loader_; }
    // The comparison run (ComparisonController.h): a session saves and restores it.
    ComparisonController* comparison() const { return comparison_; }
    EtAttach* etAttach() const { return etAttach_; }
    // The session as a document: file, autosave, modified flag, a lesson's sandbox.
    SessionDocument* document() const { return document_; }
    // The simulations of the current scenario and the details phase (SimulationDriver.h); the
    // simulation shown is its model's, which the views subscribe to.
    SimulationDriver* driver() const { return driver_; }
    SimRunner* simRunner() const { return driver_->runner(); }
    SimulationModel* simulationModel() const { return driver_->model(); }
    const SimOutput& simulation() const { return simulationModel()->output(); }
    // The scenarios and the knob panel that edits the current one (they need views, so the window
    // creates them, with simRunner() and highlights()); required before a set is shown.
    void setScenarios(ScenarioController* scenarios, KnobPanel* knobs);
    ScenarioController* scenarios() const { return scenarios_; }
    KnobPanel* knobs() const { return knobs_; }

    // Loads paths (files and/or folders) in the background; the current set stays until it is done.
    // A single *.sightline.json path opens that session.
    void openTraces(const QStringList& paths);
    // After a failed load of a rank set: loads the ranks that do load (bad files left out).
    void openGoodRanks(const QStringList& paths);
    // Attaches execution traces to the open set (EtAttach.h): the re-linked set replaces it with the
    // knobs, scenarios and view kept.
    void attachEt(const QStringList& etPaths);
    // Shows a loaded set (what a finished load does); measured: its timeline when already indexed
    // (TraceLoader does it in its worker), else it is indexed here.
    void showTraceSet(std::shared_ptr<const TraceSet> set, const QStringList& paths = {},
                      std::shared_ptr<const TimelineData> measured = {});

    std::shared_ptr<const TraceSet> traceSet() const { return set_; }
    std::shared_ptr<const TimelineData> measured() const { return measured_; }
    // The paths of the set shown (what a session stores).
    const QStringList& tracePaths() const { return paths_; }
    // While a set is switched in: the views' changes are the new set's defaults, not edits.
    bool switching() const { return switching_; }

    // Reads a session and applies it: when its traces are not the ones open, they load first and
    // nothing changes unless they load. Empty on success (or load started), else the error (also
    // announced). adopt: a later save writes to path.
    QString openSession(const QString& path, bool adopt = true);
    // How a session applied comes back once its traces have loaded: as saved, as the session a
    // crashed run left (SessionDocument::recovered()) or as unsaved work (after a lesson).
    enum class Arrival { Saved, Recovered, Modified };
    // Applies a session; true when its traces load first (it is applied once they have).
    bool applySession(const Session& session, const QString& path = {}, Arrival arrival = Arrival::Saved);
    // Remembers each set's track layout in `settings` (RankViewMemory.h): stored when another set
    // is shown and when the controller goes, brought back when the set is opened again without a
    // session. Off until called (tests stay independent of earlier runs).
    void rememberRankViews(std::unique_ptr<QSettings> settings);
    // Fit All (Home) and panning reach every pane's end: the measured trace, the simulation shown
    // and the comparison run.
    void fitBounds();

    // File > Export (SessionExports.cpp): empty on success, else the error (also announced).
    QString exportSimulatedTrace(const QString& path);
    // The report (.html, .json or .csv by suffix) of the simulation shown and the scenarios simulated
    // so far, built off the UI thread from what the window holds (Export.h, ReportSnapshot); done
    // gets the error (empty on success) once it is written, and it is announced. False (and the
    // error announced) when there is nothing to report.
    bool startReportExport(const QString& path, std::function<void(QString)> done = {});
    // The same, waiting for the file to be written.
    QString exportReport(const QString& path);
    // The timeline rendered at `size` (ui/export/FigureRender.h): the measured and simulated panes over
    // the visible time window, every rank, with title, headline, knob values, axis and legend.
    QString exportTimelineFigure(const QString& path, QSize size,
                                 const FigureContent& content = {}); // .png, .svg or .pdf by suffix
    // The same figure on the clipboard (Copy Image), and the figure itself.
    QString copyTimelineFigure(QSize size);
    Figure timelineFigure(QSize size, const FigureContent& content = {}) const;
    // The scenarios simulated so far as the report's Scenarios table (JSON array, report/Report.h).
    nlohmann::json scenarioTableJson() const;
    // A timeline picture (SVG) per simulated scenario for the HTML report.
    std::vector<ReportFigure> scenarioFigures() const;
    // More pictures for the HTML report from parts the session does not own (the window's sweep
    // plot): called at each export.
    void setExtraFigures(std::function<std::vector<ReportFigure>()> extra) {
        extraFigures_ = std::move(extra);
    }

signals:
    // A load started (what: its status text); loading tells when the progress bar shows.
    void loadStarted(QString what);
    void loadingChanged(bool loading);
    // The switch to a new set, in two steps: first every view lets go of the old set, then the
    // views take the new one (before the scenarios, the simulation and the view state follow).
    void aboutToSwitch();
    void switched(std::shared_ptr<const sl::TraceSet> set,
                  std::shared_ptr<const sl::ui::TimelineData> measured);
    // The set is shown and everything restored (paths empty when it came from no files).
    void shown(QStringList paths);
    // Something for the message bar (empty text: hide it). A failed load of several files offers
    // to open the ranks that load (goodRanks).
    void message(QString text, sl::ui::MessageBar::Level level);
    void loadFailed(QString message, QStringList paths, bool goodRanks);
    // An export was written (what: "Report", "Simulated trace").
    void exported(QString what, QString path);

private:
    void showLoaded(std::shared_ptr<const TraceSet> set, const QStringList& paths, const Session* session,
                    std::shared_ptr<const TimelineData> measured = {});
    void applyViewState(const Session& session);
    void startLoad(const QStringList& paths, const QString& what, bool skipBadFiles = false);
    void storeRankView();

    ViewController* view_;
    SelectionModel* selection_;
    TrackState* tracks_;
    HighlightModel* highlights_;
    AnnotationModel* annotations_;
    std::function<std::vector<ReportFigure>()> extraFigures_;
    std::vector<ReportSnapshot::Scenario> simulatedScenarios(int* baseline) const;
    BackgroundJob* reportJob_ = nullptr; // File > Export Report, off the UI thread
    TraceLoader* loader_;
    EtAttach* etAttach_;
    ComparisonController* comparison_;
    SessionDocument* document_ = nullptr;
    SimulationDriver* driver_ = nullptr;
    ScenarioController* scenarios_ = nullptr;
    KnobPanel* knobs_ = nullptr;

    std::shared_ptr<const TraceSet> set_;
    std::shared_ptr<const TimelineData> measured_;
    QStringList paths_;
    std::unique_ptr<RankViewMemory> rankViews_;
    // A session waiting for its traces to load (with the path to adopt, if any, and how it comes
    // back). failed_: the one whose traces failed, for openGoodRanks().
    struct PendingSession {
        Session session;
        QString path;
        Arrival arrival = Arrival::Saved;
    };
    std::optional<PendingSession> pending_;
    std::optional<PendingSession> failed_;
    bool switching_ = false; // the view changes of a switch are the new set's defaults, not edits
};

} // namespace sl::ui
