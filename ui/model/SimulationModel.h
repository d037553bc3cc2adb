#pragma once
// The simulation the window shows (docs/ARCHITECTURE.md, "A knob change"): the trace set and its
// measured timeline, the latest run of that set (SimOutput, with the knobs and generation it ran
// with) and what the views derive from it alike (the collective arrivals, the shift colour scale).
// The views subscribe to changed(); the window only connects them.
#include "SimRunner.h"
#include "analysis/CollectiveArrivals.h"

#include <QObject>

#include <memory>

namespace sl::ui {

class SimulationModel : public QObject {
    Q_OBJECT
public:
    explicit SimulationModel(QObject* parent = nullptr);

    // The set whose runs are shown: any other set's result is dropped. Forgets the run shown.
    void setTraceSet(std::shared_ptr<const TraceSet> set, std::shared_ptr<const TimelineData> measured);
    // A finished run: kept and announced (changed(), then shown()) when it is of the set shown.
    void show(const SimOutput& output);

    const SimOutput& output() const { return output_; }
    bool hasResult() const { return output_.result != nullptr; }
    const std::shared_ptr<const TraceSet>& traceSet() const { return set_; }
    const std::shared_ptr<const TimelineData>& measured() const { return measured_; }
    // The arrivals at the collectives of the run's graph (computed once per graph).
    const CollectiveArrivals& arrivals() const { return arrivals_; }

    // "Colour by shift" (View menu): the simulated pane's shift colour scale follows the run shown
    // (ShiftScale.h); 0 when off or without a run.
    void setShiftColour(bool on);
    TimeNs shiftScale() const;

signals:
    // A new run is shown: the views take it (output() is it).
    void changed(const sl::ui::SimOutput& output);
    // After the views: what follows a shown run (the highlights, the scenario's label).
    void shown(const sl::ui::SimOutput& output);
    void shiftScaleChanged(sl::TimeNs scale);

private:
    std::shared_ptr<const TraceSet> set_;
    std::shared_ptr<const TimelineData> measured_;
    SimOutput output_;
    std::shared_ptr<const ExecutionGraph> arrivalsOf_; // the graph arrivals_ was computed on
    CollectiveArrivals arrivals_;
    bool shiftColour_ = false;
};

} // namespace sl::ui
