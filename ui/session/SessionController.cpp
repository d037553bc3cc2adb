#include "SessionController.h"

#include "io/KinetoLoader.h"

#include "Annotations.h"
#include "Autosave.h"
#include "ComparisonController.h"
#include "DialogDir.h"
#include "EtAttach.h"
#include "Export.h"
#include "FigureRender.h"
#include "HighlightModel.h"
#include "KnobPanel.h"
#include "RankViewMemory.h"
#include "Samples.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "Selection.h"
#include "TimeFormat.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "ViewController.h"
#include "analysis/StepExplanation.h"
#include "report/SimulationReport.h"
#include "structure/Structure.h"

#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QScopedValueRollback>
#include <QSignalBlocker>

#include <algorithm>
#include <tuple>

namespace sl::ui {

SessionController::SessionController(QObject* parent)
    : QObject(parent), view_(new ViewController(this)), selection_(new SelectionModel(this)),
      tracks_(new TrackState(this)), highlights_(new HighlightModel(selection_, this)),
      annotations_(new AnnotationModel(this)), loader_(new TraceLoader(this)), sim_(new SimRunner(this)),
      etAttach_(new EtAttach(this)), comparison_(new ComparisonController(this)) {
    reportJob_ = new BackgroundJob(this);
    view_->setObjectName(QStringLiteral("viewController"));
    selection_->setObjectName(QStringLiteral("selection"));
    tracks_->setObjectName(QStringLiteral("trackState"));
    highlights_->setObjectName(QStringLiteral("highlights"));
    annotations_->setObjectName(QStringLiteral("annotations"));
    // A note or bookmark is work to keep (sessions, autosave), but restoring one is not an edit.
    connect(annotations_, &AnnotationModel::changed, this, [this] {
        if (!switching_ && set_) markDirty();
    });
    connect(loader_, &TraceLoader::loaded, this,
            [this](std::shared_ptr<const TraceSet> set, QStringList paths,
                   std::shared_ptr<const TimelineData> measured) {
                emit loadingChanged(false);
                std::optional<PendingSession> pending;
                if (pending_ && pending_->session.traces == paths) pending = std::move(pending_);
                pending_.reset();
                failed_.reset();
                showLoaded(std::move(set), paths, pending ? &pending->session : nullptr, std::move(measured));
                if (pending && !pending->path.isEmpty()) sessionPath_ = pending->path;
                setModified(false);
                if (pending && pending->recovered) recovered();
                if (pending && pending->modified) markDirty();
            });
    connect(loader_, &TraceLoader::failed, this, [this](const QString& error, const QStringList& paths) {
        emit loadingChanged(false);
        // Kept for "Open the good ranks", which then applies the session to the ranks that load.
        failed_ = std::move(pending_);
        pending_.reset();
        // A rank set with a bad file: the ranks that do load can be opened.
        std::size_t files = 0;
        try {
            std::vector<std::string> list;
            for (const auto& p : paths)
                list.push_back(p.toStdString());
            files = expandTracePaths(list).size();
        } catch (const std::exception&) {
        }
        emit loadFailed(error, paths, files > 1);
    });
    connect(loader_, &TraceLoader::cancelled, this, [this] {
        emit loadingChanged(false);
        pending_.reset();
        emit message(tr("Loading cancelled."), MessageBar::Level::Info);
    });
    // The re-linked set replaces the open one with the user's knobs, scenarios and view kept.
    connect(etAttach_, &EtAttach::attached, this, [this](auto set, const QString& text, auto replaces) {
        if (replaces != set_) return; // another set was opened meanwhile
        const Session keep = currentSession();
        showLoaded(std::move(set), paths_, &keep);
        emit message(text, MessageBar::Level::Info);
    });
    connect(etAttach_, &EtAttach::failed, this,
            [this](const QString& error) { emit message(error, MessageBar::Level::Error); });
    connect(sim_, &SimRunner::finished, this, &SessionController::showSimulation);
    connect(comparison_, &ComparisonController::shown, this, &SessionController::fitBounds);
    connect(comparison_, &ComparisonController::cleared, this, &SessionController::fitBounds);
    connect(sim_, &SimRunner::stage, this, [this](const QString& what, double fraction) {
        if (details_ == Details::Running) emit detailsProgress(what, fraction);
    });
    connect(sim_, &SimRunner::failed, this, &SessionController::endDetails);
    // The exposed-communication lanes follow the toggle (E): a way of looking, not an edit of the tracks.
    connect(highlights_, &HighlightModel::exposedChanged, this,
            [this](bool on) { navigate([&] { tracks_->setExposedLanes(on); }); });
    // Edits of the view state are edits of the session.
    connect(tracks_, &TrackState::changed, this, &SessionController::markDirty);
    // Only a new time window is an edit: a resize (maximising the window, a dock dragged) changes
    // the viewport's width and with it the mapping, not the window a session saves.
    connect(view_, &ViewController::windowChanged, this, [this] {
        const std::pair<TimeNs, TimeNs> window{view_->windowStart(), view_->windowEnd()};
        if (window == window_) return;
        window_ = window;
        markDirty();
    });
    // Scrolling is a way of looking (it also follows the rows when a toggle adds lanes): saved, no edit.
    connect(view_, &ViewController::scrollYChanged, this, [this] {
        navigate([this] { markDirty(); }); // saved, autosaved, no edit
    });
    // Of the highlights only the toggles are the session's (a new simulation or selection also
    // changes the model). A toggle is a way of looking, no edit: saved (and autosaved) with the
    // session, but the window is not marked modified for it.
    toggles_ = {highlights_->criticalPath(), highlights_->exposed(), highlights_->arrows()};
    connect(highlights_, &HighlightModel::changed, this, [this] {
        const std::array<bool, 3> now{highlights_->criticalPath(), highlights_->exposed(),
                                      highlights_->arrows()};
        if (now == toggles_) return;
        toggles_ = now;
        navigate([this] { markDirty(); }); // saved, autosaved, no edit
    });
}

void SessionController::setScenarios(ScenarioController* scenarios, KnobPanel* knobs) {
    scenarios_ = scenarios;
    knobs_ = knobs;
    connect(scenarios_, &ScenarioController::modified, this, &SessionController::markDirty);
    connect(knobs_, &KnobPanel::changed, this, [this] {
        // After a cancel, a knob change computes the details again (with the progress bar).
        if (autoSimulate_ && set_ && details_ == Details::Cancelled) startDetails();
        // The scenario list took the edit first (ScenarioController): the current scenario's knobs
        // are these.
        if (autoSimulate_ && set_) sim_->request(scenarios_->currentKnobs());
        markDirty();
    });
}

void SessionController::startLoad(const QStringList& paths, const QString& what, bool skipBadFiles) {
    emit loadStarted(what);
    emit loadingChanged(true);
    loader_->start(paths, skipBadFiles);
}

void SessionController::openTraces(const QStringList& paths) {
    if (paths.isEmpty()) return;
    if (paths.size() == 1 && isSessionPath(paths[0])) {
        openSession(paths[0]);
        return;
    }
    QStringList absolute;
    for (const QString& p : paths)
        absolute.push_back(QDir::cleanPath(QFileInfo(p).absoluteFilePath()));
    pending_.reset();
    startLoad(absolute, tr("Loading %1...")
                            .arg(paths.size() == 1 ? QFileInfo(paths[0]).fileName()
                                                   : tr("%1 paths").arg(paths.size())));
}

void SessionController::openGoodRanks(const QStringList& paths) {
    // A session whose set failed for a bad rank keeps its scenarios, knobs and view on the rest.
    if (failed_ && failed_->session.traces == paths) pending_ = std::move(failed_);
    failed_.reset();
    startLoad(paths, tr("Loading the ranks that load..."), true);
}

void SessionController::attachEt(const QStringList& etPaths) {
    etAttach_->start(set_, paths_, etPaths);
}

void SessionController::showTraceSet(std::shared_ptr<const TraceSet> set, const QStringList& paths,
                                     std::shared_ptr<const TimelineData> measured) {
    showLoaded(std::move(set), paths, nullptr, std::move(measured));
}

void SessionController::startDetails() {
    details_ = Details::Running;
    emit detailsStarted();
}

void SessionController::endDetails() {
    if (details_ != Details::Running) return;
    details_ = Details::Done;
    emit detailsFinished();
}

void SessionController::cancelDetails() {
    if (details_ != Details::Running) return;
    sim_->cancel();
    details_ = Details::Cancelled;
    emit detailsCancelled();
}

void SessionController::computeDetails() {
    if (!set_ || details_ == Details::Running) return;
    startDetails();
    sim_->request(scenarios_->currentKnobs(), 0);
}

void SessionController::rememberRankViews(std::unique_ptr<QSettings> settings) {
    rankViews_ = std::make_unique<RankViewMemory>(std::move(settings));
}

void SessionController::storeRankView() {
    if (rankViews_ && set_ && !paths_.isEmpty() && tracks_->matches(*set_))
        rankViews_->store(paths_, tracks_->ranks(), tracks_->rankView());
}

SessionController::~SessionController() {
    storeRankView();
}

void SessionController::showLoaded(std::shared_ptr<const TraceSet> set, const QStringList& paths,
                                   const Session* session, std::shared_ptr<const TimelineData> measured) {
    // Re-loading the same traces keeps the track tree as the user arranged it.
    const bool same = !paths.isEmpty() && paths == paths_ && set_;
    const std::vector<TrackState::RankState> keep =
        same ? tracks_->ranks() : std::vector<TrackState::RankState>{};
    const TrackState::RankView keepView = tracks_->rankView();
    if (!same) storeRankView(); // the set shown until now, before its state goes
    // The switch is one step. First everything that reads the old set's tracks lets go of it: the
    // simulation worker (its late results are dropped by generation), the selection and the views.
    // Only then is the track state rebuilt for the new set (its change signal reaches views that hold
    // nothing), and only then do the views take the new set. Nothing in between reads one set's tracks
    // through the other's state.
    switching_ = true;
    sim_->setTraceSet(nullptr);
    selection_->clearEvent();
    selection_->clearRange();
    highlights_->clear();
    emit aboutToSwitch();
    simulation_ = {};
    details_ = Details::None; // the old set's, stopped with its simulation above

    set_ = std::move(set);
    measured_ =
        measured && &measured->set() == set_.get() ? std::move(measured) : TimelineData::measured(set_);
    tracks_->reset(*set_);
    if (!keep.empty()) {
        tracks_->restore(keep);
        tracks_->setRankView(keepView);
    } else if (std::vector<TrackState::RankState> ranks; !session && rankViews_) {
        // Opened again without a session: as it was left (docs/ManyRanks.md, "Saved").
        TrackState::RankView view;
        if (rankViews_->recall(paths, ranks, view)) {
            tracks_->restore(ranks);
            tracks_->setRankView(view);
        }
    }
    emit switched(set_, measured_);
    // Before a session's scenarios are restored: they are shown against this set.
    scenarios_->setTraceSet(set_, measured_);
    // dp.degree adds whole replicas of tp x pp ranks: the straggler rank may name any of them.
    knobs_->setJobLayout(recognizeStructure(*set_, nullptr, false));
    if (session) {
        // Set without the change signal: the request below simulates them once.
        const QSignalBlocker block(knobs_);
        scenarios_->restore(session->scenarios, session->currentScenario, session->knobs);
    }
    sim_->setTraceSet(set_);
    if (autoSimulate_) sim_->request(scenarios_->currentKnobs(), 0);
    view_->setScrollY(0);
    view_->setBounds(measured_->start(), measured_->end());
    paths_ = paths;
    if (session) applyViewState(*session);
    if (session) comparison_->restore(session->comparison);
    // Notes belong to the traces they were made on: another set starts without them.
    if (session) {
        const QString bad =
            annotations_->fromJson(session->annotations, static_cast<int>(set_->ranks.size()));
        if (!bad.isEmpty())
            emit message(tr("Session notes left out: %1").arg(bad), MessageBar::Level::Warning);
    } else if (!same) {
        annotations_->clear();
    }
    if (!paths.isEmpty()) {
        rememberDir(paths[0]);
        // Other traces: Save asks where (the old session file is not theirs).
        if (!same) sessionPath_.clear();
    }
    // Still switching: the views laid out for the new set (the timeline page shown) are no edit.
    emit shown(paths);
    switching_ = false;
    setModified(false);
    const Sample sample = paths.size() == 1 ? sampleFor(paths[0]) : Sample{};
    if (!set_->warnings.empty()) {
        emit message(tr("Loaded with %n warning(s) (all in the Warnings panel): ", nullptr,
                        static_cast<int>(set_->warnings.size())) +
                         QString::fromStdString(set_->warnings.front().text),
                     MessageBar::Level::Warning);
    } else if (!sample.lookAt.isEmpty()) {
        // A bundled sample says what to look at.
        emit message(tr("Sample %1: %2").arg(sample.name, sample.lookAt), MessageBar::Level::Info);
    } else {
        emit message({}, MessageBar::Level::Info);
    }
    // The timeline is shown; the details follow in the background (the request above).
    if (autoSimulate_) startDetails();
}

void SessionController::showSimulation(const SimOutput& output) {
    if (!set_ || !output.timeline || &output.timeline->set() != set_.get()) return;
    simulation_ = output;
    fitBounds();
    // The views first: the scenarios then label the simulated pane with the scenario shown.
    emit simulationShown(output);
    highlights_->setSimulation(output);
    // Not while a newer request waits: the knobs in the panel are then not the ones simulated.
    if (!sim_->busy()) scenarios_->simulationShown(output);
    endDetails();
    if (!output.result->warnings.empty())
        emit message(tr("Simulation: %1").arg(QString::fromStdString(output.result->warnings.front().text)),
                     MessageBar::Level::Info);
}

void SessionController::fitBounds() {
    // Fit All (Home) and panning reach every pane's end: a what-if or a comparison run longer than
    // the measured trace is not cut where the measured trace ends.
    if (!measured_) return;
    TimeNs start = measured_->start(), end = measured_->end();
    const auto cover = [&](const std::shared_ptr<const TimelineData>& t) {
        if (!t) return;
        start = std::min(start, t->start());
        end = std::max(end, t->end());
    };
    if (simulation_.timeline && &simulation_.timeline->set() == set_.get()) cover(simulation_.timeline);
    if (const auto& run = comparison_->run()) cover(run->timeline);
    // A view of everything (no zoom yet, or Home) stays a view of everything: a dp x32 what-if
    // opened with --set shows its 21.6 ms, not the measured 19 ms. A zoomed view stays where it is.
    const bool showsAll =
        view_->windowStart() <= view_->boundsStart() && view_->windowEnd() >= view_->boundsEnd();
    const bool changed = start != view_->boundsStart() || end != view_->boundsEnd();
    view_->setBoundsKeepingWindow(start, end);
    if (showsAll && changed) navigate([this] { view_->fitAll(); });
}

Session SessionController::currentSession() const {
    if (sandbox_) return sandbox_->user;
    Session s;
    s.traces = paths_;
    s.knobs = scenarios_->currentKnobs();
    s.scenarios = scenarios_->list()->scenarios();
    s.currentScenario = scenarios_->list()->current();
    if (set_) {
        s.tracks = tracks_->ranks();
        s.hasRankView = true;
        s.rankView = tracks_->rankView();
        s.hasView = true;
        s.viewStart = view_->windowStart();
        s.viewEnd = view_->windowEnd();
        s.scrollY = view_->scrollY();
    }
    s.criticalPath = highlights_->criticalPath();
    s.exposed = highlights_->exposed();
    s.arrows = highlights_->arrows();
    s.annotations = annotations_->toJson();
    s.comparison = comparison_->paths();
    return s;
}

QString SessionController::openSession(const QString& path, bool adopt) {
    Session session;
    const QString error = readSessionFile(path, session);
    if (!error.isEmpty()) {
        emit message(tr("Could not open session: %1").arg(error), MessageBar::Level::Error);
        return error;
    }
    applySession(session, adopt ? QFileInfo(path).absoluteFilePath() : QString());
    return {};
}

void SessionController::applySession(const Session& session, const QString& path) {
    if (!session.traces.isEmpty() && (session.traces != paths_ || !set_)) {
        // Nothing changes until the traces have loaded; a failed load leaves all as it was.
        pending_ = PendingSession{session, path, false};
        startLoad(session.traces, tr("Loading session..."));
        return;
    }
    scenarios_->restore(session.scenarios, session.currentScenario, session.knobs);
    if (set_) applyViewState(session);
    if (set_ && session.comparison != comparison_->paths()) {
        comparison_->close();
        comparison_->restore(session.comparison);
    }
    highlights_->setCriticalPath(session.criticalPath);
    highlights_->setExposed(session.exposed);
    highlights_->setArrows(session.arrows);
    if (!path.isEmpty()) sessionPath_ = path;
    setModified(false);
}

QString SessionController::restoreRecovered() {
    if (!autosave_ || !autosave_->recoverable()) return tr("No session to recover");
    Session session;
    const QString error = readSessionFile(autosave_->recoveredPath(), session);
    if (!error.isEmpty()) {
        // Unreadable: nothing to restore, and nothing to offer again.
        autosave_->dropRecovered();
        emit message(tr("Could not restore the last session: %1").arg(error), MessageBar::Level::Error);
        return error;
    }
    applySession(session);
    if (pending_)
        pending_->recovered = true; // its traces load first; recovered() when they have
    else
        recovered();
    return {};
}

void SessionController::declineRecovered() {
    if (autosave_) autosave_->dropRecovered();
}

void SessionController::recovered() {
    // The file goes only now that its session is shown (a failed load offers it again next start),
    // and the session shown is unsaved work: the title says so and closing asks.
    autosave_->dropRecovered();
    markDirty();
}

void SessionController::applyViewState(const Session& session) {
    if (!session.tracks.empty() && !tracks_->restore(session.tracks))
        emit message(tr("The session's track layout does not match these traces in part; "
                        "the rest keeps the default layout."),
                     MessageBar::Level::Warning);
    if (session.hasRankView) tracks_->setRankView(session.rankView);
    highlights_->setCriticalPath(session.criticalPath);
    highlights_->setExposed(session.exposed);
    highlights_->setArrows(session.arrows);
    if (session.hasView) {
        view_->setWindow(session.viewStart, session.viewEnd);
        view_->setScrollY(session.scrollY);
    }
}

QString SessionController::saveSession(const QString& path) {
    const QString target = path.isEmpty() ? sessionPath_ : path;
    if (target.isEmpty()) return tr("No session file chosen");
    const QString error = writeSessionFile(target, currentSession());
    if (!error.isEmpty()) {
        emit message(tr("Could not save the session: %1").arg(error), MessageBar::Level::Error);
        return error;
    }
    sessionPath_ = QFileInfo(target).absoluteFilePath();
    setModified(false);
    emit saved(sessionPath_);
    return {};
}

void SessionController::enableAutosave(const QString& dir, int intervalMs) {
    if (autosave_) return;
    autosave_ = new Autosave([this] { return currentSession(); }, dir, intervalMs, this);
    connect(autosave_, &Autosave::failed, this, [this](const QString& error) {
        emit message(tr("Autosave failed: %1").arg(error), MessageBar::Level::Warning);
    });
    autosave_->start();
}

void SessionController::navigate(const std::function<void()>& move) {
    const QScopedValueRollback guard(navigating_, true);
    move();
}

void SessionController::markDirty() {
    if (sandbox_) return; // a lesson's edits are not the user's work
    if (autosave_) autosave_->markDirty();
    if (set_ && !switching_ && !navigating_ && !modified_) {
        modified_ = true;
        emit titleChanged();
    }
}

void SessionController::setModified(bool modified) {
    if (sandbox_) return; // the flag is the user's session's, put aside with it
    modified_ = modified;
    emit titleChanged();
}

QString SessionController::title() const {
    // The session's name when there is one, else the traces' (with their folder: sets are often all
    // called "kineto").
    QString name;
    if (!sessionPath_.isEmpty()) {
        name = QFileInfo(sessionPath_).fileName();
    } else if (!paths_.isEmpty()) {
        const QFileInfo first(paths_[0]);
        name = first.absoluteDir().dirName() + QLatin1Char('/') + first.fileName();
        if (paths_.size() > 1) name += tr(" and %1 more").arg(paths_.size() - 1);
    }
    return name.isEmpty() ? tr("Sightline") : tr("%1[*] - Sightline").arg(name);
}

QString SessionController::statusText() const {
    if (!set_) return tr("No trace loaded");
    QString text = tr("%1 ranks, %2 events  |  window %3")
                       .arg(set_->ranks.size())
                       .arg(set_->eventCount())
                       .arg(formatDuration(view_->windowDuration()));
    if (!simulation_.result) return text;
    const SimResult& r = *simulation_.result;
    const double change = r.measuredIteration > 0
                              ? 100.0 * static_cast<double>(r.simulatedIteration - r.measuredIteration) /
                                    static_cast<double>(r.measuredIteration)
                              : 0.0;
    text += tr("  |  iteration: measured %1, simulated %2 (%3)")
                .arg(formatDuration(r.measuredIteration), formatDuration(r.simulatedIteration),
                     formatChangePct(change));
    // The GPU span too: the iteration alone can hide drift on the GPU. Simulated over the ranks of
    // the simulated job: the loaded ranks an edit kept and those it added (a straggler among the
    // added ranks is the longest; docs/AddedRanks.md).
    TimeNs gpuMeasured = 0, gpuSimulated = 0;
    for (std::size_t i = 0; i < r.ranks.size(); ++i) {
        const RankSimSummary& rank = r.ranks[i];
        gpuMeasured = std::max(gpuMeasured, rank.measuredGpuEnd - rank.measuredGpuStart);
        if (!r.setup.isDropped(i))
            gpuSimulated = std::max(gpuSimulated, rank.simulatedGpuEnd - rank.simulatedGpuStart);
    }
    for (const RankSimSummary& rank : r.addedRanks.summary)
        gpuSimulated = std::max(gpuSimulated, rank.simulatedGpuEnd - rank.simulatedGpuStart);
    if (gpuMeasured > 0)
        text += tr("  |  GPU span %1 -> %2").arg(formatDuration(gpuMeasured), formatDuration(gpuSimulated));
    text += tr("  |  simulated in %1 ms").arg(simulation_.seconds * 1000.0, 0, 'f', 0);
    return text;
}

} // namespace sl::ui
