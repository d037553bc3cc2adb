#pragma once
// The session's comparison run (docs/Compare.md, "In the desktop program"): File > Open Comparison Run,
// a saved session or --compare name a second measured run of the open program; it loads and is
// compared with the open run off the UI thread (ComparisonRun.h) once the open run's graph is built,
// and stays until another set opens or it is closed. Each simulation shown is held against it (the
// result card's prediction line). Sessions save its paths; a session whose run is missing says so in
// one line and opens without it. The load runs as the controller's BackgroundJob: closing the run
// (or the window) cancels it, and the loader stops at its next piece.
#include "BackgroundJob.h"
#include "ComparisonRun.h"

#include <QObject>
#include <QStringList>

#include <memory>

namespace sl::ui {

class SessionController;

class ComparisonController : public QObject {
    Q_OBJECT
public:
    explicit ComparisonController(SessionController* session);

    // Opens the run at `paths` (files, or one folder) as the comparison run; tables: also show its
    // tables (the window of File > Open Comparison Run). Waits for the open run's graph if needed.
    void open(const QStringList& paths, bool tables = true);
    // The same, at once on this thread (screenshots, tests): empty when shown, else the one-line error.
    QString openNow(const QStringList& paths);
    // A saved session's comparison run: opened when its files are there, else one line says which
    // one is missing and the rest of the session stays.
    void restore(const QStringList& paths);
    void close();

    // The run open, loading or waiting (what a session saves); empty: none.
    const QStringList& paths() const { return paths_; }
    // The run shown (null: none, or still loading).
    const std::shared_ptr<const ComparisonRun>& run() const { return run_; }
    bool busy() const { return job_.busy() || waiting_; }
    // Whether the lower pane shows the run (not the simulation): pictures of the timeline follow.
    void setInPane(bool on) { inPane_ = on; }
    bool inPane() const { return run_ && inPane_; }
    // The result card's line for the simulation shown (ComparisonRun::predictionLine).
    const QString& predictionLine() const { return prediction_; }

signals:
    void shown(std::shared_ptr<const sl::ui::ComparisonRun> run, bool tables);
    void cleared();
    void predictionChanged(QString line);
    // Loading ended (shown or failed).
    void finished();

private:
    void start();
    void present(std::shared_ptr<const ComparisonRun> run, bool tables);
    void updatePrediction();

    SessionController* session_;
    QStringList paths_;
    std::shared_ptr<const ComparisonRun> run_;
    QString prediction_;
    bool tables_ = true;
    bool inPane_ = true;
    bool waiting_ = false; // for the open run's graph
    BackgroundJob job_;    // the load; a newer one or close() drops the older's result
};

} // namespace sl::ui
