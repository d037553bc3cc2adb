#include "SimulationModel.h"

#include "ShiftScale.h"

namespace sl::ui {

SimulationModel::SimulationModel(QObject* parent) : QObject(parent) {}

void SimulationModel::setTraceSet(std::shared_ptr<const TraceSet> set,
                                  std::shared_ptr<const TimelineData> measured) {
    set_ = std::move(set);
    measured_ = std::move(measured);
    output_ = {};
    arrivalsOf_.reset();
    arrivals_ = {};
}

void SimulationModel::show(const SimOutput& output) {
    // A late result of the set shown before (its generation was dropped with it) is not this set's.
    if (!set_ || !output.timeline || &output.timeline->set() != set_.get()) return;
    output_ = output;
    if (output_.graph != arrivalsOf_) {
        arrivalsOf_ = output_.graph;
        arrivals_ = arrivalsOf_ ? collectiveArrivals(*arrivalsOf_) : CollectiveArrivals{};
    }
    emit changed(output_);
    emit shiftScaleChanged(shiftScale());
    emit shown(output_);
}

void SimulationModel::setShiftColour(bool on) {
    shiftColour_ = on;
    emit shiftScaleChanged(shiftScale());
}

TimeNs SimulationModel::shiftScale() const {
    return shiftColour_ && output_.result ? shiftColourScale(*output_.result) : 0;
}

} // namespace sl::ui
