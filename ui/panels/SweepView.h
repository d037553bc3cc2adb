#pragma once
// The sweep view (docs/WhatIfWorkbench.md, "Sweep"): the GUI's counterpart of `sightline-cli sweep`.
// Pick a knob of the registry and a list of values; every value is simulated on top of the current
// scenario's knobs by the core's sweep (analysis/Sweep.h) as a background job (BackgroundJob.h), with
// progress and cancel, and a line chart shows the iteration and the exposed communication (mean
// over the ranks of the simulated job, as `sweep` prints it: analysis/JobExposedComm.h) against the
// value; a knob that changes the work per step adds the throughput against the first value with its
// ideal line on a right axis (docs/Scaling.md). A newer run supersedes an older one by generation
// number (ChartJobPanel.h: the job, Cancel, the status line and the chart).
#include "ChartJobPanel.h"

#include "analysis/Breakdown.h"
#include "analysis/Throughput.h"
#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLineEdit;
class QPushButton;

namespace sl {
struct SweepRun;
}

namespace sl::ui {

class SimulationModel;

struct SweepPoint {
    double value = 0;
    TimeNs iteration = 0;     // simulated
    double exposedMeanUs = 0; // exposed communication, mean over the simulated job's ranks
    StepWork work;            // what the step does (analysis/Throughput.h): samples, GPUs, layers
    bool done = false;
    QString error; // why the simulator refused the value (one line); empty when done or cancelled
};

// Throughput of every done point against the one with the smallest value (docs/Scaling.md); empty
// unless the knob changes the work per step (dp.degree, pp.microbatches, model.layers), or `always`
// (the batch is given, so samples/s mean something at every value), and two points are done.
// Sorted by value, parallel to the done points.
std::vector<std::pair<double, Throughput>> sweepThroughput(const std::vector<SweepPoint>& points,
                                                           bool always = false);

class SweepView : public ChartJobPanel {
    Q_OBJECT
public:
    // The plot's height the window gives the Sweep tab when it is in front (docs/MainWindow.md).
    static constexpr int kPlotHeight = 240;
    explicit SweepView(QWidget* parent = nullptr);
    // The graph to sweep on and its trace set, kept alive while points run (null: nothing to
    // sweep), and the knobs the values are set on top of.
    void setGraph(std::shared_ptr<const TraceSet> set, std::shared_ptr<const ExecutionGraph> graph);
    void setBaseKnobs(const SimKnobs& knobs) { base_ = knobs; }
    // Follows the runs the model shows: their graph, and the knobs the shown run ran with.
    void followSimulation(const SimulationModel* model);
    // Starts a sweep of key over values; false (and a message) for an unknown key or bad value.
    bool run(const QString& key, const std::vector<double>& values);
    const std::vector<SweepPoint>& points() const { return points_; }
    QComboBox* knobBox() const { return knob_; }
    QLineEdit* valuesEdit() const { return values_; }

private:
    void startFromFields();
    static SweepPoint pointOf(double value, const SweepRun& run);
    void pointDone(std::size_t i, const SweepPoint& p);
    void sweepDone(std::vector<SweepPoint> points);
    void redraw();

    std::shared_ptr<const TraceSet> set_;
    std::shared_ptr<const ExecutionGraph> graph_;
    SimKnobs base_;
    std::vector<SweepPoint> points_;
    QString key_;
    QComboBox* knob_;
    QLineEdit* values_;
    QPushButton* run_;
};

} // namespace sl::ui
