#pragma once
#include "Session.h"

#include <QObject>
#include <QString>

#include <functional>

class QTimer;

namespace sl::ui {

// A crash-safe autosave of the session. While the program runs, a marker file says so; markDirty()
// arms a timer that writes the session (atomically) when it fires. A clean finish() writes the last
// session and removes the marker, so a marker found at start() means the previous run did not end
// cleanly and its autosave may be restored (recoverable()).
class Autosave : public QObject {
    Q_OBJECT
public:
    // dir: where the files live (empty: QStandardPaths::AppDataLocation).
    explicit Autosave(std::function<Session()> source, const QString& dir = {}, int intervalMs = 30'000,
                      QObject* parent = nullptr);
    ~Autosave() override;

    // Looks for the previous run's marker, then writes this run's.
    void start();
    // Writes the session now (when dirty) and removes the marker.
    void finish();
    // The program ends without the user's word (SIGTERM at log-out, docs/MainWindow.md "Never losing
    // work") while the session has unsaved changes: it is written and kept as the recovered session,
    // offered at the next start as unsaved work of a closed session, not as a crash.
    void finishKeepingWork();
    void markDirty();
    bool dirty() const { return dirty_; }
    // Writes the session now; empty on success, else the error.
    QString saveNow();

    // After start(): whether a run ended without finish() and left an autosave the user has not yet
    // restored or declined. start() moves a crashed run's autosave to recoveredPath(), so this run's
    // autosaves never overwrite it; it stays there, offered at every start, until dropRecovered().
    bool recoverable() const { return recoverable_; }
    // The recovered session was kept by finishKeepingWork() (the system closed the program), not
    // left by a crash.
    bool recoveredFromClose() const { return recoveredFromClose_; }
    // The user restored the recovered session (and it loaded) or declined it: the file goes.
    void dropRecovered();
    QString recoveredPath() const;
    QString sessionPath() const;
    QString markerPath() const;
    QString closedMarkerPath() const; // beside the recovered session kept by finishKeepingWork()

signals:
    void saved(QString path);
    void failed(QString message);

private:
    std::function<Session()> source_;
    QString dir_;
    QTimer* timer_;
    bool dirty_ = false;
    bool running_ = false;
    bool recoverable_ = false;
    bool recoveredFromClose_ = false;
};

} // namespace sl::ui
