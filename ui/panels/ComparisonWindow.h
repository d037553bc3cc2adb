#pragma once
// File > Open Comparison Run... (docs/Compare.md): a second measured run of the open program,
// compared op by op with the open one (analysis/RunComparison.h), and the current scenario's
// prediction held against it (analysis/PredictionCheck.h). A window of its own with the verdict, the
// alignment and noise, and sortable tables (ranks, kernel classes, kernels, CPU ops, predicted vs
// actual); Save Report writes the HTML / CSV / JSON of `sightline-cli compare`. Loading and
// comparing run off the UI thread (ComparisonRun.h), as the window's BackgroundJob. In the main window it
// shows the tables of the comparison run in the lower pane, and a chosen row jumps to its op in both panes.
#include "BackgroundJob.h"
#include "ComparisonRun.h"

#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"
#include "trace/TraceSet.h"

#include <nlohmann/json.hpp>

#include <QStringList>
#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace sl::ui {

class ComparisonWindow : public QWidget {
    Q_OBJECT
public:
    // The open run (its graph and the current scenario's simulation of it, with its knobs) against
    // the run at `paths` (files, or one folder of per-rank files).
    ComparisonWindow(std::shared_ptr<const ExecutionGraph> graph, std::shared_ptr<const SimResult> simulation,
                     const SimKnobs& knobs, QStringList openPaths, QStringList paths,
                     QWidget* parent = nullptr);

    // The tables of a run already compared (the main window's comparison run).
    explicit ComparisonWindow(std::shared_ptr<const ComparisonRun> run, QWidget* parent = nullptr);

    // Asks for the comparison run's files (empty: cancelled); says why in a message box when
    // nothing is open to compare with yet (`ready`: a set is open and its details are finished).
    static QStringList askPaths(QWidget* parent, bool ready);
    // What the main window's Comparison tab shows while no run's tables are in it.
    static QWidget* placeholder(QWidget* parent);
    // The comparison shown (null until finished).
    const std::shared_ptr<const ComparisonRun>& run() const { return run_; }

    bool finished() const { return finished_; }
    // The comparisonJson() object (null until finished, or on an error).
    const nlohmann::json& report() const { return report_; }
    // The one-line error when the run could not be loaded or compared; empty otherwise.
    const QString& error() const { return error_; }
    QTabWidget* tabs() const { return tabs_; }
    QTableWidget* table(const QString& tabName) const;
    QString verdictText() const;
    // Writes the report (.html, .csv or .json by suffix): empty on success, else the error.
    QString saveReport(const QString& path) const;

signals:
    void done();
    // Closed by the user (its Close button, or the window's close): the main window's tab goes.
    void closed();
    // A table row was chosen: the tab's name and the row's first column (ComparisonRun::jumpTo).
    void jumpRequested(QString tab, QString key);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    ComparisonWindow(QStringList openPaths, QStringList paths, QWidget* parent);
    void present(std::shared_ptr<const ComparisonRun> run);

    QStringList openPaths_, paths_;
    QLabel* verdict_ = nullptr;
    QLabel* note_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QPushButton* save_ = nullptr;
    std::shared_ptr<const ComparisonRun> run_;
    nlohmann::json report_;
    QString error_;
    bool finished_ = false;
    BackgroundJob job_; // the load and comparison (the first constructor)
};

} // namespace sl::ui
