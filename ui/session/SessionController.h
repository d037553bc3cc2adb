#pragma once
// The window's session (docs/ARCHITECTURE.md, "GUI"): the trace set that is open, its loading
// (TraceLoader), attaching execution traces (EtAttach), the simulation of the current knobs
// (SimRunner, with the ScenarioController that runs the other scenarios), session files and the
// crash-safe autosave. It also owns the view state a session saves (the track tree, the visible
// window, the selection, the highlight toggles). It shows nothing: MainWindow connects its signals
// to the views, which is all MainWindow does.
#include "BackgroundJob.h"
#include "Export.h"
#include "FigureRender.h"
#include "MessageBar.h"
#include "Session.h"
#include "SimRunner.h"
#include "TimelineData.h"
#include "trace/TraceSet.h"

#include <QObject>
#include <QSettings>
#include <QSize>
#include <QStringList>
#include <nlohmann/json.hpp>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace sl::ui {

class AnnotationModel;
class Autosave;
class ComparisonController;
class EtAttach;
class HighlightModel;
class KnobPanel;
class ScenarioController;
class SelectionModel;
class RankViewMemory;
class TraceLoader;
class TrackState;
class ViewController;

class SessionController : public QObject {
    Q_OBJECT
public:
    explicit SessionController(QObject* parent = nullptr);

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
    SimRunner* simRunner() const { return sim_; }
    EtAttach* etAttach() const { return etAttach_; }
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
    // A simulation of the set that is open: kept, and announced (simulationShown).
    void showSimulation(const SimOutput& output);
    // Whether showing a set and changing a knob start a simulation (off for screenshots).
    void setAutoSimulate(bool on) { autoSimulate_ = on; }

    // The details of a shown set (docs/Loader.md, "GUI: timeline first, details later"): the
    // measured timeline is shown as soon as the events are parsed; the execution graph (dependency
    // arrows, critical path), the simulation and what derives from it come afterwards in the
    // background. None: not started (no set, or no automatic simulation).
    enum class Details { None, Running, Done, Cancelled };
    Details details() const { return details_; }
    // Stops the details of the set shown; the timeline and the view state stay.
    void cancelDetails();
    // Computes the details again after a cancel (with the knobs in the panel).
    void computeDetails();

    std::shared_ptr<const TraceSet> traceSet() const { return set_; }
    std::shared_ptr<const TimelineData> measured() const { return measured_; }
    const SimOutput& simulation() const { return simulation_; }
    // The paths of the set shown (what a session stores).
    const QStringList& tracePaths() const { return paths_; }

    // Sessions (Session.h). currentSession() is what Save writes (the user's, during a lesson).
    Session currentSession() const;
    // A lesson's sandbox (docs/Lessons.md, "Sandbox"): beginSandbox() puts the user's session aside
    // (scenarios, knobs, view, highlights, traces, file, modified flag) and gives the lesson an empty
    // scenario list; until endSandbox() brings the user's session back, nothing the lesson does marks
    // the session modified or reaches the autosave, and Save writes the user's session.
    void beginSandbox();
    void endSandbox();
    bool sandboxed() const { return sandbox_.has_value(); }
    // Reads a session and applies it: when its traces are not the ones open, they load first and
    // nothing changes unless they load. Empty on success (or load started), else the error (also
    // announced). adopt: a later save writes to path.
    QString openSession(const QString& path, bool adopt = true);
    void applySession(const Session& session, const QString& path = {});
    // Writes the session (atomically); empty path: the session's own path. Empty on success.
    QString saveSession(const QString& path = {});
    const QString& sessionPath() const { return sessionPath_; }
    // Starts the crash-safe autosave (dir empty: AppDataLocation).
    void enableAutosave(const QString& dir = {}, int intervalMs = 30'000);
    // Remembers each set's track layout in `settings` (RankViewMemory.h): stored when another set
    // is shown and when the controller goes, brought back when the set is opened again without a
    // session. Off until called (tests stay independent of earlier runs).
    void rememberRankViews(std::unique_ptr<QSettings> settings);
    ~SessionController() override;
    Autosave* autosave() const { return autosave_; }
    // The session a crashed run left (Autosave::recoverable()): restore it (as unsaved work, no
    // session file of its own; empty on success or load started, else the error) or decline it.
    // Either way it is no longer offered, once it is shown or declined.
    QString restoreRecovered();
    void declineRecovered();

    // A user edit of the session: the autosave is armed and the window shows it modified.
    void markDirty();
    // Runs `move`, a change of the view the program makes for the user (the critical path key
    // scrolling to the rank that holds the path): what it changes is saved, but it is no edit.
    void navigate(const std::function<void()>& move);
    bool modified() const { return modified_; }
    // The window title: the session's name, else the traces' ("[*]" for the modified marker).
    QString title() const;
    // The status line: ranks, events, window and, after a simulation, the iteration and GPU span.
    QString statusText() const;

    // File > Export: empty on success, else the error (also announced).
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
    void simulationShown(sl::ui::SimOutput output);
    // The details phase: started (after shown()), its stage and share done, finished (the first
    // simulation shown, or failed), cancelled.
    void detailsStarted();
    void detailsProgress(QString what, double fraction);
    void detailsFinished();
    void detailsCancelled();
    // Something for the message bar (empty text: hide it). A failed load of several files offers
    // to open the ranks that load (goodRanks).
    void message(QString text, sl::ui::MessageBar::Level level);
    void loadFailed(QString message, QStringList paths, bool goodRanks);
    // The title or the modified flag changed.
    void titleChanged();
    void saved(QString path);
    // An export was written (what: "Report", "Simulated trace").
    void exported(QString what, QString path);

private:
    void showLoaded(std::shared_ptr<const TraceSet> set, const QStringList& paths, const Session* session,
                    std::shared_ptr<const TimelineData> measured = {});
    void startDetails();
    void endDetails();
    void fitBounds();
    void applyViewState(const Session& session);
    void setModified(bool modified);
    void recovered();
    void startLoad(const QStringList& paths, const QString& what, bool skipBadFiles = false);

    ViewController* view_;
    SelectionModel* selection_;
    TrackState* tracks_;
    HighlightModel* highlights_;
    AnnotationModel* annotations_;
    std::function<std::vector<ReportFigure>()> extraFigures_;
    std::vector<ReportSnapshot::Scenario> simulatedScenarios(int* baseline) const;
    BackgroundJob* reportJob_ = nullptr; // File > Export Report, off the UI thread
    TraceLoader* loader_;
    SimRunner* sim_;
    EtAttach* etAttach_;
    ComparisonController* comparison_;
    ScenarioController* scenarios_ = nullptr;
    KnobPanel* knobs_ = nullptr;
    Autosave* autosave_ = nullptr;

    std::shared_ptr<const TraceSet> set_;
    std::shared_ptr<const TimelineData> measured_;
    SimOutput simulation_;
    QStringList paths_;
    std::unique_ptr<RankViewMemory> rankViews_;
    void storeRankView();
    QString sessionPath_;
    // A session waiting for its traces to load (with the path to adopt, if any; recovered: the
    // autosave of a crashed run). failed_: the one whose traces failed, for openGoodRanks().
    struct PendingSession {
        Session session;
        QString path;
        bool recovered = false;
        bool modified = false; // the session was unsaved work when it was put aside (a lesson)
    };
    // The user's session while a lesson runs (SessionSandbox.cpp).
    struct Sandbox {
        Session user;
        QString path;
        bool modified = false;
    };
    std::optional<Sandbox> sandbox_;
    std::optional<PendingSession> pending_;
    std::optional<PendingSession> failed_;
    bool autoSimulate_ = true;
    Details details_ = Details::None;
    bool switching_ = false; // the view changes of a switch are the new set's defaults, not edits
    bool modified_ = false;
    bool navigating_ = false;            // inside navigate()
    std::array<bool, 3> toggles_{};      // critical path, exposed, arrows as last seen
    std::pair<TimeNs, TimeNs> window_{}; // the view's time window as last seen
};

} // namespace sl::ui
