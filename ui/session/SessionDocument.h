#pragma once
// The session as a document (docs/MainWindow.md, "Never losing work"): what a session file holds,
// read from the parts of the SessionController (the traces, the scenarios and their knobs, the view,
// the highlight toggles, the notes, the comparison run), the file it is saved to, the crash-safe
// autosave, the modified flag (which edits mark it) and a lesson's sandbox. The SessionController
// loads and shows sets; this keeps what of it is work.
#include "MessageBar.h"
#include "Session.h"
#include "trace/Time.h"

#include <QObject>
#include <QString>

#include <array>
#include <functional>
#include <optional>
#include <utility>

namespace sl::ui {

class Autosave;
class SessionController;

class SessionDocument : public QObject {
    Q_OBJECT
public:
    // Watches the session's parts for edits (the controller's parts exist already).
    explicit SessionDocument(SessionController* session);

    // What Save writes (the user's session, during a lesson).
    Session currentSession() const;
    // Writes the session (atomically); empty path: the session's own path. Empty on success.
    QString saveSession(const QString& path = {});
    const QString& sessionPath() const { return path_; }
    // The file a later save writes to (a session opened or loaded; empty: other traces, Save asks).
    void setSessionPath(const QString& path) { path_ = path; }

    // Starts the crash-safe autosave (dir empty: AppDataLocation).
    void enableAutosave(const QString& dir = {}, int intervalMs = 30'000);
    Autosave* autosave() const { return autosave_; }
    // The session a crashed run left (Autosave::recoverable()): restore it (as unsaved work, no
    // session file of its own; empty on success or load started, else the error) or decline it.
    // Either way it is no longer offered, once it is shown or declined.
    QString restoreRecovered();
    void declineRecovered();
    // The recovered session is shown (its traces loaded): the file goes, the session is unsaved work.
    void recovered();

    // A user edit of the session: the autosave is armed and the window shows it modified.
    void markDirty();
    // Runs `move`, a change of the view the program makes for the user (the critical path key
    // scrolling to the rank that holds the path): what it changes is saved, but it is no edit.
    void navigate(const std::function<void()>& move);
    bool modified() const { return modified_; }
    void setModified(bool modified);
    // A scenario edit: markDirty, remembered until the session is saved or replaced, so what-ifs
    // carried over to another set stay unsaved work there (SessionController::showLoaded).
    void markScenariosDirty();
    bool scenariosUnsaved() const { return scenariosUnsaved_; }

    // A lesson's sandbox (docs/Lessons.md, "Sandbox"): beginSandbox() puts the user's session aside
    // (scenarios, knobs, view, highlights, traces, file, modified flag) and gives the lesson an empty
    // scenario list; until endSandbox() brings the user's session back, nothing the lesson does marks
    // the session modified or reaches the autosave, and Save writes the user's session.
    void beginSandbox();
    void endSandbox();
    bool sandboxed() const { return sandbox_.has_value(); }

signals:
    // The title or the modified flag changed.
    void titleChanged();
    void saved(QString path);
    void message(QString text, sl::ui::MessageBar::Level level);

private:
    SessionController* session_;
    QString path_;
    Autosave* autosave_ = nullptr;
    // The user's session while a lesson runs.
    struct Sandbox {
        Session user;
        QString path;
        bool modified = false;
    };
    std::optional<Sandbox> sandbox_;
    // An edit made now is the user's work (not a lesson's, a switch of sets or a navigation).
    bool editCounts() const;
    bool modified_ = false;
    bool scenariosUnsaved_ = false;
    bool navigating_ = false;            // inside navigate()
    std::array<bool, 3> toggles_{};      // critical path, exposed, arrows as last seen
    std::pair<TimeNs, TimeNs> window_{}; // the view's time window as last seen
};

} // namespace sl::ui
