#pragma once
// The plan view (docs/Layouts.md, "In the window"): the GUI's counterpart of `sightline-cli plan`.
// Give a GPU count (and, optionally, micro-batches per replica to try); every DP x TP x PP layout of
// it is predicted from the shown trace by the core's planner (analysis/LayoutPlan.h) as a
// background job, on top of the current scenario's knobs, with cancel. A bar chart shows each
// layout's tokens per second, best first, coloured by whether its GPU memory estimate fits; the
// table beside it gives step time, exposed communication, bubble and memory, and each row's tooltip
// what was modelled rather than measured.
#include "ChartJobPanel.h"
#include "LayoutPlanModel.h"

#include "graph/ExecutionGraph.h"
#include "sim/Knobs.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLineEdit;
class QPushButton;
class QTableView;

namespace sl::ui {

class SimulationModel;

class PlanView : public ChartJobPanel {
    Q_OBJECT
public:
    explicit PlanView(QWidget* parent = nullptr);
    // The graph to plan from and its trace set, kept alive while a plan runs (null: nothing to plan).
    void setGraph(std::shared_ptr<const TraceSet> set, std::shared_ptr<const ExecutionGraph> graph);
    void setBaseKnobs(const SimKnobs& knobs) { base_ = knobs; }
    // Follows the runs the model shows: their graph, and the knobs the shown run ran with.
    void followSimulation(const SimulationModel* model);
    // Starts a plan of `gpus` GPUs (micro-batches per replica to try, or none to keep the global
    // batch; pipeline degrees to try, or none for the traced one); false (and a message) when there
    // is no trace or the numbers make no plan.
    bool run(int gpus, const std::vector<int>& microbatches = {},
             const std::vector<int>& pipelineDegrees = {});
    const LayoutPlanModel* model() const { return &model_; }
    QTableView* table() const { return table_; }
    QLineEdit* gpusEdit() const { return gpus_; }
    QLineEdit* microbatchesEdit() const { return microbatches_; }
    QLineEdit* pipelineDegreesEdit() const { return pipelines_; }

private:
    void startFromFields();
    void planDone(LayoutPlan plan);
    void redraw();

    std::shared_ptr<const TraceSet> set_;
    std::shared_ptr<const ExecutionGraph> graph_;
    SimKnobs base_;
    bool triedMicrobatches_ = false; // the shown plan was given micro-batch counts to try
    LayoutPlanModel model_;
    QLineEdit* gpus_;
    QLineEdit* microbatches_;
    QLineEdit* pipelines_;
    QPushButton* run_;
    QTableView* table_;
};

} // namespace sl::ui
