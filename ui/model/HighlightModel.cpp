#include "HighlightModel.h"

#include "SimRunner.h"

namespace sl::ui {

HighlightModel::HighlightModel(SelectionModel* selection, QObject* parent)
    : QObject(parent), selection_(selection) {
    connect(selection_, &SelectionModel::eventChanged, this, &HighlightModel::updateLinks);
}

void HighlightModel::setCriticalPath(bool on) {
    if (on == criticalPath_) return;
    criticalPath_ = on;
    emit criticalPathChanged(on);
    emit changed();
}

void HighlightModel::setExposed(bool on) {
    if (on == exposed_) return;
    exposed_ = on;
    emit exposedChanged(on);
    emit changed();
}

void HighlightModel::setArrows(bool on) {
    if (on == arrows_) return;
    arrows_ = on;
    emit changed();
}

void HighlightModel::setSimulation(const SimOutput& output) {
    graph_ = output.graph;
    measured_ = output.measuredHighlights;
    simulated_ = output.simulatedHighlights;
    updateLinks();
}

void HighlightModel::setTopOverride(std::shared_ptr<const PaneHighlights> highlights) {
    topOverride_ = std::move(highlights);
    emit changed();
}

void HighlightModel::clear() {
    graph_.reset();
    topOverride_.reset();
    measured_.reset();
    simulated_.reset();
    links_ = {};
    emit changed();
}

void HighlightModel::updateLinks() {
    links_ = graph_ ? selectionLinks(*graph_, selection_->event()) : SelectionLinks{};
    emit changed();
}

} // namespace sl::ui
