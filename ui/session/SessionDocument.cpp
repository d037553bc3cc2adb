#include "SessionDocument.h"

#include "Annotations.h"
#include "Autosave.h"
#include "ComparisonController.h"
#include "HighlightModel.h"
#include "Scenario.h"
#include "ScenarioController.h"
#include "SessionController.h"
#include "TrackState.h"
#include "ViewController.h"

#include <QFileInfo>
#include <QScopedValueRollback>

namespace sl::ui {

SessionDocument::SessionDocument(SessionController* session) : QObject(session), session_(session) {
    SessionController* s = session_;
    // A note or bookmark is work to keep (sessions, autosave), but restoring one is not an edit.
    connect(s->annotations(), &AnnotationModel::changed, this, [this, s] {
        if (!s->switching() && s->traceSet()) markDirty();
    });
    // The exposed-communication lanes follow the toggle (E): a way of looking, not an edit of the tracks.
    connect(s->highlights(), &HighlightModel::exposedChanged, this,
            [this, s](bool on) { navigate([&] { s->tracks()->setExposedLanes(on); }); });
    // Edits of the view state are edits of the session.
    connect(s->tracks(), &TrackState::changed, this, &SessionDocument::markDirty);
    // Only a new time window is an edit: a resize (maximising the window, a dock dragged) changes
    // the viewport's width and with it the mapping, not the window a session saves.
    connect(s->view(), &ViewController::windowChanged, this, [this, s] {
        const std::pair<TimeNs, TimeNs> window{s->view()->windowStart(), s->view()->windowEnd()};
        if (window == window_) return;
        window_ = window;
        markDirty();
    });
    // Scrolling is a way of looking (it also follows the rows when a toggle adds lanes): saved, no edit.
    connect(s->view(), &ViewController::scrollYChanged, this, [this] {
        navigate([this] { markDirty(); }); // saved, autosaved, no edit
    });
    // Of the highlights only the toggles are the session's (a new simulation or selection also
    // changes the model). A toggle is a way of looking, no edit: saved (and autosaved) with the
    // session, but the window is not marked modified for it.
    HighlightModel* h = s->highlights();
    toggles_ = {h->criticalPath(), h->exposed(), h->arrows()};
    connect(h, &HighlightModel::changed, this, [this, h] {
        const std::array<bool, 3> now{h->criticalPath(), h->exposed(), h->arrows()};
        if (now == toggles_) return;
        toggles_ = now;
        navigate([this] { markDirty(); }); // saved, autosaved, no edit
    });
}

Session SessionDocument::currentSession() const {
    if (sandbox_) return sandbox_->user;
    const SessionController* c = session_;
    Session s;
    s.traces = c->tracePaths();
    s.knobs = c->scenarios()->currentKnobs();
    s.scenarios = c->scenarios()->list()->scenarios();
    s.currentScenario = c->scenarios()->list()->current();
    if (c->traceSet()) {
        s.tracks = c->tracks()->ranks();
        s.hasRankView = true;
        s.rankView = c->tracks()->rankView();
        s.hasView = true;
        s.viewStart = c->view()->windowStart();
        s.viewEnd = c->view()->windowEnd();
        s.scrollY = c->view()->scrollY();
    }
    s.criticalPath = c->highlights()->criticalPath();
    s.exposed = c->highlights()->exposed();
    s.arrows = c->highlights()->arrows();
    s.annotations = c->annotations()->toJson();
    s.comparison = c->comparison()->paths();
    return s;
}

QString SessionDocument::saveSession(const QString& path) {
    const QString target = path.isEmpty() ? path_ : path;
    if (target.isEmpty()) return tr("No session file chosen");
    const QString error = writeSessionFile(target, currentSession());
    if (!error.isEmpty()) {
        emit message(tr("Could not save the session: %1").arg(error), MessageBar::Level::Error);
        return error;
    }
    path_ = QFileInfo(target).absoluteFilePath();
    setModified(false);
    emit saved(path_);
    return {};
}

void SessionDocument::enableAutosave(const QString& dir, int intervalMs) {
    if (autosave_) return;
    autosave_ = new Autosave([this] { return currentSession(); }, dir, intervalMs, this);
    connect(autosave_, &Autosave::failed, this, [this](const QString& error) {
        emit message(tr("Autosave failed: %1").arg(error), MessageBar::Level::Warning);
    });
    autosave_->start();
}

QString SessionDocument::restoreRecovered() {
    if (!autosave_ || !autosave_->recoverable()) return tr("No session to recover");
    Session session;
    const QString error = readSessionFile(autosave_->recoveredPath(), session);
    if (!error.isEmpty()) {
        // Unreadable: nothing to restore, and nothing to offer again.
        autosave_->dropRecovered();
        emit message(tr("Could not restore the last session: %1").arg(error), MessageBar::Level::Error);
        return error;
    }
    // Its traces load first when they are not open: recovered() once they have.
    if (!session_->applySession(session, {}, SessionController::Arrival::Recovered)) recovered();
    return {};
}

void SessionDocument::declineRecovered() {
    if (autosave_) autosave_->dropRecovered();
}

void SessionDocument::recovered() {
    // The file goes only now that its session is shown (a failed load offers it again next start),
    // and the session shown is unsaved work: the title says so and closing asks.
    autosave_->dropRecovered();
    markDirty();
}

void SessionDocument::navigate(const std::function<void()>& move) {
    const QScopedValueRollback guard(navigating_, true);
    move();
}

bool SessionDocument::editCounts() const {
    return !sandbox_ && session_->traceSet() && !session_->switching() && !navigating_;
}

void SessionDocument::markDirty() {
    if (sandbox_) return; // a lesson's edits are not the user's work
    if (autosave_) autosave_->markDirty();
    if (editCounts() && !modified_) {
        modified_ = true;
        emit titleChanged();
    }
}

void SessionDocument::markScenariosDirty() {
    markDirty();
    if (editCounts()) scenariosUnsaved_ = true;
}

void SessionDocument::setModified(bool modified) {
    if (sandbox_) return; // the flag is the user's session's, put aside with it
    modified_ = modified;
    if (!modified) scenariosUnsaved_ = false;
    emit titleChanged();
}

void SessionDocument::beginSandbox() {
    if (sandbox_) return;
    sandbox_ = Sandbox{currentSession(), path_, modified_};
    // The lesson starts from the replay, on a list of its own.
    session_->scenarios()->restore({}, 0, SimKnobs{});
}

void SessionDocument::endSandbox() {
    if (!sandbox_) return;
    const Sandbox kept = std::move(*sandbox_);
    sandbox_.reset();
    if (kept.user.traces.isEmpty()) {
        // Nothing was open before the lesson: its trace stays, without the lesson's scenarios.
        session_->scenarios()->restore({}, 0, SimKnobs{});
        setModified(false);
        return;
    }
    // The traces load first when the lesson opened others; the flag comes back then.
    if (session_->applySession(kept.user, kept.path,
                               kept.modified ? SessionController::Arrival::Modified
                                             : SessionController::Arrival::Saved))
        return;
    setModified(kept.modified);
}

} // namespace sl::ui
