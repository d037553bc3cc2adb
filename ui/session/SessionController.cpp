#include "SessionController.h"

#include "io/KinetoLoader.h"

#include "Annotations.h"
#include "ComparisonController.h"
#include "DialogDir.h"
#include "EtAttach.h"
#include "HighlightModel.h"
#include "RankViewMemory.h"
#include "Samples.h"
#include "ScenarioController.h"
#include "Selection.h"
#include "SessionDocument.h"
#include "SimulationDriver.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "ViewController.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace sl::ui {

SessionController::SessionController(QObject* parent)
    : QObject(parent), view_(new ViewController(this)), selection_(new SelectionModel(this)),
      tracks_(new TrackState(this)), highlights_(new HighlightModel(selection_, this)),
      annotations_(new AnnotationModel(this)), loader_(new TraceLoader(this)) {
    // The simulations before the parts that follow them (the comparison run); the document last: it
    // watches the parts for edits.
    driver_ = new SimulationDriver(this);
    etAttach_ = new EtAttach(this);
    comparison_ = new ComparisonController(this);
    reportJob_ = new BackgroundJob(this);
    document_ = new SessionDocument(this);
    connect(document_, &SessionDocument::message, this, &SessionController::message);
    connect(driver_, &SimulationDriver::message, this, &SessionController::message);
    view_->setObjectName(QStringLiteral("viewController"));
    selection_->setObjectName(QStringLiteral("selection"));
    tracks_->setObjectName(QStringLiteral("trackState"));
    highlights_->setObjectName(QStringLiteral("highlights"));
    annotations_->setObjectName(QStringLiteral("annotations"));
    connect(loader_, &TraceLoader::loaded, this,
            [this](std::shared_ptr<const TraceSet> set, QStringList paths,
                   std::shared_ptr<const TimelineData> measured) {
                emit loadingChanged(false);
                std::optional<PendingSession> pending;
                if (pending_ && pending_->session.traces == paths) pending = std::move(pending_);
                pending_.reset();
                failed_.reset();
                showLoaded(std::move(set), paths, pending ? &pending->session : nullptr, std::move(measured));
                if (pending && !pending->path.isEmpty()) document_->setSessionPath(pending->path);
                if (pending) document_->setModified(false); // else as showLoaded decided
                if (pending && pending->arrival == Arrival::Recovered) document_->recovered();
                if (pending && pending->arrival == Arrival::Modified) document_->markDirty();
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
        const Session keep = document_->currentSession();
        showLoaded(std::move(set), paths_, &keep);
        emit message(text, MessageBar::Level::Info);
    });
    connect(etAttach_, &EtAttach::failed, this,
            [this](const QString& error) { emit message(error, MessageBar::Level::Error); });
    connect(comparison_, &ComparisonController::shown, this, &SessionController::fitBounds);
    connect(comparison_, &ComparisonController::cleared, this, &SessionController::fitBounds);
}

void SessionController::setScenarios(ScenarioController* scenarios, KnobPanel* knobs) {
    scenarios_ = scenarios;
    knobs_ = knobs;
    connect(scenarios_, &ScenarioController::modified, document_, &SessionDocument::markScenariosDirty);
    driver_->followScenarios();
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
    const bool unsavedBefore = document_->scenariosUnsaved();
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
    driver_->letGo();
    selection_->clearEvent();
    selection_->clearRange();
    highlights_->clear();
    emit aboutToSwitch();
    set_ = std::move(set);
    measured_ =
        measured && &measured->set() == set_.get() ? std::move(measured) : TimelineData::measured(set_);
    driver_->setTraceSet(set_, measured_);
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
    if (session) scenarios_->restore(session->scenarios, session->currentScenario, session->knobs);
    driver_->simulate();
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
        if (!same) document_->setSessionPath({});
    }
    // Still switching: the views laid out for the new set (the timeline page shown) are no edit.
    emit shown(paths);
    switching_ = false;
    // Unsaved what-if scenarios follow to the new set unsaved (closing asks); saved ones, clean.
    document_->setModified(!session && unsavedBefore && scenarios_->list()->count() > 1);
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
    driver_->startDetails();
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
    cover(simulation().timeline); // the model holds only the open set's runs
    if (const auto& run = comparison_->run()) cover(run->timeline);
    // A view of everything (no zoom yet, or Home) stays a view of everything: a dp x32 what-if
    // opened with --set shows its 21.6 ms, not the measured 19 ms. A zoomed view stays where it is.
    const bool showsAll =
        view_->windowStart() <= view_->boundsStart() && view_->windowEnd() >= view_->boundsEnd();
    const bool changed = start != view_->boundsStart() || end != view_->boundsEnd();
    view_->setBoundsKeepingWindow(start, end);
    if (showsAll && changed) document_->navigate([this] { view_->fitAll(); });
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

bool SessionController::applySession(const Session& session, const QString& path, Arrival arrival) {
    if (!session.traces.isEmpty() && (session.traces != paths_ || !set_)) {
        // Nothing changes until the traces have loaded; a failed load leaves all as it was.
        pending_ = PendingSession{session, path, arrival};
        startLoad(session.traces, tr("Loading session..."));
        return true;
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
    if (!path.isEmpty()) document_->setSessionPath(path);
    document_->setModified(false);
    return false;
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

} // namespace sl::ui
